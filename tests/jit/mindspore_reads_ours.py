"""Check by hand that MindSpore 2.10 runs the MINDIR files cellgrad writes (not collected by
pytest).

    .venv/bin/python tests/jit/mindspore_reads_ours.py /path/to/mindspore-venv/bin/python

Exports each model of `cases()` with cellgrad (`ms.export(..., file_format='MINDIR')`), has
MindSpore `ms.load` + `nn.GraphCell` run each file in a subprocess, compares with cellgrad's
output, and records in fixtures/mindspore_reads_ours.json the SHA-256 of each file and
MindSpore's output. test_mindir.py re-exports the same models and checks the files are
byte-identical to the ones MindSpore ran and that cellgrad's outputs equal MindSpore's.
Prints one line per model; exits 1 on any difference.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "fixtures", "mindspore_reads_ours.json")

_RUN = """
import json, sys
import numpy as np
import mindspore as ms
from mindspore import nn
out = {}
for name in json.loads(sys.argv[2]):
    path = sys.argv[1] + "/" + name
    try:
        x = ms.Tensor(np.load(path + ".npy"))
        y = nn.GraphCell(ms.load(path + ".mindir"))(x)
        out[name] = y.asnumpy().astype("float64").tolist()
    except Exception as e:
        out[name] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
print(json.dumps(out))
"""


def cases():
    """name -> (network with deterministic weights, input array, what export traces: None
    for the input itself, else a shape with None for a dynamic batch)."""
    import numpy as np

    import cellgrad as ms

    sys.path.insert(0, HERE)
    from jit_models import MLP, Lambda, LeNetBN, SmallCNN, nn, ops

    def seeded(net, seed):
        rng = np.random.RandomState(seed)
        for name, p in net.parameters_and_names():
            if "moving_variance" in name:
                value = rng.uniform(0.5, 1.5, p.shape)
            else:
                value = rng.normal(0, 0.3, p.shape)
            p.set_data(ms.Tensor(value.astype(np.float32)))
        return net

    def x(seed, *shape):
        return np.random.RandomState(seed).randn(*shape).astype(np.float32)

    mixed = Lambda(lambda self, a: ops.log_softmax(
        ops.gelu(ops.transpose(a, (1, 0)) * 0.5 - 1.0, approximate="tanh").mean(axis=1,
                                                                                keep_dims=True)
        + ops.sigmoid(ops.transpose(a, (1, 0))), axis=0))
    out = {
        "mlp": (seeded(MLP(), 1), x(11, 3, 8), None),
        "lenet_bn": (seeded(LeNetBN(), 2), x(12, 2, 1, 32, 32), None),
        "small_cnn": (seeded(SmallCNN(), 3), x(13, 2, 3, 8, 8), None),
        "mixed_ops": (mixed, x(14, 4, 6), None),
        "mlp_dynamic": (seeded(MLP(), 4), x(15, 5, 8), [None, 8]),
        "lenet_dynamic": (seeded(LeNetBN(), 5), x(16, 3, 1, 32, 32), [None, 1, 32, 32]),
        "transformer": (seeded(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0,
                                                          batch_first=True), 6),
                        x(17, 2, 5, 8), None),
        "index_ops": (Lambda(lambda s, a: ops.expand_dims(a[1:, ::2], 0) * 2
                             + ops.squeeze(a[:2, None, 3:], 1)[..., ::-1]), x(18, 3, 6), None),
        "more_ops": (Lambda(lambda s, a: ops.stack(ops.split(
            ops.silu(nn.LeakyReLU(0.2)(ops.tile(a, (1, 2)))) ** 2.0, 3, 1), 0).astype(
            ms.float16).astype(ms.float32) + ops.hardsigmoid(a).sum()), x(19, 2, 3), None),
        "elementwise": (Lambda(lambda s, a: ops.tanh(a) + ops.exp(a) + ops.log(ops.abs(a) + 1)
                               + ops.sqrt(ops.abs(a)) + ops.rsqrt(ops.abs(a) + 1) - a
                               + ops.square(a) + ops.relu6(a * 4) + ops.hardswish(a * 3)
                               + ops.sin(a) + ops.cos(a) + ops.floor(a) + ops.maximum(a, 0.3)
                               + ops.minimum(a, a * 2) + ops.amax(a, 1, keepdims=True)
                               + a.sum() + a.sum(axis=1, keepdims=True)
                               + ops.neg(a) / (ops.abs(a) + 1)), x(20, 2, 3), None),
        "batched_matmul": (Lambda(lambda s, a: ops.matmul(a, a.swapaxes(1, 2))),
                           x(24, 2, 3, 4), None),
        "matmul_concat": (Lambda(lambda s, a: ops.concat((ops.bias_add(ops.matmul(a, s.w), s.b),
                                                          ops.gelu(a)), 1)), x(21, 2, 3), None),
        "cross_attention": (seeded(Lambda(lambda s, a: s.parts[0](a, a * 0.5, a * 0.5)[0],
                                          nn.MultiheadAttention(8, 2)), 7),
                            x(25, 5, 2, 8), None),
        "causal_self_attention": (seeded(Lambda(
            lambda s, a: s.parts[0](a, a, a, attn_mask=s.mask)[0],
            nn.MultiheadAttention(8, 2)), 8), x(26, 5, 2, 8), None),
    }
    out["causal_self_attention"][0].mask = ms.Tensor(
        np.triu(np.full((5, 5), -1e4, np.float32), 1))
    net = out["matmul_concat"][0]
    net.w = ms.Tensor(x(22, 3, 4))
    net.b = ms.Tensor(x(23, 4))
    return out


def write_files(directory):
    """Export every case; returns {name: (sha256 of the file, cellgrad's output)}."""
    import numpy as np

    import cellgrad as ms

    out = {}
    for name, (net, x, traced) in cases().items():
        path = os.path.join(directory, name)
        traced = ms.Tensor(x) if traced is None else ms.Tensor(shape=traced, dtype=ms.float32)
        ms.export(net, traced, file_name=path, file_format="MINDIR")
        np.save(path + ".npy", x)
        with open(path + ".mindir", "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        out[name] = (digest, net(ms.Tensor(x)).asnumpy().astype(np.float64))
    return out


def main():
    import numpy as np

    ms_python = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        ours = write_files(directory)
        theirs = {}
        for name in ours:  # one process per file: a crash of MindSpore's loader names it
            result = subprocess.run([ms_python, "-c", _RUN, directory, json.dumps([name])],
                                    capture_output=True, text=True,
                                    env={**os.environ, "GLOG_v": "3"})
            if result.returncode:
                theirs[name] = f"MindSpore exited with code {result.returncode} " \
                               f"{result.stderr.strip()[-300:]}"
                continue
            theirs.update(json.loads(result.stdout.strip().splitlines()[-1]))
    failed, record = False, {}
    for name, (digest, y) in ours.items():
        got = theirs[name]
        if isinstance(got, str):
            failed = True
            print(f"{name:<14} MindSpore cannot run it: {got}")
            continue
        diff = float(np.abs(np.asarray(got) - y).max())
        same = bool(np.allclose(got, y, rtol=1e-5, atol=1e-5))
        failed |= not same
        record[name] = {"sha256": digest, "mindspore_output": got}
        print(f"{name:<14} MindSpore runs it: {'same outputs' if same else 'DIFFERENT'} "
              f"(max difference {diff:.2e}, output shape {list(np.shape(got))})")
    if not failed:
        with open(RECORD, "w") as f:
            json.dump(record, f, indent=1)
            f.write("\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
