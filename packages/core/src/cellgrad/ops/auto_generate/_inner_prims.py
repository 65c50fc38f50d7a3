"""Inner Primitives of `mindspore.ops.auto_generate` that MindSpore's tests build directly and
no public namespace exports: `CdistGrad`, `SequenceConcat`, `SumExt`."""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register


class CdistGrad(Primitive):
    """Mirrors `auto_generate.CdistGrad(p=2.0)`: `(grad, input_x, input_y, cdist)` -> the
    gradient of `ops.cdist(input_x, input_y, p)` with respect to `input_x`, for the upstream
    `grad` and the forward result `cdist` (shapes [..., P, M], [..., R, M], [..., P, R])."""

    @prim_attr_register
    def __init__(self, p=2.0):
        pass

    def __call__(self, grad, input_x, input_y, cdist):
        args = {"grad": grad, "input_x": input_x, "input_y": input_y, "cdist": cdist}
        if type(self.p) is not float or not all(isinstance(t, Tensor) for t in args.values()):
            got = ", ".join(f"{k}={_kind(v)}" for k, v in args.items())
            raise TypeError(f'Failed calling CdistGrad with "CdistGrad(p={_kind(self.p)})'
                            f'({got})".')
        g, x, y, d = (t.asnumpy() for t in (grad, input_x, input_y, cdist))
        want = x.shape[:-1] + (y.shape[-2],)
        if g.shape != want or d.shape != want or x.shape[-1] != y.shape[-1]:
            raise ValueError(f"For 'CdistGrad', expected input_x [..., P, M], input_y "
                             f"[..., R, M] and grad, cdist of shape {want}, but got grad "
                             f"{g.shape}, input_x {x.shape}, input_y {y.shape}, cdist {d.shape}.")
        diff = x[..., :, None, :] - y[..., None, :, :]  # [..., P, R, M]
        g, d = g[..., None], d[..., None]
        p = float(self.p)
        with np.errstate(divide="ignore", invalid="ignore"):
            if p < 1.0:  # MindSpore's CPU kernel: no gradient below p = 1
                part = np.zeros_like(diff)
            elif p == 1.0:
                part = np.sign(diff) * g
            elif p == np.inf:
                part = np.sign(diff) * (np.abs(diff) == d) * g
            else:
                part = diff * np.abs(diff) ** (p - 2) * g / d ** (p - 1)
            part = np.where((d == 0) | ~np.isfinite(part), 0.0, part)
        return Tensor(part.sum(axis=-2).astype(x.dtype))


def _kind(v):
    names = {str: "string", bool: "bool", int: "int", float: "float"}
    return "Tensor" if isinstance(v, Tensor) else names.get(type(v), type(v).__name__)


class SequenceConcat(Primitive):
    """Mirrors `auto_generate.SequenceConcat(axis=0)`: the tensors of a tuple or list joined
    along `axis` (`ops.concat`)."""

    @prim_attr_register
    def __init__(self, axis=0):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'SequenceConcat', the type of 'axis' must be int, but got "
                            f"{type(axis).__name__}.")

    def __call__(self, x):
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"For 'SequenceConcat', 'x' must be a tuple or list of Tensors, "
                            f"but got {type(x).__name__}.")
        return F.concat(tuple(x), self.axis)


class SumExt(Primitive):
    """Mirrors `auto_generate.SumExt()`: `(input, dim=None, keepdim=False, dtype=None)`, the
    sum `ops.sum` computes."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, dim=None, keepdim=False, dtype=None):  # noqa: A002
        from cellgrad import ops

        return ops.sum(input, dim, keepdim, dtype=dtype)
