"""ms.export(..., file_format='ONNX'): each file runs in onnxruntime with cellgrad's outputs."""

import os
import stat

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from jit_models import MLP, Lambda, LeNetBN, SmallCNN, randomize_bn  # noqa: E402

from cellgrad_jit import UnsupportedOpError  # noqa: E402
from cellgrad_jit.onnx_export import CONVERTERS, OPSET  # noqa: E402


def _run(path, *xs):
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    return sess.run(None, {n: x.asnumpy() for n, x in zip(names, xs)})


def _check(net, *xs, tmp_path, tol=1e-5):
    path = str(tmp_path / "model")
    ms.export(net, *xs, file_name=path, file_format="ONNX")
    got = _run(path + ".onnx", *xs)
    want = net(*xs)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = w.asnumpy()
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
    return path + ".onnx"


def _x(*shape, seed=0):
    return ms.Tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32))


@pytest.mark.parametrize("net, shape", [
    (MLP(), (3, 8)), (randomize_bn(LeNetBN()), (2, 1, 32, 32)), (SmallCNN(), (2, 3, 8, 8)),
], ids=["mlp", "lenet_bn", "small_cnn"])
def test_models_match_onnxruntime(net, shape, tmp_path):
    path = _check(net, _x(*shape), tmp_path=tmp_path)
    model = onnx.load(path)
    assert model.opset_import[0].version == OPSET == 17
    assert model.producer_name == "cellgrad"
    inits = {i.name for i in model.graph.initializer}
    assert {name for name, _ in net.parameters_and_names()} <= inits


def test_mlp_784_batch_dynamic_from_a_none_placeholder(tmp_path):
    net = MLP((784, 64, 10))
    path = str(tmp_path / "mlp.onnx")
    ms.export(net, ms.Tensor(shape=[None, 784], dtype=ms.float32), file_name=path,
              file_format="ONNX")
    dim = onnx.load(path).graph.input[0].type.tensor_type.shape.dim
    assert dim[0].dim_param == "batch" and dim[1].dim_value == 784
    for batch in (1, 7):
        x = _x(batch, 784, seed=batch)
        np.testing.assert_allclose(_run(path, x)[0], net(x).asnumpy(), rtol=1e-5, atol=1e-5)


def test_lenet_dynamic_batch_keyword(tmp_path):
    net = randomize_bn(LeNetBN())
    path = str(tmp_path / "lenet")
    ms.export(net, _x(2, 1, 32, 32), file_name=path, file_format="ONNX", dynamic_batch=True)
    for batch in (1, 5):
        x = _x(batch, 1, 32, 32, seed=batch)
        got = _run(path + ".onnx", x)[0]
        assert got.shape == (batch, 10)
        np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-5)


def test_static_export_keeps_the_traced_shape(tmp_path):
    path = str(tmp_path / "mlp.onnx")
    ms.export(MLP(), _x(3, 8), file_name=path, file_format="ONNX")
    dim = onnx.load(path).graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_value for d in dim] == [3, 8]


