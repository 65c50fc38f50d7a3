"""What training asks about data parallelism, through MindSpore's own names.

cellgrad-distributed provides them (`cellgrad.get_auto_parallel_context`,
`nn.DistributedGradReducer`, `cellgrad.communication.get_rank`); without it training is
single-process and these answer so. The interface a reducer offers beyond MindSpore's
`reducer(grads)` is one optional method, `overlap()`: a context manager around the forward and
backward pass inside which the reducer may start all-reducing gradients as they are produced.
"""

import contextlib

DATA_PARALLEL_MODES = ("data_parallel", "hybrid_parallel")


def _context(key, default):
    import cellgrad

    try:
        get = cellgrad.get_auto_parallel_context
    except AttributeError:  # cellgrad-distributed is not installed
        return default
    return get(key)


def parallel_mode():
    """The auto-parallel context's `parallel_mode` ('stand_alone' without the package)."""
    return _context("parallel_mode", "stand_alone")


def grad_reducer(weights):
    """MindSpore's TrainOneStepCell rule: in data (or hybrid) parallel mode a
    `nn.DistributedGradReducer` of `weights` with the context's `gradients_mean`; else None."""
    if parallel_mode() not in DATA_PARALLEL_MODES:
        return None
    from cellgrad import nn

    return nn.DistributedGradReducer(weights, _context("gradients_mean", False))


def backward_scope(reducer):
    """The reducer's `overlap` context manager, or a no-op one."""
    return getattr(reducer, "overlap", None) or contextlib.nullcontext


def rank_and_size():
    """(rank, group size) of this process in the world (0, 1 without cellgrad-distributed)."""
    from cellgrad import communication

    try:
        get_rank, get_size = communication.get_rank, communication.get_group_size
    except AttributeError:
        return 0, 1
    return get_rank(), get_size()


def is_main_process():
    """True except on the processes of rank > 0 of a multi-process job: logs, progress bars
    and checkpoints come from rank 0 only."""
    return rank_and_size()[0] == 0
