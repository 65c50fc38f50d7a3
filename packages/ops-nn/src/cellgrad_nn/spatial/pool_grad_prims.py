"""Pooling, padding and region backward Primitives of MindSpore's private
`mindspore.ops.operations._grad_ops` (`MaxPoolGradWithArgmax(V2)`, `MaxPoolGradGrad`,
`MaxPool3DGradGrad`, `MaxPoolGradGradWithArgmax`, `LRNGrad`, `PadV3Grad`, `ROIAlignGrad`,
`FractionalAvgPoolGrad`, `FractionalMaxPoolGrad`, `PSROIPoolingGrad`) and
`nn_ops.PSROIPooling`, its forward.

Each backward is the vjp of the cellgrad forward it belongs to, a gather/scatter at the
forward's argmax, or (PSROIPoolingGrad, FractionalAvgPoolGrad) the forward's transpose written
with ops, so values follow the forward's kernels and float results differentiate again.
"""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.func_transforms import vjp
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.functional import _checks


def _tensor(op, name, x, kinds="f"):
    if not isinstance(x, Tensor) or x.asnumpy().dtype.kind not in kinds:
        what = "a float" if kinds == "f" else "an integer" if kinds == "iu" else "a"
        raise TypeError(f"For '{op}', '{name}' must be {what} Tensor, but got "
                        f"{_checks.describe(x)}.")


def _window(op, name, value, rank):
    """`rank` positive ints from an int, `rank` values or `rank + 2` (N, C first) values."""
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) == rank + 2:
        values = values[2:]
    if len(values) != rank or any(not isinstance(v, int) or isinstance(v, bool) or v < 1
                                  for v in values):
        raise ValueError(f"For '{op}', '{name}' must be a positive int or a tuple of {rank} "
                         f"(or {rank + 2}) positive ints, but got {value!r}.")
    return values


def _pad_mode(op, pad_mode):
    mode = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("VALID", "SAME"):
        raise ValueError(f"For '{op}', 'pad_mode' must be 'VALID' or 'SAME', but got "
                         f"{pad_mode!r}.")
    return mode


def _planes_gather(grad, index, per_sample):
    """`grad` read at the flat positions `index` of each (N, C) plane, or of each sample's
    (C, *spatial) block when `per_sample`."""
    lead = 1 if per_sample else 2
    flat = grad.reshape(tuple(grad.shape[:lead]) + (-1,))
    idx = ops.cast(index, mstype.int64).reshape(tuple(index.shape[:lead]) + (-1,))
    return ops.gather_elements(flat, lead, idx).reshape(index.shape)


def _planes_scatter(x, grad, index, per_sample):
    """The transpose of `_planes_gather`: `grad` summed into zeros shaped as `x`."""
    _, back = vjp(lambda z: _planes_gather(z, index, per_sample), ops.zeros(x.shape, grad.dtype))
    return back(grad)[0]


class _MaxPoolGradGrad(Primitive):
    """`(x, out, grad)`: `grad` (shaped as `x`) read at each window's maximum of `x`."""

    _rank = 2

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        self._kernel = _window(self.name, "kernel_size", kernel_size, self._rank)
        self._strides = _window(self.name, "strides", strides, self._rank)
        self._mode = _pad_mode(self.name, pad_mode)

    def __call__(self, x, out, grad):
        from cellgrad_nn.spatial import pool

        for name, t in (("x", x), ("out", out), ("grad", grad)):
            _tensor(self.name, name, t)
        if x.ndim != self._rank + 2 or tuple(grad.shape) != tuple(x.shape):
            raise ValueError(f"For '{self.name}', 'x' must be {self._rank + 2}-D and 'grad' "
                             f"of its shape, but got {x.shape} and {grad.shape}.")
        pads = pool.same_or_valid(self.name, self._mode, x, self._kernel, self._strides)
        _, index = pool.max_pool_checked(self.name, x, self._kernel, self._strides, pads,
                                         (1,) * self._rank, False, True)
        return _planes_gather(grad, index, False)


class MaxPoolGradGrad(_MaxPoolGradGrad):
    """Mirrors `_grad_ops.MaxPoolGradGrad(kernel_size=1, strides=1, pad_mode='VALID')
    (x, out, grad)`: the gradient of MaxPool's backward for its incoming gradient, `grad` (x's
    shape) read at each window's maximum of `x` (the first one on ties)."""


