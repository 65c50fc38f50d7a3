"""The shared-memory all-reduce's one-pass sum (`cellgrad_distributed._sum`): numpy's
results bit for bit, in every segment, and a clear error for arrays it cannot take."""

import numpy as np
import pytest
from cellgrad_distributed._sum import sum_into_all


def numpy_sum(parts, scale):
    acc = parts[0] + parts[1]
    for p in parts[2:]:
        acc = acc + p
    return acc if scale is None else acc * acc.dtype.type(scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("scale", [None, 0.5, 1 / 3])
@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_every_array_becomes_numpys_sum(dtype, count, scale, n):
    rng = np.random.default_rng(n + count)
    parts = [(rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)).astype(dtype)
             for _ in range(count)]
    if n >= 7:  # non-finite and subnormal values go through as numpy's do
        parts[0][:4] = [np.nan, np.inf, -np.inf, np.finfo(dtype).tiny / 4]
        parts[1][4:6] = [np.inf, np.finfo(dtype).max]
        parts[-1][6] = np.finfo(dtype).max
    want = numpy_sum(parts, scale)
    sum_into_all(parts, scale)
    for p in parts:
        np.testing.assert_array_equal(p, want)
        assert p.dtype == dtype


def test_views_of_one_buffer_in_rank_order():
    """As in the window: each process's share is a slice of its segment."""
    segments = np.arange(24, dtype=np.float32).reshape(3, 8)
    shares = [seg[2:6] for seg in segments]
    sum_into_all(shares, 0.25)
    want = (np.float32(2 + 10 + 18) + np.arange(4) * 3) * 0.25
    for seg in segments:
        np.testing.assert_array_equal(seg[2:6], want)
    np.testing.assert_array_equal(segments[:, :2], [[0, 1], [8, 9], [16, 17]])


@pytest.mark.parametrize("parts, error, message", [
    ([np.zeros(3, np.float32)], ValueError, "needs at least 2 arrays, got 1"),
    ([np.zeros(3, np.int32), np.zeros(3, np.int32)], TypeError,
     "must be float32 or float64, got int32"),
    ([[1.0], [2.0]], TypeError, "must be float32 or float64, got list"),
    ([np.zeros(3, np.float32), np.zeros(3, np.float64)], ValueError,
     r"array 1 must be a writeable 1-D C-contiguous float32 array of length 3, got "
     r"shape=\(3,\), dtype=float64"),
    ([np.zeros(3, np.float32), np.zeros(4, np.float32)], ValueError,
     r"length 3, got shape=\(4,\)"),
    ([np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32)], ValueError,
     "array 0 must be a writeable 1-D"),
    ([np.zeros(3, np.float32), np.zeros(6, np.float32)[::2]], ValueError,
     "array 1 must be a writeable 1-D C-contiguous"),
])
def test_bad_arrays_are_clear_errors(parts, error, message):
    with pytest.raises(error, match=message):
        sum_into_all(parts)


def test_read_only_arrays_are_refused_and_left_alone():
    a, b = np.ones(3, np.float32), np.ones(3, np.float32)
    b.flags.writeable = False
    with pytest.raises(ValueError, match="array 1 must be a writeable"):
        sum_into_all([a, b])
    np.testing.assert_array_equal(a, [1, 1, 1])
