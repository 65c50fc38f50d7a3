"""Optimizer wrappers that exist only for many-device or Ascend training:
`nn.AdaSumByGradWrapCell`, `nn.AdaSumByDeltaWeightWrapCell` (AdaSum needs 16 or more devices, a
power of 2) and `nn.OptTFTWrapper` (MindIO fault tolerance on Ascend). They check their
arguments as MindSpore does and then raise the error MindSpore raises in a single CPU process,
saying what to use instead."""

import os

from cellgrad.nn import Cell
from cellgrad_nn.optim.optimizer import Optimizer


def _check_adasum(cls_name, optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For '{cls_name}', the type of 'optimizer' should be 'Optimizer', but "
                        f"got '{type(optimizer).__name__}'.")
    import cellgrad

    if cellgrad.get_auto_parallel_context("parallel_mode") == "stand_alone":
        raise RuntimeError("Stand alone mode is not supported to apply adasum.")
    from cellgrad import communication

    size = communication.get_group_size()
    if size < 16 or size & (size - 1):
        raise RuntimeError("The device_num must be at least 16 and must be the power of 2 when "
                           "applying adasum.")
    raise RuntimeError(f"For '{cls_name}', AdaSum's hierarchical reduction is not implemented "
                       "by cellgrad-distributed; average the gradients with "
                       "nn.DistributedGradReducer instead.")


class AdaSumByGradWrapCell(Cell):
    """Mirrors `mindspore.nn.AdaSumByGradWrapCell` (16+ devices only: in a single process it
    raises MindSpore's RuntimeError)."""

    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        _check_adasum("AdaSumByGradWrapCell", optimizer)


class AdaSumByDeltaWeightWrapCell(Cell):
    """Mirrors `mindspore.nn.AdaSumByDeltaWeightWrapCell` (16+ devices only: in a single
    process it raises MindSpore's RuntimeError)."""

    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        _check_adasum("AdaSumByDeltaWeightWrapCell", optimizer)


class OptTFTWrapper(Optimizer):
    """Mirrors `mindspore.nn.OptTFTWrapper` (MindIO training fault tolerance, Ascend only):
    after MindSpore's checks it raises ValueError on the CPU; use the wrapped optimizer
    directly (and `train.ModelCheckpoint` to resume after a failure)."""

    def __init__(self, opt, **kwargs):
        if not isinstance(opt, Optimizer):
            raise TypeError(f"For 'OptTFTWrapper', the argument 'opt' must be Optimizer type, "
                            f"but got {type(opt)}.")
        tft_env = os.getenv("MS_ENABLE_TFT", "")
        if ("TTP:1" not in tft_env) and ("UCE:1" not in tft_env) and ("ARF:1" not in tft_env):
            raise ValueError("MindIO TFT regitster need custom switch on"
                             "[MS_ENABLE_TFT='{TTP:1,UCE:1,ARF:1}']!")
        raise ValueError("MindIO adataper only support on Ascend device! (cellgrad runs on the "
                         "CPU: use the wrapped optimizer directly, and train.ModelCheckpoint to "
                         "resume after a failure.)")
