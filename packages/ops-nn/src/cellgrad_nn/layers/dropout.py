"""`nn.Dropout`, `nn.Dropout1d/2d/3d`: the identity in predict mode (`set_train(False)`)."""

from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad_nn.functional.dropout import dropout, dropout1d, dropout2d, dropout3d


class Dropout(Cell):
    """Mirrors `mindspore.nn.Dropout`: `p` (drop probability) wins over `keep_prob`.

    Masks come from cellgrad's seeded generator (`ms.set_seed`).
    """

    def __init__(self, keep_prob=0.5, p=None, dtype=float32):
        super().__init__()
        for name, value in (("keep_prob", keep_prob), ("p", p)):
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, float))):
                raise TypeError(f"For 'Dropout', the type of '{name}' should be one of "
                                f"'['float', 'int']', but got type '{type(value).__name__}'.")
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) \
                    or not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob}.")
            self.keep_prob, self.p = keep_prob, 1.0 - keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), "
                                 f"but got {p}.")
            self.keep_prob, self.p = 1.0 - p, float(p)
        self._given_p = p is not None

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return dropout(x, p=self.p, training=True)

    def extend_repr(self):
        return f"p={self.p}" if self._given_p else f"keep_prob={self.keep_prob}"


class _ChannelDropout(Cell):
    """Zeroes whole channels; subclasses name the function for their rank."""

    _drop = None

    def __init__(self, p=0.5):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"For '{type(self).__name__}', the 'p' must be a number in range "
                             f"[0, 1], but got {p}.")
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        return type(self)._drop(x, float(self.p), True)

    def extend_repr(self):
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Mirrors `mindspore.nn.Dropout1d`: zero whole channels of (N, C, L) or (C, L) inputs."""

    _drop = staticmethod(dropout1d)


class Dropout2d(_ChannelDropout):
    """Mirrors `mindspore.nn.Dropout2d`: zero whole channels of (N, C, H, W) inputs."""

    _drop = staticmethod(dropout2d)


class Dropout3d(_ChannelDropout):
    """Mirrors `mindspore.nn.Dropout3d`: zero whole channels of (N, C, D, H, W) inputs."""

    _drop = staticmethod(dropout3d)
