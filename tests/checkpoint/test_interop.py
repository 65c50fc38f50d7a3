"""MindSpore's files in cellgrad networks, and cellgrad's files read by the spec's rules alone.

The ops-nn networks (`nn.Dense`, `nn.BatchNorm2d`, optimizers) are used only when
cellgrad-ops-nn is installed; the spec decoder and the core-only training need nothing else.
"""

import json

import numpy as np
import pytest
from ckpt_helpers import FIXTURES, NETS, Bare, sidecar

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn

# ---- an independent reader, written from checkpoint-format.md alone ----

_TYPES = {"Float32": "<f4", "Float16": "<f2", "Float64": "<f8", "Int8": "i1", "Int16": "<i2",
          "Int32": "<i4", "Int64": "<i8", "UInt8": "u1", "Bool": "?", "BFloat16": "<u2"}


def _varint(buf, pos):
    shift = value = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def _fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        if key & 7 == 0:
            value, pos = _varint(buf, pos)
        else:
            assert key & 7 == 2
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        yield key >> 3, value


def spec_decode(data):
    """name -> numpy array per §1-§9: drop a CRC trailer, parse Checkpoint.value records,
    skip unknown fields (cellgrad's header and footer among them), merge adjacent chunks."""
    if data[-17:-10] == b"crc_num":
        data = data[:-17]
    out, last = {}, None
    for field, value in _fields(data):
        if field != 1:
            continue
        tag, dims, kind, content = None, [], None, b""
        for f, v in _fields(value):
            if f == 1:
                tag = v.decode()
            elif f == 2:
                for tf, tv in _fields(v):
                    if tf == 1:
                        dims.append(tv)
                    elif tf == 2:
                        kind = tv.decode()
                    elif tf == 3:
                        content = tv
        if tag == last:
            content = out[tag][2] + content
        out[tag] = (kind, dims, content)
        last = tag
    result = {}
    for tag, (kind, dims, content) in out.items():
        arr = np.frombuffer(content, _TYPES[kind]).reshape(dims)
        if kind == "BFloat16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        result[tag] = arr
    return result


