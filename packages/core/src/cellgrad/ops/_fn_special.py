"""Special functions (`ops.erfc`, `erfinv`, `lgamma`, `digamma`, `polygamma`, `zeta`,
`igamma`/`igammac`, `mvlgamma`, `sinc`, `i0`, the `bessel_*` family) and Betainc's op, on the
numpy kernels of `_special_np`; each op's backward sits beside it and evaluates the special
functions it needs through the public functions when a higher order is recorded."""

import math

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import _special_np as K
from cellgrad.ops._prim_math import ERF
from cellgrad.ops._registry import apply, define

__all__ = ["erf", "erfc", "erfinv", "lgamma", "digamma", "polygamma", "zeta", "igamma",
           "igammac", "mvlgamma", "sinc", "i0", "bessel_i0", "bessel_i0e", "bessel_i1",
           "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e", "bessel_k1",
           "bessel_k1e", "bessel_y0", "bessel_y1"]

_FLOATS = "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}"


def _kernel_forward(kernel, n_in):
    def forward(*xs):
        out = np.asarray(kernel(*(x.astype(np.float64) for x in xs))).astype(xs[-1].dtype)
        return out, xs + (out,)
    forward.n_in = n_in
    return forward


def _eval(ctx, public, kernel, *args):
    """`kernel` on numpy arrays (first order) or the public function on Tensors (recorded)."""
    if ctx.xp.IS_TENSOR:
        return public(*args)
    arrays = [a.astype(np.float64) if isinstance(a, np.ndarray) else a for a in args]
    return np.asarray(kernel(*arrays)).astype(args[-1].dtype)


def _safe(xp, x):
    return xp.where(x == 0, x * 0 + 1, x)


# ---- unary ops: name -> (kernel, backward(ctx, g, x, out)) ----
def _erfc_bwd(ctx, g, x, out):
    return g * (-2.0 / math.sqrt(math.pi)) * ctx.xp.exp(-(x * x))


def _erfinv_bwd(ctx, g, x, out):
    return g * (math.sqrt(math.pi) / 2.0) * ctx.xp.exp(out * out)


def _lgamma_bwd(ctx, g, x, out):
    return g * _eval(ctx, digamma, K.digamma, x)


def _digamma_bwd(ctx, g, x, out):
    return g * _eval(ctx, lambda t: _polygamma_t(1, t), lambda t: K.polygamma(1, t), x)


def _sinc_bwd(ctx, g, x, out):
    xp = ctx.xp
    xs = _safe(xp, x)
    d = (xp.cos(math.pi * xs) - out) / xs
    return g * xp.where(x == 0, x * 0, d)


def _bes(name):
    fn = _BESSEL[name]
    return lambda ctx, x: _eval(ctx, globals()["bessel_" + name], fn, x)


def _recip(ctx, x):
    return 1 / _safe(ctx.xp, x)


def _at0(ctx, x, value, d):
    return ctx.xp.where(x == 0, x * 0 + value, d)


_BESSEL = {
    "j0": lambda x: K.bessel_j(0, x), "j1": lambda x: K.bessel_j(1, x),
    "y0": lambda x: K.bessel_y(0, x), "y1": lambda x: K.bessel_y(1, x),
    "i0": lambda x: K.bessel_i(0, x), "i1": lambda x: K.bessel_i(1, x),
    "i0e": lambda x: K.bessel_ie(0, x), "i1e": lambda x: K.bessel_ie(1, x),
    "k0": lambda x: K.bessel_k(0, x), "k1": lambda x: K.bessel_k(1, x),
    "k0e": lambda x: K.bessel_ke(0, x), "k1e": lambda x: K.bessel_ke(1, x),
}

