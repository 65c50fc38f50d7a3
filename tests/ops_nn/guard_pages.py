"""The vectorised Cython kernels on arrays placed against a page that cannot be read or written
(`mprotect(PROT_NONE)`), at their end or before their start: a load or store one element past
either edge — a SIMD tail read too far, a masked load that is not — faults at once instead of
reading a neighbour's bytes. Each case also compares the result with the same kernel on
ordinary arrays. Run by test_kernel_guard_pages.py in a child process (a fault kills only it);
the child prints each case before running it, so a crash names its case.

    python tests/ops_nn/guard_pages.py
"""

import ctypes
import mmap
import sys

import numpy as np

PAGE = mmap.PAGESIZE
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_maps = []  # the mappings of the arrays made here, kept for the process's life


def guarded(values, edge):
    """A writable C-contiguous copy of `values` whose last byte ends right before a protected
    page (`edge` "end") or whose first byte starts right after one ("start")."""
    values = np.ascontiguousarray(values)
    nbytes = values.nbytes
    pages = (nbytes + PAGE - 1) // PAGE + 2
    m = mmap.mmap(-1, pages * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    for page in (0, pages - 1):
        if _libc.mprotect(base + page * PAGE, PAGE, 0) != 0:
            raise OSError(ctypes.get_errno(), "mprotect")
    offset = (pages - 1) * PAGE - nbytes if edge == "end" else PAGE
    a = np.frombuffer(m, values.dtype, count=values.size, offset=offset).reshape(values.shape)
    a[...] = values
    _maps.append(m)
    return a


def _same(got, want, case):
    if isinstance(got, tuple):
        for g, w in zip(got, want):
            _same(g, w, case)
        return
    if not isinstance(got, np.ndarray) or not isinstance(want, np.ndarray):
        assert type(got) is type(want) and got == want, case  # None, a flag
        return
    assert got.dtype == want.dtype and got.shape == want.shape, case
    assert got.tobytes() == want.tobytes(), case


def _run(name, fn, arrays, edge):
    """fn(*arrays) on guarded copies against fn(*copies); output arrays are guarded too."""
    print(f"{name} [{edge}]", flush=True)
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in arrays]
    fenced = [guarded(a, edge) if isinstance(a, np.ndarray) else a for a in arrays]
    want = fn(*plain)
    got = fn(*fenced)
    _same(got, want, name)
    for g, p in zip(fenced, plain):  # outputs written in place
        if isinstance(g, np.ndarray):
            _same(g, p, name)


def cases():
    from cellgrad_nn._kernels import activation, blas, conv_small, im2col, lowp, pool, rnn_cell

    rng = np.random.default_rng(0)

    def r(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)

    def maxpool(x, out, arg):
        pool.max_pool_forward(x, out, arg, (2, 2), (2, 2), (1, 1), (0, 0))

    for shape in [(1, 1, 2, 2), (1, 2, 5, 34), (2, 3, 6, 48), (1, 1, 3, 17), (1, 1, 4, 16),
                  (1, 3, 2, 9), (2, 1, 8, 8), (1, 1, 2, 33)]:
        oh, ow = shape[2] // 2, shape[3] // 2
        out_shape = shape[:2] + (oh, ow)
        yield (f"pool.max_pool_forward 2x2 float32 {shape}", maxpool,
               [r(*shape), np.zeros(out_shape, np.float32), np.zeros(out_shape, np.int64)])
        yield (f"lowp.max_pool_2x2 float16 {shape}", lowp.max_pool_2x2,
               [r(*shape).astype(np.float16)])

    for n in (1, 7, 8, 9, 15, 16, 17, 33, 1000):
        h = r(n).astype(np.float16)
        yield f"lowp.to_float32 n={n}", lowp.to_float32, [h, np.zeros(n, np.float32)]
        yield f"lowp.to_float16 n={n}", lowp.to_float16, [r(n), np.zeros(n, np.float16)]
        yield f"lowp.relu16 n={n}", lowp.relu16, [h]
        yield f"lowp.relu_grad16 n={n}", lowp.relu_grad16, [h, r(n).astype(np.float16)]
        yield f"lowp.bias_round16 n={n}", lowp.bias_round16, [r(3, n), h]
        yield (f"lowp.unscale_finite n={n}", lambda a: lowp.unscale_finite([a], 4.0),
               [r(n)])
        for dt in (np.float32, np.float64):
            name = np.dtype(dt).name
            yield f"activation.relu {name} n={n}", activation.relu, [r(n, dtype=dt)]
            yield (f"activation.relu_grad {name} n={n}", activation.relu_grad,
                   [r(n, dtype=dt), r(n, dtype=dt)])

    for rows, cols in [(1, 1), (8, 8), (9, 17), (32, 256), (3, 70), (16, 5)]:
        for dt in (np.float32, np.float64):
            name = np.dtype(dt).name
            yield (f"blas.transpose_add {name} {rows}x{cols}", blas.transpose_add,
                   [r(rows, cols, dtype=dt), r(rows, dtype=dt), np.zeros((cols, rows), dt)])
            yield (f"blas.transpose_add {name} {rows}x{cols} no bias",
                   lambda t, out: blas.transpose_add(t, None, out),
                   [r(rows, cols, dtype=dt), np.zeros((cols, rows), dt)])

    for a, b, length in [(16, 32, 100), (6, 3, 1), (1, 5, 7), (3, 2, 9)]:
        yield (f"im2col.swap_leading ({a}, {b}, {length})", im2col.swap_leading,
               [r(a, b, length), np.zeros((b, a, length), np.float32), r(a)])

    for batch, hidden in [(1, 1), (2, 7), (3, 8), (2, 9), (1, 33)]:
        h4, h3 = 4 * hidden, 3 * hidden
        yield (f"rnn_cell.lstm_forward_step B={batch} H={hidden}", rnn_cell.lstm_forward_step,
               [r(batch, h4), r(batch, h4), r(batch, hidden)] +
               [np.zeros((batch, hidden), np.float32) for _ in range(3)])
        yield (f"rnn_cell.gru_forward_step B={batch} H={hidden}", rnn_cell.gru_forward_step,
               [np.zeros((batch, h3), np.float32), r(batch, h3), r(batch, h3), r(batch, hidden),
                np.zeros((batch, hidden), np.float32), np.zeros((batch, hidden), np.float32)])

    if conv_small.fast():
        for n, c, o, h, w, k in [(2, 1, 6, 12, 12, 5), (1, 3, 4, 7, 9, 3), (3, 2, 5, 5, 37, 5)]:
            oh, ow = h - k + 1, w - k + 1
            x, wt, b = r(n, c, h, w), r(o, c, k, k), r(o)
            yield (f"conv_small.conv_forward x{(n, c, h, w)} w{(o, c, k, k)}",
                   conv_small.conv_forward, [x, wt, b, np.zeros((n, o, oh, ow), np.float32)])
            yield (f"conv_small.conv_backward x{(n, c, h, w)} w{(o, c, k, k)}",
                   conv_small.conv_backward,
                   [x, wt, r(n, o, oh, ow), np.zeros_like(x), np.zeros_like(wt),
                    np.zeros(o, np.float32)])


def main():
    count = 0
    for name, fn, arrays in cases():
        for edge in ("end", "start"):
            _run(name, fn, arrays, edge)
            count += 1
    print(f"ok: {count} guarded calls", flush=True)


if __name__ == "__main__":
    sys.exit(main())
