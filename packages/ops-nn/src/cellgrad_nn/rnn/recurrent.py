"""One recurrent layer in one direction as one op each (`lstm_layer`, `gru_layer`,
`rnn_tanh_layer`, `rnn_relu_layer`), with a hand-written backward through time.

Inputs are time-major: x (T, B, I), h0 (B, H) (and c0 for the LSTM), w_ih (G, I),
w_hh (G, H), b_ih/b_hh (G,) or None. Outputs: y (T, B, H), h_n (B, H) (and c_n).
`lengths` (an int array (B,) or None) freezes each sequence's state after its length and
zeroes its outputs there, as MindSpore's `seq_length`; `reverse` runs each sequence from its
last valid step back to the first (MindSpore's ReverseSequence, run, ReverseSequence).

The input projection of all steps is one GEMM, each step's recurrent GEMM writes into a
preallocated buffer, the LSTM and GRU gates of a step are one pass of a Cython kernel
(`cellgrad_nn._kernels.rnn_cell`), and the weight gradients are one GEMM each over all steps.
Gate orders are MindSpore's (and PyTorch's): LSTM i, f, g, o; GRU r, z, n.
"""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op
from cellgrad_nn._kernels import rnn_cell


def _steps(lengths, T, B, reverse):
    """(index, mask): step s of sequence b reads time index[s, b] (None: s, or T-1-s when
    reversed); mask[s, b] says the step is within the sequence (None: all are)."""
    if lengths is None:
        return None, None
    s = np.arange(T)[:, None]
    n = np.minimum(np.asarray(lengths).reshape(1, B), T)
    mask = s < n
    index = np.where(mask, n - 1 - s, s) if reverse else None
    return index, mask


def _to_steps(a, index, reverse):
    """(T, B, ...) in time order -> step order (the reordering is its own inverse)."""
    if index is not None:
        return a[index, np.arange(a.shape[1])]
    return a[::-1] if reverse else a


def _project(x, w, b):
    """x (T, B, I) @ w.T + b for all steps in one GEMM."""
    T, B, _ = x.shape
    out = np.matmul(x.reshape(T * B, -1), w.T).reshape(T, B, w.shape[0])
    if b is not None:
        out += b
    return out


def _outputs(hs, mask, index, reverse):
    y = np.where(mask[..., None], hs[1:], 0) if mask is not None else hs[1:]
    return np.ascontiguousarray(_to_steps(y, index, reverse))


def _dout_steps(dy, mask, index, reverse):
    d = _to_steps(dy, index, reverse)
    return np.where(mask[..., None], d, 0) if mask is not None else d


def _freeze(new, old, keep):
    """Sequences past their length keep their state."""
    if keep is not None:
        np.copyto(new, old, where=keep)


def _kernel_dtype(a):
    """The kernels run in float32 or float64 (float16 runs in float32)."""
    return np.float64 if a.dtype == np.float64 else np.float32


def _input_grads(ctx, dg_steps, x, w_ih, index, reverse, has_bias, n_first):
    """Gradients of x, w_ih and b_ih from the gate gradients of all steps (step order)."""
    T, B, G = dg_steps.shape
    dg = _to_steps(dg_steps, index, reverse).reshape(T * B, G)
    need = ctx.needs_input_grad
    dx = np.matmul(dg, w_ih).reshape(x.shape) if need[0] else None
    dw = np.matmul(dg.T, x.reshape(T * B, -1)) if need[n_first] else None
    db = dg.sum(axis=0) if has_bias else None
    return dx, dw, db


def _hidden_grads(dgh_steps, hs):
    T, B, G = dgh_steps.shape
    return np.matmul(dgh_steps.reshape(T * B, G).T, hs[:-1].reshape(T * B, -1))


# ---- Elman RNN: h' = act(W_ih x + b_ih + W_hh h + b_hh) ----


def _rnn_fwd(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, *, relu, lengths=None, reverse=False):
    T, B, _ = x.shape
    index, mask = _steps(lengths, T, B, reverse)
    b = None if b_ih is None else b_ih + b_hh
    xs = _to_steps(_project(x, w_ih, b), index, reverse)
    hs = np.empty((T + 1,) + h0.shape, dtype=np.result_type(x, h0, w_hh))
    hs[0] = h0
    recurrent = _recurrent_product(w_hh.astype(hs.dtype, copy=False), hs, hs[1:])
    for s in range(T):
        h = hs[s + 1]
        recurrent(s)
        h += xs[s]
        if relu:
            np.maximum(h, 0, out=h)
        else:
            np.tanh(h, out=h)
        _freeze(h, hs[s], None if mask is None else ~mask[s][:, None])
    saved = (x, w_ih, w_hh, hs, mask, index, reverse, relu, b_ih is not None)
    return (_outputs(hs, mask, index, reverse), hs[T].copy()), saved


