"""`ops.conv1d`, `ops.conv2d`, `ops.conv3d`, `ops.Conv2D` and `ops.Conv3D`: im2col (one Cython
kernel for 2-D and 3-D) and one matmul per group, the bias added in the same pass; the
backward's column gradient goes back through col2im. 1-D runs as 2-D over (N, C, 1, L)."""

import math

import numpy as np
from cellgrad._core._buffer import TensorBuffer

from cellgrad._core import _tape
from cellgrad._errors import ShapeError
from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn._kernels import conv_small
from cellgrad_nn._kernels.im2col import col2im, im2col, swap_leading
from cellgrad_nn.amp import auto as _auto
from cellgrad_nn.functional import _checks, _lowp, _orient
from cellgrad_nn.spatial import _buffers as B
from cellgrad_nn.spatial import _window as W
from cellgrad_nn.spatial import conv_grad


def grouped_matmul(a, b, out=None):
    """(G, M, K) @ (G, K, N): one GEMM, or one per group."""
    if a.shape[0] != 1:
        return np.matmul(a, b, out=out)
    if out is None:
        return (a[0] @ b[0])[None]
    np.matmul(a[0], b[0], out=out[0])
    return out


# The direct kernel (`_kernels/conv_small.pyx`) beats im2col + GEMM for few input taps and
# output rows of 16..32 (LeNet's first layer, measured: forward 158 vs 354 us, backward 301 vs
# 418 us); with more taps or shorter rows (its second layer: 3.5x slower) BLAS wins.
_DIRECT = conv_small.fast()


def _direct(x, w, pads, stride, dilation, groups, out_size):
    return _DIRECT and x.dtype.char == "f" and w.dtype.char == "f" and len(out_size) == 2 \
        and groups == 1 and stride == (1, 1) and dilation == (1, 1) and not any(pads) \
        and x.shape[1] * w.shape[2] * w.shape[3] <= 25 and 16 <= out_size[1] <= 32


def _conv_fwd(x, w, b=None, *, pads, stride, dilation, groups, out_size):
    """Any rank: `pads` is (before, after) per spatial axis, flat; im2col reads `before`."""
    out, saved = _conv_fwd_arrays(x, w, b, pads, stride, dilation, groups, out_size)
    if _tape.recording_depth() >= 2:  # a nested transform: the inputs, for `conv_grad.higher`
        saved += (x, w)
    return out, saved


