"""`nn.SyncBatchNorm`: batch normalisation with statistics over every process of a group.

Training all-reduces, per channel, the sums of x and x² (one call, float64) for the forward and
the sums of the two gradient terms for the backward, so N processes with batches of b
normalise exactly like one process with the batch of N·b.
"""

from __future__ import annotations

from cellgrad.dtype import float32
from cellgrad_distributed import management, world
from cellgrad_distributed.sync_norm import blend_running, group_moments, sync_normalise
from cellgrad_nn.functional.norm import batch_norm_checked
from cellgrad_nn.layers import _checks
from cellgrad_nn.layers.norm import _BatchNorm

_groups: dict = {}  # rank list -> the group made for it, shared by the layers


class SyncBatchNorm(_BatchNorm):
    """Mirrors `mindspore.nn.SyncBatchNorm`: BatchNorm over 2-D or 4-D inputs whose training
    statistics cover the processes of the group; `process_groups` (lists of world ranks)
    splits the processes into groups that each synchronise among themselves (None: all).
    Evaluation uses the moving statistics, as BatchNorm."""

    RANKS = (2, 4)
    LAYOUT = "(N, C) or (N, C, H, W)"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.process_groups = process_groups
        self.group = _sync_group(process_groups)

    def construct(self, x):
        _checks.input_tensor("SyncBatchNorm", x, self.RANKS, self.LAYOUT)
        _checks.channels("SyncBatchNorm", x, 1, self.num_features, "num_features")
        training = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if not training or self.group is None:
            # the moving statistics update in place: never the copy a to_float cell's read gives
            return batch_norm_checked("SyncBatchNorm", x, self._params["moving_mean"],
                                      self._params["moving_variance"], self.gamma, self.beta,
                                      training, 1.0 - self.momentum, self.eps)[0]
        return self._synchronised(x)

    def _synchronised(self, x):
        world.check_started("SyncBatchNorm")
        mean, var, count = group_moments(x, world.member(self.group, "SyncBatchNorm"))
        # MindSpore's momentum is the fraction of the moving value kept
        blend_running(self._params["moving_mean"], mean, self.momentum)
        blend_running(self._params["moving_variance"], var * (count / max(count - 1, 1)),
                      self.momentum)
        return sync_normalise(x, self.gamma, self.beta, mean, var, count, self.eps, self.group)

def _sync_group(process_groups):
    """The group this process synchronises in: the world, one of `process_groups`, or None
    when it would be alone."""
    if process_groups is None:
        return world.HCCL_WORLD_COMM_GROUP if world.world().size > 1 or \
            world.launched_size() > 1 else None
    if not isinstance(process_groups, list):
        raise TypeError(f"For 'SyncBatchNorm', 'process_groups' must be a list of lists of "
                        f"ranks, but got {type(process_groups).__name__}.")
    size = world.world().size
    seen = []
    for sub in process_groups:
        if not isinstance(sub, list):
            raise TypeError(f"For 'SyncBatchNorm', each entry of 'process_groups' must be a "
                            f"list of ranks, but got {sub!r}.")
        for r in sub:
            if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < size:
                raise ValueError(f"For 'SyncBatchNorm', rank id in process_groups must be in "
                                 f"[0, {size}), but got {r!r} in {process_groups}.")
        seen.extend(sub)
    if len(set(seen)) != len(seen):
        raise ValueError(f"For 'SyncBatchNorm', rank id in 'process_groups' must not be "
                         f"duplicated, but got {process_groups}.")
    me = world.world().rank
    mine = next((sub for sub in process_groups if me in sub), None)
    if mine is None or len(mine) < 2:
        return None
    key = tuple(mine)
    if key not in _groups:
        name = "syncbn_" + "_".join(map(str, mine))
        if name not in world._groups:
            management.create_group(name, list(mine))
        _groups[key] = name
    return _groups[key]
