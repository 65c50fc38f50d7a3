"""dense (x @ W.T + b) and bias_add, each one op with its backward."""

import sys

import numpy as np
from cellgrad._core._buffer import TensorBuffer

from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn.amp import auto as _auto
from cellgrad_nn.functional import _checks, _dense_blas, _dense_sgd, _lowp

_SPARE_MIN = 1 << 17  # bytes: below glibc's mmap threshold a fresh array is about as cheap
_SPARES = 4  # dX arrays kept per (shape, dtype): a net's layers of one width share them
_spare = {}  # (shape, dtype) -> [dX arrays of earlier backwards], reused once nobody holds one


def _scratch(shape, dtype):
    """An uninitialised array for a dX: one of this shape's earlier ones that only this cache
    still refers to (no Tensor, view or user variable does), else a new one (kept for later)."""
    pool = _spare.get((shape, dtype))
    if pool is None:
        pool = _spare[(shape, dtype)] = []
    for buf in pool:
        # references: the pool, `buf`, getrefcount's argument; a view or wrapper adds its own
        if sys.getrefcount(buf) == 3:
            return buf
    buf = np.empty(shape, dtype)
    if len(pool) < _SPARES:
        pool.append(buf)
    return buf


def _gemv(x, w):
    """Batch 1 as `W @ x` split by rows over two cores (`_dense_blas.splits`)."""
    return _dense_blas.gemv(w, x.reshape(-1), 2).reshape(x.shape[:-1] + w.shape[:1])


def _gemm(x, w, b=None):
    """x @ w.T (+ b) for (..., in) x and (out, in) or (in,) w."""
    # np.dot for 1-D/2-D inputs: the same BLAS call without matmul's gufunc set-up (~0.3 us)
    if x.ndim <= 2:
        if w.ndim != 2:
            out = np.dot(x, w)
        elif x.ndim == 1 or x.shape[0] == 1:
            out = _gemv(x, w) if _dense_blas.splits(x, w) else np.dot(x, w.T)
        else:  # small ones are numpy's call there, with no choice made
            return _dense_blas.product("x@w.T", x, w, bias=b)
        if b is not None:
            out += b
        return out
    # (..., in) as one (rows, in) GEMM: numpy's stacked matmul falls back to its own loop
    # (no BLAS) for strided operands, 10-20x slower at Transformer shapes
    return _gemm(x.reshape(-1, x.shape[-1]), w, b).reshape(x.shape[:-1] + w.shape[:-1])


def _dense_fwd(x, w, b=None):
    if x.dtype == np.float16:
        # numpy's float16 GEMM has no BLAS path (~20x slower): multiply in float32 and round
        # once, as MindSpore's CPU MatMul does for float16; the bias is added in float16
        return _lowp.dense(x, w, b, _gemm), (x, w, b is not None)
    return _gemm(x, w, b), (x, w, b is not None)


def _dense_bwd(ctx, g):
    x, w, has_bias = ctx.saved
    xp = ctx.xp
    if g.dtype == np.float16 and isinstance(g, np.ndarray):
        # in float32, rounded to float16 once (MindSpore's CPU kernels sum and multiply
        # float16 in float32: summing in float16 overflows where theirs does not)
        low, g, x, w = g.dtype, _lowp.f32(g), _lowp.f32(x), _lowp.f32(w)
    else:
        low = None
    nx, nw = ctx.needs_input_grad[:2]
    if w.ndim == 1:  # (..., in) @ (in,) -> (...)
        g = xp.expand_dims(g, -1)
        w2 = w.reshape(1, -1)
    else:
        w2 = w
    plain = _dense_blas.plain()
    if nx and isinstance(g, np.ndarray) and g.ndim >= 2:  # one GEMM, as in the forward
        g2 = g if g.ndim == 2 else g.reshape(-1, g.shape[-1])
        out = None
        if g2.shape[0] * w2.shape[1] * g2.itemsize >= _SPARE_MIN:
            out = _scratch((g2.shape[0], w2.shape[1]), np.result_type(g2, w2))
        if plain:
            _dense_blas.warm(w2)
            gx = np.dot(g2, w2, out)
        else:
            gx = _dense_blas.product("g@w", g2, w2, out)
        if g.ndim > 2:
            gx = gx.reshape(g.shape[:-1] + w2.shape[1:])
    else:
        gx = xp.matmul(g, w2) if nx else None
    gw = gb = None
    if nw or has_bias:
        g2 = g.reshape(-1, g.shape[-1])
        if nw:
            x2 = x.reshape(-1, x.shape[-1])
            into = ctx.grad_into(1) if w.ndim == 2 else None
            if into is not None and into.dtype == np.result_type(g2, x2):
                if _dense_sgd.STEPS and type(g2) is np.ndarray and \
                        _dense_sgd.descend(ctx, g2, x2, 3):  # W: ctx.saved, w, w2
                    gw = into  # W took its SGD step in the product; nobody reads this
                elif plain or not isinstance(g2, np.ndarray):  # straight into a gradient bucket
                    gw = np.matmul(g2.T, x2, out=into)
                else:
                    gw = _dense_blas.product("g.T@x", g2, x2, into)
            elif isinstance(g2, np.ndarray):
                gw = (np.matmul(g2.T, x2) if plain else
                      _dense_blas.product("g.T@x", g2, x2)).reshape(w.shape)
            else:
                gw = xp.matmul(xp.transpose(g2), x2).reshape(w.shape)
        if has_bias:
            into = ctx.grad_into(2) if w.ndim == 2 else None
            if into is not None and into.dtype == g2.dtype:
                gb = g2.sum(axis=0, out=into)
            else:
                gb = g2.sum(axis=0)
                gb = gb.reshape(()) if w.ndim == 1 else gb
    grads = (gx, gw, gb) if has_bias else (gx, gw)
    return grads if low is None else _lowp.dense_grads(grads, low)