def _rnn_bwd(ctx, dy, dhn):
    x, w_ih, w_hh, hs, mask, index, reverse, relu, has_bias = ctx.saved
    T = x.shape[0]
    dys = _dout_steps(dy, mask, index, reverse)
    dg = np.empty(dys.shape, dtype=dys.dtype)
    dh = np.array(dhn, dtype=dys.dtype)
    for s in range(T - 1, -1, -1):
        dh += dys[s]
        d, h = dg[s], hs[s + 1]
        if relu:
            np.multiply(dh, h > 0, out=d)
        else:
            np.multiply(h, h, out=d)
            np.subtract(1, d, out=d)
            d *= dh
        if mask is not None:
            m = mask[s][:, None]
            d *= m
            dh *= ~m
            dh += np.matmul(d, w_hh)
        else:
            np.matmul(d, w_hh, out=dh)
    dx, dw_ih, db = _input_grads(ctx, dg, x, w_ih, index, reverse, has_bias, 2)
    dw_hh = _hidden_grads(dg, hs)
    return (dx, dh, dw_ih, dw_hh) + ((db, db) if has_bias else (None, None))


def _recurrent_product(w, hs, out):
    """`f(s)`: out[s] = hs[s] @ w.T, as BLAS does it fastest for the batch size."""
    if hs.shape[1] == 1:  # batch 1: a matrix-vector product (gemv) on w as it is
        hv, ov = hs[:, 0], out[:, 0]
        return lambda s: np.dot(w, hv[s], out=ov[s])
    # a transposed view costs each step more than one copy costs the sequence
    wt = np.ascontiguousarray(w.T)
    return lambda s: np.matmul(hs[s], wt, out=out[s])


# ---- LSTM: i, f, g, o gates; c' = f c + i g; h' = o tanh(c') ----


