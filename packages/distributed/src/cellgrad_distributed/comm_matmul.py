"""`ops.all_gather_matmul` and `ops.matmul_reduce_scatter`: mirrors MindSpore's fused
tensor-parallel ops as what they compute, an all-gather then a matmul and a matmul then a
reduce-scatter (one MPI collective each, differentiable through both)."""

from __future__ import annotations

from cellgrad.common.tensor import Tensor
from cellgrad.plugins import apply
from cellgrad_distributed import collectives, world
from cellgrad_distributed.primitives import check_group

__all__ = ["all_gather_matmul", "matmul_reduce_scatter"]


def _check(where, input, x2, group, world_size, bias, comm_turn, trans_input):
    for name, t in (("input", input), ("x2", x2)):
        if not isinstance(t, Tensor) or t.ndim != 2:
            raise TypeError(f"For '{where}', '{name}' must be a 2-D Tensor, but got "
                            f"{getattr(t, 'shape', type(t).__name__)}.")
    if input.dtype != x2.dtype:
        raise TypeError(f"For '{where}', 'x2' must have the dtype of 'input' ({input.dtype}), "
                        f"but got {x2.dtype}.")
    check_group(where, group)
    world.check_started(where)
    g = world.member(group, where)
    if world_size != g.size:
        raise ValueError(f"For '{where}', 'world_size' {world_size} must be the size of the "
                         f"group '{group}', {g.size}.")
    for name, value, allowed in (("bias", bias, None), ("comm_turn", comm_turn, 0),
                                 ("trans_input", trans_input, False)):
        if value is not allowed and value != allowed:
            raise ValueError(f"For '{where}', '{name}' supports only {allowed!r} (as "
                             f"MindSpore), but got {value!r}.")
    return g


def all_gather_matmul(input, x2, group, world_size, *, bias=None, gather_index=0,
                      gather_output=True, comm_turn=0, trans_input=False, trans_x2=False):
    """Mirrors `mindspore.ops.all_gather_matmul`: `(all_gather(input) @ x2, all_gather(input))`
    (the second a Tensor of shape (0,) when `gather_output` is False)."""
    from cellgrad import ops

    _check("all_gather_matmul", input, x2, group, world_size, bias, comm_turn, trans_input)
    if gather_index != 0:
        raise ValueError(f"For 'all_gather_matmul', 'gather_index' supports only 0 (as "
                         f"MindSpore), but got {gather_index!r}.")
    gathered = apply(collectives.ALL_GATHER, (input,), {"group": group})
    out = ops.matmul(gathered, x2.T if trans_x2 else x2)
    return out, gathered if gather_output else ops.zeros((0,), input.dtype)


def matmul_reduce_scatter(input, x2, group, world_size, *, reduce_op="sum", bias=None,
                          comm_turn=0, trans_input=False, trans_x2=False):
    """Mirrors `mindspore.ops.matmul_reduce_scatter`: `reduce_scatter(input @ x2)` along the
    rows (the row count must be a multiple of `world_size`)."""
    from cellgrad import ops

    g = _check("matmul_reduce_scatter", input, x2, group, world_size, bias, comm_turn,
               trans_input)
    if reduce_op != "sum":
        raise ValueError(f"For 'matmul_reduce_scatter', 'reduce_op' supports only 'sum' (as "
                         f"MindSpore), but got {reduce_op!r}.")
    if input.shape[0] % g.size:
        raise ValueError(f"For 'matmul_reduce_scatter', the rows of 'input' ({input.shape[0]}) "
                         f"must be a multiple of 'world_size' {g.size}.")
    product = ops.matmul(input, x2.T if trans_x2 else x2)
    return apply(collectives.REDUCE_SCATTER, (product,), {"op": "sum", "group": group})
