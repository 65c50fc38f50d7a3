"""nn.RNN / nn.LSTM / nn.GRU and the cells: each layer op gradchecked in float64, the layers
and cells against PyTorch (same weights), padded batches, dropout, dtypes and bad input."""

import os
import subprocess
import sys

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.plugins import apply
from cellgrad.testing import gradcheck
from cellgrad_nn._kernels import rnn_cell
from cellgrad_nn.rnn.recurrent import GRU, LSTM, RNN_RELU, RNN_TANH


@pytest.fixture(autouse=True)
def _logger_made_here_is_dropped(monkeypatch):
    """LSTMCell and one-layer dropout log MindSpore's warnings; cellgrad.log's handler keeps the
    stderr of the test that logs first, so a logger made here is dropped after each test."""
    from cellgrad import log

    monkeypatch.setattr(log, "_logger", log._logger)


GRADCHECKED = {"lstm_layer", "gru_layer", "rnn_tanh_layer", "rnn_relu_layer"}
GATES = {LSTM: 4, GRU: 3, RNN_TANH: 1, RNN_RELU: 1}
T, B, IN, H = 4, 3, 3, 2


def _layer_args(op, bias, seed=0):
    rng = np.random.default_rng(seed)
    g = GATES[op] * H
    shapes = [(T, B, IN), (B, H)] + ([(B, H)] if op is LSTM else []) + [(g, IN), (g, H)]
    shapes += [(g,), (g,)] if bias else []
    # relu's kink: keep its pre-activations away from zero with a positive bias
    return [Tensor(rng.uniform(-1, 1, s) + (0.3 if op is RNN_RELU and len(s) == 1 else 0))
            for s in shapes]


def _run(op, lengths, reverse, bias):
    def f(*args):
        n = len(args) - (2 if bias else 0)
        full = list(args[:n]) + (list(args[n:]) if bias else [None, None])
        return apply(op, tuple(full), {"lengths": lengths, "reverse": reverse})

    f.__name__ = f"{op.name}{'_reverse' if reverse else ''}{'_seq' if lengths is not None else ''}"
    return f


@pytest.mark.parametrize("op", [LSTM, GRU, RNN_TANH, RNN_RELU], ids=lambda o: o.name)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("lengths", [None, np.array([4, 1, 3])], ids=["full", "seq"])
def test_layer_op_gradcheck(op, reverse, lengths):
    args = _layer_args(op, True)
    assert gradcheck(_run(op, lengths, reverse, True), *args)


@pytest.mark.parametrize("op", [LSTM, GRU, RNN_TANH], ids=lambda o: o.name)
def test_layer_op_gradcheck_without_bias(op):
    assert gradcheck(_run(op, None, True, False), *_layer_args(op, False, seed=3))


@pytest.mark.parametrize("op", [LSTM, GRU], ids=lambda o: o.name)
def test_float32_kernels_agree_with_float64(op):
    args = _layer_args(op, True, seed=5)
    f = _run(op, np.array([2, 4, 3]), True, True)
    out64 = f(*args)
    out32 = f(*[Tensor(a.asnumpy().astype(np.float32)) for a in args])
    for a, b in zip(out32, out64):
        assert a.dtype == ms.float32
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), atol=2e-6)


def test_padded_steps_output_zero_and_states_stop_at_the_length():
    net = nn.GRU(3, 4, bidirectional=True, batch_first=True)
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    out, h = net(Tensor(x), seq_length=Tensor(np.array([5, 2], np.int32)))
    out = out.asnumpy()
    assert np.all(out[1, 2:] == 0) and np.all(out[0] != 0)
    short, _ = net(Tensor(x[1:, :2]))  # the short sequence alone, unpadded
    np.testing.assert_allclose(out[1, :2], short.asnumpy()[0], atol=1e-6)
    np.testing.assert_allclose(h.asnumpy()[:, 1], _.asnumpy()[:, 0], atol=1e-6)


