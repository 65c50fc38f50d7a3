"""float16 2x2 max pooling (`lowp.max_pool_2x2`): the AVX2 loop gives the portable loop's
values and positions bit for bit (-0/+0 ties, infinities, odd sizes) and both flag a nan."""

import numpy as np
import pytest

from cellgrad_nn._kernels import lowp

SPECIAL = np.array([0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x0001, 0x8001, 0x3C01,
                    0x7BFF], np.uint16)


def _patterns(rng, shape, nan=False):
    bits = rng.integers(0, 2 ** 16, shape, dtype=np.uint16)
    bits = np.where((bits & 0x7FFF) > 0x7C00, bits & 0x83FF, bits).astype(np.uint16)
    pick = rng.random(shape) < 0.4
    bits[pick] = rng.choice(SPECIAL, pick.sum())
    if nan:
        bits.reshape(-1)[rng.integers(bits.size)] = 0x7E00
    return bits.view(np.float16)


@pytest.mark.parametrize("shape", [(1, 1, 2, 2), (2, 3, 4, 8), (32, 6, 24, 24), (32, 16, 8, 8),
                                   (3, 2, 7, 9), (2, 2, 6, 14), (1, 1, 2, 6), (5, 1, 10, 30)])
def test_vector_loop_equals_the_scalar_loop(shape):
    rng = np.random.default_rng(sum(shape))
    x = _patterns(rng, shape)
    out, arg = lowp.max_pool_2x2(x)
    ref_out, ref_arg = lowp.max_pool_2x2(x, scalar=True)
    np.testing.assert_array_equal(out.view(np.uint16), ref_out.view(np.uint16))
    np.testing.assert_array_equal(arg, ref_arg)
    # against numpy: each window's maximum (as a number) and the first position holding it
    n, c, h, w = shape
    win = x[:, :, :h // 2 * 2, :w // 2 * 2].astype(np.float32).reshape(
        n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h // 2, w // 2, 4)
    np.testing.assert_array_equal(out.astype(np.float32), win.max(-1))
    k = win.argmax(-1)
    oy, ox = np.meshgrid(np.arange(h // 2), np.arange(w // 2), indexing="ij")
    np.testing.assert_array_equal(arg, (2 * oy + k // 2) * w + 2 * ox + k % 2)


@pytest.mark.parametrize("shape", [(2, 3, 8, 8), (1, 1, 4, 6), (1, 1, 2, 2)])
def test_a_nan_gives_none(shape):
    x = _patterns(np.random.default_rng(1), shape, nan=True)
    assert lowp.max_pool_2x2(x) is None
    assert lowp.max_pool_2x2(x, scalar=True) is None
