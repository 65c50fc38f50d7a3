"""A product a @ b run as (b.T @ a.T).T where that is measured faster and gives the same bits
(`functional._orient`), and the convolution paths that use it."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad_nn.functional import _dense_blas as db
from cellgrad_nn.functional import _orient


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(_orient, "_turned", {})
    monkeypatch.setattr(_orient, "ENABLED", True)


def operands(m, k, n, dtype, a_t, b_t):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((k, m) if a_t else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if b_t else (k, n)).astype(dtype)
    return (a.T if a_t else a), (b.T if b_t else b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("a_t, b_t", [(False, False), (False, True), (True, False)])
@pytest.mark.parametrize("turn", [True, False])
def test_either_orientation_is_the_product(fresh, monkeypatch, dtype, a_t, b_t, turn):
    monkeypatch.setattr(_orient, "_turn_wins", lambda a, b: turn)
    a, b = operands(16, 150, 2048, dtype, a_t, b_t)
    got = _orient.matmul(a, b)
    assert got.shape == (16, 2048) and got.dtype == dtype
    want = np.matmul(b.T, a.T).T if turn else np.matmul(a, b)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64),
                               rtol=1e-4 if dtype == np.float32 else 1e-12, atol=1e-3)
    assert (not got.flags.c_contiguous and got.flags.f_contiguous) == turn


def test_turned_only_with_a_win_and_the_same_bits(fresh, monkeypatch):
    a, b = operands(16, 2048, 150, np.float32, False, True)
    same = np.array_equal(np.matmul(a, b), np.matmul(b.T, a.T).T)
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.5)  # twice as fast
    assert _orient.turned(a, b) == same
    monkeypatch.setattr(_orient, "_turned", {})
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.95)  # within the margin
    assert not _orient.turned(a, b)
    monkeypatch.setattr(_orient, "ENABLED", False)
    monkeypatch.setattr(_orient, "_turned", {(a.shape, a.strides, b.shape, b.strides, a.dtype,
                                              b.dtype, ms._blas_threads.threads()): True})
    assert _orient.matmul(a, b).flags.c_contiguous  # off: never turned, whatever was decided


@pytest.mark.parametrize("a, b", [
    (np.ones((4, 4), np.float32), np.ones((4, 4), np.float32)),  # too small to matter
    (np.ones((64, 300), np.int64), np.ones((300, 64), np.int64)),  # not floating point
    (np.ones((64, 600), np.float32)[:, ::2], np.ones((300, 64), np.float32)),  # strided
])
def test_small_integer_and_strided_products_are_never_measured(fresh, monkeypatch, a, b):
    def refuse(*args):
        raise AssertionError("measured")

    monkeypatch.setattr(_orient, "_turn_wins", refuse)
    assert not _orient.turned(a, b)
    np.testing.assert_array_equal(_orient.matmul(a, b), np.matmul(a, b))


def lenet_conv2_step(on, monkeypatch):
    monkeypatch.setattr(_orient, "ENABLED", on)
    ms.set_seed(0)
    conv = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
    x = Tensor(np.random.default_rng(1).standard_normal((32, 6, 12, 12)).astype(np.float32))

    def loss(x):
        return (conv(x) ** 2).mean()

    out = conv(x).asnumpy()
    gx, (gw, gb) = ms.grad(loss, grad_position=0, weights=conv.trainable_params())(x)
    return out, gx.asnumpy(), gw.asnumpy(), gb.asnumpy()


def test_convolution_gives_the_same_bits_turned_or_not(fresh, monkeypatch):
    monkeypatch.setattr(db, "_race", lambda calls, rounds, block_s: 0.5)  # turn where same bits
    turned = lenet_conv2_step(True, monkeypatch)
    assert _orient._turned  # the forward's and the weight gradient's products were decided
    plain = lenet_conv2_step(False, monkeypatch)
    for a, b in zip(turned, plain):
        assert a.flags.c_contiguous and a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_new_shapes_stop_being_measured_after_max_decisions(fresh, monkeypatch):
    monkeypatch.setattr(db, "MAX_DECISIONS", 3)
    measured = []
    monkeypatch.setattr(_orient, "_turn_wins", lambda a, b: measured.append(a.shape) or True)
    for m in (64, 65, 66, 67, 68):
        a, b = operands(m, 128, 128, np.float32, False, False)
        assert _orient.turned(a, b) == (m < 67)
    assert measured == [(64, 128), (65, 128), (66, 128)]