def test_parameter_names_shapes_and_initialisation():
    net = nn.LSTM(3, 16, 2, bidirectional=True)
    names = [n for n, _ in net.parameters_and_names()]
    sfx = ["l0", "l0_reverse", "l1", "l1_reverse"]
    assert names == [f"{k}_{s}" for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
                     for s in sfx]
    shapes = {n: tuple(p.shape) for n, p in net.parameters_and_names()}
    assert shapes["weight_ih_l0"] == (64, 3) and shapes["weight_ih_l1_reverse"] == (64, 32)
    assert shapes["weight_hh_l1"] == (64, 16) and shapes["bias_hh_l0_reverse"] == (64,)
    for _, p in net.parameters_and_names():
        a = p.asnumpy()
        assert p.dtype == ms.float32 and np.abs(a).max() <= 0.25 and a.std() > 0.1
    np.random.seed(3)
    a = nn.GRU(3, 4, has_bias=False)
    np.random.seed(3)
    b = nn.GRU(3, 4, has_bias=False)
    assert [n for n, _ in a.parameters_and_names()] == ["weight_ih_l0", "weight_hh_l0"]
    np.testing.assert_array_equal(a.w_ih_list[0].asnumpy(), b.w_ih_list[0].asnumpy())
    cell = nn.GRUCell(3, 4, dtype=ms.float16)
    assert [n for n, _ in cell.parameters_and_names()] == [
        "weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert cell.weight_ih.shape == (12, 3) and cell.weight_ih.dtype == ms.float16
    assert np.abs(cell.weight_hh.asnumpy()).max() <= 0.5


def test_module_paths():
    from cellgrad.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCell
    from cellgrad.nn.layer.rnns import GRU as GRU_
    from cellgrad.nn.layer.rnns import LSTM as LSTM_
    from cellgrad.nn.layer.rnns import RNN

    assert (LSTM_, GRU_, RNN) == (nn.LSTM, nn.GRU, nn.RNN)
    assert (LSTMCell, GRUCell, RNNCell) == (nn.LSTMCell, nn.GRUCell, nn.RNNCell)


def test_dropout_between_layers_only_in_training():
    x = Tensor(np.random.default_rng(1).standard_normal((5, 2, 3)).astype(np.float32))
    net = nn.LSTM(3, 8, 2, dropout=0.5)
    plain = nn.LSTM(3, 8, 2)
    for p, q in zip(net.get_parameters(), plain.get_parameters()):
        q.set_data(Tensor(p.asnumpy()))
    eval_out = net(x)[0].asnumpy()
    np.testing.assert_array_equal(eval_out, plain(x)[0].asnumpy())
    net.set_train(True)
    ms.set_seed(0)
    train_out = net(x)[0].asnumpy()
    assert not np.allclose(train_out, eval_out)
    one = nn.GRU(3, 4, 1, dropout=0.5)
    one.set_train(True)
    np.testing.assert_array_equal(one(x)[0].asnumpy(), one(x)[0].asnumpy())


def test_float16_and_float64_inputs():
    x = np.random.default_rng(2).standard_normal((4, 2, 3))
    net = nn.LSTM(3, 4)
    out16, (h16, c16) = net(Tensor(x.astype(np.float16)))
    out32, _ = net(Tensor(x.astype(np.float32)))
    assert out16.dtype == h16.dtype == c16.dtype == ms.float16
    np.testing.assert_allclose(out16.asnumpy(), out32.asnumpy(), atol=5e-3)
    out64, h64 = nn.GRU(3, 4)(Tensor(x))
    assert out64.dtype == h64.dtype == ms.float64


def test_whole_layer_gradcheck_float64():
    net = nn.GRU(2, 3, 2, bidirectional=True, batch_first=True, dtype=ms.float64)
    x = Tensor(np.random.default_rng(3).uniform(-1, 1, (2, 3, 2)))
    h = Tensor(np.random.default_rng(4).uniform(-1, 1, (4, 2, 3)))
    assert gradcheck(lambda x, h: net(x, h), x, h)


# ---- PyTorch: same weights, same outputs and gradients ----


def _torch_pair(torch, kind, **kw):
    ours = {"LSTM": nn.LSTM, "GRU": nn.GRU, "RNN": nn.RNN}[kind](**kw)
    tkw = dict(kw)
    tkw["bias"] = tkw.pop("has_bias", True)
    theirs = getattr(torch.nn, kind)(**tkw).double()
    with torch.no_grad():
        for name, p in ours.parameters_and_names():
            getattr(theirs, name).copy_(torch.tensor(p.asnumpy()))
    return ours, theirs


CONFIGS = [
    ("LSTM", dict(num_layers=2, bidirectional=True, batch_first=True)),
    ("LSTM", dict(has_bias=False)),
    ("GRU", dict(num_layers=2, bidirectional=True)),
    ("GRU", dict(batch_first=True)),
    ("RNN", dict(num_layers=2, nonlinearity="relu", bidirectional=True)),
    ("RNN", dict(num_layers=2, batch_first=True)),
]


@pytest.mark.parametrize("kind,kw", CONFIGS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CONFIGS)])
@pytest.mark.parametrize("with_states", [False, True])
def test_layers_match_pytorch(kind, kw, with_states):
    torch = pytest.importorskip("torch")
    ours, theirs = _torch_pair(torch, kind, input_size=3, hidden_size=4, **kw)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (2, 5, 3))
    nd = (2 if kw.get("bidirectional") else 1) * kw.get("num_layers", 1)
    states = [rng.uniform(-1, 1, (nd, 5 if not kw.get("batch_first") else 2, 4))
              for _ in range(2 if kind == "LSTM" else 1)]
    xs = Tensor(x.astype(np.float32))
    ts = [Tensor(s.astype(np.float32)) for s in states]
    hx = None if not with_states else (tuple(ts) if kind == "LSTM" else ts[0])
    out, hn = ours(xs, hx)
    tx = torch.tensor(xs.asnumpy().astype(np.float64), requires_grad=True)
    tst = [torch.tensor(s.asnumpy().astype(np.float64)) for s in ts]
    thx = None if not with_states else (tuple(tst) if kind == "LSTM" else tst[0])
    tout, thn = theirs(tx, thx)
    np.testing.assert_allclose(out.asnumpy(), tout.detach().numpy(), atol=1e-5)
    for a, b in zip(hn if kind == "LSTM" else (hn,), thn if kind == "LSTM" else (thn,)):
        np.testing.assert_allclose(a.asnumpy(), b.detach().numpy(), atol=1e-5)
    w = rng.standard_normal(tout.shape)
    params = ours.trainable_params()
    gx, gw = ms.grad(lambda x: (ours(x, hx)[0] * Tensor(w.astype(np.float32))).sum(), 0,
                     params)(xs)
    (tout * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), atol=1e-4)
    for p, g in zip(params, gw):
        np.testing.assert_allclose(g.asnumpy(), getattr(theirs, p.name).grad.numpy(), atol=1e-4,
                                   err_msg=p.name)


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_seq_length_matches_pytorch_packed_sequences(kind):
    torch = pytest.importorskip("torch")
    ours, theirs = _torch_pair(torch, kind, input_size=3, hidden_size=4, bidirectional=True,
                               batch_first=True, num_layers=2)
    lengths = np.array([5, 2, 4])
    x = np.random.default_rng(1).uniform(-1, 1, (3, 5, 3)).astype(np.float32)
    out, hn = ours(Tensor(x), None, Tensor(lengths.astype(np.int32)))
    packed = torch.nn.utils.rnn.pack_padded_sequence(
        torch.tensor(x.astype(np.float64)), torch.tensor(lengths), batch_first=True,
        enforce_sorted=False)
    tout, thn = theirs(packed)
    tout, _ = torch.nn.utils.rnn.pad_packed_sequence(tout, batch_first=True)
    np.testing.assert_allclose(out.asnumpy(), tout.detach().numpy(), atol=1e-5)
    for a, b in zip(hn if kind == "LSTM" else (hn,), thn if kind == "LSTM" else (thn,)):
        np.testing.assert_allclose(a.asnumpy(), b.detach().numpy(), atol=1e-5)