class MaxPool3DGradGrad(_MaxPoolGradGrad):
    """Mirrors `_grad_ops.MaxPool3DGradGrad(kernel_size, strides, pad_mode='VALID',
    data_format='NCDHW')(x, out, grad)`: `MaxPoolGradGrad` over (D, H, W)."""

    _rank = 3

    @prim_attr_register
    def __init__(self, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1), pad_mode="VALID",
                 data_format="NCDHW"):
        if data_format != "NCDHW":
            raise ValueError(f"For 'MaxPool3DGradGrad', 'data_format' must be 'NCDHW', but got "
                             f"{data_format!r}.")
        super().__init__(kernel_size, strides, pad_mode)


def _argmax_attrs(name, kernel_size, strides, pad_mode):
    """The 2-D window attributes of the `...WithArgmax` gradient primitives."""
    _window(name, "kernel_size", kernel_size, 2)
    _window(name, "strides", strides, 2)
    _pad_mode(name, pad_mode)


def _argmax_inputs(name, x, grad, argmax):
    _tensor(name, "x", x)
    _tensor(name, "grad", grad)
    _tensor(name, "argmax", argmax, "iu")


class MaxPoolGradGradWithArgmax(Primitive):
    """Mirrors `_grad_ops.MaxPoolGradGradWithArgmax(kernel_size=1, strides=1,
    pad_mode='VALID')(x, grad, argmax)`: `grad` (x's shape) read at `argmax`, the flat
    positions in each sample's (C, H, W) that `MaxPoolWithArgmax` returns."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        _argmax_attrs(self.name, kernel_size, strides, pad_mode)

    def __call__(self, x, grad, argmax):
        _argmax_inputs(self.name, x, grad, argmax)
        return _planes_gather(grad, argmax, True)


class MaxPoolGradWithArgmax(Primitive):
    """Mirrors `_grad_ops.MaxPoolGradWithArgmax(kernel_size=1, strides=1, pad_mode='VALID',
    data_format='NCHW')(x, grad, argmax)`: `MaxPoolWithArgmax`'s backward, `grad` summed into
    x's shape at `argmax` (flat positions in each sample's (C, H, W))."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        _argmax_attrs(self.name, kernel_size, strides, pad_mode)

    def __call__(self, x, grad, argmax):
        _argmax_inputs(self.name, x, grad, argmax)
        return _planes_scatter(x, grad, argmax, True)


class MaxPoolGradWithArgmaxV2(Primitive):
    """Mirrors `_grad_ops.MaxPoolGradWithArgmaxV2(kernel_size, strides=None, pads=0,
    dilation=(1, 1), ceil_mode=False, argmax_type=mindspore.int64)(x, grad, argmax)`:
    `MaxPoolWithArgmaxV2`'s backward, `grad` summed into x's shape at `argmax` (flat positions
    in each (H, W) plane)."""

    @prim_attr_register
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        _window(self.name, "kernel_size", kernel_size, 2)
        if argmax_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'MaxPoolGradWithArgmaxV2', 'argmax_type' must be int32 or "
                            f"int64, but got {argmax_type}.")

    def __call__(self, x, grad, argmax):
        _argmax_inputs(self.name, x, grad, argmax)
        return _planes_scatter(x, grad, argmax, False)


class LRNGrad(Primitive):
    """Mirrors `_grad_ops.LRNGrad(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5)(grads, x, y)`:
    the gradient of `LRN` (same settings) at `x` for the output gradient `grads` (`y`, the
    forward's output, is not needed); float16 is computed in float32."""

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(value, float):
                raise TypeError(f"For 'LRNGrad', the type of '{name}' must be float, but got "
                                f"{type(value).__name__}.")
        if not isinstance(depth_radius, int) or isinstance(depth_radius, bool):
            raise TypeError(f"For 'LRNGrad', the type of 'depth_radius' must be int, but got "
                            f"{type(depth_radius).__name__}.")

    def __call__(self, grads, x, y):
        from cellgrad_nn.functional.pool_extra import lrn

        for name, t in (("grads", grads), ("x", x), ("y", y)):
            _tensor(self.name, name, t)
        dtype = x.dtype
        wide = dtype == mstype.float16
        if wide:
            x, grads = ops.cast(x, mstype.float32), ops.cast(grads, mstype.float32)
        _, back = vjp(lambda t: lrn(t, self.depth_radius, self.bias, self.alpha, self.beta), x)
        dx = back(grads)[0]
        return ops.cast(dx, dtype) if wide else dx


