"""cellgrad._blas_threads: numpy's OpenBLAS found without dependencies, one thread around small
products (restored afterwards, never raised, safe across threads), same numbers either way."""

import threading

import numpy as np
import pytest

from cellgrad import _blas_threads as bt

needs_openblas = pytest.mark.skipif(bt.openblas() is None, reason="numpy not on OpenBLAS")


@needs_openblas
def test_finds_numpy_openblas_and_its_symbols():
    lib = bt.openblas()
    assert "openblas" in lib.path.lower()
    assert lib.get() >= 1
    assert lib.symbol("cblas_sgemm") and lib.symbol("cblas_sgemv")
    threadpoolctl = pytest.importorskip("threadpoolctl")
    paths = [i["filepath"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    assert any(lib.path.endswith(p.rsplit("/", 1)[-1]) for p in paths)


@needs_openblas
def test_limited_lowers_then_restores_and_never_raises():
    lib = bt.openblas()
    before = lib.get()
    lib.set(2)
    try:
        with bt.limited(1):
            assert lib.get() == 1
            with bt.limited(2):  # nested: "at most", so still 1
                assert lib.get() == 1
            assert lib.get() == 1
        assert lib.get() == 2
        lib.set(1)  # the user's own limit: a section never raises it
        with bt.limited(2):
            assert lib.get() == 1
        assert lib.get() == 1
    finally:
        lib.set(before)


@needs_openblas
def test_concurrent_sections_restore_the_count_once_all_end():
    lib = bt.openblas()
    before = lib.get()
    lib.set(2)
    inside, release = threading.Barrier(3), threading.Event()

    def worker():
        with bt.limited(1):
            inside.wait()
            release.wait()

    ts = [threading.Thread(target=worker) for _ in range(2)]
    try:
        for t in ts:
            t.start()
        inside.wait()
        assert lib.get() == 1 and bt._depth == 2
        release.set()
        for t in ts:
            t.join()
        assert lib.get() == 2 and bt._depth == 0
    finally:
        release.set()
        lib.set(before)


@pytest.mark.parametrize("shape", [(64, 784, 512), (32, 256, 256), (4, 8, 3), (1, 784, 512)])
def test_dot_and_matmul_give_numpys_numbers(shape):
    m, k, n = shape
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    # OpenBLAS's sums depend on its thread count: compare at the count the policy picks
    with bt.limited(1 if bt.one_thread(m * n * k) else 64):
        want = np.dot(a, b)
    np.testing.assert_array_equal(bt.dot(a, b), want)
    np.testing.assert_array_equal(bt.matmul(a, b), want)
    out = np.empty((m, n), np.float32)
    assert bt.dot(a, b, out) is out
    np.testing.assert_array_equal(out, want)
    stack = np.stack([a, a])
    np.testing.assert_array_equal(bt.matmul(stack, b), np.stack([want, want]))


def test_policy_band():
    small, mid, big = 1000, 32 * 256 * 256, bt.SINGLE_THREAD_BELOW + 1
    assert not bt.one_thread(small)  # OpenBLAS keeps it on one thread by itself
    assert not bt.one_thread(big)
    assert bt.one_thread(mid) == (bt.openblas() is not None)


@needs_openblas
@pytest.mark.parametrize("same", [False, True])
def test_policy_holds_one_thread_where_the_count_changes_the_numbers(monkeypatch, same):
    lib, seen = bt.openblas(), []
    before = lib.get()
    lib.set(2)
    real = np.dot

    def spy(a, b, out=None):
        seen.append(lib.get())
        return real(a, b, out)

    try:
        monkeypatch.setattr(bt, "_arms", {})
        monkeypatch.setattr(bt, "_same_bits", lambda fn, a, b, n: same)
        monkeypatch.setattr(bt.np, "dot", spy)
        a = np.ones((32, 256), np.float32)
        for _ in range(3):
            bt.dot(a, np.ones((256, 256), np.float32))
        bt.dot(a, np.ones((256, 16), np.float32))  # 131,072: OpenBLAS's own one-thread size
        # the same numbers either way: one thread, then all, then the faster; else one always
        assert seen[:2] == ([1, 2] if same else [1, 1]) and seen[3] == 2
        assert lib.get() == 2
        monkeypatch.setattr(bt, "ADAPTIVE", False)
        seen.clear()
        bt.dot(a, np.ones((256, 256), np.float32))
        assert seen == [1]
    finally:
        lib.set(before)


def test_arms_take_the_faster_and_try_the_other_less_often_the_slower_it_was():
    arms = bt._Arms()
    assert arms.pick() == 0
    arms.record(0, 1.0)
    assert arms.pick() == 1
    arms.record(1, 0.25)  # all threads 4x faster: the other is tried after (4 - 1) / 0.5% calls
    picks = []
    for _ in range(1300):
        a = arms.pick()
        picks.append(a)
        arms.record(a, 1.0 if a == 0 else 0.25)
    assert [i for i, a in enumerate(picks) if a == 0] == [599, 1199]
    # the load changes: one thread is now the faster, and is found at its next try
    for _ in range(700):
        a = arms.pick()
        arms.record(a, 0.2 if a == 0 else 0.5)
    assert arms.pick() == 0 and arms.t[0] < arms.t[1]
    level = bt._Arms()
    for a, t in ((0, 1.0), (1, 1.0)):
        assert level.pick() == a
        level.record(a, t)
    assert level.left == bt._EXPLORE_MIN
    slow = bt._Arms()
    slow.record(0, 1.0)
    slow.record(1, 100.0)
    assert slow.left == bt._EXPLORE_MAX


@needs_openblas
def test_same_bits_is_checked_on_the_operands_layout():
    # K = 1: no sums, the same bits at any thread count
    assert bt._same_bits(np.dot, np.ones((300, 1), np.float32), np.ones((1, 300), np.float32), 2)
    assert not bt._same_bits(np.dot, np.ones((64, 300), np.int64), np.ones((300, 9), np.int64), 2)
    layouts = []

    def fn(a, b, out=None):
        layouts.append((a.flags.f_contiguous, b.flags.c_contiguous))
        return np.dot(a, b)

    bt._same_bits(fn, np.ones((300, 64), np.float32).T, np.ones((300, 100), np.float32), 2)
    assert layouts == [(True, True), (True, True)]