def _train_linear(steps=25):
    """Fit y = 2x - 1 with a core-only Cell, ms.value_and_grad and hand-written SGD."""
    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(32, 3)).astype(np.float32))
    y = Tensor((x.asnumpy() @ np.array([[2.0], [-1.0], [0.5]], np.float32)) - 1.0)

    class Linear(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = Parameter(Tensor(np.zeros((3, 1), np.float32)), name="weight")
            self.bias = Parameter(Tensor(np.zeros(1, np.float32)), name="bias")
            self.step = Parameter(Tensor(np.array(0, np.int64)), name="step",
                                  requires_grad=False)

        def construct(self, x):
            return ms.ops.matmul(x, self.weight) + self.bias

    net = Linear()
    params = [net.weight, net.bias]
    loss_fn = lambda x, y: ((net(x) - y) ** 2).mean()
    step = ms.value_and_grad(loss_fn, None, params)
    for i in range(steps):
        _, grads = step(x, y)
        for p, g in zip(params, grads):
            p.set_data(p - 0.1 * g)
        net.step.set_data(Tensor(np.array(i + 1, np.int64)))
    return net


@pytest.mark.parametrize("options", [{}, {"crc_check": True}, {"integrity": False}])
def test_a_network_trained_with_cellgrad_reads_back_by_the_spec(tmp_path, options):
    net = _train_linear()
    path = tmp_path / "linear.ckpt"
    ms.save_checkpoint(net, str(path), append_dict={"lr": 0.1}, **options)
    decoded = spec_decode(path.read_bytes())
    assert list(decoded) == ["weight", "bias", "step", "lr"]
    for p in (net.weight, net.bias, net.step):
        assert decoded[p.name].dtype == p.asnumpy().dtype
        np.testing.assert_array_equal(decoded[p.name], p.asnumpy())
    assert decoded["step"].shape == () and int(decoded["step"]) == 25
    assert decoded["lr"].tolist() == float(np.float32(0.1))
    assert abs(decoded["weight"].ravel()[0] - 2.0) < 0.2  # it did train


def test_the_spec_decoder_agrees_with_every_fixture():
    for name in ("dense", "sequential", "dtypes", "dense_crc", "dense_append"):
        decoded = spec_decode((FIXTURES / f"{name}.ckpt").read_bytes())
        for entry in sidecar(f"{name}.ckpt")["expected_entries_in_file_order"]:
            arr = decoded[entry["name"]]
            assert list(arr.shape) == entry["shape"]
            assert arr.astype(np.float64 if arr.dtype.kind == "f" else arr.dtype).tolist() == \
                entry["values"]


def test_mindspore_names_load_into_core_cells():
    net = Bare()
    assert ms.load_param_into_net(net, ms.load_checkpoint(str(FIXTURES / "dense.ckpt"))) == \
        ([], [])
    seq = nn.SequentialCell([Bare(), Bare()])
    params = ms.load_checkpoint(str(FIXTURES / "dense.ckpt"))
    renamed = {f"{i}.{k}": Parameter(Tensor(v.asnumpy()), name=f"{i}.{k}")
               for i in range(2) for k, v in params.items()}
    assert ms.load_param_into_net(seq, renamed) == ([], [])


# ---- with cellgrad-ops-nn ----


def _ops_nn():
    pytest.importorskip("cellgrad_nn")
    if not hasattr(nn, "Dense"):  # installed but disabled (CELLGRAD_DISABLED_PLUGINS)
        pytest.skip("cellgrad-ops-nn is disabled")


class ConvBNNet(nn.Cell):
    """The network of fixtures/mindspore-nets/make.py, in cellgrad."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def test_dense_and_sequential_fixtures_load_into_ops_nn_layers():
    _ops_nn()
    dense = nn.Dense(3, 2)
    assert ms.load_param_into_net(dense, ms.load_checkpoint(str(FIXTURES / "dense.ckpt"))) == \
        ([], [])
    out = dense(Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))).asnumpy()
    np.testing.assert_allclose(out, [[0.5 - 2.5 + 6.0 + 0.25, 0.1 + 0.4 - 0.9 - 0.75]],
                               rtol=1e-6)
    seq = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    params = ms.load_checkpoint(str(FIXTURES / "sequential.ckpt"))
    assert ms.load_param_into_net(seq, params) == ([], [])
    assert [p.name for p in seq.get_parameters()] == list(params)


def test_mindspore_batchnorm_network_loads_and_computes_the_same():
    _ops_nn()
    side = json.loads((NETS / "net.ckpt.json").read_text())
    net = ConvBNNet()
    params = ms.load_checkpoint(str(NETS / "net.ckpt"))
    assert list(params) == side["net_names"]
    assert "bn.moving_mean" in params and "bn.moving_variance" in params
    assert ms.load_param_into_net(net, params) == ([], [])
    net.set_train(False)
    out = net(Tensor(np.array(side["input"], np.float32))).asnumpy()
    np.testing.assert_allclose(out, side["eval_output"], rtol=1e-5, atol=1e-6)


def _train_cell(net):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)


def test_mindspore_train_network_with_optimizer_state_loads_by_name(tmp_path):
    _ops_nn()
    side = json.loads((NETS / "net.ckpt.json").read_text())
    train = _train_cell(ConvBNNet())
    params = ms.load_checkpoint(str(NETS / "train.ckpt"))
    assert ms.load_param_into_net(train, params) == ([], [])
    assert int(train.optimizer.global_step.asnumpy().reshape(-1)[0]) == 1
    # cellgrad writes the same names, in the same order, with the same dtypes and shapes
    ms.save_checkpoint(train, str(tmp_path / "train.ckpt"))
    ours = ms.load_checkpoint(str(tmp_path / "train.ckpt"))
    assert [(k, str(v.dtype), list(v.shape)) for k, v in ours.items()] == \
        [(e["name"], e["dtype"], e["shape"]) for e in side["train_entries_in_file_order"]]


def test_model_checkpoint_saves_through_this_package_and_resumes(tmp_path):
    _ops_nn()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 1, 4, 4)).astype(np.float32)
    y = rng.integers(0, 3, size=16).astype(np.int32)
    data = ms.dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8)
    net = ConvBNNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    config = ms.train.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2,
                                       append_info=["epoch_num"])
    callback = ms.train.ModelCheckpoint(prefix="cnn", directory=str(tmp_path), config=config)
    model.train(3, data, callbacks=[callback])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cnn-2_2.ckpt", "cnn-3_2.ckpt"]
    params = ms.load_checkpoint(callback.latest_ckpt_file_name)
    assert int(params.pop("epoch_num").asnumpy()) == 3
    fresh = _train_cell(ConvBNNet())
    assert ms.load_param_into_net(fresh, params) == ([], [])
    for a, b in zip(net.get_parameters(), fresh.network.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    decoded = spec_decode(open(callback.latest_ckpt_file_name, "rb").read())
    np.testing.assert_array_equal(decoded["bn.moving_mean"], net.bn.moving_mean.asnumpy())