A, B = (2, 5), (2, 5)
CASES = {  # name -> (function of (self, *inputs), input shapes)
    "unary": (lambda s, a: (ops.abs(a), -a, ops.exp(a), ops.log(ops.abs(a) + 1), ops.sqrt(
        ops.abs(a)), ops.sin(a), ops.cos(a), ops.tanh(a), ops.sigmoid(a), ops.relu(a),
        ops.floor(a), ops.ceil(a), ops.sign(a), ops.rsqrt(ops.abs(a) + 1), ops.square(a),
        ops.reciprocal(a + 10), ops.Erf()(a)), [A]),
    "unary_more": (lambda s, a: (ops.acos(ops.tanh(a)), ops.asin(ops.tanh(a)), ops.atan(a),
                                 ops.sinh(a), ops.cosh(a), ops.exp2(a), ops.expm1(a),
                                 ops.log2(ops.abs(a) + 1), ops.log10(ops.abs(a) + 1),
                                 ops.log1p(ops.abs(a)), ops.round(a * 3), ops.Identity()(a),
                                 ops.isnan(ops.where(a > 0, a, float("nan"))),
                                 ops.isinf(ops.where(a > 0, a, float("inf"))),
                                 ops.logical_not(a > 0), ops.logical_or(a > 0, a < -1),
                                 ops.logical_xor(a > 0, a < 1), ops.bias_add(a, a[0]),
                                 ms.mint.special.erfc(a)), [(5, 5)]),
    "binary": (lambda s, a, b: (a + b, a - b, a * b, a / (ops.abs(b) + 1), ops.maximum(a, b),
                                ops.minimum(a, b), a + 1, 2.0 * a, 1 - a, a / 4,
                                ops.pow(ops.abs(a), 1.5), a ** 2), [A, B]),
    "compare": (lambda s, a, b: (a > b, a < b, a >= b, a <= b, a == b, a != b,
                                 ops.logical_and(a > 0, b > 0)), [A, B]),
    "activations": (lambda s, a: (ops.gelu(a), ops.gelu(a, approximate="tanh"),
                                  nn.LeakyReLU(0.1)(a), nn.ReLU6()(a * 4), nn.ELU()(a),
                                  nn.SiLU()(a), nn.HSwish()(a * 3), nn.HSigmoid()(a * 3),
                                  ops.softplus(a), ops.softmax(a, 0), nn.LogSoftmax()(a)), [A]),
    "reductions": (lambda s, a: (a.sum(), a.mean(axis=1, keep_dims=True), ops.sum(a, 0),
                                 ops.amax(a, 1), ops.amin(a, (0, 1)), a.prod(1)), [A]),
    "shapes": (lambda s, a: (ops.transpose(a, (0, 2, 3, 1)), a.swapaxes(1, 2),
                             ops.concat((a, a), 1), ops.stack((a, a), 1), a.view(2, 3, 16),
                             ops.squeeze(a[:, :1]), ops.expand_dims(a, 0), ops.flatten(a),
                             ops.split(a, 1, 1)[2], a[:, 1:3, ::2], a[0, ..., -1],
                             a[None, 1], a[:, ::-1], ops.broadcast_to(a[:, :1], (2, 3, 4, 4)),
                             ops.tile(a, (1, 2, 1, 1)), a.astype(ms.float16),
                             ops.clamp(a, -0.5, 0.5), ops.where(a > 0, a, 0.0)), [(2, 3, 4, 4)]),
    "matmul": (lambda s, a, b: (ops.matmul(a, b), ops.bmm(a, b), ops.matmul(a[0], b[0])),
               [(2, 3, 4), (2, 4, 5)]),
    "select": (lambda s, a: (ops.cumsum(a, 1), ops.flip(a, (0, 2)), ops.argmax(a, 1),
                             a.argmin(), ops.masked_fill(a, a > 0, 0.5), *ops.topk(a, 2),
                             ops.gather(a, ms.Tensor(np.array([3, 0, 3], np.int32)), 2),
                             ops.pad(a, (1, 2), mode="reflect"), nn.ZeroPad2d(1)(a)),
               [(2, 3, 4)]),
    "conv_pool": (lambda s, a: tuple(c(a) for c in s.parts), [(2, 3, 9, 9)]),
    "norms": (lambda s, a: tuple(c(a) for c in s.parts), [(4, 6)]),
}
_CELLS = {
    "conv_pool": lambda: [
        nn.Conv2d(3, 4, 3, pad_mode="pad", padding=1, has_bias=True),
        nn.Conv2d(3, 3, 3, group=3, stride=2),
        nn.Conv2d(3, 2, 3, dilation=2, pad_mode="valid"),
        nn.MaxPool2d(3, 1, pad_mode="same"), nn.AvgPool2d(3, 3),
        nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False),
        nn.AvgPool2d(3, 2, pad_mode="pad", padding=1),
        nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d(3), nn.AdaptiveMaxPool2d(1)],
    "norms": lambda: [nn.LayerNorm((6,)), randomize_bn(nn.BatchNorm1d(6)),
                      nn.Dense(6, 3, activation="relu")],
}


@pytest.mark.parametrize("case", list(CASES))
def test_ops_match_onnxruntime(case, tmp_path):
    fn, shapes = CASES[case]
    net = Lambda(fn, *(_CELLS[case]() if case in _CELLS else ()))
    xs = [_x(*shape, seed=i) for i, shape in enumerate(shapes)]
    _check(net, *xs, tmp_path=tmp_path)


