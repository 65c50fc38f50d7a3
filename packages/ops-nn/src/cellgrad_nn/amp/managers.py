"""The loss-scale managers `mindspore.amp` re-exports from `mindspore.train` (same objects)."""

from cellgrad_nn.train.loss_scale_manager import (
                                                  DynamicLossScaleManager,
                                                  FixedLossScaleManager,
                                                  LossScaleManager,
)

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]
