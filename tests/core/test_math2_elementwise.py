"""The math2 elementwise family: values, MindSpore's dtype rules and errors, Primitive classes,
Tensor methods, and gradients compared with torch (replays: ms_programs/math2_elementwise)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops

F32 = ms.Tensor(np.array([0.5, -1.5, 2.0, 0.0], np.float32))
G32 = ms.Tensor(np.array([1.5, 2.0, -0.5, 3.0], np.float32))
I32 = ms.Tensor(np.array([1, -2, 3, 12], np.int32))
J32 = ms.Tensor(np.array([4, 3, 2, 8], np.int32))


def _t(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def test_values_match_numpy():
    x, y = F32.asnumpy(), G32.asnumpy()
    np.testing.assert_allclose(ops.tan(F32).asnumpy(), np.tan(x), rtol=1e-6)
    np.testing.assert_allclose(ops.hypot(F32, G32).asnumpy(), np.hypot(x, y), rtol=1e-6)
    np.testing.assert_allclose(ops.logaddexp(F32, G32).asnumpy(), np.logaddexp(x, y), 1e-6)
    np.testing.assert_allclose(ops.logaddexp2(F32, G32).asnumpy(), np.logaddexp2(x, y), 1e-6)
    np.testing.assert_array_equal(ops.copysign(F32, G32).asnumpy(), np.copysign(x, y))
    np.testing.assert_array_equal(ops.fmod(F32, G32).asnumpy(), np.fmod(x, y))
    np.testing.assert_array_equal(ops.floor_mod(I32, J32).asnumpy(), [1, 1, 1, 4])
    np.testing.assert_array_equal(ops.truncate_div(I32, J32).asnumpy(), [0, 0, 1, 1])
    np.testing.assert_array_equal(ops.truncate_div(-I32, J32).asnumpy(), [0, 0, -1, -1])
    np.testing.assert_array_equal(ops.gcd(I32, J32).asnumpy(), [1, 1, 1, 4])
    np.testing.assert_array_equal(ops.lcm(I32, J32).asnumpy(), [4, 6, 6, 24])
    np.testing.assert_array_equal(ops.bitwise_left_shift(I32, J32).asnumpy(),
                                  [16, -16, 12, 3072])
    np.testing.assert_array_equal(ops.bitwise_right_shift(I32, 1).asnumpy(), [0, -1, 1, 6])
    np.testing.assert_array_equal(ops.population_count(I32).asnumpy(), [1, 31, 2, 2])
    np.testing.assert_array_equal(ops.invert(I32).asnumpy(), [-2, 1, -4, -13])
    np.testing.assert_array_equal(ops.inv(I32).asnumpy(), [1, 0, 0, 0])
    np.testing.assert_array_equal(ops.nextafter(F32, G32).asnumpy(), np.nextafter(x, y))
    np.testing.assert_array_equal(ops.heaviside(F32, G32).asnumpy(), [1, 0, 1, 3])
    np.testing.assert_array_equal(ops.signbit(_t([-0.0, 0.0, -1])).asnumpy(), [1, 0, 1])
    inf = _t([np.inf, -np.inf, np.nan, 1.0], np.float32)
    assert ops.isneginf(inf).asnumpy().tolist() == [False, True, False, False]
    assert ops.isposinf(inf).asnumpy().tolist() == [True, False, False, False]
    out = ops.nan_to_num(inf)
    assert out.asnumpy().tolist() == [np.finfo(np.float32).max, np.finfo(np.float32).min, 0, 1]


def test_dtype_rules_follow_mindspore():
    assert ops.float_power(I32, 2).dtype == ms.float64
    assert ops.ldexp(I32, J32).dtype == ms.float32
    assert ops.copysign(I32, -1.0).dtype == ms.float32
    assert ops.xlogy(I32, 2).dtype == ms.float32
    assert ops.fmax(I32, 2).dtype == ms.int32
    assert ops.frac(I32).dtype == ms.int32 and ops.frac(I32).asnumpy().tolist() == [0] * 4
    assert ops.population_count(I32).dtype == ms.uint8
    assert ops.inv(I32).dtype == ms.int32
    assert ops.positive(F32) is F32


@pytest.mark.parametrize("call, cls, match", [
    (lambda: ops.tan(I32), TypeError, "Tan"),
    (lambda: ops.acosh(I32), TypeError, "Acosh"),
    (lambda: ops.deg2rad(I32), TypeError, "should be one of"),
    (lambda: ops.invert(F32), TypeError, "Invert"),
    (lambda: ops.hypot(I32, J32), TypeError, "Hypot"),
    (lambda: ops.gcd(F32, G32), TypeError, "Gcd"),
    (lambda: ops.xdivy(I32, J32), TypeError, "Xdivy"),
    (lambda: ops.nextafter(F32, 1), TypeError, "NextAfter"),
    (lambda: ops.logaddexp(F32, 1), TypeError, "must be a Tensor"),
    (lambda: ops.logaddexp(I32, J32), TypeError, "must be float"),
    (lambda: ops.copysign(ms.Tensor(np.array([True])), 1.0), TypeError, "bool"),
    (lambda: ops.heaviside(F32, 1.0), TypeError, "Heaviside"),
    (lambda: ops.approximate_equal(F32, F32[:2]), RuntimeError, "same shape"),
    (lambda: ops.sgn(ms.Tensor(np.array([True]))), TypeError, "Sign"),
    (lambda: ops.Logit(eps=1)(F32), TypeError, "eps"),
])
def test_errors(call, cls, match):
    with pytest.raises(cls, match=match):
        call()


def test_primitives():
    np.testing.assert_array_equal(ops.BitwiseAnd()(I32, J32).asnumpy(), [0, 2, 2, 8])
    np.testing.assert_array_equal(ops.BitwiseXor()(I32, J32).asnumpy(), [5, -3, 1, 4])
    np.testing.assert_array_equal(ops.DivNoNan()(F32, _t([0, 1, 0, 2], np.float32)).asnumpy(),
                                  [0, -1.5, 0, 0])
    np.testing.assert_array_equal(ops.MulNoNan()(_t([np.inf, 1], np.float32),
                                                 _t([0, 2], np.float32)).asnumpy(), [0, 2])
    s1, s2 = ops.SquareSumAll()(F32, G32)
    assert float(s1) == 6.5 and float(s2) == 15.5
    assert ops.IsClose(rtol=0.1)(F32, F32 * 1.05).asnumpy().all()
    assert ops.ApproximateEqual(2.0)(F32, G32).asnumpy().tolist() == [True, False, False, False]
    np.testing.assert_allclose(ops.Logit(eps=0.3)(_t([0.2, 0.9], np.float32)).asnumpy(),
                               [-0.8473, 0.8473], atol=1e-4)
    assert ops.NanToNum(nan=5.0)(_t([np.nan], np.float32)).asnumpy().tolist() == [5.0]
    with pytest.raises(RuntimeError, match="CheckNumerics"):
        ops.CheckNumerics()(_t([np.inf], np.float32))
    np.testing.assert_array_equal(ops.AccumulateNV2()((F32, G32)).asnumpy(),
                                  (F32 + G32).asnumpy())
    np.testing.assert_array_equal(ops.Rint()(_t([0.5, 1.5, -2.5], np.float32)).asnumpy(),
                                  [0, 2, -2])
    assert ops.LerpScalar()(F32, G32, 0.5).asnumpy().tolist() == [1.0, 0.25, 0.75, 1.5]


def test_tensor_methods():
    assert F32.tan().asnumpy().tolist() == ops.tan(F32).asnumpy().tolist()
    assert I32.bitwise_not().asnumpy().tolist() == [-2, 1, -4, -13]
    assert ms.Tensor(np.array([True, False])).bitwise_not().asnumpy().tolist() == [False, True]
    assert F32.allclose(F32 + 1e-9) is True and F32.allclose(G32) is False
    assert F32.float_power(2).dtype == ms.float64
    assert F32.approximate_equal(F32, tolerance=0.1).asnumpy().all()
    assert F32.addcmul(G32, G32, value=2).asnumpy().tolist() == [5.0, 6.5, 2.5, 18.0]
    assert F32.deg2rad().dtype == ms.float32


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    x = np.array([0.3, 0.6, 0.8, 1.7])
    y = np.array([1.5, 0.7, 2.5, -0.4])
    pairs = [("hypot", torch.hypot), ("logaddexp", torch.logaddexp),
             ("logaddexp2", torch.logaddexp2), ("xlogy", torch.xlogy),
             ("fmax", torch.fmax), ("fmin", torch.fmin), ("fmod", torch.fmod),
             ("floor_mod", torch.remainder), ("copysign", torch.copysign)]
    for name, tfn in pairs:
        yy = np.abs(y) if name == "xlogy" else y
        tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(yy, requires_grad=True)
        tfn(tx, ty).sum().backward()
        gx, gy = ms.grad(lambda a, b, fn=getattr(ops, name): fn(a, b).sum(), (0, 1))(
            _t(x), _t(yy))
        np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), rtol=1e-10, err_msg=name)
        tgy = np.zeros_like(yy) if ty.grad is None else ty.grad.numpy()
        np.testing.assert_allclose(gy.asnumpy(), tgy, rtol=1e-10, atol=1e-12, err_msg=name)
    for name, tfn, xs in [("tan", torch.tan, x), ("asinh", torch.asinh, x),
                          ("acosh", torch.acosh, x + 1), ("atanh", torch.atanh, x / 2),
                          ("logit", torch.logit, x / 2), ("frac", torch.frac, x * 3),
                          ("deg2rad", torch.deg2rad, x), ("nan_to_num", torch.nan_to_num, x)]:
        tx = torch.tensor(xs, requires_grad=True)
        tfn(tx).sum().backward()
        g = ms.grad(lambda a, fn=getattr(ops, name): fn(a).sum())(_t(xs))
        np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-10, err_msg=name)
    tx, te, tw = (torch.tensor(v, requires_grad=True) for v in (x, y, x / 2))
    torch.lerp(tx, te, tw).sum().backward()
    grads = ms.grad(lambda a, b, w: ops.lerp(a, b, w).sum(), (0, 1, 2))(_t(x), _t(y), _t(x / 2))
    for g, t in zip(grads, (tx, te, tw)):
        np.testing.assert_allclose(g.asnumpy(), t.grad.numpy(), rtol=1e-10)
    tx, t1, t2 = (torch.tensor(v, requires_grad=True) for v in (x, y, x + 1))
    torch.addcdiv(tx, t1, t2, value=0.5).sum().backward()
    grads = ms.grad(lambda a, b, c: ops.addcdiv(a, b, c, 0.5).sum(), (0, 1, 2))(
        _t(x), _t(y), _t(x + 1))
    for g, t in zip(grads, (tx, t1, t2)):
        np.testing.assert_allclose(g.asnumpy(), t.grad.numpy(), rtol=1e-10)


def test_compare_and_bitpack():
    x = ms.Tensor(np.array([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]], np.float32))
    out = ops.CompareAndBitpack()(x, ms.Tensor(np.float32(4.5)))
    assert out.dtype == ms.uint8 and out.asnumpy().tolist() == [[15], [240]]
    # MindSpore 2.10 packs Bool inputs first element lowest (recorded: 141)
    b = ms.Tensor(np.array([True, False, True, True, False, False, False, True]))
    assert ops.CompareAndBitpack()(b, ms.Tensor(True)).asnumpy().tolist() == [141]
    with pytest.raises(ValueError, match="% 8"):
        ops.CompareAndBitpack()(x[:, :6], ms.Tensor(np.float32(1)))
    with pytest.raises(TypeError, match="must be all tensor"):
        ops.CompareAndBitpack()(x, 4.5)