def test_every_converter_is_checked_against_onnxruntime():
    """Each op of the converter table runs in a test of this file."""
    from cellgrad_jit import capture

    seen = set()
    for case, (fn, shapes) in CASES.items():
        net = Lambda(fn, *(_CELLS[case]() if case in _CELLS else ()))
        seen |= {n.op for n in capture(net, *[_x(*s) for s in shapes]).nodes}
    elsewhere = {  # ops of the tests below
        "embedding", "lstm_layer", "gru_layer", "rnn_relu_layer", "rnn_tanh_layer",
        "scaled_dot_product_attention", "packed_self_attention"}
    assert set(CONVERTERS) - seen <= elsewhere, sorted(set(CONVERTERS) - seen - elsewhere)


class SelfAttention(nn.Cell):
    def __init__(self, batch_first, masked):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2, batch_first=batch_first)
        self.mask = ms.Tensor(np.triu(np.full((5, 5), -1e4, np.float32), 1)) if masked else None

    def construct(self, x):
        out, weights = self.attn(x, x, x, attn_mask=self.mask, average_attn_weights=False)
        return out, weights


@pytest.mark.parametrize("batch_first", [True, False], ids=["batch_first", "seq_first"])
@pytest.mark.parametrize("masked", [False, True], ids=["no_mask", "causal_mask"])
def test_packed_self_attention_with_weights(batch_first, masked, tmp_path):
    net = SelfAttention(batch_first, masked)
    net.set_train(False)
    x = _x(*((3, 5, 8) if batch_first else (5, 3, 8)), seed=2)
    from cellgrad_jit import capture

    assert "packed_self_attention" in {n.op for n in capture(net, x).nodes}
    _check(net, x, tmp_path=tmp_path)


def test_file_name_gets_the_suffix_and_is_read_only_then_overwritable(tmp_path):
    base = str(tmp_path / "net")
    ms.export(MLP(), _x(3, 8), file_name=base, file_format="ONNX")
    assert os.path.exists(base + ".onnx")
    assert stat.S_IMODE(os.stat(base + ".onnx").st_mode) == stat.S_IRUSR
    ms.export(MLP(), _x(3, 8), file_name=base + ".onnx", file_format="ONNX")
    assert sorted(os.listdir(tmp_path)) == ["net.onnx"]


class Head(nn.Cell):
    def construct(self, x):
        return ops.cummin(x, 1)[0]


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def construct(self, x):
        return self.head(ops.relu(x))


def test_an_op_onnx_lacks_names_the_op_and_its_cell(tmp_path):
    path = str(tmp_path / "bad")
    # cummin takes the values at the indices of this run's minima: not a graph ONNX can hold
    with pytest.raises(UnsupportedOpError, match=r"op 'take_along_axis' \(in Default/head-Head\) "
                                                 r"has no ONNX form") as info:
        ms.export(Outer(), _x(2, 3), file_name=path, file_format="ONNX")
    assert info.value.op == "take_along_axis" and info.value.scope == "Default/head-Head"
    assert isinstance(info.value, NotImplementedError)
    assert not os.path.exists(path + ".onnx")


def test_data_dependent_ops_are_refused_not_baked_in(tmp_path):
    net = Lambda(lambda s, a: a.max(axis=1))  # the indices of this run's maxima
    with pytest.raises(UnsupportedOpError, match="op 'take_along_axis'"):
        ms.export(net, _x(2, 5), file_name=str(tmp_path / "m"), file_format="ONNX")



def test_index_inputs_stay_inputs(tmp_path):
    emb = nn.Embedding(10, 3)
    ids = ms.Tensor(np.array([[1, 2], [7, 7]], np.int32))
    path = _check(emb, ids, tmp_path=tmp_path)
    other = ms.Tensor(np.array([[0, 9], [4, 5]], np.int32))
    np.testing.assert_allclose(_run(path, other)[0], emb(other).asnumpy(), rtol=1e-6)
    net = Lambda(lambda s, a, i: ops.gather(a, i, 1))
    a, i = _x(2, 5), ms.Tensor(np.array([4, 0], np.int32))
    path = _check(net, a, i, tmp_path=tmp_path)
    j = ms.Tensor(np.array([1, 3], np.int32))
    np.testing.assert_allclose(_run(path, a, j)[0], net(a, j).asnumpy(), rtol=1e-6)