@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell", "RNNCell"])
def test_cells_match_pytorch(kind):
    torch = pytest.importorskip("torch")
    ours = getattr(nn, kind)(3, 4)
    theirs = getattr(torch.nn, kind)(3, 4).double()
    with torch.no_grad():
        for name, p in ours.parameters_and_names():
            getattr(theirs, name).copy_(torch.tensor(p.asnumpy()))
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
    hs = [rng.uniform(-1, 1, (2, 4)).astype(np.float32) for _ in range(2)]
    hx = (Tensor(hs[0]), Tensor(hs[1])) if kind == "LSTMCell" else Tensor(hs[0])
    out = ours(Tensor(x), hx)
    th = [torch.tensor(h.astype(np.float64), requires_grad=True) for h in hs]
    tx = torch.tensor(x.astype(np.float64), requires_grad=True)
    tout = theirs(tx, tuple(th) if kind == "LSTMCell" else th[0])
    outs = out if kind == "LSTMCell" else (out,)
    touts = tout if kind == "LSTMCell" else (tout,)
    for a, b in zip(outs, touts):
        np.testing.assert_allclose(a.asnumpy(), b.detach().numpy(), atol=1e-5)

    def loss(x, h):
        o = ours(x, (h, hx[1]) if kind == "LSTMCell" else h)
        return o[0].sum() * 2 + o[1].sum() if kind == "LSTMCell" else o.sum()

    gx, gh = ms.grad(loss, (0, 1))(Tensor(x), Tensor(hs[0]))
    tl = touts[0].sum() * 2 + touts[1].sum() if kind == "LSTMCell" else touts[0].sum()
    tl.backward()
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), atol=1e-5)
    np.testing.assert_allclose(gh.asnumpy(), th[0].grad.numpy(), atol=1e-5)


