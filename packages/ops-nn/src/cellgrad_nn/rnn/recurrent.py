"""One recurrent layer in one direction as one op each (`lstm_layer`, `gru_layer`,
`rnn_tanh_layer`, `rnn_relu_layer`), with a hand-written backward through time.

Inputs are time-major: x (T, B, I), h0 (B, H) (and c0 for the LSTM), w_ih (G, I),
w_hh (G, H), b_ih/b_hh (G,) or None. Outputs: y (T, B, H), h_n (B, H) (and c_n).
`lengths` (an int array (B,) or None) freezes each sequence's state after its length and
zeroes its outputs there, as MindSpore's `seq_length`; `reverse` runs each sequence from its
last valid step back to the first (MindSpore's ReverseSequence, run, ReverseSequence).

The input projection of all steps is one GEMM, each step's recurrent GEMM writes into a
preallocated buffer, and the weight gradients are one GEMM each over all steps.
Gate orders are MindSpore's (and PyTorch's): LSTM i, f, g, o; GRU r, z, n.
"""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op


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
    whT = w_hh.T
    for s in range(T):
        h = hs[s + 1]
        np.matmul(hs[s], whT, out=h)
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


# ---- LSTM: i, f, g, o gates; c' = f c + i g; h' = o tanh(c') ----
# The forward runs the gates as i, f, o, g with the sigmoid rows halved, so one tanh over all
# four gates gives the sigmoids as 0.5 * tanh(a / 2) + 0.5 (fewer passes over the buffer).


def _lstm_perm(H):
    return np.r_[0:2 * H, 3 * H:4 * H, 2 * H:3 * H]


