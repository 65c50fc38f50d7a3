import numpy as np
import mindspore as ms
from mindspore import ops, Tensor

xf = Tensor(np.array([0.5, -1.5, 2.0, 0.0], np.float32))
yf = Tensor(np.array([1.5, 2.0, -0.5, 3.0], np.float32))
xi = Tensor(np.array([1, -2, 3, 12], np.int32))
yi = Tensor(np.array([4, 3, 2, 8], np.int32))
p = Tensor(np.array([0.2, 0.5, 0.7, 0.9], np.float32))


def show(name, f):
    try:
        r = f()
        lines = [f"{name} {t.dtype} {t.shape} "
                 f"{np.round(t.asnumpy().astype(np.float64), 4).tolist()}"
                 for t in (r if isinstance(r, tuple) else (r,))]
    except (TypeError, ValueError, RuntimeError) as e:
        print(name, "error", type(e).__name__)
        return
    print("\n".join(lines))


for n in ["tan", "asinh", "atanh", "erf", "erfc", "erfinv", "sgn", "positive", "signbit",
          "isneginf", "deg2rad", "rad2deg", "frac", "inv", "logit"]:
    show(n, lambda: getattr(ops, n)(p if n in ("atanh", "erfinv", "logit") else xf))
show("acosh", lambda: ops.acosh(yf + 2))
for n in ["inv", "invert", "frac", "sgn", "signbit", "population_count", "positive"]:
    show(n + "_int", lambda: getattr(ops, n)(xi))
for n in ["tan", "acosh", "erf", "deg2rad", "invert", "logit", "digamma"]:
    show(n + "_err", lambda: getattr(ops, n)(xi if n != "invert" else xf))
for n in ["xdivy", "xlogy", "fmax", "hypot", "ldexp", "logaddexp", "logaddexp2", "copysign",
          "nextafter", "heaviside", "float_power", "fmod", "floor_mod", "truncate_div",
          "truncate_mod"]:
    show(n, lambda: getattr(ops, n)(xf, yf))
for n in ["fmax", "fmod", "floor_mod", "truncate_div", "truncate_mod", "gcd", "lcm",
          "bitwise_left_shift", "bitwise_right_shift", "float_power", "ldexp", "copysign"]:
    show(n + "_int", lambda: getattr(ops, n)(xi, yi))
for n in ["hypot", "gcd", "xdivy", "nextafter", "logaddexp"]:
    show(n + "_err", lambda: getattr(ops, n)(xi if n != "gcd" else xf, yi if n != "gcd" else yf))
show("xlogy_scalar", lambda: ops.xlogy(xi, 2))
show("copysign_scalar", lambda: ops.copysign(xf, -1.0))
show("fmax_scalar", lambda: ops.fmax(xi, 2))
show("lcm_scalar", lambda: ops.lcm(xi, 4))
show("approximate_equal", lambda: ops.approximate_equal(xf, xf + 1e-6))
show("isclose", lambda: ops.IsClose(rtol=0.1)(xf, xf * 1.05))
show("nan_to_num", lambda: ops.nan_to_num(Tensor(np.array([np.nan, np.inf, -np.inf, 1.0],
                                                            np.float32)), 0.5, 9.0, -9.0))
show("lerp", lambda: ops.lerp(xf, yf, 0.25))
show("lerp_t", lambda: ops.lerp(xf, yf, p))
show("addcdiv", lambda: ops.addcdiv(xf, yf, p, Tensor(0.5, ms.float32)))
show("addcmul", lambda: ops.addcmul(xf, yf, p, 2))
for prim, args in [("Tan", (xf,)), ("Asin", (p,)), ("Atan", (xf,)), ("Atan2", (xf, yf)),
                   ("Sinh", (xf,)), ("Cosh", (xf,)), ("Log1p", (p,)), ("Expm1", (xf,)),
                   ("Rint", (xf * 1.7,)), ("Trunc", (xf * 1.7,)), ("DivNoNan", (xf, xf)),
                   ("MulNoNan", (xf, yf)), ("SquaredDifference", (xf, yf)),
                   ("SquareSumAll", (xf, yf)), ("Xdivy", (xf, yf)), ("BitwiseAnd", (xi, yi)),
                   ("BitwiseOr", (xi, yi)), ("BitwiseXor", (xi, yi)), ("LeftShift", (xi, yi)),
                   ("RightShift", (xi, yi)), ("TruncateMod", (xf, yf)), ("FloorMod", (xi, yi)),
                   ("CheckNumerics", (xf,)), ("Lerp", (xf, yf, p)), ("Inv", (yf,))]:
    show(prim, lambda: getattr(ops, prim)()(*args))
show("Logit", lambda: ops.Logit(eps=0.3)(p))
show("NanToNum", lambda: ops.NanToNum()(Tensor(np.array([np.nan, 2.0], np.float32))))
show("ApproximateEqual", lambda: ops.ApproximateEqual(2.)(xf, yf))
show("Addcmul", lambda: ops.Addcmul()(xf, yf, p, Tensor(np.array([2.0], np.float32))))

# gradients
x64 = Tensor(np.array([0.3, 0.6, 0.8], np.float64))
y64 = Tensor(np.array([1.5, 0.7, 2.5], np.float64))
for n in ["tan", "asinh", "atanh", "erf", "erfc", "erfinv", "logit", "sinc", "lgamma",
          "digamma", "deg2rad", "frac"]:
    show("grad_" + n, lambda: ms.grad(lambda t: getattr(ops, n)(t).sum())(x64))
show("grad_acosh", lambda: ms.grad(lambda t: ops.acosh(t).sum())(y64))
for n in ["xlogy", "xdivy", "hypot", "logaddexp", "logaddexp2", "fmax", "fmod",
          "floor_mod", "truncate_mod"]:
    show("grad_" + n, lambda: ms.grad(lambda a, b: getattr(ops, n)(a, b).sum(), (0, 1))(
        x64, y64))
show("grad_copysign", lambda: ms.grad(lambda a: ops.copysign(a, -y64).sum())(x64))
show("grad_lerp", lambda: ms.grad(lambda a, b: ops.lerp(a, b, 0.25).sum(), (0, 1))(xf, yf))
show("grad_DivNoNan", lambda: ms.grad(lambda a, b: ops.DivNoNan()(a, b).sum(), (0, 1))(
    x64, Tensor(np.array([0.0, 2.0, 4.0]))))
show("grad_SquaredDifference", lambda: ms.grad(
    lambda a, b: ops.SquaredDifference()(a, b).sum(), (0, 1))(x64, y64))
