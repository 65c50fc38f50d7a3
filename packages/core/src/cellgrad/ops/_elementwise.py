"""Elementwise ops: arithmetic, math functions, comparisons, logic. Forward and backward
of each primitive sit on one line of a table where the rule is one line."""

import numbers

import numpy as np

from cellgrad._core._buffer import (
    SAVE_INPUTS,
    SAVE_NONE,
    SAVE_OUTPUT,
    TensorBuffer,
    apply_binary,
    apply_unary,
)
from cellgrad.ops._call_errors import bad_call, prim_name
from cellgrad.ops._registry import (
    PROMOTE_ARITH,
    PROMOTE_COMPARE,
    PROMOTE_DIV,
    PROMOTE_FLOAT,
    PROMOTE_NONE,
    define,
    pass_gradient,
)


def _ufunc_forward(ufunc, save):
    """A forward that calls `ufunc`; `apply` sees `.ufunc`/`.save` and calls it directly."""
    if save == SAVE_INPUTS:
        def forward(*xs):
            return ufunc(*xs), xs
    elif save == SAVE_OUTPUT:
        def forward(*xs):
            out = ufunc(*xs)
            return out, (out,)
    else:
        def forward(*xs):
            return ufunc(*xs), None
    forward.ufunc = ufunc
    forward.save = save
    return forward


def _binary(ufunc):
    return _ufunc_forward(ufunc, SAVE_INPUTS)


def _unary_saving_input(ufunc):
    return _ufunc_forward(ufunc, SAVE_INPUTS)


def _unary_saving_output(ufunc):
    return _ufunc_forward(ufunc, SAVE_OUTPUT)


def _no_save(ufunc):
    return _ufunc_forward(ufunc, SAVE_NONE)


def _mul_bwd(ctx, g):
    x, y = ctx.saved
    nx, ny = ctx.needs_input_grad
    return (g * y if nx else None), (g * x if ny else None)


def _div_bwd(ctx, g):
    x, y = ctx.saved
    nx, ny = ctx.needs_input_grad
    return (g / y if nx else None), (-g * x / (y * y) if ny else None)


def _mod_bwd(ctx, g):
    # MindSpore's FloorMod gradient: 1 for x, -floor(x / y) for y
    from cellgrad.ops._ew_math2 import _floor_q

    x, y = ctx.saved
    nx, ny = ctx.needs_input_grad
    return (g if nx else None), (-g * _floor_q(ctx.xp, x, y) if ny else None)


def _sign(x):
    # MindSpore's Sign kernel gives 0 for NaN (numpy's sign keeps NaN)
    out = np.sign(x)
    if out.dtype.kind == "f" and np.isnan(out).any():
        out = np.where(np.isnan(out), 0, out).astype(out.dtype)
    return out


def _pow_bwd(ctx, g):
    x, y = ctx.saved
    nx, ny = ctx.needs_input_grad
    xp = ctx.xp
    gx = g * y * x ** (y - 1) if nx else None
    gy = None
    if ny:
        safe = xp.where(x > 0, x, 1)
        gy = g * x**y * xp.log(safe)
    return gx, gy


# tanh' = 1 - out², sigmoid' = out (1 - out), written without a Python scalar operand:
# numpy takes twice as long for `1 - array` as for an array-array op on small arrays.
def _tanh_bwd(ctx, g):
    (out,) = ctx.saved
    return g - g * out * out


def _sigmoid_bwd(ctx, g):
    (out,) = ctx.saved
    t = g * out
    return t - t * out


def _extreme_grads(ctx, g, x_loses, y_loses):
    # As MindSpore's (and PyTorch's) Maximum/Minimum grads: a tie gives each input half the
    # gradient; an unordered pair (a NaN) gives each the whole of it.
    x, y = ctx.saved
    nx, ny = ctx.needs_input_grad
    tie = x == y
    if ctx.xp.IS_TENSOR or tie.any():  # numpy: skip the select when nothing ties (most calls)
        g = ctx.xp.where(tie, g * 0.5, g)
    return (g * ~x_loses if nx else None), (g * ~y_loses if ny else None)


def _maximum_bwd(ctx, g):
    x, y = ctx.saved
    return _extreme_grads(ctx, g, x < y, x > y)


def _minimum_bwd(ctx, g):
    x, y = ctx.saved
    return _extreme_grads(ctx, g, x > y, x < y)


_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))


def _reciprocal_bwd(ctx, g):
    (out,) = ctx.saved
    return -g * out * out


def _asin_bwd(ctx, g):
    (x,) = ctx.saved
    return g * (1 - x * x) ** -0.5