# d/dx of each Bessel function, from the others (x == 0 limits where 1/x appears)
_BESSEL_GRAD = {
    "j0": lambda c, x, o: -_bes("j1")(c, x),
    "j1": lambda c, x, o: _at0(c, x, 0.5, _bes("j0")(c, x) - o * _recip(c, x)),
    "y0": lambda c, x, o: -_bes("y1")(c, x),
    "y1": lambda c, x, o: _bes("y0")(c, x) - o * _recip(c, x),
    "i0": lambda c, x, o: _bes("i1")(c, x),
    "i1": lambda c, x, o: _at0(c, x, 0.5, _bes("i0")(c, x) - o * _recip(c, x)),
    "i0e": lambda c, x, o: _bes("i1e")(c, x) - c.xp.sign(x) * o,
    "i1e": lambda c, x, o: _at0(c, x, 0.5, _bes("i0e")(c, x)
                                - o * (c.xp.sign(x) + _recip(c, x))),
    "k0": lambda c, x, o: -_bes("k1")(c, x),
    "k1": lambda c, x, o: -_bes("k0")(c, x) - o * _recip(c, x),
    "k0e": lambda c, x, o: o - _bes("k1e")(c, x),
    "k1e": lambda c, x, o: o - _bes("k0e")(c, x) - o * _recip(c, x),
}

def _bessel_bwd(name):
    return lambda ctx, g, x, out: g * _BESSEL_GRAD[name](ctx, x, out)


_UNARY = {
    "erfc": (K.erfc, _erfc_bwd),
    "erfinv": (K.erfinv, _erfinv_bwd),
    "lgamma": (K.lgamma, _lgamma_bwd),
    "digamma": (K.digamma, _digamma_bwd),
    "sinc": (K.sinc, _sinc_bwd),
    **{f"bessel_{n}": (k, _bessel_bwd(n)) for n, k in _BESSEL.items()},
}


def _unary_op(name, kernel, grad):
    def backward(ctx, g):
        x, out = ctx.saved
        return grad(ctx, g, x, out)
    return define(f"special_{name}", _kernel_forward(kernel, 1), backward)


OPS = {name: _unary_op(name, *spec) for name, spec in _UNARY.items()}


def _float_input(op, name, x, ints=()):
    C.tensor(op, name, x)
    if x._data.dtype.kind == "f":
        return x
    if x._data.dtype.name in ints:
        from cellgrad.ops.functional import cast
        return cast(x, "float32")
    allowed = _FLOATS if not ints else _FLOATS[:-1] + ", " + ", ".join(
        f"Tensor[{t.capitalize()}]" for t in ints) + "}"
    raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                    f"{allowed}, but got Tensor[{x.dtype}].")


