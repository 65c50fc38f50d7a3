"""batch_norm, layer_norm, group_norm: normalisation forward and backward each in one op.

The statistics are computed once, by the public function (which also updates BatchNorm's
running statistics in place), and handed to the op as attributes. Batch normalisation of
contiguous float32/float64 input with 3+ dimensions runs in the Cython kernels of
`_kernels/norm.pyx` (two passes each way instead of numpy's ~eight).
"""

import math

import numpy as np
from cellgrad._core._buffer import TensorBuffer

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn._kernels.layer_norm import layer_norm_backward, layer_norm_forward
from cellgrad_nn._kernels.norm import batch_norm_backward, batch_norm_forward, batch_norm_stats
from cellgrad_nn.functional import _checks


def _stat_dtype(x):
    return np.float32 if x.dtype == np.float16 else x.dtype


def _kernel_fits(x, *arrays):
    """Whether batch norm of `x` (N, C, ...) with these per-channel arrays runs in the kernels."""
    if x.ndim < 3 or not x.size or x.dtype.char not in "fd" or not x.flags.c_contiguous:
        return False
    for a in arrays:  # a loop, not all(generator): no call per array
        if a is None or a.dtype != x.dtype:
            return False
    return True


def _channels(x):
    """`x` (N, C, ...) as (N, C, S), a view."""
    return x.reshape(x.shape[0], x.shape[1], -1)


def _norm_fwd(x, w=None, b=None, *, mean, var, eps, axes, training, per_channel=False):
    """y = (x - mean) / sqrt(var + eps) * w + b; `axes` are the reduced (statistics) axes.

    `per_channel`: w and b are batch normalisation's (C,) parameters as they are (no recorded
    reshape of them on every call); they act as views of the statistics' (1, C, 1, ...)."""
    if per_channel:
        y, saved = _norm_fwd(x, w.reshape(mean.shape), b.reshape(mean.shape), mean=mean,
                             var=var, eps=eps, axes=axes, training=training)
        return y, saved[:2] + (w,) + saved[3:] + (True,)  # w itself: higher orders record it
    invstd = 1.0 / np.sqrt(var + eps)
    if axes == _batch_axes(x) and _kernel_fits(x, w, b, mean, invstd):
        y = np.empty_like(x)
        batch_norm_forward(_channels(x), mean.reshape(-1), invstd.reshape(-1), w.reshape(-1),
                           b.reshape(-1), _channels(y))
        # xhat None: the backward recomputes it in the kernel
        return y, (None, invstd, w, axes, training, x, mean, var, eps)
    xhat = ((x - mean) * invstd).astype(_stat_dtype(x), copy=False)
    y = xhat * w if w is not None else xhat.copy()
    if b is not None:
        y += b
    return y.astype(x.dtype, copy=False), (xhat, invstd, w, axes, training, x, mean, var, eps)


def _norm_bwd(ctx, g):
    saved = ctx.saved
    if len(saved) == 9:
        return _norm_grads(ctx, g, saved)
    w = saved[2]  # per_channel: (C,)
    gx, gw, gb = _norm_grads(ctx, g, saved[:2] + (w.reshape(saved[6].shape),) + saved[3:9])
    return gx, (None if gw is None else gw.reshape(w.shape)), \
        (None if gb is None else gb.reshape(w.shape))