class PadV3Grad(Primitive):
    """Mirrors `_grad_ops.PadV3Grad(mode='reflect', paddings_contiguous=True)(x, paddings)`:
    `PadV3`'s backward, the gradient `x` of the padded tensor folded back onto the unpadded
    shape ('reflect', 'edge', 'circular')."""

    @prim_attr_register
    def __init__(self, mode="reflect", paddings_contiguous=True):
        if mode not in ("reflect", "edge", "circular"):
            raise ValueError(f"For 'PadV3Grad', 'mode' must be 'reflect', 'edge' or "
                             f"'circular', but got {mode!r}.")
        if not isinstance(paddings_contiguous, bool):
            raise TypeError(f"For 'PadV3Grad', 'paddings_contiguous' must be bool, but got "
                            f"{type(paddings_contiguous).__name__}.")

    def __call__(self, x, paddings):
        _tensor(self.name, "x", x, "fiuc")
        p = [int(v) for v in (paddings.asnumpy().ravel() if isinstance(paddings, Tensor)
                              else paddings)]
        k = len(p) // 2
        if len(p) % 2 or k > x.ndim:
            raise ValueError(f"For 'PadV3Grad', 'paddings' must hold an even number of at "
                             f"most {2 * x.ndim} values, but got {len(p)}.")
        pairs = list(zip(p[0::2], p[1::2])) if self.paddings_contiguous else \
            list(zip(p[:k], p[k:]))
        shape = list(x.shape)
        for i, (lo, hi) in enumerate(pairs):
            shape[x.ndim - 1 - i] -= lo + hi
        if min(shape) < 0:
            raise ValueError(f"For 'PadV3Grad', 'paddings' {p} exceed the shape of 'x' "
                             f"{x.shape}.")
        pad = ops.PadV3(self.mode, self.paddings_contiguous)
        _, back = vjp(lambda t: pad(t, p), ops.zeros(tuple(shape), x.dtype))
        return back(x)[0]


class ROIAlignGrad(Primitive):
    """Mirrors `_grad_ops.ROIAlignGrad(pooled_height, pooled_width, spatial_scale,
    sample_num=2)(dy, rois, xdiff_shape)`: `ROIAlign`'s backward for its features, of shape
    `xdiff_shape` (sampled as `roi_end_mode=1`, as MindSpore's kernel)."""

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2):
        from cellgrad_nn.functional.roi import ROIAlign

        self._forward = ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num, 1)

    def __call__(self, dy, rois, xdiff_shape):
        _tensor(self.name, "dy", dy)
        _tensor(self.name, "rois", rois)
        shape = tuple(int(v) for v in (xdiff_shape.asnumpy().ravel()
                                       if isinstance(xdiff_shape, Tensor) else xdiff_shape))
        if len(shape) != 4:
            raise ValueError(f"For 'ROIAlignGrad', 'xdiff_shape' must have 4 values, but got "
                             f"{shape}.")
        _, back = vjp(lambda t: self._forward(t, rois), ops.zeros(shape, dy.dtype))
        return back(dy)[0]


def _fractional_matrix(seq, size, count, overlapping):
    """(count, size) 0/1 matrix: row i marks the input positions window i covers."""
    m = np.zeros((count, size))
    for i in range(count):
        end = min(int(seq[i + 1]) + (1 if overlapping else 0), size)
        m[i, int(seq[i]):end] = 1
    return m