# ---- bad input ----


def _f32(*shape):
    return Tensor(np.ones(shape, np.float32))


@pytest.mark.parametrize("call,error,words", [
    (lambda: nn.LSTM(3, 4)(_f32(5, 3)), ValueError, ["For 'LSTM'", "'x' must be 3-D", "(5, 3)"]),
    (lambda: nn.GRU(3, 4)(_f32(5, 2, 7)), ValueError, ["For 'GRU'", "input_size=3", "(5, 2, 7)"]),
    (lambda: nn.LSTM(3, 4, 2)(_f32(5, 2, 3), (_f32(2, 3, 4), _f32(2, 2, 4))), ValueError,
     ["For 'LSTM'", "'hx[0]'", "(2, 2, 4)", "(2, 3, 4)"]),
    (lambda: nn.RNN(3, 4)(_f32(5, 2, 3), _f32(1, 2, 5)), ValueError, ["For 'RNN'", "'hx'"]),
    (lambda: nn.LSTM(3, 4)(_f32(5, 2, 3), _f32(1, 2, 4)), TypeError,
     ["For 'LSTM'", "'hx' must be a tuple"]),
    (lambda: nn.LSTM(3, 4)(_f32(5, 2, 3), (_f32(1, 2, 4),)), TypeError,
     ["length of 'hx' must be 2"]),
    (lambda: nn.GRU(3, 4)(_f32(5, 2, 3), Tensor(np.ones((1, 2, 4)))), TypeError,
     ["For 'GRU'", "dtype of 'x'"]),
    (lambda: nn.GRU(3, 4)(Tensor(np.ones((5, 2, 3), np.int32))), TypeError, ["'x'", "Int32"]),
    (lambda: nn.GRU(3, 4)(_f32(5, 2, 3), None, Tensor(np.array([1, 2, 3], np.int32))),
     ValueError, ["batch size of x and seq_length"]),
    (lambda: nn.GRU(3, 4)(_f32(5, 2, 3), None, Tensor(np.array([1.0, 2.0], np.float32))),
     TypeError, ["'seq_length' should be one of"]),
    (lambda: nn.LSTM(3, 0), ValueError, ["'hidden_size' must be int and must > 0"]),
    (lambda: nn.LSTM(3, 4, 0), ValueError, ["'num_layers'"]),
    (lambda: nn.LSTM(3, 4, 2, dropout=1.0), ValueError, ["'dropout' must be a number in range"]),
    (lambda: nn.LSTM(3, 4, 2, dropout=0), TypeError, ["type of 'dropout' must be 'float'"]),
    (lambda: nn.LSTM(3, 4, has_bias=1), TypeError, ["'has_bias' should be 'bool'"]),
    (lambda: nn.RNN(3, 4, nonlinearity="sigmoid"), ValueError, ["'nonlinearity' must be in"]),
    (lambda: nn.LSTM(3, 4, bias=True), TypeError, ["bias"]),
    (lambda: nn.LSTMCell(3, 4)(_f32(2, 5), (_f32(2, 4), _f32(2, 4))), ValueError,
     ["For 'LSTMCell'", "input_size=3", "(2, 5)"]),
    (lambda: nn.LSTMCell(3, 4)(_f32(2, 3), (_f32(2, 5), _f32(2, 4))), ValueError,
     ["For 'LSTMCell'", "'hx[0]'", "(2, 4)"]),
    (lambda: nn.LSTMCell(3, 4)(_f32(2, 3), _f32(2, 4)), TypeError, ["'hx' must be a tuple"]),
    (lambda: nn.GRUCell(3, 4)(_f32(2, 3), _f32(3, 4)), ValueError, ["For 'GRUCell'", "'hx'"]),
    (lambda: nn.RNNCell(3, 4)(_f32(3), _f32(4)), ValueError, ["For 'RNNCell'", "'x'"]),
    (lambda: nn.RNNCell(3, 4)(Tensor(np.ones((2, 3))), Tensor(np.ones((2, 4)))), TypeError,
     ["For 'RNNCell'", "Float64"]),
    (lambda: nn.RNNCell(3, 4, nonlinearity="x"), ValueError, ["'nonlinearity' must be str"]),
    (lambda: nn.LSTMCell(3, 4, True, True, 0.0), ValueError, ["old MindSpore version"]),
])
def test_bad_input_names_the_cell(call, error, words):
    with pytest.raises(error) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_kernels_refuse_bad_shapes():
    a = np.zeros((2, 8), np.float32)
    h = np.zeros((2, 2), np.float32)
    with pytest.raises(ValueError, match="lstm_forward_step"):
        rnn_cell.lstm_forward_step(a, a, h, h, h, np.zeros((3, 2), np.float32))
    with pytest.raises(ValueError, match="LSTMSteps"):
        rnn_cell.LSTMSteps(np.zeros((3, 2, 8), np.float32), np.zeros((3, 2, 8), np.float32),
                           np.zeros((3, 2, 2), np.float32), np.zeros((3, 2, 2), np.float32),
                           np.zeros((4, 2, 2), np.float32))


