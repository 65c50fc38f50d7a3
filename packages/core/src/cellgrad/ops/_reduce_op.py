"""`ops.ReduceOp`: the names of the collectives' element-wise reductions.

In the core, not in cellgrad-distributed, because single-process code names it too (metrics
and callbacks that all-reduce only when a group exists) and must import without MPI.
"""


class ReduceOp:
    """Mirrors `mindspore.ops.ReduceOp`: the element-wise reductions of the collectives."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
