"""MindSpore's collective primitives: `ops.AllReduce`, `ops.AllGather`, `ops.ReduceScatter`
and `ops.Broadcast`, over the ops of `collectives` (with backward rules). `ops.ReduceOp`, the
names of the reductions, is the core's (single-process code names it too)."""

from __future__ import annotations

from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive, ReduceOp
from cellgrad.plugins import apply
from cellgrad_distributed import collectives
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["AllGather", "AllReduce", "Broadcast", "ReduceOp", "ReduceScatter"]


def check_op(where, op):
    if not isinstance(op, str):
        raise TypeError(f"For '{where}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in collectives.REDUCE_OPS:
        raise ValueError(f"For '{where}', the 'op' must be one of "
                         f"{', '.join(collectives.REDUCE_OPS)}, but got {op!r}.")
    return op


def check_group(where, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{where}', the type of 'group' should be 'str', but got type "
                        f"'{type(group).__name__}'.")
    return group


def check_tensor(where, name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{where}', '{name}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


class AllReduce(Primitive):
    """Mirrors `mindspore.ops.AllReduce`: `op` over the group's inputs, on every process.

    Its gradient is the all-reduce (sum) of the output gradients; with 'max'/'min' it goes to
    the processes that hold the extreme value, with 'prod' it is divided by the input.
    """

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__(type(self).__name__)
        self.op = check_op("AllReduce", op)
        self.group = check_group("AllReduce", group)

    def __call__(self, x):
        check_tensor("AllReduce", "x", x)
        return apply(collectives.ALL_REDUCE, (x,), {"op": self.op, "group": self.group})

    def __repr__(self):
        return (f"Prim[AllReduce]<op={self.op}, group={self.group}, fusion=0, index=0, "
                f"no_eliminate=True>")


class AllGather(Primitive):
    """Mirrors `mindspore.ops.AllGather`: the group's inputs concatenated along axis 0 in rank
    order; its gradient is the reduce-scatter (sum) of the output gradient."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__(type(self).__name__)
        self.group = check_group("AllGather", group)

    def __call__(self, x):
        check_tensor("AllGather", "x", x)
        return apply(collectives.ALL_GATHER, (x,), {"group": self.group})

    def __repr__(self):
        return (f"Prim[AllGather]<group={self.group}, rank_size={_size(self.group)}, fusion=0, "
                f"mean_flag=False, no_eliminate=True>")


class ReduceScatter(Primitive):
    """Mirrors `mindspore.ops.ReduceScatter`: `op` over the group's inputs, split along axis 0,
    process r keeping block r; its gradient is the all-gather of the output gradients."""

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__(type(self).__name__)
        if not isinstance(op, str):
            raise TypeError(f"For 'ReduceScatter', the type of 'op' should be 'str', but got "
                            f"type '{type(op).__name__}'.")
        self.op = check_op("ReduceScatter", op)
        self.group = check_group("ReduceScatter", group)

    def __call__(self, input_x):
        check_tensor("ReduceScatter", "input_x", input_x)
        return apply(collectives.REDUCE_SCATTER, (input_x,), {"op": self.op, "group": self.group})

    def __repr__(self):
        return (f"Prim[ReduceScatter]<op={self.op}, group={self.group}, "
                f"rank_size={_size(self.group)}, fusion=0, no_eliminate=True>")


class Broadcast(Primitive):
    """Mirrors `mindspore.ops.Broadcast`: process `root_rank`'s (a rank of `group`) Tensors on
    every process; takes and returns a tuple. Its gradient is the sum of the output gradients
    on the root and zero elsewhere (MindSpore passes each output gradient through)."""

    def __init__(self, root_rank, group=HCCL_WORLD_COMM_GROUP):
        super().__init__(type(self).__name__)
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"For 'Broadcast', the type of 'root_rank' should be 'int', but got "
                            f"type '{type(root_rank).__name__}'.")
        self.root_rank = root_rank
        self.group = check_group("Broadcast", group)

    def __call__(self, input_x):
        if isinstance(input_x, Tensor) or not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', 'input_x' must be a tuple of Tensors, but got "
                            f"{type(input_x).__name__}.")
        for i, x in enumerate(input_x):
            check_tensor("Broadcast", f"input_x[{i}]", x)
        root = check_root("Broadcast", "root_rank", self.root_rank, self.group)
        return tuple(apply(collectives.BROADCAST, (x,), {"root": root, "group": self.group})
                     for x in input_x)

    def __repr__(self):
        return f"Prim[Broadcast]<root_rank={self.root_rank}, group={self.group}, no_eliminate=True>"


def check_root(where, name, root, group):
    """A group rank in range for `group`: ValueError naming the group's size otherwise."""
    from cellgrad_distributed import world

    size = world.resolve(group, where).size
    if not 0 <= root < size:
        raise ValueError(f"For '{where}', '{name}' {root} is out of range: the group "
                         f"'{group}' has {size} process{'es' if size != 1 else ''} (ranks 0 to "
                         f"{size - 1}).")
    return root


def _size(group):
    from cellgrad_distributed import world

    try:
        return world.resolve(group, "repr").size
    except (TypeError, ValueError):
        return 1