def test_dynamic_batch_that_cannot_be_kept_is_refused(tmp_path):
    net = Lambda(lambda s, a: a.reshape(4, 2))  # the batch folded into a fixed shape
    with pytest.raises(ValueError, match=r"'Lambda' fails at batch size 3 \(ValueError: .*"
                                         r"cannot be exported with a dynamic batch"):
        ms.export(net, ms.Tensor(shape=[None, 4], dtype=ms.float32),
                  file_name=str(tmp_path / "r"), file_format="ONNX")
    net = Lambda(lambda s, a: a * ops.arange(a.shape[0], dtype=ms.float32).reshape(-1, 1))
    with pytest.raises(ValueError, match=r"the constant %const0 that op 'reshape' \(in "
                                         r"Default\) reads has shape \[2\] at batch 2 and "
                                         r"\[3\] at batch 3: it is made from the batch size"):
        ms.export(net, ms.Tensor(shape=[None, 4], dtype=ms.float32),
                  file_name=str(tmp_path / "r"), file_format="ONNX")
    net = Lambda(lambda s, a: a[:, :1] if a.shape[0] < 3 else a)  # a branch on the batch size
    with pytest.raises(ValueError, match="runs different ops at batch sizes 2 and 3"):
        ms.export(net, ms.Tensor(shape=[None, 4], dtype=ms.float32),
                  file_name=str(tmp_path / "r"), file_format="ONNX")


def test_batch_sized_constants_and_slices_follow_the_batch(tmp_path):
    net = Lambda(lambda s, a: s.parts[0](a + ops.zeros((a.shape[0], 1), ms.float32))[1:, ::-1],
                 nn.Dense(4, 3))
    path = str(tmp_path / "z.onnx")
    ms.export(net, ms.Tensor(shape=[None, 4], dtype=ms.float32), file_name=path,
              file_format="ONNX")
    for batch in (2, 6):
        x = _x(batch, 4, seed=batch)
        got = _run(path, x)[0]
        assert got.shape == (batch - 1, 3)
        np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.LSTM(4, 6, num_layers=2, batch_first=True), (None, 5, 4)),
    (lambda: nn.LSTM(4, 6, bidirectional=True), (5, None, 4)),
    (lambda: nn.GRU(4, 6, bidirectional=True, batch_first=True, has_bias=False), (None, 5, 4)),
    (lambda: nn.RNN(4, 6, nonlinearity="relu", num_layers=2, batch_first=True), (None, 5, 4)),
    (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), (None, 5, 8)),
], ids=["lstm2", "bilstm_seq_first", "bigru", "rnn_relu", "transformer_encoder"])
def test_recurrent_and_transformer_layers_with_a_dynamic_batch(make, shape, tmp_path):
    net = make()
    axis = shape.index(None)
    trace = [2 if d is None else d for d in shape]
    path = str(tmp_path / "r.onnx")
    ms.export(net, _x(*trace), file_name=path, file_format="ONNX", dynamic_batch=axis == 0)
    if axis:  # a sequence-first layer: the batch is dimension 1, the export keeps it fixed
        x = _x(*trace, seed=3)
    else:
        x = _x(*[4 if d is None else d for d in shape], seed=3)
    got = _run(path, x)
    want = net(x)
    want = [want] if not isinstance(want, tuple) else \
        [t for w in want for t in (w if isinstance(w, tuple) else (w,))]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.asnumpy(), rtol=1e-5, atol=1e-5)


def test_bad_arguments():
    net, x = MLP(), _x(3, 8)
    with pytest.raises(ValueError, match=r"For 'export', 'file_format' must be one of "
                                         r"\['AIR', 'ONNX', 'MINDIR'\], but got onnx."):
        ms.export(net, x, file_name="m", file_format="onnx")
    with pytest.raises(ValueError, match="Only support export file in 'AIR' format with "
                                         "Ascend backend. cellgrad runs on the CPU"):
        ms.export(net, x, file_name="m", file_format="AIR")
    with pytest.raises(TypeError, match="'file_name' must be a str, but got int"):
        ms.export(net, x, file_name=3, file_format="ONNX")
    with pytest.raises(NotImplementedError, match="'enc_key' .* not supported"):
        ms.export(net, x, file_name="m", file_format="ONNX", enc_key=b"0" * 16)
    with pytest.raises(TypeError, match="'dynamic_batch' must be a bool, but got int"):
        ms.export(net, x, file_name="m", file_format="ONNX", dynamic_batch=1)
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: "
                                        "'file_format'"):
        ms.export(net, x, file_name="m")


def test_train_namespace_is_the_same_function():
    assert ms.train.export is ms.export and ms.train.serialization.export is ms.export
