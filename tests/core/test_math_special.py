"""Special functions on numpy-only kernels: values against scipy (and torch) where installed,
dtype rules and errors as MindSpore 2.10's (recorded: ms_programs/math2_special_reduce.py)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops

X = np.array([1e-6, 0.3, 1.7, 5.0, 12.0, 39.0, 41.0, 100.0])


def _t(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


@pytest.mark.parametrize("name, ref, domain", [
    ("bessel_j0", "j0", "real"), ("bessel_j1", "j1", "real"), ("bessel_y0", "y0", "pos"),
    ("bessel_y1", "y1", "pos"), ("bessel_i0", "i0", "small"), ("bessel_i1", "i1", "small"),
    ("bessel_i0e", "i0e", "real"), ("bessel_i1e", "i1e", "real"), ("bessel_k0", "k0", "pos"),
    ("bessel_k1", "k1", "pos"), ("bessel_k0e", "k0e", "pos"), ("bessel_k1e", "k1e", "pos"),
    ("digamma", "digamma", "real"), ("lgamma", "gammaln", "real"), ("erfc", "erfc", "real"),
])
def test_unary_special_functions_match_scipy(name, ref, domain):
    special = pytest.importorskip("scipy.special")
    x = {"real": np.concatenate([X, -X[1:5] - 0.25]), "pos": X, "small": X[:6]}[domain]
    got = getattr(ops, name)(_t(x)).asnumpy()
    np.testing.assert_allclose(got, getattr(special, ref)(x), rtol=1e-12, atol=1e-13)


def test_two_argument_special_functions_match_scipy():
    special = pytest.importorskip("scipy.special")
    a = np.array([0.5, 1.0, 3.0, 10.0, 50.0])
    x = np.array([0.2, 2.0, 3.0, 15.0, 40.0])
    np.testing.assert_allclose(ops.igamma(_t(a), _t(x)).asnumpy(), special.gammainc(a, x),
                               rtol=1e-12)
    np.testing.assert_allclose(ops.igammac(_t(a), _t(x)).asnumpy(), special.gammaincc(a, x),
                               rtol=1e-10)
    s, q = np.array([2.0, 3.5, 1.1, 5.0]), np.array([0.5, 2.0, 1.0, 10.0])
    np.testing.assert_allclose(ops.zeta(_t(s), _t(q)).asnumpy(), special.zeta(s, q),
                               rtol=1e-12)
    n, v = np.array([1, 2, 3]), np.array([0.5, 2.0, -1.5])
    for k, xv in zip(n, v):
        np.testing.assert_allclose(ops.polygamma(int(k), _t([xv])).asnumpy(),
                                   special.polygamma(k, [xv]), rtol=1e-11)
    aa, bb, xx = np.array([0.5, 2, 5]), np.array([1.5, 3, 0.7]), np.array([0.2, 0.7, 0.99])
    np.testing.assert_allclose(ops.Betainc()(_t(aa), _t(bb), _t(xx)).asnumpy(),
                               special.betainc(aa, bb, xx), rtol=1e-12)
    y = np.array([-0.999, -0.3, 0.0, 0.5, 0.9999999])
    np.testing.assert_allclose(ops.erfinv(_t(y)).asnumpy(), special.erfinv(y), rtol=1e-11)
    np.testing.assert_allclose(ops.mvlgamma(_t([2.5, 3.0]), 3).asnumpy(),
                               special.multigammaln(np.array([2.5, 3.0])[:, None], 3)[:, 0])


def test_special_values_at_edges():
    assert ops.erfinv(_t([1.0, -1.0, 1.5])).asnumpy().tolist()[:2] == [np.inf, -np.inf]
    assert np.isnan(ops.erfinv(_t([1.5])).asnumpy()[0])
    assert ops.lgamma(_t([0.0, -2.0])).asnumpy().tolist() == [np.inf, np.inf]
    assert np.isnan(ops.digamma(_t([-2.0])).asnumpy()[0])
    assert ops.sinc(_t([0.0])).asnumpy()[0] == 1.0
    # MindSpore's K and Y kernels answer inf / -inf below zero (recorded)
    assert ops.bessel_k0(_t([-1.0, 0.0])).asnumpy().tolist() == [np.inf, np.inf]
    assert ops.bessel_y1(_t([-1.0, 0.0])).asnumpy().tolist() == [-np.inf, -np.inf]
    np.testing.assert_allclose(ops.i0(_t([0.0, 1.0])).asnumpy(), [1.0, 1.2660658777520082])


def test_dtypes_follow_mindspore():
    f32 = ms.Tensor(np.array([0.5, 1.5], np.float32))
    i32 = ms.Tensor(np.array([1, 2], np.int32))
    assert ops.lgamma(f32).dtype == ms.float32 and ops.lgamma(i32).dtype == ms.float32
    assert ops.sinc(i32).dtype == ms.float32
    assert ops.digamma(f32.astype(ms.float64)).dtype == ms.float64
    assert ops.bessel_j0(f32).dtype == ms.float32


@pytest.mark.parametrize("fn", [ops.digamma, ops.erfinv, ops.bessel_j0, ops.i0, ops.erf,
                                ops.erfc])
def test_integer_inputs_are_refused(fn):
    with pytest.raises(TypeError, match="must be a type of"):
        fn(ms.Tensor(np.array([1, 2], np.int32)))


def test_argument_errors():
    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.raises(TypeError, match=r"Igamma.*must be all tensor"):
        ops.igamma(a, 2.0)
    with pytest.raises(TypeError, match="same"):
        ops.igamma(a, a.astype(ms.float64))
    with pytest.raises(ValueError, match="greater than"):
        ops.mvlgamma(a, 3)
    with pytest.raises(TypeError, match="non-negative int"):
        ops.polygamma(-1, a)
    with pytest.raises(TypeError, match="0-D"):
        ops.polygamma(ms.Tensor(np.array([1, 2])), a)


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    x = np.array([0.3, 1.2, 2.5, 4.0])
    for name, tfn in [("lgamma", torch.lgamma), ("digamma", torch.digamma),
                      ("erfc", torch.erfc), ("sinc", torch.sinc), ("i0", torch.special.i0),
                      ("bessel_i0e", torch.special.i0e), ("bessel_i1", torch.special.i1),
                      ("bessel_i1e", torch.special.i1e), ("erfinv", torch.erfinv)]:
        if name == "erfinv":
            x = x / 5
        tx = torch.tensor(x, requires_grad=True)
        tfn(tx).sum().backward()
        g = ms.grad(lambda t, fn=getattr(ops, name): fn(t).sum())(_t(x))
        np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-9, err_msg=name)
    tx = torch.tensor(x, requires_grad=True)
    torch.polygamma(2, tx).sum().backward()
    np.testing.assert_allclose(ms.grad(lambda t: ops.polygamma(2, t).sum())(_t(x)).asnumpy(),
                               tx.grad.numpy(), rtol=1e-9)
    ta = torch.tensor([1.3, 2.2, 3.5, 0.5])
    tx = torch.tensor(x, requires_grad=True)
    torch.special.gammainc(ta, tx).sum().backward()
    g = ms.grad(lambda t: ops.igamma(_t(ta.numpy()), t).sum())(_t(x))
    np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-6)


def test_igamma_gradient_in_a_against_finite_differences():
    a, x = _t([1.3, 2.2, 3.5]), _t([0.3, 1.2, 2.5])
    g = ms.grad(lambda t: ops.igamma(t, x).sum())(a).asnumpy()
    # recorded from MindSpore 2.10 (math2_special_reduce.out: grad_igamma_a)
    np.testing.assert_allclose(g, [-0.2826, -0.2663, -0.2152], atol=1e-4)


def test_primitive_classes_call_the_functions():
    x = ms.Tensor(np.array([0.5, 1.5], np.float32))
    for prim, fn in [(ops.Digamma, ops.digamma), (ops.Lgamma, ops.lgamma),
                     (ops.BesselY0, ops.bessel_y0), (ops.Sinc, ops.sinc),
                     (ops.Erfinv, lambda t: ops.erfinv(t / 2)), (ops.Erfc, ops.erfc)]:
        arg = x / 2 if prim is ops.Erfinv else x
        np.testing.assert_allclose(prim()(arg).asnumpy(), fn(x).asnumpy(), rtol=1e-6)
    assert ops.Mvlgamma(2)(x + 1).shape == (2,)
    assert ops.operations.BesselK0 is ops.BesselK0
    assert ops.functional.bessel_k0 is ops.bessel_k0
