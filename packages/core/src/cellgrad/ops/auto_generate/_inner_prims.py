"""Inner Primitives of `mindspore.ops.auto_generate` that MindSpore's tests build directly and
no public namespace exports: `CdistGrad`, `SequenceConcat`, `SumExt`, and the backward
Primitives `TanhGrad`, `SoftmaxBackward`, `TraceV2Grad` (its instance `tracev2_grad_op`)."""

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


_REAL_OR_COMPLEX = ("Float16", "Float32", "Float64", "Complex64", "Complex128")


class TanhGrad(Primitive):
    """Mirrors `auto_generate.TanhGrad()`: `(y, dy)` -> `dy * (1 - y^2)`, the gradient of
    `y = tanh(x)` (conjugated for complex y); differentiable in both inputs."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, y, dy):
        from cellgrad import ops

        for arg, value in (("y", y), ("dy", dy)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'TanhGrad', '{arg}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
        if str(y.dtype) not in _REAL_OR_COMPLEX or y.dtype != dy.dtype:
            raise TypeError(f"For 'TanhGrad', 'y' and 'dy' must be Tensors of one float or "
                            f"complex dtype, but got {y.dtype} and {dy.dtype}.")
        slope = 1 - y * y
        if str(y.dtype).startswith("Complex"):
            slope = ops.conj(slope)
        return dy * slope


class SoftmaxBackward(Primitive):
    """Mirrors `auto_generate.SoftmaxBackward()`: `(dout, out, dim=-1)` -> the gradient of
    `out = softmax(x, dim)`, `out * (dout - sum(dout * out, dim))`; differentiable in `dout`
    and `out`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, dout, out, dim=-1):
        for arg, value in (("dout", dout), ("out", out)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'SoftmaxBackward', '{arg}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(f"For 'SoftmaxBackward', 'dim' must be an int, but got "
                            f"{type(dim).__name__}.")
        return out * (dout - (dout * out).sum(dim, keepdims=True))


class TraceV2Grad(Primitive):
    """Mirrors `auto_generate.TraceV2Grad()` (`tracev2_grad_op`): `(dout, shape, offset=0,
    axis1=1, axis2=0)` -> a zero tensor of `shape` holding `dout` on the diagonal `offset` of
    the (axis1, axis2) planes: the gradient of `ops.trace` (TraceV2) for the upstream `dout`,
    whose shape is `shape` without those two axes."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, dout, shape, offset=0, axis1=1, axis2=0):
        if not isinstance(dout, Tensor):
            raise TypeError(f"For 'TraceV2Grad', 'dout' must be a Tensor, but got "
                            f"{type(dout).__name__}.")
        dims = tuple(int(d) for d in (shape.asnumpy() if isinstance(shape, Tensor) else shape))
        rank = len(dims)
        for arg, value in (("offset", offset), ("axis1", axis1), ("axis2", axis2)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'TraceV2Grad', '{arg}' must be an int, but got "
                                f"{type(value).__name__}.")
        if rank < 2 or not (-rank <= axis1 < rank and -rank <= axis2 < rank) \
                or axis1 % rank == axis2 % rank:
            raise ValueError(f"For 'TraceV2Grad', 'axis1' and 'axis2' must be two different "
                             f"axes of 'shape' {dims}, but got {axis1} and {axis2}.")
        a1, a2 = axis1 % rank, axis2 % rank
        rest = [d for i, d in enumerate(dims) if i not in (a1, a2)]
        g = dout.asnumpy()
        if g.shape != tuple(rest):
            raise ValueError(f"For 'TraceV2Grad', 'dout' must have the shape {tuple(rest)} of "
                             f"'shape' {dims} without axes {a1} and {a2}, but got {g.shape}.")
        planes = np.zeros(tuple(rest) + (dims[a1], dims[a2]), dtype=g.dtype)
        rows = np.arange(max(0, -offset), min(dims[a1], dims[a2] - offset))
        planes[..., rows, rows + offset] = g[..., None]
        order = [i for i in range(rank) if i not in (a1, a2)] + [a1, a2]
        return Tensor(np.ascontiguousarray(planes.transpose(np.argsort(order))))


tracev2_grad_op = TraceV2Grad()


def _linear_vjp(name, forward, dy, input_size, output_size, scales):
    """The gradient of the linear `forward(x, output_size, scales)` for x of shape
    `input_size`, given the upstream `dy`: its vjp at x = 0."""
    from cellgrad import ops
    from cellgrad.func_transforms import vjp

    if not isinstance(dy, Tensor):
        raise TypeError(f"For '{name}', 'dy' must be a Tensor, but got {type(dy).__name__}.")
    if not isinstance(input_size, (tuple, list)) or len(input_size) != 5 or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in input_size):
        raise TypeError(f"For '{name}', 'input_size' must be a tuple or list of 5 ints "
                        f"(N, C, D, H, W), but got {input_size!r}.")
    out, back = vjp(lambda x: forward(x, output_size, scales), ops.zeros(tuple(input_size),
                                                                        dy.dtype))
    if out.shape != dy.shape:
        raise ValueError(f"For '{name}', 'dy' must have the forward output's shape {out.shape} "
                         f"for input_size {tuple(input_size)}, but got {dy.shape}.")
    (grad,) = back(dy)
    return grad


class UpsampleNearest3DGrad(Primitive):
    """Mirrors `auto_generate.UpsampleNearest3DGrad()`: `(dy, input_size, output_size=None,
    scales=None)` -> the gradient of `UpsampleNearest3D()(x, output_size, scales)` for x of
    shape `input_size` (each input voxel sums the `dy` of the voxels copied from it)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, dy, input_size, output_size=None, scales=None):
        from cellgrad import ops

        return _linear_vjp("UpsampleNearest3DGrad", ops.UpsampleNearest3D(), dy, input_size,
                           output_size, scales)


class UpsampleTrilinear3DGrad(Primitive):
    """Mirrors `auto_generate.UpsampleTrilinear3DGrad(align_corners=False)`: `(dy, input_size,
    output_size=None, scales=None)` -> the gradient of
    `UpsampleTrilinear3D(align_corners)(x, output_size, scales)` for x of shape `input_size`."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'UpsampleTrilinear3DGrad', 'align_corners' must be a bool, "
                            f"but got {type(align_corners).__name__}.")

    def __call__(self, dy, input_size, output_size=None, scales=None):
        from cellgrad import ops

        return _linear_vjp("UpsampleTrilinear3DGrad", ops.UpsampleTrilinear3D(self.align_corners),
                           dy, input_size, output_size, scales)