class FractionalAvgPoolGrad(Primitive):
    """Mirrors `_grad_ops.FractionalAvgPoolGrad(overlapping=False)(orig_input_tensor_shape,
    out_backprop, row_pooling_sequence, col_pooling_sequence)`: `FractionalAvgPool`'s backward
    over (N, H, W, C), each window's gradient shared evenly by its cells (truncated per window
    for integer dtypes, as MindSpore's kernel)."""

    @prim_attr_register
    def __init__(self, overlapping=False):
        if not isinstance(overlapping, bool):
            raise TypeError(f"For 'FractionalAvgPoolGrad', 'overlapping' must be bool, but got "
                            f"{type(overlapping).__name__}.")

    def __call__(self, orig_input_tensor_shape, out_backprop, row_pooling_sequence,
                 col_pooling_sequence):
        _tensor(self.name, "out_backprop", out_backprop, "fi")
        shape = [int(v) for v in (orig_input_tensor_shape.asnumpy().ravel()
                                  if isinstance(orig_input_tensor_shape, Tensor)
                                  else orig_input_tensor_shape)]
        if len(shape) != 4 or out_backprop.ndim != 4:
            raise ValueError(f"For 'FractionalAvgPoolGrad', 'orig_input_tensor_shape' must have "
                             f"4 values and 'out_backprop' be 4-D, but got {shape} and "
                             f"{_checks.describe(out_backprop)}.")
        _, rows, cols, _ = out_backprop.shape
        rm = _fractional_matrix(row_pooling_sequence.asnumpy(), shape[1], rows, self.overlapping)
        cm = _fractional_matrix(col_pooling_sequence.asnumpy(), shape[2], cols, self.overlapping)
        count = rm.sum(1)[:, None] * cm.sum(1)[None, :]  # (rows, cols) cells per window
        share = np.divide(1.0, count, out=np.zeros_like(count), where=count > 0)
        g = out_backprop.transpose(0, 3, 1, 2)  # (N, C, rows, cols)
        if g.asnumpy().dtype.kind == "f":
            g = g * Tensor(share.astype(g.asnumpy().dtype))
            rm, cm = (Tensor(m.astype(g.asnumpy().dtype)) for m in (rm, cm))
            return ops.matmul(ops.matmul(rm.T, g), cm).transpose(0, 2, 3, 1)
        ints = g.asnumpy()
        each = np.trunc(ints / np.where(count > 0, count, 1)).astype(ints.dtype)
        dx = rm.T.astype(ints.dtype) @ each @ cm.astype(ints.dtype)
        return Tensor(np.ascontiguousarray(dx.transpose(0, 2, 3, 1)))


def _spans(seq, size, overlapping):
    return [(int(seq[i]), min(int(seq[i + 1]) + (1 if overlapping else 0), size))
            for i in range(len(seq) - 1)]


class FractionalMaxPoolGrad(Primitive):
    """Mirrors `_grad_ops.FractionalMaxPoolGrad(overlapping=False)(orig_input, orig_output,
    out_backprop, row_pooling_sequence, col_pooling_sequence)`: `FractionalMaxPool`'s backward
    over (N, H, W, C), each window's gradient sent to its first maximum in `orig_input`."""

    @prim_attr_register
    def __init__(self, overlapping=False):
        if not isinstance(overlapping, bool):
            raise TypeError(f"For 'FractionalMaxPoolGrad', 'overlapping' must be bool, but got "
                            f"{type(overlapping).__name__}.")

    def __call__(self, orig_input, orig_output, out_backprop, row_pooling_sequence,
                 col_pooling_sequence):
        from cellgrad_nn.functional.fractional_pool import window_argmax

        for name, t in (("orig_input", orig_input), ("orig_output", orig_output),
                        ("out_backprop", out_backprop)):
            _tensor(self.name, name, t, "fi")
        if orig_input.ndim != 4 or tuple(out_backprop.shape) != tuple(orig_output.shape):
            raise ValueError(f"For 'FractionalMaxPoolGrad', 'orig_input' must be 4-D and "
                             f"'out_backprop' of the shape of 'orig_output', but got "
                             f"{orig_input.shape}, {out_backprop.shape} and "
                             f"{orig_output.shape}.")
        _, h, w, _ = orig_input.shape
        rows = _spans(row_pooling_sequence.asnumpy(), h, self.overlapping)
        cols = _spans(col_pooling_sequence.asnumpy(), w, self.overlapping)
        index = window_argmax(orig_input.asnumpy(), rows, cols).transpose(0, 3, 1, 2)
        g = out_backprop.transpose(0, 3, 1, 2)  # (N, C, rows, cols)
        if g.asnumpy().dtype.kind == "f":
            zeros = orig_input.transpose(0, 3, 1, 2)
            dx = _planes_scatter(zeros, g, Tensor(np.ascontiguousarray(index)), False)
            return dx.transpose(0, 2, 3, 1)
        n, c = index.shape[:2]
        dx = np.zeros((n, c, h * w), g.asnumpy().dtype)
        for i, j in np.ndindex(n, c):
            np.add.at(dx[i, j], index[i, j].ravel(), g.asnumpy()[i, j].ravel())
        return Tensor(np.ascontiguousarray(dx.reshape(n, c, h, w).transpose(0, 2, 3, 1)))


