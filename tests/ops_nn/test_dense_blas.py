"""Dense's BLAS choice per shape class (MKL only where measured faster, cached), the Cython GEMM
kernel, the batch-1 GEMV split, the flipped product's transposing pass, and dX buffers reused
only when nobody holds them."""

import json

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad import _blas_threads as bt
from cellgrad_nn._kernels import blas
from cellgrad_nn.functional import _dense_blas as db
from cellgrad_nn.functional import linear

F32 = np.dtype(np.float32)


class FakeMKL:
    """Stands in for libmkl_rt in the selection tests: numpy's OpenBLAS GEMM as its 'fn'."""

    version = "fake MKL 1.0"

    def __init__(self):
        lib = bt.openblas()
        self.fn = {F32: lib.symbol("cblas_sgemm"), np.dtype(np.float64): lib.symbol("cblas_dgemm")}


def timer_saying(mkl_over_openblas, calls):
    def timer(mkl, kind, dtype, m, n, k):
        calls.append((kind, m, n, k))
        return 1.0e-3, mkl_over_openblas * 1.0e-3
    return timer


needs_openblas = pytest.mark.skipif(bt.openblas() is None or not bt.openblas().int64,
                                    reason="numpy not on an ILP64 OpenBLAS")


@needs_openblas
@pytest.mark.parametrize("ratio, want", [(0.5, "mkl"), (0.89, "mkl"), (0.95, "openblas"),
                                         (2.0, "openblas")])
def test_choice_follows_the_measurement_both_ways(tmp_path, ratio, want):
    calls = []
    path = tmp_path / "choice.json"
    ch = db.Chooser(FakeMKL(), timer_saying(ratio, calls), str(path))
    assert ch.pick("x@w.T", F32, 64, 512, 784) == want
    assert ch.pick("x@w.T", F32, 64, 512, 784) == want
    assert ch.pick("x@w.T", F32, 60, 500, 700) == want  # same class (powers of two): cached
    assert calls == [("x@w.T", 64, 512, 784)]
    saved = json.loads(path.read_text())
    assert saved[ch.key] == {db.shape_class("x@w.T", F32, 64, 512, 784): want}
    # another process reads the decision instead of measuring again
    again = []
    ch2 = db.Chooser(FakeMKL(), timer_saying(1 / ratio, again), str(path))
    assert ch2.pick("x@w.T", F32, 64, 512, 784) == want and again == []
    # a different kind or shape class is measured on its own
    assert ch2.pick("g@w", F32, 64, 784, 512) == ("mkl" if 1 / ratio <= db.MARGIN else "openblas")
    assert again == [("g@w", 64, 784, 512)]


def test_no_mkl_small_products_and_other_machines_never_measure(tmp_path):
    calls = []
    path = str(tmp_path / "c.json")
    assert db.Chooser(None, timer_saying(0.1, calls), path).pick(
        "x@w.T", F32, 64, 512, 784) == "openblas"
    if bt.openblas() is not None and bt.openblas().int64:
        ch = db.Chooser(FakeMKL(), timer_saying(0.1, calls), path)
        assert ch.pick("x@w.T", F32, 4, 8, 8) == "openblas"  # below MIN_MNK: call overhead
        assert ch.pick("x@w.T", np.dtype(np.float16), 64, 512, 784) == "openblas"
    assert calls == []
    with open(path, "w") as f:  # a decision cached for another CPU/library is not used
        json.dump({"some other machine": {db.shape_class("x@w.T", F32, 64, 512, 784): "mkl"}}, f)
    if bt.openblas() is not None and bt.openblas().int64:
        ch = db.Chooser(FakeMKL(), timer_saying(2.0, calls), path)
        assert ch.pick("x@w.T", F32, 64, 512, 784) == "openblas" and len(calls) == 1