def _norm_grads(ctx, g, saved):
    xhat, invstd, w, axes, training, x, mean, var, eps = saved
    if ctx.xp.IS_TENSOR:
        xhat, invstd = _normalized_tensor(x, mean, var, eps, axes, training)
    nx, nw, nb = (tuple(ctx.needs_input_grad) + (False, False))[:3]
    if xhat is None and not ctx.xp.IS_TENSOR:
        return _batch_norm_bwd(g, x, mean, invstd, w, training, nx, nw, nb)
    gw = _sum_to(g * xhat, w) if nw else None
    gb = _sum_to(g, w) if nb else None
    gx = None
    if nx:
        gxhat = g * w if w is not None else g
        if training:
            count = max(xhat.size // max(invstd.size, 1), 1)  # an empty batch has none
            mean_g = gxhat.sum(axis=axes, keepdims=True) / count
            mean_gx = (gxhat * xhat).sum(axis=axes, keepdims=True) / count
            gx = (gxhat - mean_g - xhat * mean_gx) * invstd
        else:
            gx = gxhat * invstd
    return gx, gw, gb


def _batch_norm_bwd(g, x, mean, invstd, w, training, nx, nw, nb):
    dx = np.empty_like(x)
    dw, db = np.empty(x.shape[1], x.dtype), np.empty(x.shape[1], x.dtype)
    batch_norm_backward(_channels(np.ascontiguousarray(g, x.dtype)), _channels(x),
                        mean.reshape(-1), invstd.reshape(-1), w.reshape(-1), training,
                        _channels(dx), dw, db)
    return (dx if nx else None), (dw.reshape(w.shape) if nw else None), \
        (db.reshape(w.shape) if nb else None)


def _batch_axes(x):
    """The statistics axes of batch normalisation: all but the channels (1)."""
    return (0,) + tuple(range(2, x.ndim))


def _normalized_tensor(x, mean, var, eps, axes, training):
    """xhat and 1/std as recorded Tensor ops of `x` (higher orders); constants in eval."""
    from cellgrad import Tensor

    if not training:
        invstd = Tensor(1.0 / np.sqrt(var._data + eps))
        return (x - mean) * invstd, invstd
    count = 1
    for a in axes:
        count *= x.shape[a]
    centered = x - x.sum(axis=axes, keepdims=True) * (1.0 / count)
    invstd = (centered * centered).sum(axis=axes, keepdims=True) * (1.0 / count) + eps
    invstd = invstd ** -0.5
    return centered * invstd, invstd


def _sum_to(a, like):
    """Sum `a` down to the (right-aligned, broadcast) shape of the parameter `like`."""
    lead = a.ndim - like.ndim
    axes = tuple(range(lead)) + tuple(i + lead for i, n in enumerate(like.shape) if n == 1)
    return a.sum(axis=axes).reshape(like.shape) if axes else a


NORM = Op("nn_normalize", _norm_fwd, _norm_bwd, PROMOTE_NONE)


def _layer_norm_fwd(x, w, b, *, eps, stats):
    """Layer normalisation of C-contiguous `x` over its last axis in `_kernels.layer_norm`;
    the rows' mean, variance and 1/std into `stats` (three (R,) arrays, for the caller)."""
    mean, var, rstd = stats
    y = np.empty_like(x)
    c = x.shape[-1]
    layer_norm_forward(x.reshape(-1, c), w, b, eps, y.reshape(-1, c), mean, var, rstd)
    keep = x.shape[:-1] + (1,)
    # NORM's saved layout (xhat recomputed): its backward serves higher orders
    return y, (None, rstd.reshape(keep), w, (x.ndim - 1,), True, x, mean.reshape(keep),
               var.reshape(keep), eps)


def _layer_norm_bwd(ctx, g):
    saved = ctx.saved
    x, w = saved[5], saved[2]
    if ctx.xp.IS_TENSOR or not isinstance(g, np.ndarray):
        return _norm_grads(ctx, g, saved)
    c = x.shape[-1]
    g2 = np.ascontiguousarray(g, x.dtype).reshape(-1, c)
    dx = np.empty_like(x)
    dw, db = np.zeros(c), np.zeros(c)
    layer_norm_backward(g2, x.reshape(-1, c), saved[6].reshape(-1), saved[1].reshape(-1), w,
                        dx.reshape(-1, c), dw, db)
    nx, nw, nb = ctx.needs_input_grad
    return (dx if nx else None), (dw.astype(w.dtype) if nw else None), \
        (db.astype(w.dtype) if nb else None)


LAYER_NORM = Op("layer_norm", _layer_norm_fwd, _layer_norm_bwd, PROMOTE_NONE)
OPS = (NORM, LAYER_NORM)


def _array(t):
    return t._data if isinstance(t, TensorBuffer) else t


def _update_running(op, stat, new, momentum, name):
    """stat = (1 - momentum) * stat + momentum * new, in place (MindSpore's moving update)."""
    data = _array(stat)
    if tuple(data.shape) != tuple(new.shape):
        raise ValueError(f"For '{op}', '{name}' must have shape {tuple(new.shape)}, got "
                         f"{_checks.describe(stat)}.")
    data *= 1.0 - momentum
    data += (new * momentum).astype(data.dtype, copy=False)


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-05):
    """Mirrors `mindspore.ops.batch_norm`: normalise over every axis but 1 (channels).

    Training uses the batch statistics and updates `running_mean`/`running_var` in place:
    `running = (1 - momentum) * running + momentum * batch` (the variance unbiased), as
    MindSpore does; otherwise the running statistics normalise.
    """
    return batch_norm_checked("batch_norm", input_x, running_mean, running_var, weight, bias,
                              training, momentum, eps)[0]