def _abs_bwd(ctx, g):
    (x,) = ctx.saved
    if x.dtype.kind in ("c", 3):  # numpy's or cellgrad's complex kind: |z| is not holomorphic
        from cellgrad.ops._complex import abs_cotangent

        return abs_cotangent(ctx.xp, x, g)
    return g * ctx.xp.sign(x)


def _atan2_bwd(ctx, g):
    y, x = ctx.saved
    r2 = x * x + y * y
    return g * x / r2, -g * y / r2


_SPECS = {
    # name: (forward, backward, promote)
    "add": (_no_save(np.add), pass_gradient, PROMOTE_ARITH),
    "sub": (_no_save(np.subtract), lambda ctx, g: (g, -g), PROMOTE_ARITH),
    "mul": (_binary(np.multiply), _mul_bwd, PROMOTE_ARITH),
    "div": (_binary(np.true_divide), _div_bwd, PROMOTE_DIV),
    "pow": (_binary(np.power), _pow_bwd, PROMOTE_ARITH),
    "maximum": (_binary(np.maximum), _maximum_bwd, PROMOTE_ARITH),
    "minimum": (_binary(np.minimum), _minimum_bwd, PROMOTE_ARITH),
    "neg": (_no_save(np.negative), lambda ctx, g: -g, PROMOTE_NONE),
    "abs": (_unary_saving_input(np.abs), _abs_bwd, 0),
    "exp": (_unary_saving_output(np.exp), lambda ctx, g: g * ctx.saved[0], PROMOTE_FLOAT),
    "log": (_unary_saving_input(np.log), lambda ctx, g: g / ctx.saved[0], PROMOTE_FLOAT),
    "sqrt": (
        _unary_saving_output(np.sqrt),
        lambda ctx, g: g / (2 * ctx.saved[0]),
        PROMOTE_FLOAT,
    ),
    "rsqrt": (
        _unary_saving_output(lambda x: 1 / np.sqrt(x)),
        lambda ctx, g: g * -0.5 * ctx.saved[0] ** 3,
        PROMOTE_FLOAT,
    ),
    "sin": (_unary_saving_input(np.sin), lambda ctx, g: g * ctx.xp.cos(ctx.saved[0]), 3),
    "cos": (_unary_saving_input(np.cos), lambda ctx, g: -g * ctx.xp.sin(ctx.saved[0]), 3),
    "tanh": (_unary_saving_output(np.tanh), _tanh_bwd, PROMOTE_FLOAT),
    "sigmoid": (
        _unary_saving_output(lambda x: 1 / (1 + np.exp(-x))),
        _sigmoid_bwd,
        PROMOTE_FLOAT,
    ),
    "square": (_unary_saving_input(np.square), lambda ctx, g: g * 2 * ctx.saved[0], 0),
    "reciprocal": (_unary_saving_output(np.reciprocal), _reciprocal_bwd, PROMOTE_FLOAT),
    "log1p": (_unary_saving_input(np.log1p), lambda ctx, g: g / (1 + ctx.saved[0]), 3),
    "expm1": (_unary_saving_output(np.expm1), lambda ctx, g: g * (ctx.saved[0] + 1), 3),
    "log2": (_unary_saving_input(np.log2), lambda ctx, g: g / (ctx.saved[0] * _LN2), 3),
    "log10": (_unary_saving_input(np.log10), lambda ctx, g: g / (ctx.saved[0] * _LN10), 3),
    "exp2": (_unary_saving_output(np.exp2), lambda ctx, g: g * ctx.saved[0] * _LN2, 3),
    "sinh": (_unary_saving_input(np.sinh), lambda ctx, g: g * ctx.xp.cosh(ctx.saved[0]), 3),
    "cosh": (_unary_saving_input(np.cosh), lambda ctx, g: g * ctx.xp.sinh(ctx.saved[0]), 3),
    "asin": (_unary_saving_input(np.arcsin), _asin_bwd, PROMOTE_FLOAT),
    "acos": (_unary_saving_input(np.arccos), lambda ctx, g: -_asin_bwd(ctx, g), 3),
    "atan": (_unary_saving_input(np.arctan), lambda ctx, g: g / (1 + ctx.saved[0] ** 2), 3),
    "atan2": (_binary(np.arctan2), _atan2_bwd, PROMOTE_FLOAT),
    "floor_div": (_no_save(np.floor_divide), None, PROMOTE_ARITH),
    "mod": (_binary(np.mod), _mod_bwd, PROMOTE_ARITH),
    "sign": (_no_save(_sign), None, PROMOTE_NONE),
    "floor": (_no_save(np.floor), None, PROMOTE_FLOAT),
    "ceil": (_no_save(np.ceil), None, PROMOTE_FLOAT),
    "trunc": (_no_save(np.trunc), None, PROMOTE_FLOAT),
    "round": (_no_save(np.round), None, PROMOTE_NONE),
    "lt": (_no_save(np.less), None, PROMOTE_COMPARE),
    "le": (_no_save(np.less_equal), None, PROMOTE_COMPARE),
    "gt": (_no_save(np.greater), None, PROMOTE_COMPARE),
    "ge": (_no_save(np.greater_equal), None, PROMOTE_COMPARE),
    "eq": (_no_save(np.equal), None, PROMOTE_COMPARE),
    "ne": (_no_save(np.not_equal), None, PROMOTE_COMPARE),
    "isnan": (_no_save(np.isnan), None, PROMOTE_NONE),
    "isinf": (_no_save(np.isinf), None, PROMOTE_NONE),
    "isfinite": (_no_save(np.isfinite), None, PROMOTE_NONE),
    "logical_and": (_no_save(np.logical_and), None, PROMOTE_NONE),
    "logical_or": (_no_save(np.logical_or), None, PROMOTE_NONE),
    "logical_xor": (_no_save(np.logical_xor), None, PROMOTE_NONE),
    "logical_not": (_no_save(np.logical_not), None, PROMOTE_NONE),
    "bitwise_and": (_no_save(np.bitwise_and), None, PROMOTE_ARITH),
    "bitwise_or": (_no_save(np.bitwise_or), None, PROMOTE_ARITH),
    "bitwise_xor": (_no_save(np.bitwise_xor), None, PROMOTE_ARITH),
}

