"""`ops.HookBackward` and `ops.InsertGradientOf`: identity ops whose backward calls a function.

Both are ops on the tape like any other (forward and backward side by side); the function
travels in the node's saved values, so the op objects are shared by every instance.
"""

import numbers

import numpy as np
from cellgrad._core._buffer import TensorBuffer

from cellgrad.ops._registry import Op, apply
from cellgrad.ops.primitives import Primitive
from cellgrad_hooks.invoke import call_in_backward, check_hook_fn, hook_name, to_grad, to_tensor

__all__ = ["HookBackward", "InsertGradientOf"]


def _describe(value):
    """MindSpore's name for a non-Tensor input's type (`Float32` for a Python float)."""
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int64"
    if isinstance(value, float):
        return "Float32"
    return type(value).__name__


# ---- HookBackward ----

def _hook_forward(*arrays, hook, meta):
    return (arrays if len(arrays) > 1 else arrays[0]), (hook, meta)


def _hook_backward(ctx, *grads):
    hook, meta = ctx.saved
    recorded = isinstance(grads[0], TensorBuffer)
    gs = tuple(to_tensor(g, m[1]) for g, m in zip(grads, meta))
    ret = call_in_backward(lambda: f"For 'HookBackward', the hook function '{hook_name(hook)}'",
                           hook, gs, recorded=recorded)
    if ret is None:
        return grads
    return tuple(to_grad(t, recorded) for t in _hook_result(ret, meta, hook))


def _hook_result(ret, meta, hook):
    """MindSpore's rules for what a HookBackward function returns, as one Tensor per input."""
    name = hook_name(hook)
    if len(meta) == 1:
        if isinstance(ret, tuple) and len(ret) == 1:
            ret = ret[0]
        if not isinstance(ret, TensorBuffer):
            raise TypeError(f"The output type of function: {name} should be a tensor but got "
                            f"{type(ret).__name__}.")
        ret = (ret,)
    else:
        if not isinstance(ret, tuple) or len(ret) == 1:
            raise TypeError("The output gradient should be a tuple! (HookBackward function "
                            f"'{name}' got {len(meta)} gradients and must return one per input)")
        if len(ret) != len(meta):
            raise ValueError(f"The tuple size of output gradient should be {len(meta)}, but it "
                             f"is {len(ret)}. (HookBackward function '{name}')")
        for r in ret:
            if not isinstance(r, TensorBuffer):
                raise TypeError(f"The output type of function: {name} should be a tensor but "
                                f"got {type(r).__name__}.")
    for r, (shape, dtype) in zip(ret, meta):
        if tuple(r.shape) != shape or r._dtype is not dtype:
            raise ValueError(
                f"The output type of function: {name} is not consistent with the expected, it "
                f"should be Tensor shape:{list(shape)} {dtype}, but got Tensor shape:"
                f"{list(r.shape)} {r.dtype}")
    return ret


_HOOK_OP = Op("HookBackward", _hook_forward, _hook_backward)


class HookBackward(Primitive):
    """Mirrors `mindspore.ops.HookBackward`: identity forward; in the backward pass
    `hook_fn(grads)` gets the gradients of the outputs as a tuple (one per input) and may
    return a Tensor or a tuple that replaces them (None keeps them).

    Unlike MindSpore the hook also runs inside `jit` (which runs eagerly here). `cell_id` is
    accepted and kept as an attribute; MindSpore warns it will be removed.
    """

    def __init__(self, hook_fn, cell_id=""):
        super().__init__(type(self).__name__)
        check_hook_fn(hook_fn)
        self.cell_id = cell_id
        self.hook_fn = hook_fn

    def __call__(self, *inputs):
        for v in inputs:
            if not isinstance(v, TensorBuffer):
                raise TypeError(f"For 'HookBackward', the element of 'input' must be Tensor, but "
                                f"got {_describe(v)}.")
        if not inputs:
            return ()
        meta = tuple((tuple(t.shape), t._dtype) for t in inputs)
        out = apply(_HOOK_OP, inputs, {"hook": self.hook_fn, "meta": meta})
        outs = out if isinstance(out, tuple) else (out,)
        for o, t in zip(outs, inputs):
            o._dtype = t._dtype
        return out

    def __repr__(self):
        return f"Prim[HookBackward]<cell_id={self.cell_id}>"


# ---- InsertGradientOf ----

def _insert_forward(x, *, f, meta):
    return x, (f, meta)


def _insert_backward(ctx, g):
    f, (shape, dtype) = ctx.saved
    recorded = isinstance(g, TensorBuffer)
    ret = call_in_backward(lambda: f"For 'InsertGradientOf', the function '{hook_name(f)}'",
                           f, to_tensor(g, dtype), recorded=recorded)
    if ret is None:
        return g
    return to_grad(_insert_result(ret, shape, dtype, f), recorded)


def _insert_result(ret, shape, dtype, f):
    """The new gradient: a Tensor of the input's shape (cast to its dtype) or a number."""
    from cellgrad.common.tensor import Tensor
    from cellgrad.ops import functional as F

    if isinstance(ret, (numbers.Number, np.generic)) and not isinstance(ret, bool):
        return Tensor(np.full(shape, ret, dtype.np_dtype), dtype=dtype)
    if not isinstance(ret, TensorBuffer):
        raise TypeError(f"For 'InsertGradientOf', the function '{hook_name(f)}' must return the "
                        f"new gradient as a Tensor or a number (or None to keep it), but it "
                        f"returned {type(ret).__name__}.")
    if tuple(ret.shape) != shape:
        raise ValueError(f"For 'InsertGradientOf', the function '{hook_name(f)}' returned a "
                         f"gradient of shape {tuple(ret.shape)} for an input of shape {shape}; "
                         "it must keep the shape.")
    return ret if ret._dtype is dtype else F.cast(ret, dtype)


_INSERT_OP = Op("InsertGradientOf", _insert_forward, _insert_backward)


class InsertGradientOf(Primitive):
    """Mirrors `mindspore.ops.InsertGradientOf`: identity forward; in the backward pass `f(dx)`
    gets the gradient Tensor and returns the new one (a Tensor, or a number filling the input's
    shape; None keeps it). `f` may be any Python callable, a bound method included.

    MindSpore does not check what `f` returns; here the gradient keeps the input's shape and is
    cast to its dtype, and a wrong type or shape is an error naming `f`.
    """

    def __init__(self, f):
        super().__init__(type(self).__name__)
        check_hook_fn(f)
        self.f = f

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError(f"For 'InsertGradientOf', the number of input should be 1, but "
                               f"got {len(inputs)}")
        x = inputs[0]
        if not isinstance(x, TensorBuffer):
            return x  # MindSpore passes non-Tensors through
        out = apply(_INSERT_OP, (x,), {"f": self.f, "meta": (tuple(x.shape), x._dtype)})
        out._dtype = x._dtype
        return out

    def __repr__(self):
        return (f"Prim[InsertGradientOf]<f={self.f!r}, side_effect_backprop=True, "
                "side_effect_backprop_mem=True>")