def _lstm_fwd(x, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    T, B, _ = x.shape
    H = w_hh.shape[1]
    perm = _lstm_perm(H)
    scale = np.ones(4 * H, dtype=w_hh.dtype)
    scale[:3 * H] = 0.5
    b = None if b_ih is None else (b_ih + b_hh)[perm] * scale
    index, mask = _steps(lengths, T, B, reverse)
    xs = _to_steps(_project(x, w_ih[perm] * scale[:, None], b), index, reverse)
    whT = (w_hh[perm] * scale[:, None]).T
    dt = xs.dtype
    hs = np.empty((T + 1, B, H), dtype=dt)
    cs = np.empty((T + 1, B, H), dtype=dt)
    acts = np.empty((T, B, 4 * H), dtype=dt)
    tcs = np.empty((T, B, H), dtype=dt)
    hs[0], cs[0] = h0, c0
    tmp = np.empty((B, H), dtype=dt)
    for s in range(T):
        a = acts[s]
        np.matmul(hs[s], whT, out=a)
        a += xs[s]
        np.tanh(a, out=a)
        sg = a[:, :3 * H]
        sg *= 0.5
        sg += 0.5
        c = cs[s + 1]
        np.multiply(a[:, H:2 * H], cs[s], out=c)
        np.multiply(a[:, :H], a[:, 3 * H:], out=tmp)
        c += tmp
        np.tanh(c, out=tcs[s])
        np.multiply(a[:, 2 * H:3 * H], tcs[s], out=hs[s + 1])
        if mask is not None:
            keep = ~mask[s][:, None]
            _freeze(hs[s + 1], hs[s], keep)
            _freeze(c, cs[s], keep)
    saved = (x, w_ih, w_hh, hs, cs, acts, tcs, mask, index, reverse, b_ih is not None)
    return (_outputs(hs, mask, index, reverse), hs[T].copy(), cs[T].copy()), saved


def _lstm_bwd(ctx, dy, dhn, dcn):
    x, w_ih, w_hh, hs, cs, acts, tcs, mask, index, reverse, has_bias = ctx.saved
    T = x.shape[0]
    H = w_hh.shape[1]
    perm = _lstm_perm(H)
    w_hh_p = w_hh[perm]
    dys = _dout_steps(dy, mask, index, reverse)
    dg = np.empty(acts.shape, dtype=dys.dtype)
    dh = np.array(dhn, dtype=dys.dtype)
    dc = np.array(dcn, dtype=dys.dtype)
    tmp = np.empty_like(dh)
    for s in range(T - 1, -1, -1):
        dh += dys[s]
        if mask is not None:
            m = mask[s][:, None]
            keep_h, keep_c = dh * ~m, dc * ~m
            dh *= m
            dc *= m
        a, d, tc = acts[s], dg[s], tcs[s]
        np.multiply(dh, tc, out=d[:, 2 * H:3 * H])  # d o
        np.multiply(tc, tc, out=tmp)
        np.subtract(1, tmp, out=tmp)
        tmp *= a[:, 2 * H:3 * H]
        tmp *= dh
        dc += tmp
        np.multiply(dc, a[:, 3 * H:], out=d[:, :H])  # d i
        np.multiply(dc, cs[s], out=d[:, H:2 * H])  # d f
        np.multiply(dc, a[:, :H], out=d[:, 3 * H:])  # d g
        dc *= a[:, H:2 * H]
        sg = a[:, :3 * H]
        d[:, :3 * H] *= sg * (1 - sg)
        g = a[:, 3 * H:]
        d[:, 3 * H:] *= 1 - g * g
        np.matmul(d, w_hh_p, out=dh)
        if mask is not None:
            dh += keep_h
            dc += keep_c
    inv = np.argsort(perm)
    dg = dg[..., inv]
    dx, dw_ih, db = _input_grads(ctx, dg, x, w_ih, index, reverse, has_bias, 3)
    dw_hh = _hidden_grads(dg, hs)
    return (dx, dh, dc, dw_ih, dw_hh) + ((db, db) if has_bias else (None, None))


# ---- GRU: r, z, n gates; n = tanh(W_in x + b_in + r (W_hn h + b_hn)); h' = n + z (h - n) ----


def _gru_fwd(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, *, lengths=None, reverse=False):
    T, B, _ = x.shape
    H = w_hh.shape[1]
    scale = np.ones(3 * H, dtype=w_hh.dtype)
    scale[:2 * H] = 0.5  # r and z: sigmoid(a) = 0.5 tanh(a / 2) + 0.5
    index, mask = _steps(lengths, T, B, reverse)
    xs = _to_steps(_project(x, w_ih * scale[:, None], None if b_ih is None else b_ih * scale),
                   index, reverse)
    whT = (w_hh * scale[:, None]).T
    bh = None if b_hh is None else b_hh * scale
    dt = xs.dtype
    hs = np.empty((T + 1, B, H), dtype=dt)
    acts = np.empty((T, B, 3 * H), dtype=dt)
    ghs = np.empty((T, B, 3 * H), dtype=dt)
    hs[0] = h0
    for s in range(T):
        a, gh, xt = acts[s], ghs[s], xs[s]
        np.matmul(hs[s], whT, out=gh)
        if bh is not None:
            gh += bh
        rz = a[:, :2 * H]
        np.add(xt[:, :2 * H], gh[:, :2 * H], out=rz)
        np.tanh(rz, out=rz)
        rz *= 0.5
        rz += 0.5
        n = a[:, 2 * H:]
        np.multiply(a[:, :H], gh[:, 2 * H:], out=n)
        n += xt[:, 2 * H:]
        np.tanh(n, out=n)
        h = hs[s + 1]
        np.subtract(hs[s], n, out=h)
        h *= a[:, H:2 * H]
        h += n
        _freeze(h, hs[s], None if mask is None else ~mask[s][:, None])
    saved = (x, w_ih, w_hh, hs, acts, ghs[..., 2 * H:], mask, index, reverse, b_ih is not None)
    return (_outputs(hs, mask, index, reverse), hs[T].copy()), saved


def _gru_bwd(ctx, dy, dhn):
    x, w_ih, w_hh, hs, acts, ghn, mask, index, reverse, has_bias = ctx.saved
    T = x.shape[0]
    H = w_hh.shape[1]
    dys = _dout_steps(dy, mask, index, reverse)
    dgi = np.empty(acts.shape, dtype=dys.dtype)
    dgh = np.empty(acts.shape, dtype=dys.dtype)
    dh = np.array(dhn, dtype=dys.dtype)
    for s in range(T - 1, -1, -1):
        dh += dys[s]
        if mask is not None:
            m = mask[s][:, None]
            keep = dh * ~m
            dh *= m
        a, d, dd = acts[s], dgi[s], dgh[s]
        r, z, n = a[:, :H], a[:, H:2 * H], a[:, 2 * H:]
        dn = d[:, 2 * H:]
        np.multiply(dh, 1 - z, out=dn)
        dn *= 1 - n * n
        np.subtract(hs[s], n, out=d[:, H:2 * H])
        d[:, H:2 * H] *= dh
        np.multiply(dn, ghn[s], out=d[:, :H])
        rz = a[:, :2 * H]
        d[:, :2 * H] *= rz * (1 - rz)
        dd[:, :2 * H] = d[:, :2 * H]
        np.multiply(dn, r, out=dd[:, 2 * H:])
        dh *= z
        dh += np.matmul(dd, w_hh)
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
