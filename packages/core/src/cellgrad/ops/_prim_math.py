"""Math primitives with their own ops: Erf, Mod (C's fmod) and Einsum; forward and backward
side by side."""

import math
import string

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import dtype_of_array
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._registry import PROMOTE_ARITH, apply, define
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["Einsum", "Erf", "Mod"]

_ERF = np.vectorize(math.erf, otypes=[np.float64])
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf_fwd(x):
    return _ERF(x).astype(x.dtype), (x,)


def _erf_bwd(ctx, g):
    (x,) = ctx.saved
    return g * _TWO_OVER_SQRT_PI * ctx.xp.exp(-(x * x))


ERF = define("Erf", _erf_fwd, _erf_bwd)


class Erf(Primitive):
    """Mirrors `mindspore.ops.Erf()(x)`: the error function (float inputs)."""

    def __call__(self, x):
        return apply(ERF, (C.floating("Erf", "x", x),))


def _mod_fwd(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(x, y), (x, y)


def _mod_bwd(ctx, g):
    # MindSpore's rule: d/dy = -floor(x / y), though fmod truncates.
    x, y = ctx.saved
    gy = None
    if ctx.needs_input_grad[1]:
        if ctx.xp.IS_TENSOR:  # floor is piecewise constant: a constant to higher orders
            gy = -g * make_tensor(np.floor(x._data / y._data), None, 0, g.dtype)
        else:
            gy = -g * np.floor(x / y)
    return g, gy


MOD = define("Mod", _mod_fwd, _mod_bwd, PROMOTE_ARITH)


class Mod(Primitive):
    """Mirrors `mindspore.ops.Mod()(x, y)`: the remainder of truncated division (the sign of
    `x`, as C's fmod), with broadcasting."""

    def __call__(self, x, y):
        if not isinstance(x, TensorBuffer) and not isinstance(y, TensorBuffer):
            raise TypeError(f"For 'Mod', at least one of 'x' and 'y' must be a Tensor, but got "
                            f"{type(x).__name__} and {type(y).__name__}.")
        return apply(MOD, (x, y))


# ---- Einsum ----
def _parse(equation, shapes):
    """Explicit letters for every operand and the output ('...' spelled out)."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    specs = lhs.split(",")
    if len(specs) != len(shapes):
        raise ValueError(f"For 'Einsum', the equation '{equation}' has {len(specs)} operands, "
                         f"but {len(shapes)} Tensors were given.")
    free = [c for c in string.ascii_letters if c not in eq]
    nell = max((len(s) - len(sp.replace("...", "")) for sp, s in zip(specs, shapes)
                if "..." in sp), default=0)
    ell = "".join(free[:nell])
    full = []
    for sp, s in zip(specs, shapes):
        if "..." in sp:
            k = len(s) - len(sp.replace("...", ""))
            sp = sp.replace("...", ell[nell - k:])
        if len(sp) != len(s) or not all(c in string.ascii_letters for c in sp):
            raise ValueError(f"For 'Einsum', the subscripts '{sp}' do not match an operand of "
                             f"shape {tuple(s)} in '{equation}'.")
        full.append(sp)
    if arrow:
        out = out.replace("...", ell)
    else:
        letters = "".join(full)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                   and c not in ell))
    return full, out


def _einsum_fwd(*xs, specs, out):
    return np.einsum(",".join(specs) + "->" + out, *xs), (specs, out, *xs)


def _einsum_grad(xp, specs, out, xs, g, k):
    """The gradient for operand k: an einsum of g, the other operands, deltas for letters
    repeated in operand k and ones for letters only operand k has."""
    spec_k, sizes = specs[k], {}
    npdt = g._data.dtype if xp.IS_TENSOR else g.dtype
    for sp, x in zip(specs, xs):
        sizes.update(zip(sp, x.shape))
    free = iter(c for c in string.ascii_letters if c not in "".join(specs) + out)
    target, seen, terms, operands = "", set(), [out], [g]
    for i, (sp, x) in enumerate(zip(specs, xs)):
        if i != k:
            terms.append(sp)
            operands.append(x)
    present = set("".join(terms))
    for c in spec_k:
        if c in seen:
            d = next(free)
            terms.append(c + d)
            operands.append(np.eye(sizes[c], dtype=npdt))
            target += d
            continue
        seen.add(c)
        target += c
        if c not in present:
            terms.append(c)
            operands.append(np.ones(sizes[c], dtype=npdt))
    return _einsum(xp, terms, target, operands)


def _einsum(xp, specs, out, operands):
    if xp.IS_TENSOR:
        operands = [o if isinstance(o, TensorBuffer) else
                    make_tensor(o, None, 0, dtype_of_array(o)) for o in operands]
        return apply(EINSUM, tuple(operands), {"specs": tuple(specs), "out": out})
    return np.einsum(",".join(specs) + "->" + out, *operands)


def _einsum_bwd(ctx, g):
    specs, out, *xs = ctx.saved
    return tuple(_einsum_grad(ctx.xp, specs, out, xs, g, k) if need else None
                 for k, need in enumerate(ctx.needs_input_grad))


EINSUM = define("Einsum", _einsum_fwd, _einsum_bwd, PROMOTE_ARITH)


class Einsum(Primitive):
    """Mirrors `mindspore.ops.Einsum(equation)(x)`: `x` is a tuple of Tensors. MindSpore
    2.10 has no CPU kernel for it; here it runs everywhere, with gradients."""

    @prim_attr_register
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the type of 'equation' should be 'str', but got "
                            f"'{type(equation).__name__}'.")

    def __call__(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(
                isinstance(t, TensorBuffer) for t in x):
            raise TypeError(f"For 'Einsum', the input must be a non-empty tuple of Tensors, but "
                            f"got {type(x).__name__}.")
        for t in x[1:]:
            if t.dtype is not x[0].dtype:
                raise TypeError(f"For 'Einsum', all inputs must have the same dtype, but got "
                                f"{x[0].dtype} and {t.dtype}.")
        specs, out = _parse(self.equation, [t.shape for t in x])
        return apply(EINSUM, tuple(x), {"specs": tuple(specs), "out": out})