@needs_openblas
@pytest.mark.parametrize("adaptive", [True, False])
def test_band_products_are_classed_by_the_threads_openblas_may_take(monkeypatch, adaptive):
    # MKL (sequential) is measured against what OpenBLAS does with the product: in the band
    # that is all threads where the band may choose them, one thread where it never does
    monkeypatch.setattr(bt, "threads", lambda: 2)
    monkeypatch.setattr(bt, "ADAPTIVE", adaptive)
    band = db.shape_class("x@w.T", F32, 32, 256, 256)  # 2.1M multiply-adds: in the band
    above = db.shape_class("x@w.T", F32, 64, 512, 784)
    assert band == ("x@w.T float32 m32 n256 k256 t2" if adaptive else
                    "x@w.T float32 m32 n256 k256 t1")
    assert above == "x@w.T float32 m64 n512 k1024 t2"


def test_cuda_free_env_switch(monkeypatch):
    monkeypatch.setenv("CELLGRAD_MKL", "0")
    assert db.find_mkl() is None


@needs_openblas
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ta, tb", [(False, True), (False, False), (True, False)])
def test_gemm_kernel_matches_numpy(dtype, ta, tb):
    rng = np.random.default_rng(0)
    m, n, k = 37, 29, 41
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
    want = (a.T if ta else a) @ (b.T if tb else b)
    fn = bt.openblas().symbol("cblas_sgemm" if dtype == np.float32 else "cblas_dgemm")
    out = np.full((m, n), np.nan, dtype)
    blas.gemm(fn, True, a, ta, b, tb, out)
    np.testing.assert_allclose(out, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-4)
    blas.gemm(fn, True, a, ta, b, tb, out, True)  # accumulate: beta = 1
    np.testing.assert_allclose(out, 2 * want, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-4)
    with pytest.raises(ValueError, match="For 'blas.gemm', shapes do not chain"):
        blas.gemm(fn, True, a, ta, b, not tb, out)
    with pytest.raises(ValueError, match="null function pointer"):
        blas.gemm(0, True, a, ta, b, tb, out)
    empty = np.full((m, n), 7, dtype)
    blas.gemm(fn, True, a[:0] if ta else a[:, :0], ta, b[:, :0] if tb else b[:0], tb, empty)
    np.testing.assert_array_equal(empty, 0)


def test_real_mkl_matches_numpy_when_installed():
    mkl = db.find_mkl()
    if mkl is None:
        pytest.skip("the [mkl] extra (the mkl wheel) is not installed")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    w = rng.standard_normal((512, 784)).astype(np.float32)
    g = rng.standard_normal((64, 512)).astype(np.float32)
    out = np.empty((64, 512), np.float32)
    blas.gemm(mkl.fn[F32], False, x, False, w, True, out)
    np.testing.assert_allclose(out, x @ w.T, rtol=1e-4, atol=1e-3)
    gw = np.empty((512, 784), np.float32)
    blas.gemm(mkl.fn[F32], False, g, True, x, False, gw)
    np.testing.assert_allclose(gw, g.T @ x, rtol=1e-4, atol=1e-3)
    t_open, t_mkl = db.time_both(mkl, "x@w.T", F32, 64, 512, 784, rounds=3)
    assert t_open > 0 and t_mkl > 0
    # the race against a flipped forward runs both for real
    assert db._mkl_beats_flip(mkl.fn[F32], (64, 784), (512, 784), F32, rounds=3) in (True, False)


@needs_openblas
@pytest.mark.parametrize("shape", [(512, 784), (784, 512), (1000, 300), (17, 5), (10, 512),
                                   (1, 64), (33, 1)])
def test_gemv_split_is_identical_to_one_call(shape):
    rng = np.random.default_rng(2)
    w = rng.standard_normal(shape).astype(np.float32)
    v = rng.standard_normal(shape[1]).astype(np.float32)
    with bt.limited(1):
        want = np.dot(w, v)
    for parts in (2, 3):
        cuts = db.split_rows(shape[0], parts)
        assert cuts[0] == 0 and cuts[-1] == shape[0] and cuts == sorted(cuts)
        assert all(c % 16 == 0 for c in cuts[1:-1] if c < shape[0])
        got = db.gemv(w, v, parts=parts)
        np.testing.assert_array_equal(got, want)  # bit for bit: every row the same dot product
    np.testing.assert_array_equal(db.gemv(w, v, parts=1), want)


