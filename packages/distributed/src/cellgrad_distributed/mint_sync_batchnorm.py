"""`mint.nn.SyncBatchNorm`: the PyTorch-style SyncBatchNorm of `mindspore.mint.nn`, with
statistics over the processes of a group.

In training, one all-reduce (float64) per call sums, per channel, x, x² and the element count
over the group; the backward all-reduces the two sums the input gradient needs (the op of
`nn.SyncBatchNorm`), so N processes with batches of b give the outputs and gradients of one
process with the batch of N·b.
"""

from __future__ import annotations

from cellgrad_distributed import world
from cellgrad_distributed.sync_norm import blend_running, group_moments, sync_normalise
from cellgrad_distributed.world import GlobalComm
from cellgrad_nn.mint import functional as F
from cellgrad_nn.mint.cells import _BatchNorm


class SyncBatchNorm(_BatchNorm):
    """Mirrors `mindspore.mint.nn.SyncBatchNorm`: `process_group` is a group name (None: the
    world). Evaluation, and a group of one process, is `mint.nn.BatchNorm*`."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        if isinstance(num_features, bool) or not isinstance(num_features, int) or \
                num_features < 1:
            raise ValueError(f"For 'SyncBatchNorm', 'num_features' must be a positive int, but "
                             f"got {num_features!r}.")
        if momentum is not None and not 0 <= momentum <= 1:
            raise ValueError(f"For 'SyncBatchNorm', 'momentum' must be in range [0, 1], but got "
                             f"{momentum}.")
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        if process_group is not None and not isinstance(process_group, str):
            raise TypeError(f"For 'SyncBatchNorm', 'process_group' must be a group name (str) "
                            f"or None, but got {type(process_group).__name__}.")
        self.process_group = process_group if process_group else GlobalComm.WORLD_COMM_GROUP
        world.resolve(self.process_group, "SyncBatchNorm")  # as MindSpore: the group must exist

    def construct(self, input):
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(self.num_batches_tracked + 1)
            if self.momentum is None:  # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked.asnumpy())
        training = self.training or self.running_mean is None
        group = None
        if self.training:
            world.check_started("SyncBatchNorm")
            group = world.member(self.process_group, "SyncBatchNorm")
        if group is None or group.size == 1:
            mean, var = self.running_mean, self.running_var
            if mean is None:
                from cellgrad import ops

                mean = ops.zeros((self.num_features,), input.dtype)
                var = ops.ones((self.num_features,), input.dtype)
            return F.batch_norm(input, mean, var, self.weight, self.bias, training, factor,
                                self.eps)
        return self._synchronised(input, group, factor)

    def _synchronised(self, x, group, factor):
        mean, var, count = group_moments(x, group)
        if self.track_running_stats:
            blend_running(self.running_mean, mean, 1.0 - factor)
            blend_running(self.running_var, var * (count / max(count - 1, 1)), 1.0 - factor)
        return sync_normalise(x, self.weight, self.bias, mean, var, count, self.eps,
                              group.name)
