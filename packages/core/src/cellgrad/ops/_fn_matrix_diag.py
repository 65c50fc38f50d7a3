"""Batched diagonals as TensorFlow's MatrixDiagV3 family defines them (MindSpore's
`matrix_diag`, `matrix_diag_part`, `matrix_set_diag`): a diagonal `k` or a band `(k_lo, k_hi)`,
diagonals stacked from k_hi down to k_lo, each padded to the longest with `align` saying which
side (first word: superdiagonals, second: subdiagonals). Each is a gather over index arrays, so
gradients flow to the values (and not to the padding)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import functional as F

__all__ = ["matrix_diag", "matrix_diag_part", "matrix_set_diag"]

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_pair(op, k):
    if isinstance(k, TensorBuffer):
        k = np.asarray(k._data).reshape(-1).tolist()
    if isinstance(k, (int, np.integer)):
        return int(k), int(k)
    k = [int(v) for v in k]
    if len(k) == 1:
        return k[0], k[0]
    if len(k) != 2 or k[0] > k[1]:
        raise ValueError(f"For '{op}', 'k' must be an int or a pair (k_lo, k_hi) with k_lo <= "
                         f"k_hi, but got {k}.")
    return k[0], k[1]


def _scalar(value):
    if isinstance(value, TensorBuffer):
        return np.asarray(value._data).item()
    return value


def _check_align(op, align):
    if align not in _ALIGNS:
        raise ValueError(f"For '{op}', 'align' must be one of {list(_ALIGNS)}, but got "
                         f"{align!r}.")


def _diag_len(rows, cols, d):
    return min(rows + min(0, d), cols - max(0, d))


def _layout(rows, cols, lo, hi, align):
    """For each diagonal d (hi down to lo): (row positions, col positions, slot offset)."""
    max_len = max(_diag_len(rows, cols, d) for d in range(lo, hi + 1))
    out = []
    for d in range(hi, lo - 1, -1):
        n = max(_diag_len(rows, cols, d), 0)
        side = align.split("_")[0 if d >= 0 else 1]
        offset = max_len - n if side == "RIGHT" else 0
        i = np.arange(n) + max(-d, 0)
        out.append((i, i + d, offset))
    return out, max_len


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """Mirrors `mindspore.ops.matrix_diag_part`: the diagonal(s) `k` of the last two axes."""
    op = "matrix_diag_part"
    _check_align(op, align)
    rows, cols = x.shape[-2:]
    lo, hi = _k_pair(op, k)
    if not (-rows < lo <= hi < cols) and rows and cols:
        raise ValueError(f"For '{op}', 'k' must lie in ({-rows}, {cols}), but got ({lo}, {hi}).")
    layout, max_len = _layout(rows, cols, lo, hi, align)
    # gather from the flattened matrix with one extra slot holding the padding value
    index = np.full((len(layout), max_len), rows * cols, np.int32)
    for r, (i, j, off) in enumerate(layout):
        index[r, off:off + len(i)] = i * cols + j
    flat = F.reshape(x, x.shape[:-2] + (rows * cols,))
    pad = F.cast(F.fill(x.dtype, x.shape[:-2] + (1,), _scalar(padding_value)), x.dtype)
    source = F.concat([flat, pad], -1)
    out = F.gather(source, make_tensor(index.reshape(-1), None, 0), x.ndim - 2)
    out = F.reshape(out, x.shape[:-2] + index.shape)
    return out[..., 0, :] if lo == hi else out


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """Mirrors `mindspore.ops.matrix_set_diag`: `x` with its diagonal(s) `k` replaced."""
    op = "matrix_set_diag"
    _check_align(op, align)
    rows, cols = x.shape[-2:]
    lo, hi = _k_pair(op, k)
    layout, max_len = _layout(rows, cols, lo, hi, align)
    diag = F.expand_dims(diagonal, -2) if lo == hi else diagonal
    expected = x.shape[:-2] + (hi - lo + 1, max_len)
    if tuple(diag.shape) != expected:
        want = expected[:-2] + expected[-1:] if lo == hi else expected
        raise ValueError(f"For '{op}', 'diagonal' must have shape {want} for 'x' of shape "
                         f"{x.shape} and k={k}, but got {diagonal.shape}.")
    index = np.zeros((rows, cols), np.int32)
    mask = np.zeros((rows, cols), bool)
    for r, (i, j, off) in enumerate(layout):
        index[i, j] = r * max_len + off + np.arange(len(i))
        mask[i, j] = True
    flat = F.reshape(F.cast(diag, x.dtype), x.shape[:-2] + ((hi - lo + 1) * max_len,))
    placed = F.reshape(F.gather(flat, make_tensor(index.reshape(-1), None, 0), x.ndim - 2),
                       x.shape)
    return F.where(make_tensor(mask, None, 0), placed, x)


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Mirrors `mindspore.ops.matrix_diag`: matrices with `x` on the diagonal(s) `k` and
    `padding_value` elsewhere (num_rows/num_cols -1: the smallest that fits)."""
    op = "matrix_diag"
    _check_align(op, align)
    lo, hi = _k_pair(op, k)
    max_len = x.shape[-1]
    num_rows, num_cols = int(_scalar(num_rows)), int(_scalar(num_cols))
    min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if num_rows < min_rows or num_cols < min_cols:
        raise ValueError(f"For '{op}', the output of shape ({num_rows}, {num_cols}) cannot hold "
                         f"diagonals of length {max_len} at k=({lo}, {hi}).")
    batch = x.shape[:-1] if lo == hi else x.shape[:-2]
    base = F.cast(F.fill(x.dtype, batch + (num_rows, num_cols), _scalar(padding_value)),
                  x.dtype)
    layout, need = _layout(num_rows, num_cols, lo, hi, align)
    diag = x
    if need < max_len:  # the diagonals are longer than the band needs: keep the aligned part
        diag = x[..., :need]
    elif need > max_len:
        raise ValueError(f"For '{op}', 'x' must have diagonals of length {need}, but got "
                         f"{max_len}.")
    return matrix_set_diag(base, diag, (lo, hi), align)