@needs_openblas
def test_gemv_split_rejects_bad_cuts():
    w, v, out = np.ones((8, 4), np.float32), np.ones(4, np.float32), np.empty(8, np.float32)
    fn = bt.openblas().symbol("cblas_sgemv")
    with pytest.raises(ValueError, match="'cuts' must rise from 0 to 8"):
        blas.gemv_split(fn, w, v, out, [0, 9, 8])
    with pytest.raises(ValueError, match="do not chain"):
        blas.gemv_split(fn, w, np.ones(5, np.float32), out, [0, 4, 8])


def test_batch1_dense_equals_the_gemm_result():
    rng = np.random.default_rng(3)
    net = nn.Dense(784, 512)
    x = rng.standard_normal((1, 784)).astype(np.float32)
    w = net.weight.asnumpy()
    got = net(Tensor(x)).asnumpy()
    assert got.shape == (1, 512) and got.dtype == np.float32
    np.testing.assert_allclose(got, x @ w.T + net.bias.asnumpy(), rtol=1e-5, atol=1e-5)
    got1 = ops.dense(Tensor(x[0]), net.weight, net.bias).asnumpy()
    assert got1.shape == (512,)
    np.testing.assert_allclose(got1, got[0], rtol=1e-6, atol=1e-6)


def _grad_x(w, x, g):
    fn = ms.grad(lambda a: (ops.dense(a, w) * Tensor(g)).sum(), grad_position=0)
    return fn(x)


def test_dx_buffer_is_reused_only_when_nobody_holds_it():
    rng = np.random.default_rng(4)
    w = Tensor(rng.standard_normal((256, 784)).astype(np.float32))
    x1 = Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    g = rng.standard_normal((64, 256)).astype(np.float32)
    linear._spare.clear()
    held = _grad_x(w, x1, g)  # the user keeps this dX
    first = held.asnumpy().copy()
    np.testing.assert_allclose(first, g @ w.asnumpy(), rtol=1e-4, atol=1e-4)
    x2 = Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    second = _grad_x(w, x2, 2 * g)
    np.testing.assert_array_equal(held.asnumpy(), first)  # not overwritten by the next backward
    np.testing.assert_allclose(second.asnumpy(), 2 * first, rtol=1e-5, atol=1e-4)
    # a plain numpy view the user took keeps its numbers too
    view = second.asnumpy()[:4]
    keep = view.copy()
    del second, held
    third = _grad_x(w, x1, 3 * g)
    np.testing.assert_array_equal(view, keep)
    np.testing.assert_allclose(third.asnumpy(), 3 * first, rtol=1e-5, atol=1e-4)


def test_dx_buffer_is_reused_when_free():
    shape, dtype = (64, 784), np.dtype(np.float32)
    linear._spare.clear()
    a = linear._scratch(shape, dtype)
    addr = a.__array_interface__["data"][0]
    del a
    b = linear._scratch(shape, dtype)
    assert b.__array_interface__["data"][0] == addr  # nobody held it: the same memory
    c = linear._scratch(shape, dtype)  # `b` is still held here: a new array
    assert c.__array_interface__["data"][0] != addr
    v = c[1:]  # a view holds its base
    del c
    d = linear._scratch(shape, dtype)
    assert not np.shares_memory(d, v)


def test_training_step_matches_numpy_with_reused_buffers():
    rng = np.random.default_rng(5)
    net = nn.SequentialCell([nn.Dense(784, 256), nn.ReLU(), nn.Dense(256, 256), nn.ReLU(),
                             nn.Dense(256, 10)])
    ws = [(p.asnumpy().copy()) for p in net.trainable_params()]
    x = rng.standard_normal((64, 784)).astype(np.float32)
    y = rng.integers(0, 10, 64).astype(np.int32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.1))
    for _ in range(3):
        train(Tensor(x), Tensor(y))
    # the same three steps by hand
    (w1, b1, w2, b2, w3, b3) = ws
    params = [w1, b1, w2, b2, w3, b3]
    for _ in range(3):
        h1 = np.maximum(x @ w1.T + b1, 0)
        h2 = np.maximum(h1 @ w2.T + b2, 0)
        z = h2 @ w3.T + b3
        e = np.exp(z - z.max(1, keepdims=True))
        p = e / e.sum(1, keepdims=True)
        p[np.arange(64), y] -= 1
        g3 = p / 64
        g2 = (g3 @ w3) * (h2 > 0)
        g1 = (g2 @ w2) * (h1 > 0)
        grads = [g1.T @ x, g1.sum(0), g2.T @ h1, g2.sum(0), g3.T @ h2, g3.sum(0)]
        for prm, gr in zip(params, grads):
            prm -= 0.1 * gr
    for prm, want in zip(net.trainable_params(), params):
        np.testing.assert_allclose(prm.asnumpy(), want, rtol=1e-4, atol=1e-5)