DENSE = Op("dense", _dense_fwd, _dense_bwd, PROMOTE_ARITH)


def _bias_add_fwd(x, b, *, channel):
    shape = [1] * x.ndim
    shape[channel] = b.shape[0]
    return x + b.reshape(shape), (x.ndim, channel)


def _bias_add_bwd(ctx, g):
    ndim, channel = ctx.saved
    return g, g.sum(axis=tuple(a for a in range(ndim) if a != channel))


BIAS_ADD = Op("bias_add", _bias_add_fwd, _bias_add_bwd, PROMOTE_ARITH)
OPS = (DENSE, BIAS_ADD)


def dense(input, weight, bias=None):
    """Mirrors `mindspore.ops.dense`: input @ weight.T + bias; `weight` is (out, in) or (in,)."""
    # Shapes are read once: this runs on every Dense call, where the checks are the overhead.
    if not isinstance(input, TensorBuffer):
        _checks.tensor("dense", "input", input)
    if not isinstance(weight, TensorBuffer):
        _checks.tensor("dense", "weight", weight)
    if _auto.ACTIVE:  # amp 'auto': MindSpore's Dense primitive is white-listed, bias included
        input, weight, bias = _auto.white(input, weight, bias)
    ws, xs = weight.shape, input.shape
    if len(ws) not in (1, 2) or not xs:
        raise ValueError(f"For 'dense', 'weight' must be 1-D or 2-D and 'input' at least 1-D, "
                         f"got input {_checks.describe(input)}, weight "
                         f"{_checks.describe(weight)}.")
    if xs[-1] != ws[-1]:
        raise ValueError(f"For 'dense', the last dimension of 'input' must equal the last "
                         f"dimension of 'weight' (in_channels), got input "
                         f"{_checks.describe(input)} and weight {_checks.describe(weight)}.")
    if input.dtype != weight.dtype:  # MindSpore's Dense does not promote
        raise TypeError(f"For 'Dense', the type of 'x2' should be same as 'x1', but got 'x1' "
                        f"with type Tensor[{input.dtype}] and 'x2' with type "
                        f"Tensor[{weight.dtype}].")
    if bias is None:
        return apply(DENSE, (input, weight))
    if not isinstance(bias, TensorBuffer):
        _checks.tensor("dense", "bias", bias)
    if bias.dtype != input.dtype:
        raise TypeError(f"For Dense, all dtypes should be the same, but got 'input' with dtype: "
                        f"{input.dtype} and 'bias' with dtype: {bias.dtype}.")
    bs = bias.shape
    if len(ws) == 2:
        if bs != ws[:1] and bs != () and bs != (1,):
            raise ValueError(f"For 'dense', 'bias' must have shape {ws[:1]} (out_channels), "
                             f"got {_checks.describe(bias)}.")
    elif bs != () and bs != (1,):
        raise ValueError(f"For 'dense', 'bias' must have shape () (out_channels), got "
                         f"{_checks.describe(bias)}.")
    return apply(DENSE, (input, weight, bias))


def bias_add(input_x, bias):
    """Mirrors `mindspore.ops.bias_add`: adds the 1-D `bias` along the channel axis 1."""
    return bias_add_checked("bias_add", input_x, bias, "NCHW")


def bias_add_checked(op, input_x, bias, data_format):
    """bias_add along axis 1 ('NCHW', 'NCDHW') or the last axis ('NHWC')."""
    _checks.tensor(op, "input_x", input_x)
    _checks.tensor(op, "bias", bias)
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For '{op}', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', got "
                         f"{data_format!r}.")
    if input_x.ndim < 2 or bias.ndim != 1:
        raise ValueError(f"For '{op}', 'input_x' must be at least 2-D and 'bias' 1-D, got "
                         f"{_checks.describe(input_x)} and {_checks.describe(bias)}.")
    channel = input_x.ndim - 1 if data_format == "NHWC" else 1
    if bias.shape[0] != input_x.shape[channel]:
        raise ValueError(f"For '{op}', 'bias' must have {input_x.shape[channel]} elements (the "
                         f"channel dimension {channel} of input_x), got "
                         f"{_checks.describe(bias)} for input_x {_checks.describe(input_x)}.")
    return apply(BIAS_ADD, (input_x, bias), {"channel": channel})
