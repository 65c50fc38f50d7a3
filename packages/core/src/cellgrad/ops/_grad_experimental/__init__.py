"""Mirrors `mindspore.ops._grad_experimental`: the registry MindSpore's Python bprops are
registered in (`grad_base`) and the shape helpers of its array / math bprops that MindSpore's
tests call directly (`grad_array_ops`, `grad_math_ops`).

cellgrad's own gradients live beside each op's forward (`cellgrad.ops._registry`). A function
registered here is found by `get_bprop_fn`; as in MindSpore 2.10's PyNative mode, registering
does not change a primitive's gradient (a user Primitive gets one from a Cell's `bprop` method
or `ops.Custom(..., bprop=...)`).
"""

from cellgrad.ops._grad_experimental import grad_array_ops, grad_math_ops  # noqa: F401
from cellgrad.ops._grad_experimental.grad_base import get_bprop_fn, get_taylor_fprop_fn

__all__ = ["get_bprop_fn", "get_taylor_fprop_fn"]