@needs_openblas
def test_batch1_split_only_with_two_threads_and_identical_to_one_gemv(monkeypatch):
    monkeypatch.setattr(db, "GEMV_SPLIT_MIN", 300_000)
    rng = np.random.default_rng(6)
    net = nn.Dense(784, 512)
    x = rng.standard_normal((1, 784)).astype(np.float32)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    lib, before = bt.openblas(), bt.openblas().get()
    try:
        lib.set(1)
        bt._seen[0] = 0  # re-read the count now
        assert not db.splits(x, w)
        lib.set(2)
        bt._seen[0] = 0
        monkeypatch.setattr(db, "GEMV_SPLIT_MIN", 1 << 62)  # the default: off
        assert not db.splits(x, w)
        monkeypatch.setattr(db, "GEMV_SPLIT_MIN", 300_000)
        bt._seen[0] = 0
        assert db.splits(x, w)
        assert not db.splits(x, w[:16])  # too few weights to pay
        assert not db.splits(x.astype(np.float64), w.astype(np.float64))
        got = net(Tensor(x)).asnumpy()
        with bt.limited(1):
            want = np.dot(w, x[0])[None] + b
        np.testing.assert_array_equal(got, want)
        train = ops.dense(Tensor(x), net.weight, net.bias).asnumpy()  # the op's path too
        np.testing.assert_array_equal(train, want)
    finally:
        lib.set(before)
        bt._seen[0] = 0


# ---- x @ w.T as (w @ x.T).T where that is measured faster and gives the same bits ----


@pytest.fixture
def no_mkl(monkeypatch):
    """numpy's OpenBLAS alone, whether or not the [mkl] extra is installed here."""
    monkeypatch.setattr(db, "_chooser", db.Chooser(None))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("b,i,o", [(64, 784, 512), (32, 256, 256), (7, 100, 300)])
def test_flipped_product_is_x_at_w_t_in_c_order(no_mkl, dtype, b, i, o):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((b, i)).astype(dtype)
    w = rng.standard_normal((o, i)).astype(dtype)
    bias = rng.standard_normal(o).astype(dtype)
    got = db._flipped_product(x, w, None, bias)
    assert got.shape == (b, o) and got.dtype == dtype and got.flags.c_contiguous
    np.testing.assert_allclose(got, x @ w.T + bias, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-4 if dtype == np.float32 else 1e-10)
    # taken only where it is the usual product bit for bit (measured at that shape)
    if db.flipped(x, w):
        assert np.array_equal(db.product("x@w.T", x, w), np.dot(x, w.T))
    out = np.empty((b, o), dtype)
    assert db._flipped_product(x, w, out) is out
    assert np.array_equal(out, np.dot(w, x.T).T)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows,cols", [(512, 64), (256, 32), (8, 8), (13, 7), (17, 33), (1, 5),
                                       (120, 1), (0, 3), (3, 0)])
def test_transpose_add_is_numpys_add_bit_for_bit(dtype, rows, cols):
    rng = np.random.default_rng(rows * 100 + cols)
    t = rng.standard_normal((rows, cols)).astype(dtype)
    b = rng.standard_normal(rows).astype(dtype)
    out = np.full((cols, rows), np.nan, dtype)
    assert blas.transpose_add(t, b, out) is True
    np.testing.assert_array_equal(out, t.T + b)
    t.reshape(-1)[::5] = -0.0  # without a bias nothing is added: -0.0 stays -0.0
    assert blas.transpose_add(t, None, out) is True
    np.testing.assert_array_equal(out.view(np.uint8), np.ascontiguousarray(t.T).view(np.uint8))


