"""`nn.Upsample`: a cell around `ops.interpolate`."""

from cellgrad import ops
from cellgrad.nn import Cell


class Upsample(Cell):
    """Mirrors `mindspore.nn.Upsample`; the arguments are checked when it runs, as there."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)
