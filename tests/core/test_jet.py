"""ops.jet / ops.derivative: Taylor-mode derivatives against closed forms (Faa di Bruno)."""

import math

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops

RNG = np.random.default_rng(7)


def _chain(fs, xs):
    """d^k/dt^k f(x(t)) at 0 for k = 1..3 from f's derivatives fs = (f', f'', f''') at x0 and
    the path's xs = (x', x'', x''') (Faa di Bruno)."""
    f1, f2, f3 = fs
    x1, x2, x3 = xs
    return np.stack([f1 * x1, f2 * x1**2 + f1 * x2, f3 * x1**3 + 3 * f2 * x1 * x2 + f1 * x3])


@pytest.mark.parametrize("name, fn, derivs", [
    ("sin", ops.sin, lambda x: (np.cos(x), -np.sin(x), -np.cos(x))),
    ("exp", ops.exp, lambda x: (np.exp(x), np.exp(x), np.exp(x))),
    ("log", ops.log, lambda x: (1 / x, -1 / x**2, 2 / x**3)),
    ("sqrt", ops.sqrt, lambda x: (0.5 * x**-0.5, -0.25 * x**-1.5, 0.375 * x**-2.5)),
    ("tanh", ops.tanh, lambda x: (1 - np.tanh(x)**2, -2 * np.tanh(x) * (1 - np.tanh(x)**2),
                                  (-2 + 6 * np.tanh(x)**2) * (1 - np.tanh(x)**2))),
])
def test_jet_of_elementwise_ops_follows_faa_di_bruno(name, fn, derivs):
    x0 = RNG.uniform(0.5, 2.0, (3, 4))
    series = RNG.normal(size=(3, 3, 4))
    out, out_series = ops.jet(fn, Tensor(x0), Tensor(series))
    assert out.dtype == ms.float64 and out_series.shape == (3, 3, 4)
    np.testing.assert_allclose(out.asnumpy(), fn(Tensor(x0)).asnumpy(), rtol=1e-12)
    np.testing.assert_allclose(out_series.asnumpy(), _chain(derivs(x0), series), rtol=1e-10,
                               atol=1e-12)


def test_jet_of_a_product_is_leibniz_rule():
    a0, b0 = RNG.normal(size=5), RNG.normal(size=5)
    sa, sb = RNG.normal(size=(4, 5)), RNG.normal(size=(4, 5))
    _, got = ops.jet(lambda a, b: a * b, (Tensor(a0), Tensor(b0)), (Tensor(sa), Tensor(sb)))
    da, db = np.concatenate([a0[None], sa]), np.concatenate([b0[None], sb])
    want = [sum(math.comb(k, j) * da[j] * db[k - j] for j in range(k + 1)) for k in range(1, 5)]
    np.testing.assert_allclose(got.asnumpy(), np.stack(want), rtol=1e-10)


def test_jet_high_order_of_exp_of_a_line():
    # exp(x0 + c t) has k-th derivative c^k exp(x0): order 6 checks the nesting
    x0, c = np.array([0.3, -1.2]), np.array([0.5, 2.0])
    series = np.zeros((6, 2))
    series[0] = c
    _, got = ops.jet(ops.exp, Tensor(x0), Tensor(series))
    want = np.stack([c**k * np.exp(x0) for k in range(1, 7)])
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-9)


def test_jet_takes_a_cell_and_order_one_series_without_leading_axis():
    class Net(nn.Cell):
        def construct(self, x):
            return ops.exp(ops.sin(x))

    x0 = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    out, got = ops.jet(Net(), Tensor(x0), Tensor(np.ones((2, 2), np.float32)))
    assert got.shape == (1, 2, 2) and got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy()[0], np.cos(x0) * np.exp(np.sin(x0)), rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), np.exp(np.sin(x0)), rtol=1e-6)


def test_jet_of_several_outputs_returns_lists_and_int_inputs_become_float32():
    x = Tensor(np.array([1, 2], np.int32))
    s = Tensor(np.array([[1, 0], [0, 1]], np.int32))
    outs, series = ops.jet(lambda a: (a * a, ops.exp(a)), x, s)
    assert isinstance(outs, list) and isinstance(series, list) and len(series) == 2
    assert outs[0].dtype == ms.float32 and series[1].shape == (2, 2)
    # a^2 along (1 + t, 2 + t^2/2): derivatives (2, 2) and (0, 4)
    np.testing.assert_allclose(series[0].asnumpy(), [[2, 0], [2, 4]], rtol=1e-6)


def test_derivative_is_the_last_term_of_the_unit_jet():
    x = Tensor(np.array([0.4, 1.1]))
    for order in (1, 2, 3, 4):
        out, got = ops.derivative(ops.sin, x, order)
        want = np.sin(x.asnumpy() + order * np.pi / 2)  # sin^(k)(x) = sin(x + k pi/2)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10)
        np.testing.assert_allclose(out.asnumpy(), np.sin(x.asnumpy()), rtol=1e-12)
    outs, last = ops.derivative(lambda a, b: (a * b, a - b), (x, x), 2)
    assert isinstance(outs, list) and len(last) == 2
    np.testing.assert_allclose(last[0].asnumpy(), [2.0, 2.0], rtol=1e-12)


@pytest.mark.parametrize("primals, series, err, msg", [
    (Tensor(np.ones(2)), (Tensor(np.ones((1, 2))),), TypeError, "must be both Tensor or tuple"),
    ((Tensor(np.ones(2)),), (), ValueError, "lengths of primals and series must be the same"),
    (Tensor(np.ones(2)), Tensor(np.ones((2, 3))), ValueError, "the shape of each element"),
    (Tensor(np.ones(2)), Tensor(np.ones((1, 2), np.float32)), TypeError, "must be the same"),
    (Tensor(np.ones(2, np.float16)), Tensor(np.ones((1, 2), np.float16)), TypeError,
     "mstype.float64"),
    ((Tensor(np.ones(2)), Tensor(np.ones(2))), (Tensor(np.ones((1, 2))), Tensor(np.ones((2, 2)))),
     ValueError, "same number of derivatives"),
])
def test_jet_rejects_bad_inputs_as_mindspore(primals, series, err, msg):
    with pytest.raises(err, match=msg):
        ops.jet(ops.sin, primals, series)


def test_derivative_rejects_bad_order():
    with pytest.raises(TypeError, match="order must be int"):
        ops.derivative(ops.sin, Tensor(np.ones(2)), 1.0)
    with pytest.raises(ValueError, match="should not be less than 1, but got 0"):
        ops.derivative(ops.sin, Tensor(np.ones(2)), 0)
