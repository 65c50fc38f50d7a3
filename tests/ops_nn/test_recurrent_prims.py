"""ops.DynamicRNN / ops.DynamicGRUV2 (Ascend kernels in MindSpore 2.10: checked against their
documented layouts with a numpy reference) and ops.LSTM (MindSpore's CPU kernel: also replayed
from MindSpore in ms_programs/recurrent_prims.py)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck

T, B, IN, H = 5, 3, 4, 6
rng = np.random.default_rng(0)


def _t(*shape, scale=1.0):
    return ms.Tensor(rng.standard_normal(shape) * scale)


def _sig(a):
    return 1 / (1 + np.exp(-a))


def _lstm_ijfo(x, w, b, h, c, forget_bias):
    ys, cs, gates = [], [], []
    for t in range(x.shape[0]):
        i, j, f, o = np.split(np.concatenate([x[t], h], 1) @ w + b, 4, 1)
        i, j, f, o = _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)
        c = f * c + i * j
        h = o * np.tanh(c)
        ys.append(h)
        cs.append(c)
        gates.append((i, j, f, o))
    return np.array(ys), np.array(cs), [np.array(g) for g in zip(*gates)]


def test_dynamic_rnn_matches_the_documented_lstm_and_its_gate_outputs():
    x, w, b = _t(T, B, IN), _t(IN + H, 4 * H, scale=0.3), _t(4 * H, scale=0.1)
    h0, c0 = _t(1, B, H), _t(1, B, H)
    y, out_h, out_c, i, j, f, o, tanhc = ops.DynamicRNN(forget_bias=1.0)(x, w, b, None, h0, c0)
    ys, cs, gates = _lstm_ijfo(x.asnumpy(), w.asnumpy(), b.asnumpy(), h0.asnumpy()[0],
                               c0.asnumpy()[0], 1.0)
    for got, want in [(y, ys), (out_h, ys), (out_c, cs), (tanhc, np.tanh(cs)),
                      *zip((i, j, f, o), gates)]:
        np.testing.assert_allclose(got.asnumpy(), want, atol=1e-12)
        assert got.shape == (T, B, H)


def test_dynamic_rnn_gradients_flow_through_y_and_the_last_state():
    x, w, b = _t(T, B, IN), _t(IN + H, 4 * H, scale=0.3), _t(4 * H, scale=0.1)
    h0, c0 = _t(1, B, H), _t(1, B, H)

    def f(x, w, b, h0, c0):
        y, h, c = ops.DynamicRNN(forget_bias=0.5)(x, w, b, None, h0, c0)[:3]
        return y, h[-1], c[-1]

    assert gradcheck(f, x, w, b, h0, c0)
    # the earlier steps of output_h carry no gradient (MindSpore's bprop reads dh[-1] only)
    g = ms.grad(lambda w: ops.DynamicRNN()(x, w, b, None, h0, c0)[1][:-1].sum())(w)
    assert not g.asnumpy().any()


def test_dynamic_rnn_float16_runs_in_float32_and_returns_mindspores_dtypes():
    half = [ms.Tensor(a.asnumpy().astype(np.float16)) for a in (
        _t(T, B, IN), _t(IN + H, 4 * H, scale=0.3), _t(1, B, H), _t(1, B, H))]
    b = ms.Tensor(np.zeros(4 * H, np.float32))
    out = ops.DynamicRNN()(half[0], half[1], b, None, half[2], half[3])
    assert [o.dtype for o in out] == [ms.float32, ms.float16] + [ms.float32] * 6


def _gru(x, wi, wh, bi, bh, h, order):
    ys = []
    for t in range(x.shape[0]):
        a, z_or_r, n = np.split(x[t] @ wi + bi, 3, 1)
        ha, hb, hn = np.split(h @ wh + bh, 3, 1)
        r, z = (_sig(a + ha), _sig(z_or_r + hb)) if order == "rzh" else \
            (_sig(z_or_r + hb), _sig(a + ha))
        n = np.tanh(n + r * hn)
        h = (1 - z) * n + z * h
        ys.append(h)
    return np.array(ys)


@pytest.mark.parametrize("order", ["rzh", "zrh"])
def test_dynamic_gru_v2_matches_the_documented_gru(order):
    x, wi, wh = _t(T, B, IN), _t(IN, 3 * H, scale=0.3), _t(H, 3 * H, scale=0.3)
    bi, bh, h0 = _t(3 * H, scale=0.1), _t(3 * H, scale=0.1), _t(B, H)
    out = ops.DynamicGRUV2(gate_order=order)(x, wi, wh, bi, bh, None, h0)
    want = _gru(x.asnumpy(), wi.asnumpy(), wh.asnumpy(), bi.asnumpy(), bh.asnumpy(),
                h0.asnumpy(), order)
    np.testing.assert_allclose(out[0].asnumpy(), want, atol=1e-12)
    np.testing.assert_allclose(out[1].asnumpy(), want, atol=1e-12)
    assert [o.shape for o in out] == [(T, B, H)] * 6

    def f(x, wi, wh, bi, bh, h0):
        y, h = ops.DynamicGRUV2(gate_order=order)(x, wi, wh, bi, bh, None, h0)[:2]
        return y, h[-1]

    assert gradcheck(f, x, wi, wh, bi, bh, h0)
    assert gradcheck(lambda x, wi, wh, h0: ops.DynamicGRUV2(gate_order=order)(
        x, wi, wh, None, None, None, h0)[0], x, wi, wh, h0)


def test_lstm_primitive_matches_torch():
    torch = pytest.importorskip("torch")
    lstm = torch.nn.LSTM(IN, H, num_layers=2, bidirectional=True)
    lstm = lstm.double()
    params = dict(lstm.named_parameters())
    names = [f"{kind}_l{layer}{sfx}" for kind in ("weight_ih", "weight_hh")
             for layer in range(2) for sfx in ("", "_reverse")]
    biases = [params[f"bias_ih_l{layer}{sfx}"] + params[f"bias_hh_l{layer}{sfx}"]
              for layer in range(2) for sfx in ("", "_reverse")]
    blob = torch.cat([params[n].reshape(-1) for n in names] + list(biases)).detach().numpy()
    x, h0, c0 = _t(T, B, IN), _t(4, B, H), _t(4, B, H)
    prim = ops.LSTM(IN, H, 2, True, True, 0.0)
    assert prim.weight_size() == blob.size
    out, h_n, c_n, _, _ = prim(x, h0, c0, ms.Tensor(blob.reshape(-1, 1, 1)))
    want, (th, tc) = lstm(torch.tensor(x.asnumpy()), (torch.tensor(h0.asnumpy()),
                                                       torch.tensor(c0.asnumpy())))
    for got, ref in [(out, want), (h_n, th), (c_n, tc)]:
        np.testing.assert_allclose(got.asnumpy(), ref.detach().numpy(), atol=1e-10)
    assert gradcheck(lambda x, w: prim(x, h0, c0, w)[:3], x, ms.Tensor(blob.reshape(-1, 1, 1)))


@pytest.mark.parametrize("make, error, message", [
    (lambda: ops.DynamicRNN(cell_type="GRU"), ValueError, "must be in '\\['LSTM'\\]'"),
    (lambda: ops.DynamicRNN(forget_bias=1), TypeError, "'forget_bias' should be 'float'"),
    (lambda: ops.DynamicRNN(use_peephole=True), ValueError, "not supported on the CPU"),
    (lambda: ops.DynamicGRUV2(gate_order="hzr"), ValueError, "must be in '\\['zrh', 'rzh'\\]'"),
    (lambda: ops.LSTM(3, 2, 1, True, False, 0.0, proj_size=1), ValueError, "proj_size"),
])
def test_bad_attributes(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_bad_inputs_name_the_argument():
    x = _t(T, B, IN)
    with pytest.raises(ValueError, match=r"'w' must be \(10, 24\)"):
        ops.DynamicRNN()(x, _t(9, 24), _t(24), None, _t(1, B, H), _t(1, B, H))
    with pytest.raises(ValueError, match="'seq_length' must be None"):
        ops.DynamicRNN()(x, _t(10, 24), _t(24), ms.Tensor([5, 5, 5]), _t(1, B, H), _t(1, B, H))
    with pytest.raises(ValueError, match="'w' must hold 56 values"):
        ops.LSTM(IN, 2, 1, True, False, 0.0)(x, _t(1, B, 2), _t(1, B, 2), _t(57, 1, 1))