def test_transpose_add_refuses_what_it_cannot_do_and_writes_nothing():
    rng = np.random.default_rng(3)
    t = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    out = np.zeros((8, 16), np.float32)
    square = rng.standard_normal((8, 8)).astype(np.float32)
    for args in [(t, b.astype(np.float64), out),  # mixed dtypes
                 (t.astype(np.float64), b, out),
                 (t.T, b, out.T),  # not C-contiguous
                 (t, b, np.zeros((16, 8), np.float32)),  # out not (cols, rows)
                 (t, b[:8], out),  # bias not (rows,)
                 (t.astype(np.int32), None, out.astype(np.int32)),  # not a float
                 (square, None, square),  # out is t
                 (t, None, [[0.0] * 16] * 8)]:  # not a buffer of floats
        assert blas.transpose_add(*args) is False
    assert not out.any()


def test_flip_needs_the_same_bits_and_a_win(monkeypatch):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((64, 300)).astype(np.float32)
    w = rng.standard_normal((200, 300)).astype(np.float32)
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.5)  # always faster
    ident = np.array_equal(np.dot(x, w.T), np.dot(w, x.T).T)
    assert db._flip_wins(x.shape, w.shape, x.dtype) == ident
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.95)  # not by 10%
    assert not db._flip_wins(x.shape, w.shape, x.dtype)
    # a product whose bits differ is never flipped, however fast
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.1)
    monkeypatch.setattr(db, "_flipped_product",
                        lambda x, w, out=None, bias=None: np.dot(x, w.T) * np.float32(1.0001))
    assert not db._flip_wins(x.shape, w.shape, x.dtype)


@needs_openblas
@pytest.mark.parametrize("flip, mkl_over_flip, want_mkl", [(True, 0.5, True), (True, 0.95, False),
                                                           (False, 2.0, True)])
def test_mkl_takes_a_flipped_forward_only_by_beating_the_flip(tmp_path, monkeypatch, flip,
                                                              mkl_over_flip, want_mkl):
    # (the decision only: FakeMKL's "fn" takes 64-bit integers, so nothing calls it here)
    ch = db.Chooser(FakeMKL(), timer_saying(0.5, []), str(tmp_path / "c.json"))  # MKL beats plain
    monkeypatch.setattr(db, "flipped", lambda x, w: flip)
    raced = []

    def race(calls, rounds, block_s):
        raced.append(len(calls))
        return mkl_over_flip

    monkeypatch.setattr(db, "_race", race)
    rng = np.random.default_rng(9)
    x = rng.standard_normal((64, 300)).astype(np.float32)
    w = rng.standard_normal((200, 300)).astype(np.float32)
    assert bool(db._mkl_fn(ch, "x@w.T", x, w)) == want_mkl
    assert raced == ([2] if flip else [])  # the flip raced once, MKL as the second call
    # the backward's kinds are never flipped: the class's decision alone
    assert db._mkl_fn(ch, "g@w", np.ones((64, 200), np.float32), w)
    assert raced == ([2] if flip else [])


def test_dense_forward_and_backward_through_the_flip(no_mkl, monkeypatch):
    monkeypatch.setattr(db, "_flip", {})
    rng = np.random.default_rng(9)
    net = nn.Dense(256, 192)
    x = Tensor(rng.standard_normal((48, 256)).astype(np.float32))
    want = net(x).asnumpy()
    grad_fn = ms.grad(lambda a: (net(a) ** 2).sum(), grad_position=0, weights=net.weight)
    want_g = [g.asnumpy() for g in grad_fn(x)]
    monkeypatch.setattr(db, "_flip_wins", lambda *a: True)  # whatever this CPU measures
    monkeypatch.setattr(db, "_flip", {})
    assert db.flipped(x.asnumpy(), net.weight.asnumpy())
    got = net(x).asnumpy()
    assert got.flags.c_contiguous and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    got_g = [g.asnumpy() for g in grad_fn(x)]
    for a, b in zip(got_g, want_g):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)
    monkeypatch.setattr(db, "FLIP", False)
    np.testing.assert_array_equal(net(x).asnumpy(), want)


# ---- batch 1: one GEMV that adds the bias itself ----