@pytest.mark.parametrize("op", [LSTM, GRU], ids=lambda o: o.name)
@pytest.mark.parametrize("bias", [True, False])
def test_batch_one_sequence_in_the_kernel_matches_the_step_loop(op, bias):
    # float32 at batch 1 runs every step inside the kernel; lengths force the per-step loop
    rng = np.random.default_rng(7)
    g = GATES[op] * 5
    x = Tensor(rng.uniform(-1, 1, (6, 1, 3)).astype(np.float32))
    states = [Tensor(rng.uniform(-1, 1, (1, 5)).astype(np.float32))
              for _ in range(2 if op is LSTM else 1)]
    ws = [Tensor(rng.uniform(-1, 1, s).astype(np.float32)) for s in ((g, 3), (g, 5))]
    bs = [Tensor(rng.uniform(-1, 1, (g,)).astype(np.float32)) for _ in range(2)] if bias \
        else [None, None]

    def run(lengths, w_hh=ws[1]):
        return apply(op, (x, *states, ws[0], w_hh, *bs), {"lengths": lengths, "reverse": True})

    def loss(w_hh, lengths):
        out = run(lengths, w_hh)
        return out[0].sum() + out[1].sum()

    for a, b in zip(run(None), run(np.array([6]))):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), atol=1e-6)
    kernel, loop = (ms.grad(loss, 0)(ws[1], n) for n in (None, np.array([6])))
    assert np.abs(kernel.asnumpy()).max() > 1e-3
    np.testing.assert_allclose(kernel.asnumpy(), loop.asnumpy(), atol=1e-5)


def test_warnings_mindspore_logs():
    # a fresh process: cellgrad.log binds its handler to the stderr of its first use
    code = ("from cellgrad import nn; nn.GRU(3, 4, 1, dropout=0.5); nn.LSTM(3, 4, 2, "
            "dropout=0.5); print('-'); nn.LSTMCell(3, 4)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "GLOG_v": "2"})
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 2, lines
    assert "[WARNING]" in lines[0] and "non-zero dropout expects num_layers greater than 1, " \
        "but got dropout=0.5 and num_layers=1" in lines[0]
    assert "LSTMCell has been changed from 'single LSTM layer' to 'single LSTM cell'" in lines[1]


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_batch_one_matches_pytorch(kind):
    torch = pytest.importorskip("torch")
    ours, theirs = _torch_pair(torch, kind, input_size=3, hidden_size=5, num_layers=2)
    x = np.random.default_rng(4).uniform(-1, 1, (6, 1, 3)).astype(np.float32)
    out = ours(Tensor(x))[0]
    tx = torch.tensor(x.astype(np.float64), requires_grad=True)
    tout = theirs(tx)[0]
    np.testing.assert_allclose(out.asnumpy(), tout.detach().numpy(), atol=1e-5)
    gx = ms.grad(lambda x: ours(x)[0].sum())(Tensor(x))
    tout.sum().backward()
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), atol=1e-5)