# Checked arguments by everything the checks read (types, shapes, dtypes, momentum): a
# BatchNorm layer called every step skips them after the first call.
_PLANS: dict = {}
_PLANS_MAX = 512


def batch_norm_checked(op, x, running_mean, running_var, weight, bias, training, momentum, eps):
    """batch_norm returning (y, batch mean, batch biased variance) for the BatchNorm forms."""
    try:
        key = (op, type(x), x.shape, x.dtype, type(running_mean), running_mean.shape,
               type(running_var), running_var.shape, type(weight), weight.shape, type(bias),
               bias.shape, momentum, type(momentum))
        plan = _PLANS.get(key)
    except (TypeError, AttributeError):  # not Tensors, or an unhashable momentum
        key = plan = None
    if plan is None:
        plan = _bn_plan(op, x, running_mean, running_var, weight, bias, momentum)
        if key is not None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            _PLANS[key] = plan
    axes, shape, momentum = plan
    channels = shape[1]
    data = x._data
    if data.dtype == np.float16:
        data = data.astype(np.float32)
    if training and data.size == 0:
        # an empty batch has no statistics: running ones stay as they are (as PyTorch's)
        mean, var = np.zeros(channels, data.dtype), np.ones(channels, data.dtype)
    elif training:
        if _kernel_fits(data):
            mean, var = np.empty(channels, data.dtype), np.empty(channels, data.dtype)
            batch_norm_stats(_channels(data), mean, var)
        else:
            mean = data.mean(axis=axes)
            var = data.var(axis=axes)
        count = data.size // channels
        unbiased = var * (count / max(count - 1, 1))
        _update_running(op, running_mean, mean, momentum, "running_mean")
        _update_running(op, running_var, unbiased, momentum, "running_var")
    else:
        mean = running_mean._data.astype(data.dtype, copy=False)
        var = running_var._data.astype(data.dtype, copy=False)
    attrs = {"mean": mean.reshape(shape), "var": var.reshape(shape), "eps": float(eps),
             "axes": axes, "training": bool(training), "per_channel": True}
    y = apply(NORM, (x, weight, bias), attrs)
    return y, mean, var


def _bn_plan(op, x, running_mean, running_var, weight, bias, momentum):
    """(statistics axes, the (1, C, 1, ...) shape, momentum) after every argument check."""
    _checks.floating(op, "input_x", x)
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        _checks.tensor(op, name, t)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', 'input_x' must be at least 2-D (N, C, ...), got "
                         f"{_checks.describe(x)}.")
    channels = x.shape[1]
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        if tuple(t.shape) != (channels,):
            raise ValueError(f"For '{op}', '{name}' must have shape ({channels},) (the channel "
                             f"dimension 1 of input_x {tuple(x.shape)}), got "
                             f"{_checks.describe(t)}.")
    momentum = _checks.number(op, "momentum", momentum)
    if not 0 <= momentum <= 1:
        raise ValueError(f"For '{op}', the 'momentum' must be in [0, 1], but got {momentum}.")
    return _batch_axes(x), (1, channels) + (1,) * (x.ndim - 2), momentum