@needs_openblas
@pytest.mark.parametrize("k,n", [(784, 512), (512, 10), (33, 7), (1, 300)])
def test_batch1_dense_is_numpys_dot_and_add_bit_for_bit(k, n):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((1, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    want = np.dot(x, w.T)
    want += b
    got = db.dense_b1(x, w, b)
    if got is None:  # this BLAS's GEMV sums in another order than its dot: numpy's path
        assert db._gemv_bias_same[w.shape] is False
        return
    assert got.shape == (1, n) and got.dtype == np.float32 and np.array_equal(got, want)
    net = nn.Dense(k, n, Tensor(w), Tensor(b))
    net.set_train(False)
    assert np.array_equal(net(Tensor(x)).asnumpy(), want)


@needs_openblas
def test_batch1_gemv_takes_only_what_it_can():
    w = np.ones((4, 3), np.float32)
    b = np.zeros(4, np.float32)
    assert db.dense_b1(np.ones((1, 3)), w.astype(np.float64), b.astype(np.float64)) is None
    assert db.dense_b1(np.ones((1, 6), np.float32)[:, ::2], w, b) is None  # strided
    assert db.dense_b1(np.ones((2, 3), np.float32), w, b) is None  # not batch 1
    with pytest.raises(ValueError, match="do not chain"):
        blas.gemv_bias(db._SGEMV, w, np.ones((1, 5), np.float32), b)
    with pytest.raises(ValueError, match="null function pointer"):
        blas.gemv_bias(0, w, np.ones((1, 3), np.float32), b)
    x = np.ones((1, 3), np.float32)
    for args, name in (((w.astype(np.float64), x, b), "'w' must be a 2-D"),
                       ((w, np.ones((1, 6), np.float32)[:, ::2], b), "'x' must be a 2-D"),
                       ((w, x, b.reshape(2, 2)), "'b' must be a 1-D"),
                       ((w, [[1.0, 2.0, 3.0]], b), "'x' must be a 2-D")):
        with pytest.raises(TypeError, match=name):
            blas.gemv_bias(db._SGEMV, *args)
    assert blas.gemv_bias(db._SGEMV, np.ones((4, 0), np.float32), np.ones((1, 0), np.float32),
                          b + 2).tolist() == [[2.0] * 4]


# ---- a cold weight prefetched before its product ----

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_prefetch_leaves_values_and_takes_only_c_order(dtype):
    w = np.arange(600, dtype=dtype).reshape(20, 30)
    before = w.copy()
    blas.prefetch(w)
    blas.prefetch(np.empty((0, 5), dtype))
    np.testing.assert_array_equal(w, before)
    with pytest.raises(ValueError):
        blas.prefetch(w.T)
    with pytest.raises(TypeError):
        blas.prefetch(np.zeros((4, 4), np.int32))


def test_warm_fetches_a_weight_only_when_the_l2_has_seen_other_weights_since(monkeypatch):
    monkeypatch.setattr(db._blas_threads, "threads", lambda: 1)
    monkeypatch.setattr(db, "L2", 1 << 20)
    monkeypatch.setattr(db, "_last", {})
    w = np.ones((256, 256), np.float32)  # 256 KiB: in the fetched range
    other = np.ones((256, 256), np.float32)
    assert db.warm(w)  # never seen: cold
    assert not db.warm(w)  # its own product just read it
    for _ in range(4):  # 1 MiB of other weights: no longer than the L2 behind
        db.warm(other)
    assert not db.warm(w)
    for _ in range(5):  # 1.25 MiB
        db.warm(other)
    assert db.warm(w)
    monkeypatch.setattr(db, "PREFETCH", False)
    for _ in range(5):
        db.warm(other)
    assert not db.warm(w)


def test_warm_leaves_a_weight_to_the_cores_when_the_blas_runs_on_several(monkeypatch):
    monkeypatch.setattr(db, "L2", 1 << 20)
    monkeypatch.setattr(db, "_last", {})
    fetched = []
    monkeypatch.setattr(db.blas, "prefetch", fetched.append)
    w = np.ones((256, 256), np.float32)
    monkeypatch.setattr(db._blas_threads, "threads", lambda: 2)
    assert not db.warm(w) and not fetched  # cold, but two cores fetch their shares themselves
    monkeypatch.setattr(db._blas_threads, "threads", lambda: 1)
    assert not db.warm(w)  # the two-thread product read it: still counted as warm
    for _ in range(5):
        db.warm(np.ones((256, 256), np.float32))
    assert db.warm(w) and fetched[-1] is w


@pytest.mark.parametrize("shape,dtype", [((16, 16), np.float32), ((1024, 512), np.float32),
                                         ((256, 256), np.int32)])
def test_warm_skips_small_large_and_non_float_weights(monkeypatch, shape, dtype):
    monkeypatch.setattr(db, "L2", 1 << 20)
    monkeypatch.setattr(db, "_last", {})
    assert not db.warm(np.ones(shape, dtype))
    assert not db.warm(np.ones((256, 256), np.float32)[:, ::2].copy().T)  # not C-ordered


def test_deep_chain_trains_the_same_with_and_without_prefetch(monkeypatch):
    monkeypatch.setattr(db._blas_threads, "threads", lambda: 1)  # where it prefetches
    monkeypatch.setattr(db, "L2", 1 << 20)
    rng = np.random.default_rng(3)
    ws = [rng.standard_normal((256, 256)).astype(np.float32) * 0.06 for _ in range(12)]
    x = Tensor(rng.standard_normal((32, 256)).astype(np.float32))
    y = Tensor(rng.standard_normal((32, 256)).astype(np.float32))

    def trained(on):
        monkeypatch.setattr(db, "PREFETCH", on)
        fetched = []
        real = db.blas.prefetch
        monkeypatch.setattr(db.blas, "prefetch", lambda a: (fetched.append(a.shape), real(a)))
        net = nn.SequentialCell([c for w in ws for c in (
            nn.Dense(256, 256, Tensor(w.copy()), "zeros"), nn.ReLU())])
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.Momentum(net.trainable_params(), 0.01, 0.9))
        for _ in range(3):
            step(x, y)
        return [p.asnumpy() for p in net.trainable_params()], fetched

    with_fetch, fetched = trained(True)
    without, none = trained(False)
    assert fetched and not none  # 12 x 256 KiB > a 1 MiB L2: each weight cold again
    for a, b in zip(with_fetch, without):
        np.testing.assert_array_equal(a, b)


def test_flip_stops_measuring_new_shapes_after_max_decisions(monkeypatch):
    monkeypatch.setattr(db, "_flip", {})
    monkeypatch.setattr(db, "MAX_DECISIONS", 2)
    measured = []
    monkeypatch.setattr(db, "_flip_wins", lambda xs, ws, dt: measured.append(xs) or True)
    w = np.ones((128, 256), np.float32)
    got = [db.flipped(np.ones((b, 256), np.float32), w) for b in (30, 31, 32, 30)]
    assert got == [True, True, False, True] and measured == [(30, 256), (31, 256)]


@pytest.mark.parametrize("kind", ["x@w.T", "g@w", "g.T@x"])
def test_small_products_are_numpys_call_without_any_lookup(monkeypatch, kind):
    def refuse(*a, **k):
        raise AssertionError("a small product consulted a decision")

    for name in ("chooser", "flipped", "warm", "_mkl_fn"):
        monkeypatch.setattr(db, name, refuse)
    monkeypatch.setattr(db, "_chooser", None)
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in ((32, 8), (16, 8)))
    if kind == "x@w.T":
        bias = rng.standard_normal(16).astype(np.float32)
        want = np.dot(a, b.T)
        want += bias
        got = db.product(kind, a, b, bias=bias)
    elif kind == "g@w":
        b = b.T.copy()  # (8, 16): g (32, 8) @ w (8, 16)
        want, got = np.dot(a, b), db.product(kind, a, b, np.empty((32, 16), np.float32))
    else:
        b = rng.standard_normal((32, 16)).astype(np.float32)
        want, got = np.matmul(a.T, b), db.product(kind, a, b)
    assert 32 * 8 * 16 < db.MIN_MNK
    assert got.tobytes() == want.tobytes() and got.shape == want.shape
