"""Mirrors the backward Primitives of MindSpore's private `mindspore.ops.operations._grad_ops`
that its own tests call directly (tests/st/ops/cpu/test_{acos,acosh,asin,asinh,atan}_grad_op.py,
test_bias_add_grad.py, tests/st/ops/dynamic_shape/grad/test_strided_slice_grad.py).

Each is the backward of a cellgrad op written as a function of the forward's input (or output,
as MindSpore takes it) and the incoming gradient `dout`, so it differentiates again.
"""

from cellgrad import dtype as mstype
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ACosGrad", "AcoshGrad", "AsinGrad", "AsinhGrad", "AtanGrad", "BiasAddGrad",
           "Conv2DBackpropFilter", "IgammaGradA", "ResizeBilinearGrad", "StridedSliceGrad"]


def _unary_grad(name, rule, doc):
    """A Primitive `name()(x, dout)` computing `rule(ops, x, dout)`."""

    def __call__(self, x, dout):
        from cellgrad import ops

        C.tensor(name, "x", x)
        C.tensor(name, "dout", dout)
        return rule(ops, x, dout)

    return type(name, (Primitive,), {"__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


def _cj(ops, v):
    """The conjugate of a complex denominator: MindSpore's kernels divide by it for complex x."""
    return ops.conj(v) if v.dtype in (mstype.complex64, mstype.complex128) else v


ACosGrad = _unary_grad("ACosGrad", lambda ops, x, d: -d / _cj(ops, ops.sqrt(1 - x * x)),
                       "Mirrors `_grad_ops.ACosGrad()(x, dout)`: `-dout / sqrt(1 - x^2)`.")
AsinGrad = _unary_grad("AsinGrad", lambda ops, x, d: d / _cj(ops, ops.sqrt(1 - x * x)),
                       "Mirrors `_grad_ops.AsinGrad()(x, dout)`: `dout / sqrt(1 - x^2)`.")
AtanGrad = _unary_grad("AtanGrad", lambda ops, x, d: d / _cj(ops, 1 + x * x),
                       "Mirrors `_grad_ops.AtanGrad()(x, dout)`: `dout / (1 + x^2)`.")
AcoshGrad = _unary_grad("AcoshGrad", lambda ops, y, d: d / _cj(ops, ops.sinh(y)),
                        "Mirrors `_grad_ops.AcoshGrad()(y, dout)`, `y = acosh(x)`: "
                        "`dout / sinh(y)`.")
AsinhGrad = _unary_grad("AsinhGrad", lambda ops, y, d: d / _cj(ops, ops.cosh(y)),
                        "Mirrors `_grad_ops.AsinhGrad()(y, dout)`, `y = asinh(x)`: "
                        "`dout / cosh(y)`.")
InvGrad = _unary_grad("InvGrad", lambda ops, y, d: -d * y * y,
                      "Mirrors `_grad_ops.InvGrad()(y, grad)`, `y = 1 / x`: `-grad * y^2` "
                      "(no conjugate for complex y, as MindSpore).")
SqrtGrad = _unary_grad("SqrtGrad", lambda ops, y, d: d / (2 * y),
                       "Mirrors `_grad_ops.SqrtGrad()(y, dout)`, `y = sqrt(x)` (MindSpore "
                       "names the arguments `dy, y` but takes y first): `dout / (2 y)`.")


class IgammaGradA(Primitive):
    """Mirrors `_grad_ops.IgammaGradA()(a, x)`: d igamma(a, x) / da, the derivative igamma's
    backward uses for `a`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, a, x):
        from cellgrad.ops._fn_special import igamma_grad_a

        return igamma_grad_a(a, x)


class BiasAddGrad(Primitive):
    """Mirrors `_grad_ops.BiasAddGrad(data_format='NCHW')(dout)`: the bias gradient, `dout`
    summed over every axis but the channel's (axis 1, or the last with 'NHWC')."""

    @prim_attr_register
    def __init__(self, data_format="NCHW"):
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError("For 'BiasAddGrad', the 'data_format' must be one of ['NCHW', "
                             f"'NHWC', 'NCDHW'], but got {data_format!r}.")
        self.data_format = data_format

    def __call__(self, dout):
        C.tensor("BiasAddGrad", "dout", dout)
        if dout.ndim < 2:
            raise ValueError(f"For 'BiasAddGrad', the dimension of 'dout' must be at least 2, "
                             f"but got {dout.ndim}.")
        channel = dout.ndim - 1 if self.data_format == "NHWC" else 1
        return dout.sum(tuple(a for a in range(dout.ndim) if a != channel))


class StridedSliceGrad(Primitive):
    """Mirrors `_grad_ops.StridedSliceGrad(masks...)(dy, shapex, begin, end, strides)`: a
    tensor of shape `shapex`, `dy` where `StridedSlice` (same masks) reads, zeros elsewhere."""

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        from cellgrad.ops import StridedSlice

        self._slice = StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                                   shrink_axis_mask)

    def __call__(self, dy, shapex, begin, end, strides):
        import numpy as np

        from cellgrad import ops
        from cellgrad._core._buffer import make_tensor

        C.tensor("StridedSliceGrad", "dy", dy)
        shape = C.int_tuple("StridedSliceGrad", "shapex", shapex)
        count = int(np.prod(shape))
        # the flat positions the slice reads; MindSpore's kernel needs only dy's element count
        where = self._slice(make_tensor(np.arange(count).reshape(shape)), begin, end,
                            strides)._data.ravel()
        if where.size != dy.size:
            raise ValueError(f"For 'StridedSliceGrad', 'dy' must have the {where.size} "
                             f"elements the slice reads, but got shape {tuple(dy.shape)}.")
        if dy._data.dtype.kind not in "fc":  # integer and bool dy, as MindSpore's kernel
            out = np.zeros(count, dy._data.dtype)
            out[where] = dy._data.ravel()
            return make_tensor(out.reshape(shape))
        return ops.scatter_nd(make_tensor(where.reshape(-1, 1)), dy.reshape(-1),
                              (count,)).reshape(shape)


class Conv2DBackpropFilter(Primitive):
    """Mirrors `_grad_ops.Conv2DBackpropFilter(out_channel, kernel_size, ...)(dout, x, w_size)`:
    the gradient of `ops.Conv2D` (same settings) for its weight of shape `w_size`, given `dout`
    (Conv2D comes from cellgrad-ops-nn). As MindSpore's kernel, the output channels and kernel
    size come from `w_size`, not from the attributes."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0),
                 mode=1, stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        from cellgrad.ops import Conv2D

        stride = tuple(stride)[-2:] if isinstance(stride, (tuple, list)) else stride
        dilation = tuple(dilation)[-2:] if isinstance(dilation, (tuple, list)) else dilation
        if pad_mode == "pad" and tuple(pad_list) != (0, 0, 0, 0):
            pad = tuple(pad_list)
        self._settings = (mode, pad_mode, pad, stride, dilation, group, data_format)
        self._conv = Conv2D(out_channel, kernel_size, *self._settings)

    def __call__(self, dout, x, w_size):
        from cellgrad import ops
        from cellgrad.func_transforms import vjp

        C.tensor("Conv2DBackpropFilter", "dout", dout)
        C.tensor("Conv2DBackpropFilter", "x", x)
        shape = C.int_tuple("Conv2DBackpropFilter", "w_size", w_size)
        conv = self._conv
        if len(shape) == 4 and (shape[0], shape[2:]) != (conv.out_channel, conv.kernel_size):
            conv = ops.Conv2D(shape[0], shape[2:], *self._settings)
        _, back = vjp(lambda w: conv(x, w), ops.zeros(shape, x.dtype))
        return back(dout)[0]


def _bilinear_weights(in_size, out_size, align_corners, half_pixel_centers):
    """The (out_size, in_size) matrix of bilinear resize weights along one axis (MindSpore's
    / TensorFlow's legacy scaling: corners aligned, half-pixel centres, or plain `in / out`)."""
    import numpy as np

    if align_corners and out_size > 1:
        scale = (in_size - 1) / (out_size - 1)
    else:
        scale = in_size / out_size
    pos = np.arange(out_size, dtype=np.float64)
    src = (pos + 0.5) * scale - 0.5 if half_pixel_centers else pos * scale
    floor = np.floor(src)
    lo = np.maximum(floor, 0).astype(np.int64)
    hi = np.minimum(np.ceil(src), in_size - 1).astype(np.int64)
    frac = src - floor
    weights = np.zeros((out_size, in_size))
    np.add.at(weights, (np.arange(out_size), lo), 1.0 - frac)
    np.add.at(weights, (np.arange(out_size), hi), frac)
    return weights


class ResizeBilinearGrad(Primitive):
    """Mirrors `_grad_ops.ResizeBilinearGrad(align_corners=False, half_pixel_centers=False)
    (grads, original_image)`: the gradient of `ResizeBilinearV2` with respect to its (N, C, H,
    W) input, given the output's gradient `grads`; in `original_image`'s shape and dtype.
    Linear in `grads`, so it differentiates again."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        C.boolean("ResizeBilinearGrad", "align_corners", align_corners)
        C.boolean("ResizeBilinearGrad", "half_pixel_centers", half_pixel_centers)

    def __call__(self, grads, original_image):
        from cellgrad import ops
        from cellgrad._core._buffer import make_tensor

        name = "ResizeBilinearGrad"
        C.floating(name, "grads", grads)
        C.floating(name, "original_image", original_image)
        if grads.ndim != 4 or original_image.ndim != 4:
            raise ValueError(f"For '{name}', 'grads' and 'original_image' must be 4-D (N, C, H, "
                             f"W), but got shapes {tuple(grads.shape)} and "
                             f"{tuple(original_image.shape)}.")
        dtype = original_image.dtype
        wh = _bilinear_weights(original_image.shape[2], grads.shape[2], self.align_corners,
                               self.half_pixel_centers)
        ww = _bilinear_weights(original_image.shape[3], grads.shape[3], self.align_corners,
                               self.half_pixel_centers)
        np_dtype = grads.asnumpy().dtype
        wh_t = make_tensor(wh.T.astype(np_dtype))
        ww_ = make_tensor(ww.astype(np_dtype))
        return ops.matmul(ops.matmul(wh_t, grads), ww_).astype(dtype)


from cellgrad.ops._grad_prims_nn import *  # noqa: E402,F401,F403
from cellgrad.ops._grad_prims_nn import __all__ as _nn_all  # noqa: E402

__all__ += ["InvGrad", "SqrtGrad"] + _nn_all

__getattr__, __dir__ = _plugin_names(__name__)