def _conv_fwd_arrays(x, w, b, pads, stride, dilation, groups, out_size):
    dtype = x.dtype
    converted = dtype.char not in "fd"
    if converted or w.dtype.char not in "fd":  # float16 computes in float32
        x, w, b = W.kernel_dtype(x), W.kernel_dtype(w), W.kernel_dtype(b)
    if _direct(x, w, pads, stride, dilation, groups, out_size):
        out = B.empty(x.shape[:1] + w.shape[:1] + out_size, x.dtype)
        if converted:  # the conversion is a fresh array of this op's own
            kept = np.ascontiguousarray(x)
        else:  # a copy: the input may change before the backward
            kept = B.empty(x.shape, x.dtype)
            np.copyto(kept, x)
        w = np.ascontiguousarray(w)
        conv_small.conv_forward(kept, w, None if b is None else np.ascontiguousarray(b), out)
        saved = (None, w, x.shape, pads, stride, dilation, groups, b is not None, kept)
        return _lowp.round_to(out, dtype), saved
    n, c = x.shape[:2]
    o, kernel = w.shape[0], w.shape[2:]
    length = math.prod(out_size)
    # Columns (C*prod(kernel), N, L): weight (O, C*prod(kernel)) @ columns is the output
    # channel-major.
    rows = c * math.prod(kernel)
    cols = B.empty((rows, n, length), x.dtype)
    im2col(x if x.flags.c_contiguous else np.ascontiguousarray(x), cols, kernel, stride,
           dilation, pads[::2], out_size)
    # explicit sizes, not -1: an empty batch (n == 0) is a valid input with an empty output
    if groups == 1:  # (O, N*L), possibly a transposed array: the pass below reads either
        res = _orient.matmul(w.reshape(o, rows), cols.reshape(rows, n * length), B.empty)
    else:
        res = B.empty((groups, o // groups, n * length), x.dtype)
        grouped_matmul(w.reshape(groups, o // groups, rows // groups),
                       cols.reshape(groups, rows // groups, n * length), res)
    out = B.empty((n, o) + out_size, x.dtype)
    if res.flags.c_contiguous and res.dtype == out.dtype and (b is None or b.dtype == out.dtype):
        swap_leading(res.reshape(o, n, length), out.reshape(n, o, length),
                     None if b is None else np.ascontiguousarray(b))
    else:  # a turned product (its transpose is C-ordered)
        by_sample = res.reshape(o, n, length).transpose(1, 0, 2)
        if b is None:
            np.copyto(out.reshape(n, o, length), by_sample)
        else:
            np.add(by_sample, b[:, None], out=out.reshape(n, o, length))
        del by_sample
    del res
    saved = (cols, w, x.shape, pads, stride, dilation, groups, b is not None)
    return _lowp.round_to(out, dtype), saved


def _conv_bwd(ctx, g):
    if isinstance(g, TensorBuffer):  # create_graph: the gradient as differentiable ops
        return conv_grad.higher(ctx, g)
    cols, w, x_shape, pads, stride, dilation, groups, has_bias = ctx.saved[:8]
    if g.dtype.char not in "fd":  # float16 storage: float32 kernels, gradients rounded once
        low = g.dtype
        return tuple(None if r is None else _lowp.round_to(r, low)
                     for r in _conv_bwd(ctx, W.kernel_dtype(g)))
    if cols is None:
        return _direct_bwd(ctx, g)
    n, o = g.shape[:2]
    out_size = g.shape[2:]
    length = math.prod(out_size)
    # Channel-major (G, O/G, N*L), as the columns.
    g2 = B.empty((groups, o // groups, n * length), g.dtype)
    if g.flags.c_contiguous:
        swap_leading(g.reshape(n, o, length), g2.reshape(o, n, length))
    else:
        np.copyto(g2.reshape(o, n, length), g.reshape(n, o, length).transpose(1, 0, 2))
    needs = ctx.needs_input_grad
    dx = dw = db = None
    if needs[1]:
        cols_t = cols.reshape(groups, cols.shape[0] // groups, n * length).transpose(0, 2, 1)
        if groups == 1:  # C order for the optimizer's kernels (a turned product is not)
            dw = _orient.contiguous(_orient.matmul(g2[0], cols_t[0])).reshape(w.shape)
        else:
            dw = grouped_matmul(g2, cols_t).reshape(w.shape)
    if has_bias and needs[2]:
        db = g2.reshape(o, n * length).sum(axis=1)
    if needs[0]:
        dcols = grouped_matmul(w.reshape(groups, o // groups, cols.shape[0] // groups)
                               .transpose(0, 2, 1), g2,
                               B.empty((groups, cols.shape[0] // groups, n * length), g.dtype))
        dx = B.zeros(x_shape, g.dtype)
        col2im(dcols.reshape(cols.shape[0], n, length), dx, w.shape[2:], stride, dilation,
               pads[::2], out_size)
    return (dx, dw, db) if has_bias else (dx, dw)


def _direct_bwd(ctx, g):
    """The direct kernel's weight and bias gradients; the input's (rarely needed for a first
    layer) through the columns' gradient and col2im, as the im2col path."""
    _, w, x_shape, pads, stride, dilation, groups, has_bias, x = ctx.saved[:9]
    g = np.ascontiguousarray(g, np.float32)
    needs = ctx.needs_input_grad
    dw = np.empty_like(w)
    db = np.empty(w.shape[0], np.float32) if has_bias and needs[2] else None
    conv_small.conv_backward(x, w, g, None, dw, db)
    dx = None
    if needs[0]:
        n, o = g.shape[:2]
        rows, length = math.prod(w.shape[1:]), math.prod(g.shape[2:])
        g2 = np.ascontiguousarray(g.reshape(n, o, length).transpose(1, 0, 2))
        dcols = np.matmul(w.reshape(o, rows).T, g2.reshape(o, n * length))
        dx = np.zeros(x_shape, np.float32)
        col2im(dcols.reshape(rows, n, length), dx, w.shape[2:], stride, dilation, pads[::2],
               g.shape[2:])
    return (dx, dw, db) if has_bias else (dx, dw)


CONV2D = Op("conv2d", _conv_fwd, _conv_bwd, PROMOTE_ARITH)
CONV3D = Op("conv3d", _conv_fwd, _conv_bwd, PROMOTE_ARITH)
OPS = (CONV2D, CONV3D)
_BY_RANK = {2: CONV2D, 3: CONV3D}
conv_grad.use_forward(_BY_RANK, _conv_fwd)


# Checked geometry by everything it depends on: a layer called every step with inputs of
# one shape skips its ~50 checking calls after the first (the checks are pure functions of
# the key: types, shapes, dtypes and the arguments).
_PLANS: dict = {}
_PLANS_MAX = 512


def conv_checked(op, input, weight, bias, stride, pad_mode, padding, dilation, groups, rank=2):
    """Checked convolution of `rank` (2 or 3) spatial dimensions; `stride`, `dilation` and
    `padding` as MindSpore's functional forms take them."""
    if _auto.ACTIVE:  # amp 'auto': Conv2D/Conv3D take the low dtype (the bias is promoted)
        input, weight = _auto.white_pair(input, weight)
    try:
        # the types too: True == 1 and 1.0 == 1, but only ints pass the checks
        key = (op, rank, type(input), type(weight), input.shape, weight.shape, input.dtype,
               weight.dtype, stride, type(stride), pad_mode, padding, type(padding), dilation,
               type(dilation), groups, type(groups),
               None if bias is None else (type(bias), bias.shape, bias.dtype))
        attrs = _PLANS.get(key)
    except (TypeError, AttributeError):  # unhashable arguments, or not Tensors: check them
        key = attrs = None
    if attrs is None:
        attrs = _conv_attrs(op, input, weight, bias, stride, pad_mode, padding, dilation,
                            groups, rank)
        if key is not None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            _PLANS[key] = attrs
    if bias is None:
        return apply(_BY_RANK[rank], (input, weight), attrs)
    return apply(_BY_RANK[rank], (input, weight, bias), attrs)


def _conv_attrs(op, input, weight, bias, stride, pad_mode, padding, dilation, groups, rank):
    """The op's attributes, after every check of the arguments."""
    W.check_rank(op, "input", input, rank)
    W.check_rank(op, "weight", weight, rank)
    if input.dtype != weight.dtype:  # MindSpore's Conv2D/Conv3D refuse; no silent promotion
        raise TypeError(f"For '{op}', the type of 'input' should be same as 'weight', but got "
                        f"'input' with type Tensor[{input.dtype}] and 'weight' with type "
                        f"Tensor[{weight.dtype}].")
    stride = W.ints_of(op, "stride", stride, rank)
    dilation = W.ints_of(op, "dilation", dilation, rank)
    if any(v < 1 for v in stride + dilation):
        raise ValueError(f"For '{op}', 'stride' and 'dilation' must be positive, got stride "
                         f"{stride}, dilation {dilation}.")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise TypeError(f"For '{op}', 'groups' must be a positive int, got {groups!r}.")
    c, o = input.shape[1], weight.shape[0]
    if c % groups or o % groups or weight.shape[1] * groups != c:
        raise ShapeError(f"For '{op}', the input's channels ({c}) must equal weight.shape[1] * "
                         f"groups ({weight.shape[1]} * {groups}) and out channels ({o}) must be "
                         f"divisible by groups; got input {_checks.describe(input)}, weight "
                         f"{_checks.describe(weight)}.")
    kernel = tuple(weight.shape[2:])
    pads = W.pads_for(op, pad_mode, padding, input.shape[2:], kernel, stride, dilation)
    out_size = tuple(W.output_size(op, input.shape[2 + a], pads[2 * a] + pads[2 * a + 1],
                                   kernel[a], stride[a], dilation[a]) for a in range(rank))
    dt = input._data.dtype
    B.check_fits(op, "im2col columns", (c * math.prod(kernel), input.shape[0],
                                        math.prod(out_size)), dt if dt.char in "fd" else "f")
    if bias is not None:
        _checks.tensor(op, "bias", bias)
        if tuple(bias.shape) != (o,):
            raise ValueError(f"For '{op}', 'bias' must have shape ({o},), got "
                             f"{_checks.describe(bias)}.")
    return {"pads": pads, "stride": stride, "dilation": dilation, "groups": groups,
            "out_size": out_size}




def conv2d_checked(op, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    return conv_checked(op, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """Mirrors `mindspore.ops.conv2d`: input (N, C, H, W), weight (O, C / groups, KH, KW)."""
    return conv_checked("conv2d", input, weight, bias, stride, pad_mode, padding, dilation,
                        groups)


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """Mirrors `mindspore.ops.conv3d`: input (N, C, D, H, W), weight (O, C / groups, KD, KH,
    KW); `padding` an int, one per axis or (head, tail, top, bottom, left, right)."""
    return conv_checked("conv3d", input, weight, bias, stride, pad_mode, padding, dilation,
                        groups, 3)


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """Mirrors `mindspore.ops.conv1d`: input (N, C, L), weight (O, C / groups, K)."""
    _checks.tensor("conv1d", "input", input)
    _checks.tensor("conv1d", "weight", weight)
    if input.ndim != 3 or weight.ndim != 3:
        raise ValueError(f"For 'conv1d', 'input' and 'weight' must be 3-D, got "
                         f"{_checks.describe(input)} and {_checks.describe(weight)}.")
    for name, value in (("stride", stride), ("dilation", dilation)):
        if not isinstance(value, int) and not (isinstance(value, tuple) and len(value) == 1):
            raise TypeError(f"For 'conv1d', '{name}' must be an int, got {value!r}.")
    one = lambda v: v[0] if isinstance(v, tuple) else v  # noqa: E731
    pad = padding[0] if isinstance(padding, tuple) and len(padding) == 1 else padding
    pads = (0, 0, pad, pad) if isinstance(pad, int) else (0, 0) + tuple(pad)
    n, c, length = input.shape
    out = conv_checked("conv1d", input.reshape((n, c, 1, length)),
                       weight.reshape(weight.shape[:2] + (1, weight.shape[2])), bias,
                       (1, one(stride)), pad_mode, pads if pad_mode == "pad" else 0,
                       (1, one(dilation)), groups)
    return out.reshape((out.shape[0], out.shape[1], out.shape[3]))


class _ConvPrimitive(Primitive):
    """What `ops.Conv2D` and `ops.Conv3D` hold; called as `(x, weight)`."""

    RANK = 2
    FORMAT = "NCHW"

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__(type(self).__name__)
        name, rank = type(self).__name__, self.RANK
        if data_format != self.FORMAT:
            raise ValueError(f"For '{name}', cellgrad supports data_format {self.FORMAT!r}, got "
                             f"{data_format!r}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{name}', 'pad_mode' must be one of 'valid', 'same', 'pad', "
                             f"got {pad_mode!r}.")
        self.out_channel = out_channel
        self.kernel_size = W.ints_of(name, "kernel_size", kernel_size, rank)
        self.mode, self.group = mode, group
        self.pad_mode = pad_mode.lower()
        self.pad = pad
        self.stride = _n_of(name, "stride", stride, rank)
        self.dilation = _n_of(name, "dilation", dilation, rank)
        self.data_format = data_format

    def __call__(self, x, weight):
        name = type(self).__name__
        if weight.shape[0] != self.out_channel or tuple(weight.shape[2:]) != self.kernel_size:
            raise ValueError(f"For '{name}', 'weight' must have out_channel={self.out_channel} "
                             f"and kernel_size={self.kernel_size}, got "
                             f"{_checks.describe(weight)}.")
        return conv_checked(name, x, weight, None, self.stride, self.pad_mode, self.pad,
                            self.dilation, self.group, self.RANK)


class Conv2D(_ConvPrimitive):
    """Mirrors `mindspore.ops.Conv2D(out_channel, kernel_size, ...)`: `(x, weight)`."""


class Conv3D(_ConvPrimitive):
    """Mirrors `mindspore.ops.Conv3D(out_channel, kernel_size, ...)`: `(x, weight)`, x (N, C,
    D, H, W); `pad` an int or (head, tail, top, bottom, left, right)."""

    RANK = 3
    FORMAT = "NCDHW"

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
                 dilation=1, group=1, data_format="NCDHW"):
        super().__init__(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                         data_format)


def _n_of(op, name, value, rank):
    """MindSpore primitives take an int, one int per axis or (1, 1, ...) with N and C."""
    if isinstance(value, (tuple, list)) and len(value) == rank + 2:
        return tuple(value[2:])
    return W.ints_of(op, name, value, rank)