def _lstm_fwd(x, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    T, B, _ = x.shape
    H = w_hh.shape[1]
    index, mask = _steps(lengths, T, B, reverse)
    xs = _to_steps(_project(x, w_ih, None if b_ih is None else b_ih + b_hh), index, reverse)
    xs = np.ascontiguousarray(xs, dtype=_kernel_dtype(xs))
    dt = xs.dtype
    hs = np.empty((T + 1, B, H), dtype=dt)
    cs = np.empty((T + 1, B, H), dtype=dt)
    acts = np.empty((T, B, 4 * H), dtype=dt)
    tcs = np.empty((T, B, H), dtype=dt)
    hs[0], cs[0] = h0, c0
    if dt == np.float32 and B == 1 and mask is None:
        # the whole sequence in the kernel: at batch 1 a BLAS call costs more than its product
        rnn_cell.LSTMSteps(acts, xs, cs, tcs, hs).run(np.ascontiguousarray(w_hh, dtype=dt))
    else:
        _lstm_steps(w_hh.astype(dt, copy=False), xs, hs, cs, acts, tcs, mask)
    saved = (x, w_ih, w_hh, hs, cs, acts, tcs, mask, index, reverse, b_ih is not None)
    out = _outputs(hs, mask, index, reverse).astype(x.dtype, copy=False)
    return (out, hs[T].astype(x.dtype), cs[T].astype(x.dtype)), saved


def _lstm_steps(w_hh, xs, hs, cs, acts, tcs, mask):
    if xs.dtype == np.float32:
        gates = rnn_cell.LSTMSteps(acts, xs, cs, tcs, hs).forward
    else:
        def gates(s):
            rnn_cell.lstm_forward_step(acts[s], xs[s], cs[s], cs[s + 1], tcs[s], hs[s + 1])
    recurrent = _recurrent_product(w_hh, hs, acts)
    for s in range(xs.shape[0]):
        recurrent(s)
        gates(s)
        if mask is not None:
            keep = ~mask[s][:, None]
            _freeze(hs[s + 1], hs[s], keep)
            _freeze(cs[s + 1], cs[s], keep)


def _lstm_bwd(ctx, dy, dhn, dcn):
    x, w_ih, w_hh, hs, cs, acts, tcs, mask, index, reverse, has_bias = ctx.saved
    T = x.shape[0]
    dt = acts.dtype
    dys = np.ascontiguousarray(_dout_steps(dy, mask, index, reverse), dtype=dt)
    dg = np.empty(acts.shape, dtype=dt)
    dh = np.array(dhn, dtype=dt)
    dc = np.array(dcn, dtype=dt)
    if mask is None and dt == np.float32:
        gates = rnn_cell.LSTMBackSteps(acts, tcs, cs, dys, dg, dh, dc).backward
        for s in range(T - 1, -1, -1):
            gates(s)  # adds dys[s] into the gates' dh itself
            np.matmul(dg[s], w_hh, out=dh)
    else:
        _lstm_back_steps(w_hh, acts, tcs, cs, dys, dg, dh, dc, mask)
    dx, dw_ih, db = _input_grads(ctx, dg, x, w_ih, index, reverse, has_bias, 3)
    dw_hh = _hidden_grads(dg, hs)
    return (dx, dh, dc, dw_ih, dw_hh) + ((db, db) if has_bias else (None, None))


def _lstm_back_steps(w_hh, acts, tcs, cs, dys, dg, dh, dc, mask):
    step = rnn_cell.lstm_backward_step
    for s in range(dys.shape[0] - 1, -1, -1):
        dh += dys[s]
        if mask is not None:
            m = mask[s][:, None]
            keep_h, keep_c = dh * ~m, dc * ~m
            dh *= m
            dc *= m
        step(acts[s], tcs[s], cs[s], dh, dc, dg[s])
        np.matmul(dg[s], w_hh, out=dh)
        if mask is not None:
            dh += keep_h
            dc += keep_c


# ---- GRU: r, z, n gates; n = tanh(W_in x + b_in + r (W_hn h + b_hn)); h' = n + z (h - n) ----


def _gru_fwd(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    T, B, _ = x.shape
    H = w_hh.shape[1]
    index, mask = _steps(lengths, T, B, reverse)
    xs = _to_steps(_project(x, w_ih, b_ih), index, reverse)
    xs = np.ascontiguousarray(xs, dtype=_kernel_dtype(xs))
    dt = xs.dtype
    hs = np.empty((T + 1, B, H), dtype=dt)
    acts = np.empty((T, B, 3 * H), dtype=dt)
    ghn = np.empty((T, B, H), dtype=dt)
    ghs = np.empty((T, B, 3 * H), dtype=dt)
    hs[0] = h0
    if dt == np.float32 and B == 1 and mask is None:
        rnn_cell.gru_run(acts, xs, ghs, ghn, hs, np.ascontiguousarray(w_hh, dtype=dt),
                         None if b_hh is None else np.ascontiguousarray(b_hh, dtype=dt))
    else:
        _gru_steps(w_hh.astype(dt, copy=False), b_hh, xs, hs, acts, ghs, ghn, mask)
    saved = (x, w_ih, w_hh, hs, acts, ghn, mask, index, reverse, b_ih is not None)
    out = _outputs(hs, mask, index, reverse).astype(x.dtype, copy=False)
    return (out, hs[T].astype(x.dtype)), saved


def _gru_steps(w_hh, b_hh, xs, hs, acts, ghs, ghn, mask):
    recurrent = _recurrent_product(w_hh, hs, ghs)
    step = rnn_cell.gru_forward_step
    for s in range(xs.shape[0]):
        recurrent(s)
        gh = ghs[s]
        if b_hh is not None:
            gh += b_hh
        step(acts[s], xs[s], gh, hs[s], ghn[s], hs[s + 1])
        _freeze(hs[s + 1], hs[s], None if mask is None else ~mask[s][:, None])


def _gru_bwd(ctx, dy, dhn):
    x, w_ih, w_hh, hs, acts, ghn, mask, index, reverse, has_bias = ctx.saved
    T = x.shape[0]
    H = w_hh.shape[1]
    dt = acts.dtype
    dys = np.ascontiguousarray(_dout_steps(dy, mask, index, reverse), dtype=dt)
    dgi = np.empty(acts.shape, dtype=dt)
    dgh = np.empty(acts.shape, dtype=dt)
    dh = np.array(dhn, dtype=dt)
    tmp = np.empty_like(dh)
    step = rnn_cell.gru_backward_step
    for s in range(T - 1, -1, -1):
        dh += dys[s]
        if mask is not None:
            m = mask[s][:, None]
            keep = dh * ~m
            dh *= m
        step(acts[s], ghn[s], hs[s], dh, dgi[s], dgh[s])
        np.matmul(dgh[s], w_hh, out=tmp)
        dh += tmp
        if mask is not None:
            dh += keep
    dx, dw_ih, db_ih = _input_grads(ctx, dgi, x, w_ih, index, reverse, has_bias, 2)
    dw_hh = _hidden_grads(dgh, hs)
    db_hh = dgh.reshape(-1, 3 * H).sum(axis=0) if has_bias else None
    return dx, dh, dw_ih, dw_hh, db_ih, db_hh


def _rnn_tanh_fwd(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    return _rnn_fwd(x, h0, w_ih, w_hh, b_ih, b_hh, relu=False, lengths=lengths, reverse=reverse)


def _rnn_relu_fwd(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    return _rnn_fwd(x, h0, w_ih, w_hh, b_ih, b_hh, relu=True, lengths=lengths, reverse=reverse)


RNN_TANH = Op("rnn_tanh_layer", _rnn_tanh_fwd, _rnn_bwd, PROMOTE_NONE, first_order_only=True)
RNN_RELU = Op("rnn_relu_layer", _rnn_relu_fwd, _rnn_bwd, PROMOTE_NONE, first_order_only=True)
LSTM = Op("lstm_layer", _lstm_fwd, _lstm_bwd, PROMOTE_NONE, first_order_only=True)
GRU = Op("gru_layer", _gru_fwd, _gru_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (RNN_TANH, RNN_RELU, LSTM, GRU)
BY_MODE = {"RNN_TANH": RNN_TANH, "RNN_RELU": RNN_RELU, "LSTM": LSTM, "GRU": GRU}