def _ps_roi_bins(rois, height, width, spatial_scale, group_size, forward=True):
    """Per ROI (batch index, (g, H) row-averaging and (g, W) column-averaging matrices) of
    position-sensitive average pooling; empty bins read nothing. Corners round half away from
    zero. As MindSpore 2.10's CPU kernels, the forward clips bins to [0, size - 1) (its last
    row and column are never read) and the backward to [0, size)."""
    plans = []
    for roi in rois:
        batch = int(roi[0])
        x1, y1, x2, y2 = (int(np.sign(v) * np.floor(abs(v) + 0.5))
                          for v in np.asarray(roi[1:5], np.float64) * spatial_scale)
        mats = []
        for start, end, size in ((y1, y2, height), (x1, x2, width)):
            extent = max(end - start, 1)
            bin_size = extent / group_size
            top = size - 1 if forward else size
            m = np.zeros((group_size, size))
            for p in range(group_size):
                lo = min(max(int(np.floor(p * bin_size)) + start, 0), top)
                hi = min(max(int(np.ceil((p + 1) * bin_size)) + start, 0), top)
                if hi > lo:
                    m[p, lo:hi] = 1.0 / (hi - lo)
            mats.append(m)
        plans.append((batch, *mats))
    return plans


def _ps_roi_rows(op, rois):
    """(R, 5) rows (batch index, x1, y1, x2, y2) from rois (batch, 5, rois_num)."""
    r = rois.asnumpy()
    if r.ndim != 3 or r.shape[1] != 5:
        raise ValueError(f"For '{op}', 'rois' must be 3-D (batch, 5, rois_num), but got "
                         f"shape {rois.shape}.")
    return np.ascontiguousarray(r.transpose(0, 2, 1).reshape(-1, 5)).astype(np.float64)


def _ps_roi_pool(x, rows, spatial_scale, group_size, output_dim):
    g = group_size
    h, w = x.shape[2:]
    plans = _ps_roi_bins(rows, h, w, spatial_scale, g)
    if not plans:
        return ops.zeros((0, output_dim, g, g), x.dtype)
    dtype = x.asnumpy().dtype
    # each ROI's sample by an int index: the graph stays exportable (MINDIR has no gather)
    feats = ops.stack([x[p[0]] for p in plans]).reshape((len(plans), output_dim, g, g, h, w))
    my = Tensor(np.stack([p[1] for p in plans]).astype(dtype))  # (R, g, H)
    mx = Tensor(np.stack([p[2] for p in plans]).astype(dtype))  # (R, g, W)
    rows_pooled = (feats * my.reshape((len(plans), 1, g, 1, h, 1))).sum(4)  # (R, D, g, g, W)
    return (rows_pooled * mx.reshape((len(plans), 1, 1, g, w))).sum(4)


def _ps_roi_checks(op, spatial_scale, group_size, output_dim):
    if not isinstance(spatial_scale, (int, float)) or isinstance(spatial_scale, bool):
        raise TypeError(f"For '{op}', 'spatial_scale' must be a float, but got "
                        f"{type(spatial_scale).__name__}.")
    if spatial_scale <= 0:
        raise ValueError(f"For '{op}', 'spatial_scale' must be positive, but got "
                         f"{spatial_scale}.")
    for name, value in (("group_size", group_size), ("output_dim", output_dim)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For '{op}', '{name}' must be an int, but got "
                            f"{type(value).__name__}.")
        if value <= 0:
            raise ValueError(f"For '{op}', '{name}' must be positive, but got {value}.")


class PSROIPooling(Primitive):
    """Mirrors `mindspore.ops.operations.nn_ops.PSROIPooling(spatial_scale, group_size,
    output_dim)(features, rois)`: position-sensitive ROI average pooling (R-FCN) of features
    (N, output_dim * group_size**2, H, W) over rois (batch, 5, rois_num) of (batch index, x1,
    y1, x2, y2); output (batch * rois_num, output_dim, group_size, group_size). Differentiable
    in the features: the gradient is this forward's own, where MindSpore's bprop
    (`PSROIPoolingGrad`) also spreads onto the last row and column, which its forward never
    reads."""

    @prim_attr_register
    def __init__(self, spatial_scale, group_size, output_dim):
        _ps_roi_checks(self.name, spatial_scale, group_size, output_dim)

    def __call__(self, features, rois):
        for name, t in (("features", features), ("rois", rois)):
            if not isinstance(t, Tensor) or t.asnumpy().dtype.type not in (np.float16,
                                                                           np.float32):
                raise TypeError(f"For 'PSROIPooling', '{name}' must be a Tensor[Float16] or "
                                f"Tensor[Float32], but got {_checks.describe(t)}.")
        channels = self.output_dim * self.group_size ** 2
        if features.ndim != 4:
            raise RuntimeError(f"For 'PSROIPooling', input 'features' shape must be 4d(NCHW), "
                               f"but got: {features.ndim}")
        if features.shape[1] != channels:
            raise RuntimeError(f"For 'PSROIPooling', 'features' must be 4-D with "
                               f"output_dim * group_size**2 = {channels} channels, but got "
                               f"shape {features.shape}.")
        rows = _ps_roi_rows(self.name, rois)
        if rows.size and (rows[:, 0].min() < 0 or rows[:, 0].max() >= features.shape[0]):
            raise ValueError(f"For 'PSROIPooling', the batch index of 'rois' must be in "
                             f"[0, {features.shape[0]}), but got {rows[:, 0].tolist()}.")
        return _ps_roi_pool(features, rows, self.spatial_scale, self.group_size,
                            self.output_dim)