def _public(name, prim, arg="input", ints=(), param="input"):
    op = OPS[name]

    if param == "x":
        def fn(x):
            return apply(op, (_float_input(prim, arg, x, ints),))
    else:
        def fn(input):
            return apply(op, (_float_input(prim, arg, input, ints),))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}` (float inputs)."
    return fn


def erf(input):
    """Mirrors `mindspore.ops.erf` (float inputs)."""
    return apply(ERF, (_float_input("Erf", "x", input),))


erfc = _public("erfc", "Erfc", "x")
erfinv = _public("erfinv", "Erfinv", "input_x")
lgamma = _public("lgamma", "Lgamma", "x", ints=("int32",))
digamma = _public("digamma", "Digamma")
sinc = _public("sinc", "Sinc", ints=("bool", "int8", "int16", "int32", "int64", "uint8"))
bessel_i0 = _public("bessel_i0", "BesselI0", "x", param="x")
bessel_i0e = _public("bessel_i0e", "BesselI0e", "x", param="x")
bessel_i1 = _public("bessel_i1", "BesselI1", "x", param="x")
bessel_i1e = _public("bessel_i1e", "BesselI1e", "x", param="x")
bessel_j0 = _public("bessel_j0", "BesselJ0", "x", param="x")
bessel_j1 = _public("bessel_j1", "BesselJ1", "x", param="x")
bessel_k0 = _public("bessel_k0", "BesselK0", "x", param="x")
bessel_k0e = _public("bessel_k0e", "BesselK0e", "x", param="x")
bessel_k1 = _public("bessel_k1", "BesselK1", "x", param="x")
bessel_k1e = _public("bessel_k1e", "BesselK1e", "x", param="x")
bessel_y0 = _public("bessel_y0", "BesselY0", "x", param="x")
bessel_y1 = _public("bessel_y1", "BesselY1", "x", param="x")


def i0(input):
    """Mirrors `mindspore.ops.i0`: `bessel_i0`."""
    return bessel_i0(input)


# ---- ops with an order or a second argument ----
def _polygamma_fwd(x, n):
    out = K.polygamma(n, x.astype(np.float64)).astype(x.dtype)
    return out, (x, n)


def _polygamma_bwd(ctx, g):
    x, n = ctx.saved
    return g * _eval(ctx, lambda t: _polygamma_t(n + 1, t), lambda t: K.polygamma(n + 1, t), x)


POLYGAMMA = define("special_polygamma", _polygamma_fwd, _polygamma_bwd)


def _polygamma_t(n, x):
    return apply(POLYGAMMA, (x,), {"n": int(n)})


def polygamma(n, input):
    """Mirrors `mindspore.ops.polygamma(n, input)`: the n-th derivative of digamma; `n` a
    0-d integer Tensor (or int), differentiable in `input`."""
    if isinstance(n, TensorBuffer):
        if n._data.dtype.kind not in "iu" or n.ndim:
            raise TypeError(f"For primitive[Polygamma], the input argument[a] must be a 0-D "
                            f"Tensor[Int32] or Tensor[Int64], but got Tensor[{n.dtype}] of "
                            f"shape {n.shape}.")
        n = int(n._data)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
        raise TypeError(f"For 'polygamma', 'n' must be a non-negative int, but got {n!r}.")
    return _polygamma_t(n, _float_input("Polygamma", "x", input))


def _pair(op, a_name, b_name, a, b):
    """Two Tensors of one float dtype (float32/float64), as MindSpore's Igamma/Zeta check."""
    for name, v in ((a_name, a), (b_name, b)):
        if not isinstance(v, TensorBuffer):
            raise TypeError(f"The primitive[{op}]'s input arguments[{a_name}, {b_name}] must be "
                            f"all tensor and those type must be same. But got input argument"
                            f"[{name}]:{type(v).__name__}")
        C.dtype_in(op, name, v, "f", "{Tensor[Float32], Tensor[Float64]}")
    if a.dtype != b.dtype:
        raise TypeError(f"The primitive[{op}]'s input arguments[{a_name}, {b_name}] must be all "
                        f"tensor and those type must be same, but got {a.dtype} and {b.dtype}.")
    return a, b


def _zeta_bwd(ctx, g):
    x, q, out = ctx.saved
    dq = -x * _eval(ctx, lambda s, t: zeta(s + 1, t), lambda s, t: K.zeta(s + 1, t), x, q)
    return None, g * dq


def _igamma_dx(ctx, a, x):
    xp = ctx.xp
    return xp.exp(-x + (a - 1) * xp.log(x) - _eval(ctx, lgamma, K.lgamma, a))


ZETA = define("special_zeta", _kernel_forward(K.zeta, 2), _zeta_bwd)
def _igamma_da(ctx, a, x):
    # central differences in `a` (no closed form); recorded through igamma at higher orders
    if ctx.xp.IS_TENSOR:
        h = make_tensor(1e-5 * np.maximum(1.0, np.abs(a._data)), None, 0, a.dtype)
        return (apply(IGAMMA, (a + h, x)) - apply(IGAMMA, (a - h, x))) / (2 * h)
    return K.igamma_da(a.astype(np.float64), x.astype(np.float64)).astype(a.dtype)


def _igamma_bwd(sign):
    def backward(ctx, g):
        a, x = ctx.saved[0], ctx.saved[1]
        na, nx = ctx.needs_input_grad
        return (sign * g * _igamma_da(ctx, a, x) if na else None,
                sign * g * _igamma_dx(ctx, a, x) if nx else None)
    return backward


IGAMMA = define("special_igamma", _kernel_forward(K.igamma, 2), _igamma_bwd(1))
IGAMMAC = define("special_igammac", _kernel_forward(K.igammac, 2), _igamma_bwd(-1))


def _betainc_bwd(ctx, g):
    a, b, x, out = ctx.saved
    xp = ctx.xp
    lg = lambda t: _eval(ctx, lgamma, K.lgamma, t)  # noqa: E731
    log_dx = (a - 1) * xp.log(x) + (b - 1) * xp.log(1 - x) + lg(a + b) - lg(a) - lg(b)
    return None, None, g * xp.exp(log_dx)


BETAINC = define("special_betainc", _kernel_forward(K.betainc, 3), _betainc_bwd)


def zeta(input, other):
    """Mirrors `mindspore.ops.zeta(input, other)`: Hurwitz's zeta(input, other); a Python
    number for `input` takes `other`'s dtype. Differentiable in `other`."""
    if isinstance(input, (int, float)) and isinstance(other, TensorBuffer):
        input = make_tensor(np.full(other.shape, input, other._data.dtype), None, 0, other.dtype)
    x, q = _pair("Zeta", "x", "q", input, other)
    return apply(ZETA, (x, q))


def igamma(input, other):
    """Mirrors `mindspore.ops.igamma(input, other)`: the regularized lower incomplete gamma
    P(input, other); differentiable in `other`."""
    return apply(IGAMMA, _pair("Igamma", "a", "x", input, other))


def igamma_grad_a(a, x):
    """d igamma(a, x) / da, MindSpore's `_grad_ops.IgammaGradA` (not differentiable, as
    MindSpore's)."""
    a, x = _pair("IgammaGradA", "a", "x", a, x)
    a_arr, x_arr = np.broadcast_arrays(a._data.astype(np.float64), x._data.astype(np.float64))
    out = K.igamma_da(a_arr, x_arr).astype(a._data.dtype)
    return make_tensor(out, None, 0, a.dtype)


def igammac(input, other):
    """Mirrors `mindspore.ops.igammac`: 1 - igamma; differentiable in `other`."""
    return apply(IGAMMAC, _pair("Igammac", "a", "x", input, other))


def betainc(a, b, x):
    """The regularized incomplete beta I_x(a, b) (MindSpore's Betainc primitive);
    differentiable in `x`."""
    for name, v in (("a", a), ("b", b), ("x", x)):
        C.dtype_in("Betainc", name, v, "f", "{Tensor[Float32], Tensor[Float64]}")
    if not a.dtype == b.dtype == x.dtype:
        raise TypeError(f"For 'Betainc', 'a', 'b' and 'x' must have one dtype, but got "
                        f"{a.dtype}, {b.dtype} and {x.dtype}.")
    return apply(BETAINC, (a, b, x))


def mvlgamma(input, p):
    """Mirrors `mindspore.ops.mvlgamma(input, p)`: the multivariate log-gamma of dimension
    `p`; every element must exceed (p - 1) / 2."""
    C.integer("mvlgamma", "p", p)
    if p < 1:
        raise ValueError(f"For 'mvlgamma', 'p' must be greater than or equal to 1, but got {p}.")
    x = _float_input("Mvlgamma", "x", input)
    if x.size and np.any(x._data <= (p - 1) / 2):
        raise ValueError(f"For 'Mvlgamma', all elements of 'x' must be greater than "
                         f"(p-1)/2 = {(p - 1) / 2}.")
    total = p * (p - 1) / 4 * math.log(math.pi)
    for j in range(p):
        total = lgamma(x - j / 2) + total
    return total