OPS = {name: define(name, *spec) for name, spec in _SPECS.items()}


def _clamp_fwd(x, lo, hi):
    if lo is None and hi is None:
        raise ValueError("For 'clamp', 'min' and 'max' cannot both be None.")
    # None is never saved: the engine could take it for the input it is identical to.
    bounds = tuple(b for b in (lo, hi) if b is not None)
    return np.clip(x, lo, hi), (x, lo is not None, hi is not None, *bounds)


def _clamp_bwd(ctx, g):
    # clip is min(max(x, lo), hi): where lo > hi the result (and the gradient) is hi's.
    x, has_lo, has_hi, *bounds = ctx.saved
    lo = bounds[0] if has_lo else None
    hi = bounds[-1] if has_hi else None
    below = above = None
    if hi is not None:
        above = x > hi
        if lo is not None:
            above = above | (lo > hi)
    if lo is not None:
        below = x < lo
        if above is not None:
            below = below & ~above
    if below is None:
        inside = ~above
    elif above is None:
        inside = ~below
    else:
        inside = ~(below | above)
    return (
        g * inside,
        None if below is None else g * below,
        None if above is None else g * above,
    )


CLAMP = define("clamp", _clamp_fwd, _clamp_bwd, PROMOTE_ARITH)


def unary(name, arg="input"):
    """The public function for the elementwise op `name` (one Tensor input named `arg`, as
    MindSpore names it: `input` or `x`)."""
    op = OPS[name]

    def run(x):
        # MindSpore takes a Tensor here; Python numbers are accepted too (a superset)
        if type(x) is list or type(x) is tuple:
            raise bad_call(prim_name(name), ((arg, x),), ("Tensor",))
        try:
            return apply_unary(op, x)
        except TypeError as e:
            if isinstance(x, TensorBuffer):
                raise
            raise bad_call(prim_name(name), ((arg, x),), ("Tensor",)) from e

    if arg == "x":
        def fn(x):
            return run(x)
    else:
        def fn(input):
            return run(input)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}`: elementwise {name}."
    return fn


def binary(name, args=("input", "other")):
    """The public function for the elementwise op `name` (two inputs, broadcast), its
    arguments named as MindSpore names them (`input, other` or `x, y`)."""
    op = OPS[name]
    kinds = "bool, Tensor" if name.startswith("logical") else "Number, Tensor"

    def run(x, y):
        try:
            return apply_binary(op, x, y)
        except TypeError as e:
            if all(isinstance(v, (TensorBuffer, numbers.Number)) for v in (x, y)):
                raise
            raise bad_call(prim_name(name), tuple(zip(args, (x, y))), (kinds, kinds)) from e

    if args == ("x", "y"):
        def fn(x, y):
            return run(x, y)
    else:
        def fn(input, other):
            return run(input, other)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}`: elementwise {name} with broadcasting."
    return fn