def instance_norm_checked(op, x, weight, bias, eps):
    """Normalise each (sample, channel) of `x` (N, C, ...) over its own positions, then scale
    and shift per channel. As batch normalisation of (1, N*C, S) -- the same op and kernels --
    with the per-channel weight and bias tiled over the batch (their gradients sum back)."""
    from cellgrad.ops import functional as F

    _checks.floating(op, "input", x)
    n, c = x.shape[:2]
    for name, t in (("gamma", weight), ("beta", bias)):
        if tuple(_checks.tensor(op, name, t).shape) != (c,):
            raise ValueError(f"For '{op}', '{name}' must have shape ({c},) (the channel "
                             f"dimension 1 of the input {tuple(x.shape)}), got "
                             f"{_checks.describe(t)}.")
    if n * c == 0 or x.size == 0:
        return x * 1
    flat = F.reshape(x, (1, n * c, -1))
    data = np.ascontiguousarray(flat._data.astype(_stat_dtype(flat._data), copy=False))
    if _kernel_fits(data):
        mean, var = np.empty(n * c, data.dtype), np.empty(n * c, data.dtype)
        batch_norm_stats(data, mean, var)
    else:
        mean, var = data.mean(axis=(0, 2)), data.var(axis=(0, 2))
    shape = (1, n * c, 1)
    attrs = {"mean": mean.reshape(shape), "var": var.reshape(shape), "eps": float(eps),
             "axes": (0, 2), "training": True}
    w = F.reshape(F.tile(weight.astype(x.dtype), (n,)), shape)
    b = F.reshape(F.tile(bias.astype(x.dtype), (n,)), shape)
    return F.reshape(apply(NORM, (flat, w, b), attrs), tuple(x.shape))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Mirrors `mindspore.ops.layer_norm`: normalise over the trailing `normalized_shape`."""
    _checks.floating("layer_norm", "input", input)
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    k = len(normalized_shape)
    if k == 0 or k > input.ndim or tuple(input.shape[input.ndim - k:]) != normalized_shape:
        raise ValueError(f"For 'layer_norm', 'normalized_shape' {normalized_shape} must be the "
                         f"trailing dimensions of 'input', got {_checks.describe(input)}.")
    return layer_norm_checked("layer_norm", input, weight, bias, input.ndim - k,
                              input.ndim - k, eps)[0]


def layer_norm_checked(op, x, weight, bias, begin_norm_axis, begin_params_axis, eps):
    """layer_norm returning (y, mean, biased variance) with the reduced axes kept."""
    axes = tuple(range(begin_norm_axis, x.ndim))
    pshape = tuple(x.shape[begin_params_axis:])
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _checks.tensor(op, name, t)
            if tuple(t.shape) != pshape:
                raise ValueError(f"For '{op}', '{name}' must have shape {pshape} (input_x's "
                                 f"dimensions from {begin_params_axis}), got "
                                 f"{_checks.describe(t)}.")
    data = x._data
    if _layer_norm_fits(data, weight, bias, begin_norm_axis, begin_params_axis):
        rows = data.size // data.shape[-1]
        stats = (np.empty(rows, data.dtype), np.empty(rows, data.dtype),
                 np.empty(rows, data.dtype))
        y = apply(LAYER_NORM, (x, weight, bias), {"eps": float(eps), "stats": stats})
        keep = data.shape[:-1] + (1,)
        return y, stats[0].reshape(keep), stats[1].reshape(keep)
    data = data.astype(_stat_dtype(data), copy=False)
    mean = data.mean(axis=axes, keepdims=True)
    var = data.var(axis=axes, keepdims=True)
    attrs = {"mean": mean, "var": var, "eps": float(eps), "axes": axes, "training": True}
    y = apply(NORM, (x, weight, bias), attrs)
    return y, mean, var


def _layer_norm_fits(data, weight, bias, begin_norm_axis, begin_params_axis):
    """Whether layer_norm_checked's input runs in `_kernels.layer_norm`: float32/float64
    C-contiguous, normalised and scaled over the last axis alone, weight and bias of its
    dtype."""
    if data.dtype.char not in "fd" or not data.flags.c_contiguous or not data.size \
            or begin_norm_axis != data.ndim - 1 or begin_params_axis != begin_norm_axis:
        return False
    for t in (weight, bias):
        if not isinstance(t, TensorBuffer) or t._data.dtype != data.dtype:
            return False
    return True


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Mirrors `mindspore.ops.group_norm`: normalise each of `num_groups` channel groups."""
    from cellgrad.ops import functional as F

    _checks.floating("group_norm", "input", input)
    if input.ndim < 2:
        raise ValueError(f"For 'group_norm', 'input' must be at least 2-D (N, C, ...), got "
                         f"{_checks.describe(input)}.")
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) or num_groups < 1:
        raise TypeError(f"For 'group_norm', 'num_groups' must be a positive int, got "
                        f"{num_groups!r}.")
    n, c = input.shape[:2]
    if c % num_groups:
        raise ValueError(f"For 'group_norm', the channel count {c} of 'input' "
                         f"{tuple(input.shape)} must be divisible by 'num_groups' {num_groups}.")
    # explicit sizes, not -1: an empty batch is a valid input
    grouped = F.reshape(input, (n, num_groups, c // num_groups * math.prod(input.shape[2:])))
    y = F.reshape(layer_norm_checked("group_norm", grouped, None, None, 2, 2, eps)[0],
                  tuple(input.shape))
    shape = (1, c) + (1,) * (input.ndim - 2)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(_checks.tensor("group_norm", name, t).shape) != (c,):
            raise ValueError(f"For 'group_norm', '{name}' must have shape ({c},), got "
                             f"{_checks.describe(t)}.")
    if weight is not None:
        y = y * F.reshape(weight, shape)
    if bias is not None:
        y = y + F.reshape(bias, shape)
    return y
