"""conv's two gradients as ops of their own, so a gradient through conv is differentiable
again (grad of grad, MindSpore's Conv2DBackpropInput/Conv2DBackpropFilter): the input
gradient is bilinear in (dout, weight), the weight gradient in (input, dout), and each one's
backward is made of conv and the other, so every order closes over these three ops.

conv's first-order backward stays the fused im2col/col2im rule (`conv._conv_bwd`); only a
nested gradient transform (create_graph) goes through `higher`."""

import math

import numpy as np
from cellgrad._core._buffer import TensorBuffer

from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn._kernels.im2col import col2im, im2col


def _channel_major(g, groups):
    """(N, O, *out) -> (G, O/G, N*L), as conv's columns."""
    n, o = g.shape[:2]
    length = math.prod(g.shape[2:])
    g2 = np.empty((groups, o // groups, n * length), g.dtype)
    np.copyto(g2.reshape(o, n, length), g.reshape(n, o, length).transpose(1, 0, 2))
    return g2


def _input_grad(g, w, x_shape, pads, stride, dilation, groups):
    n, o = g.shape[:2]
    out_size = g.shape[2:]
    length = math.prod(out_size)
    rows = x_shape[1] * math.prod(w.shape[2:])
    dcols = np.matmul(w.reshape(groups, o // groups, rows // groups).transpose(0, 2, 1),
                      _channel_major(g, groups))
    dx = np.zeros(x_shape, g.dtype)
    col2im(np.ascontiguousarray(dcols).reshape(rows, n, length), dx, w.shape[2:], stride,
           dilation, pads[::2], out_size)
    return dx


def _filter_grad(x, g, w_shape, pads, stride, dilation, groups):
    n, o = g.shape[:2]
    out_size = g.shape[2:]
    length = math.prod(out_size)
    rows = x.shape[1] * math.prod(w_shape[2:])
    cols = np.empty((rows, n, length), x.dtype)
    im2col(np.ascontiguousarray(x), cols, tuple(w_shape[2:]), stride, dilation, pads[::2],
           out_size)
    cols_t = cols.reshape(groups, rows // groups, n * length).transpose(0, 2, 1)
    return np.matmul(_channel_major(g, groups), cols_t).reshape(w_shape)


_FORWARD = {}  # conv.py's forward ops by rank and its array forward: see `use_forward`


def use_forward(by_rank, conv_fwd):
    """Called by conv.py, which imports this module: its forward ops are handed over rather
    than imported back (no import cycle)."""
    _FORWARD.update(by_rank=by_rank, fwd=conv_fwd)


def _conv(x, w, pads, stride, dilation, groups, out_size):
    """conv forward: recorded when the operands are Tensors (a higher order), else arrays."""
    attrs = {"pads": pads, "stride": stride, "dilation": dilation, "groups": groups,
             "out_size": tuple(out_size)}
    if isinstance(x, TensorBuffer) or isinstance(w, TensorBuffer):
        return apply(_FORWARD["by_rank"][len(stride)], (x, w), attrs)
    return _FORWARD["fwd"](x, w, **attrs)[0]


def _grad_input_fwd(g, w, *, x_shape, pads, stride, dilation, groups):
    dx = _input_grad(g, w, x_shape, pads, stride, dilation, groups)
    return dx, (g, w, x_shape, pads, stride, dilation, groups)


def _grad_input_bwd(ctx, ddx):
    g, w, x_shape, pads, stride, dilation, groups = ctx.saved
    needs = ctx.needs_input_grad
    dg = _conv(ddx, w, pads, stride, dilation, groups, g.shape[2:]) if needs[0] else None
    dw = filter_grad(ddx, g, tuple(w.shape), pads, stride, dilation, groups) \
        if needs[1] else None
    return dg, dw


def _grad_filter_fwd(x, g, *, w_shape, pads, stride, dilation, groups):
    dw = _filter_grad(x, g, w_shape, pads, stride, dilation, groups)
    return dw, (x, g, w_shape, pads, stride, dilation, groups)


def _grad_filter_bwd(ctx, ddw):
    x, g, w_shape, pads, stride, dilation, groups = ctx.saved
    needs = ctx.needs_input_grad
    dx = input_grad(g, ddw, tuple(x.shape), pads, stride, dilation, groups) \
        if needs[0] else None
    dg = _conv(x, ddw, pads, stride, dilation, groups, g.shape[2:]) if needs[1] else None
    return dx, dg


CONV_GRAD_INPUT = Op("conv_grad_input", _grad_input_fwd, _grad_input_bwd, PROMOTE_ARITH)
CONV_GRAD_FILTER = Op("conv_grad_filter", _grad_filter_fwd, _grad_filter_bwd, PROMOTE_ARITH)
OPS = (CONV_GRAD_INPUT, CONV_GRAD_FILTER)


def input_grad(g, w, x_shape, pads, stride, dilation, groups):
    attrs = {"x_shape": tuple(x_shape), "pads": pads, "stride": stride,
             "dilation": dilation, "groups": groups}
    if isinstance(g, TensorBuffer) or isinstance(w, TensorBuffer):
        return apply(CONV_GRAD_INPUT, (g, w), attrs)
    return _grad_input_fwd(g, w, **attrs)[0]


def filter_grad(x, g, w_shape, pads, stride, dilation, groups):
    attrs = {"w_shape": tuple(w_shape), "pads": pads, "stride": stride,
             "dilation": dilation, "groups": groups}
    if isinstance(x, TensorBuffer) or isinstance(g, TensorBuffer):
        return apply(CONV_GRAD_FILTER, (x, g), attrs)
    return _grad_filter_fwd(x, g, **attrs)[0]


def higher(ctx, g):
    """conv's backward under create_graph: its gradients as recorded ops of the saved input
    and weight (wired into the graph by `conv._conv_fwd` when recording nested)."""
    x_shape, pads, stride, dilation, groups, has_bias = ctx.saved[2:8]
    x, w = ctx.saved[-2:]
    needs = ctx.needs_input_grad
    dx = input_grad(g, w, x_shape, pads, stride, dilation, groups) if needs[0] else None
    dw = filter_grad(x, g, w.shape, pads, stride, dilation, groups) if needs[1] else None
    if not has_bias:
        return dx, dw
    db = g.sum(axis=(0,) + tuple(range(2, g.ndim))) if needs[2] else None
    return dx, dw, db