class PSROIPoolingGrad(Primitive):
    """Mirrors `_grad_ops.PSROIPoolingGrad(input_size, spatial_scale, group_size, output_dim)
    (dy, rois)`: `PSROIPooling`'s backward for features (rois.shape[0], output_dim *
    group_size**2, *input_size); dy is (batch * rois_num, output_dim, group_size,
    group_size)."""

    @prim_attr_register
    def __init__(self, input_size, spatial_scale, group_size, output_dim):
        if isinstance(input_size, int) and not isinstance(input_size, bool):
            sizes = (input_size, input_size)
        elif isinstance(input_size, tuple) and len(input_size) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in input_size):
            sizes = input_size
        else:
            raise TypeError(f"For 'PSROIPoolingGrad', 'input_size' must be an int or a tuple "
                            f"of 2 ints, but got {input_size!r}.")
        if min(sizes) <= 0:
            raise ValueError(f"For 'PSROIPoolingGrad', 'input_size' must be positive, but got "
                             f"{input_size!r}.")
        self._sizes = sizes
        _ps_roi_checks(self.name, spatial_scale, group_size, output_dim)

    def __call__(self, dy, rois, *more):
        if more:
            raise ValueError(f"For primitive[PSROIPoolingGrad], the input number must be equal "
                             f"to 2, but got {2 + len(more)}.")
        for name, t in (("dy", dy), ("rois", rois)):
            if not isinstance(t, Tensor) or t.asnumpy().dtype.type not in (np.float16,
                                                                           np.float32):
                raise TypeError(f"For 'PSROIPoolingGrad', '{name}' must be a Tensor[Float16] "
                                f"or Tensor[Float32], but got {_checks.describe(t)}.")
        g = self.group_size
        if rois.ndim != 3:
            raise ValueError(f"For 'PSROIPoolingGrad', 'rois' must be 3-D (batch, 5, "
                             f"rois_num), but got shape {rois.shape}.")
        want = (rois.shape[0] * rois.shape[2], self.output_dim, g, g)
        if tuple(dy.shape) != want:
            raise RuntimeError(f"For 'PSROIPoolingGrad', 'dy' must have shape {want} (rois "
                               f"batch * rois_num, output_dim, group_size, group_size), but got "
                               f"{dy.shape}.")
        rows = _ps_roi_rows(self.name, rois)
        h, w = self._sizes
        plans = _ps_roi_bins(rows, h, w, self.spatial_scale, g, forward=False)
        if any(not 0 <= p[0] < rois.shape[0] for p in plans):
            raise ValueError(f"For 'PSROIPoolingGrad', the batch index of 'rois' must be in "
                             f"[0, {rois.shape[0]}), but got {rows[:, 0].tolist()}.")
        channels = self.output_dim * g * g
        dtype = dy.asnumpy().dtype
        # the transpose of `_ps_roi_pool` written with ops (not a vjp) so it exports as MINDIR
        r = len(plans)
        my = Tensor(np.stack([p[1] for p in plans]).astype(dtype)).reshape((r, 1, g, 1, h, 1))
        mx = Tensor(np.stack([p[2] for p in plans]).astype(dtype)).reshape((r, 1, 1, g, 1, w))
        spread = (dy.reshape((r, self.output_dim, g, g, 1, 1)) * my * mx).reshape(
            (r, channels, h, w))
        per_batch = []
        for b in range(rois.shape[0]):
            mine = [spread[i] for i, p in enumerate(plans) if p[0] == b]
            total = mine[0] if mine else ops.zeros((channels, h, w), dy.dtype)
            for part in mine[1:]:
                total = total + part
            per_batch.append(total)
        return ops.stack(per_batch)
