"""`nn.DistributedGradReducer`: all-reduce the gradients of data-parallel training."""

from __future__ import annotations

import contextlib

from cellgrad._core._buffer import make_tensor

from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_distributed import parallel_context, world
from cellgrad_distributed.buckets import DEFAULT_BUCKET_BYTES, GradBuckets
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

_WHERE = "DistributedGradReducer"


class DistributedGradReducer(Cell):
    """Mirrors `mindspore.nn.DistributedGradReducer`: `reducer(grads)` sums each gradient over
    the processes of `group` (divided by `degree` when `mean`) and returns them in order.

    `mean` None reads `gradients_mean` from the auto-parallel context; `degree` None is the
    group's size. Gradients travel in flat buckets (`comm_fusion`'s allreduce 'size' in MB,
    default 1 MB), one in-place MPI all-reduce each. Inside `with reducer.overlap():` the
    backward walk itself fills the buckets (rules that can write a gradient straight into its
    slot) and starts each all-reduce as soon as the bucket's last gradient is ready, while
    earlier layers are still being differentiated;
    `TrainOneStepCell` does this in data-parallel mode. The returned gradients are views of
    the buckets, valid until the next step. With the context's `parameter_broadcast`, the
    parameters take the values of the group's process 0 when the reducer is made.
    `fusion_type` is accepted and ignored.
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1,
                 group=HCCL_WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        params = list(parameters)
        for i, p in enumerate(params):
            if not isinstance(p, Tensor) or not hasattr(p, "name"):
                raise TypeError(f"For '{_WHERE}', 'parameters' must hold Parameters, but entry "
                                f"{i} is a {type(p).__name__}.")
        if degree is not None and (isinstance(degree, bool) or not isinstance(degree, int)
                                   or degree <= 0):
            raise ValueError(f"For '{_WHERE}', parameter 'degree' in DistributedGradReducer "
                             f"should large than 0 and be int, degree: {degree}.")
        self.mean = parallel_context.get_auto_parallel_context("gradients_mean") \
            if mean is None else bool(mean)
        self._group = world.member(group, _WHERE)
        self.degree = self._group.size if degree is None else degree
        self.group = group
        self.fusion_type = fusion_type
        self._names = [p.name for p in params]  # (a list of Parameters would be registered)
        # one slot per distinct parameter; `_slot[k]` is the slot of the k-th gradient
        unique, self._slot = {}, []
        for p in params:
            self._slot.append(unique.setdefault(id(p), len(unique)))
        distinct = list({id(p): p for p in params}.values())
        self._buckets = None
        self._outputs = None
        if self._group.size > 1:
            cap = parallel_context.bucket_bytes(DEFAULT_BUCKET_BYTES)
            self._buckets = GradBuckets(distinct, self._group, cap, _WHERE)
            self._buckets.scale = 1.0 / self.degree if self.mean else None
            self._buckets.attach()
            if parallel_context.get_auto_parallel_context("parameter_broadcast"):
                self._buckets.broadcast_parameters(0)
            self._outputs = [_output(p, v) for p, v in zip(distinct, self._buckets.views)]

    @contextlib.contextmanager
    def overlap(self):
        """Arm the gradient-ready hooks for the backward pass run inside the block."""
        buckets = self._buckets
        if buckets is None:
            yield
            return
        buckets.arm()
        try:
            yield
        finally:
            buckets.disarm()

    def construct(self, grads):
        single = isinstance(grads, Tensor)
        seq = (grads,) if single else tuple(grads)
        if len(seq) != len(self._slot):
            raise ValueError(f"For '{_WHERE}', got {len(seq)} gradients for "
                             f"{len(self._slot)} parameters.")
        for k, g in enumerate(seq):
            if not isinstance(g, Tensor):
                raise TypeError(f"For '{_WHERE}', gradient {k} (of parameter "
                                f"'{self._names[k]}') must be a Tensor, but got "
                                f"{type(g).__name__}.")
        if self._buckets is None:
            out = tuple(self._alone(g) for g in seq)
        else:
            first = {}
            for k, g in enumerate(seq):
                first.setdefault(self._slot[k], g._data)
            self._buckets.reduce([first[s] for s in range(len(first))])
            out = tuple(self._outputs[s].get() for s in self._slot)
        return out[0] if single else out

    def _alone(self, g):
        """A world of one: the sum is the gradient itself."""
        if not self.mean or self.degree == 1:
            return g
        return make_tensor(g._data * g._data.dtype.type(1.0 / self.degree), None, 0, g._dtype)

    @property
    def comm_wait_seconds(self):
        """Seconds spent blocked waiting for all-reduces at the end of steps (benchmarks)."""
        return 0.0 if self._buckets is None else self._buckets.wait_seconds


class _output:
    """The reduced gradient of one parameter: the bucket view itself (a cached Tensor), or
    a cast copy when the parameter's dtype is not the bucket's (float16 parameters)."""

    __slots__ = ("tensor", "view", "dtype", "np_dtype")

    def __init__(self, param, view):
        self.view = view
        self.dtype = param._dtype
        self.np_dtype = param._data.dtype
        same = view.dtype == self.np_dtype
        self.tensor = make_tensor(view, None, 0, self.dtype) if same else None

    def get(self):
        if self.tensor is not None:
            return self.tensor
        return make_tensor(self.view.astype(self.np_dtype), None, 0, self.dtype)
