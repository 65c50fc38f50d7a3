"""The float16 kernels of `_kernels/lowp.pyx` (F16C and scalar loops) against numpy's float16
conversions and ops, bit for bit, and the float16 branches of Dense, convolution, pooling and
ReLU against numpy's float16 arithmetic."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad_nn._kernels import lowp
from cellgrad_nn.functional import _lowp
from cellgrad_nn.spatial import conv as conv_impl

ALL_HALVES = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
SCALAR = [False, True]  # the F16C loop (where the CPU has it) and the portable one


def _bits_equal(a, b):
    nan = np.isnan(b)
    return np.array_equal(np.isnan(a), nan) and \
        np.array_equal(a.view(np.uint16 if a.itemsize == 2 else np.uint32)[~nan],
                       b.view(np.uint16 if b.itemsize == 2 else np.uint32)[~nan])


@pytest.mark.parametrize("scalar", SCALAR)
def test_every_float16_converts_to_float32_exactly(scalar):
    assert _bits_equal(lowp.to_float32(ALL_HALVES, scalar=scalar), ALL_HALVES.astype(np.float32))


@pytest.mark.parametrize("scalar", SCALAR)
def test_float32_rounds_to_float16_as_numpy(scalar):
    rng = np.random.default_rng(0)
    random_bits = rng.integers(0, 1 << 32, 500_000, dtype=np.uint64).astype(np.uint32)
    spread = rng.standard_normal(200_000) * 10.0 ** rng.integers(-9, 6, 200_000)
    edges = [65504, 65519.996, 65520, 65536, 2 ** -24, 2 ** -25, 1.5 * 2 ** -25, 2 ** -14,
             2 ** -14 * (1 - 2 ** -12), -0.0, np.inf, -np.inf, 1 + 2 ** -11, 1 + 3 * 2 ** -11]
    a = np.concatenate([random_bits.view(np.float32), spread.astype(np.float32),
                        np.float32(edges), -np.float32(edges),
                        ALL_HALVES.astype(np.float32)])  # halves and their ties: every edge
    with np.errstate(over="ignore"):
        ref = a.astype(np.float16)
    assert _bits_equal(lowp.to_float16(a, scalar=scalar), ref)


def test_conversions_keep_shape_take_views_and_check_arguments():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::2]  # not contiguous
    h = lowp.to_float16(x)
    assert h.shape == (2, 2, 4) and h.dtype == np.float16 and np.array_equal(h, x)
    out = np.empty((2, 2, 4), np.float32)
    assert lowp.to_float32(h, out) is out and np.array_equal(out, x)
    assert lowp.to_float32(np.zeros(0, np.float16)).shape == (0,)
    with pytest.raises(TypeError, match="lowp.to_float16: 'a' must be float32, got float64"):
        lowp.to_float16(np.zeros(3))
    with pytest.raises(ValueError, match="'out' must be a C-contiguous float16 array of shape"):
        lowp.to_float16(np.zeros(3, np.float32), np.zeros(4, np.float16))


def test_relu_pair_on_every_float16():
    with np.errstate(invalid="ignore"):
        ref = np.maximum(ALL_HALVES, np.float16(0))
    got = lowp.relu16(ALL_HALVES)
    assert _bits_equal(np.where(got == 0, np.float16(0), got), np.where(ref == 0, 0, ref))
    assert not np.signbit(got[~np.isnan(got)]).any()  # -0.0 and negatives give +0
    g = np.random.default_rng(1).standard_normal(1 << 16).astype(np.float16)
    g[::7] = np.inf
    with np.errstate(invalid="ignore"):
        want = np.where(ALL_HALVES > 0, g, np.float16(0))
    assert _bits_equal(lowp.relu_grad16(ALL_HALVES, g), want)


def test_f32_and_round_to():
    h = np.float16([1.5, -2.25, 65504])
    assert _lowp.f32(h).dtype == np.float32 and _lowp.f32(None) is None
    x = np.float32([1.0])
    assert _lowp.f32(x) is x and _lowp.round_to(x, np.dtype(np.float32)) is x
    assert _lowp.round_to(np.float32([1 + 2 ** -11]), np.dtype(np.float16))[0] == 1.0
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert _lowp.round_to(np.float32([1 + 2 ** -8]), np.dtype(ml_dtypes.bfloat16))[0] == 1.0


def _f16(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float16)


def test_float16_dense_rounds_the_product_then_adds_the_bias_in_float16():
    x, w, b = _f16((5, 7), 0), _f16((3, 7), 1), _f16((3,), 2)
    want = (x.astype(np.float32) @ w.astype(np.float32).T).astype(np.float16) + b
    got = ops.dense(Tensor(x), Tensor(w), Tensor(b))
    assert got.dtype == ms.float16 and np.array_equal(got.asnumpy(), want)


def test_float16_dense_and_conv_gradients_are_float32_products_rounded_once():
    x, w = _f16((4, 6), 3), _f16((5, 6), 4)
    gx, gw = ms.grad(lambda a, b: ops.dense(a, b).sum(), (0, 1))(Tensor(x), Tensor(w))
    ones = np.ones((4, 5), np.float32)
    assert gx.dtype == ms.float16 and gw.dtype == ms.float16
    np.testing.assert_array_equal(gx.asnumpy(), (ones @ w.astype(np.float32)).astype(np.float16))
    np.testing.assert_array_equal(gw.asnumpy(), (ones.T @ x.astype(np.float32)).astype(np.float16))
    xc, wc = _f16((2, 3, 9, 9), 5), _f16((4, 3, 3, 3), 6)
    conv16 = ms.grad(lambda a, b: ops.conv2d(a, b).sum(), (0, 1))(Tensor(xc), Tensor(wc))
    conv32 = ms.grad(lambda a, b: ops.conv2d(a, b).sum(), (0, 1))(
        Tensor(xc.astype(np.float32)), Tensor(wc.astype(np.float32)))
    for g16, g32 in zip(conv16, conv32):
        assert g16.dtype == ms.float16
        np.testing.assert_array_equal(g16.asnumpy(), g32.asnumpy().astype(np.float16))


def test_float16_first_layer_conv_takes_the_direct_kernel_on_its_converted_input():
    # LeNet's first layer: 1 channel, 5x5 taps, rows of 16 (spatial.conv._direct); the
    # backward reads the float32 conversion the forward made, not a second copy of it
    xc, wc, bc = _f16((2, 1, 20, 20), 11), _f16((4, 1, 5, 5), 12), _f16((4,), 13)
    assert conv_impl._direct(xc.astype(np.float32), wc.astype(np.float32), (0,) * 4, (1, 1),
                             (1, 1), 1, (16, 16)) == conv_impl._DIRECT

    def f(a, b, c):
        return (ops.conv2d(a, b, c) * 1.5).sum()

    out16 = ops.conv2d(Tensor(xc), Tensor(wc), Tensor(bc))
    out32 = ops.conv2d(Tensor(xc.astype(np.float32)), Tensor(wc.astype(np.float32)),
                       Tensor(bc.astype(np.float32)))
    assert out16.dtype == ms.float16
    np.testing.assert_array_equal(out16.asnumpy(), out32.asnumpy().astype(np.float16))
    g16 = ms.grad(f, (0, 1, 2))(Tensor(xc), Tensor(wc), Tensor(bc))
    g32 = ms.grad(f, (0, 1, 2))(*(Tensor(a.astype(np.float32)) for a in (xc, wc, bc)))
    for a, b in zip(g16, g32):
        assert a.dtype == ms.float16
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy().astype(np.float16))


def test_float16_pool_and_relu_cells():
    x = _f16((2, 3, 8, 8), 7)
    net = nn.SequentialCell([nn.ReLU(), nn.MaxPool2d(2, 2)])
    out = net(Tensor(x))
    ref = np.maximum(x, np.float16(0)).reshape(2, 3, 4, 2, 4, 2).max(axis=(3, 5))
    assert out.dtype == ms.float16 and np.array_equal(out.asnumpy(), ref)
    g = ms.grad(lambda a: net(a).sum())(Tensor(x))
    assert g.dtype == ms.float16
    assert g.asnumpy().sum() == np.count_nonzero(ref > 0)  # one 1 per positive window max


@pytest.mark.parametrize("shape", [(2, 3, 8, 8), (1, 2, 7, 9)])
def test_float16_2x2_max_pool_matches_the_float32_kernel_bit_for_bit(shape):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(shape).astype(np.float16)
    x.reshape(-1)[::5] = 0  # ties, +0 and -0 among the maxima
    x.reshape(-1)[::7] = -0.0
    x.reshape(-1)[3] = -np.inf
    got = lowp.max_pool_2x2(x)
    out32 = ms.ops.max_pool2d(Tensor(x.astype(np.float32)), 2, 2, return_indices=True)
    assert got is not None
    np.testing.assert_array_equal(got[0], out32[0].asnumpy().astype(np.float16))
    np.testing.assert_array_equal(got[1], out32[1].asnumpy())
    x[0, 0, 0, 0] = np.nan
    assert lowp.max_pool_2x2(x) is None  # a nan: the float32 kernel decides


def test_float16_max_pool_cells_forward_and_backward():
    x = np.random.default_rng(9).standard_normal((2, 3, 6, 6)).astype(np.float16)
    for pool in (nn.MaxPool2d(2, 2), nn.MaxPool2d(3, 2), nn.MaxPool2d(2, 2, pad_mode="same")):
        f16 = ms.grad(lambda a, p=pool: (p(a) * 3).sum())(Tensor(x))
        f32 = ms.grad(lambda a, p=pool: (p(a) * 3).sum())(Tensor(x.astype(np.float32)))
        assert pool(Tensor(x)).dtype == ms.float16 and f16.dtype == ms.float16
        np.testing.assert_array_equal(pool(Tensor(x)).asnumpy(),
                                      pool(Tensor(x.astype(np.float32))).asnumpy()
                                      .astype(np.float16))
        np.testing.assert_array_equal(f16.asnumpy(), f32.asnumpy().astype(np.float16))
    nan = x.copy()
    nan[0, 0, 1, 1] = np.nan
    out = nn.MaxPool2d(2, 2)(Tensor(nan)).asnumpy()
    assert np.isnan(out[0, 0, 0, 0]) and not np.isnan(out[0, 0, 0, 1])
