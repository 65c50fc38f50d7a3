"""`cellgrad.boost`, mirroring `mindspore.boost`: gradient accumulation.

MindSpore's other boost algorithms (`AutoBoost`, `LessBN`, `GradientFreeze`, `AdaSum`,
`DimReduce`, ...) tune Ascend graph-mode training; cellgrad does not provide them.
"""

from cellgrad.boost import grad_accumulation
from cellgrad.boost.grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation", "grad_accumulation"]
