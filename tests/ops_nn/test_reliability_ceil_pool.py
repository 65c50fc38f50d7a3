"""Issue 21 item 5: pooling with ceil_mode has PyTorch's (and MindSpore's) output shapes and
values: the last window starts inside the input or its left padding, no -inf/NaN rows."""

import os

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops

torch = pytest.importorskip("torch")
F = torch.nn.functional


# `CELLGRAD_STRESS_SCALE=N tox -e stress` tries N times as many random configurations.
SCALE = int(os.environ.get("CELLGRAD_STRESS_SCALE", "1"))


def _configs(rank, seed, count=72 * SCALE):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        size = tuple(int(s) for s in rng.integers(1, 12, rank))
        k = int(rng.integers(1, 6))
        s = int(rng.integers(1, 5))
        d = int(rng.integers(1, 3))
        span = d * (k - 1) + 1
        p = int(rng.integers(0, k // 2 + 1))  # torch: pad <= kernel_size / 2
        if min(size) + 2 * p < span and rng.random() < 0.7:
            continue
        out.append((size, k, s, p, d))
    return out


def _torch_or_error(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs).numpy()
    except RuntimeError as e:
        if "smaller than kernel size" in str(e):
            return "torch-only"  # avg_pool3d's extra check on the unpadded input
        return None


def _ceil_size(size, k, s, p, d=1):
    """PyTorch's ceil_mode output size (ATen pooling_output_shape)."""
    out = (size + 2 * p - d * (k - 1) - 1 + s - 1) // s + 1
    return out - 1 if (out - 1) * s >= size + p else out


@pytest.mark.stress
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_max_pool_ceil_mode_matches_torch(rank):
    tmax = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[rank - 1]
    layer = (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d)[rank - 1]
    rng = np.random.default_rng(100 + rank)
    checked = 0
    for size, k, s, p, d in _configs(rank, rank):
        x = rng.standard_normal((2, 3) + size).astype(np.float32)
        want = _torch_or_error(tmax, torch.from_numpy(x), k, s, p, d, ceil_mode=True)
        cell = layer(k, s, pad_mode="pad", padding=p, dilation=d, ceil_mode=True)
        if want is None:
            with pytest.raises(ValueError):
                cell(ms.Tensor(x))
            continue
        got = cell(ms.Tensor(x)).asnumpy()
        assert got.shape == want.shape, (size, k, s, p, d)
        # -inf only where every tap of a dilated window lies in the padding, as in torch
        np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
        np.testing.assert_array_equal(got, want)
        checked += 1
    assert checked >= 50


@pytest.mark.stress
@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_avg_pool_ceil_mode_matches_torch(rank, count_include_pad):
    tavg = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[rank - 1]
    layer = (nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d)[rank - 1]
    rng = np.random.default_rng(200 + rank)
    checked = 0
    for size, k, s, p, _ in _configs(rank, 10 + rank):
        x = rng.standard_normal((2, 3) + size).astype(np.float32)
        want = _torch_or_error(tavg, torch.from_numpy(x), k, s, p, ceil_mode=True,
                               count_include_pad=count_include_pad)
        cell = layer(k, s, pad_mode="pad", padding=p, ceil_mode=True,
                     count_include_pad=count_include_pad)
        if isinstance(want, str):
            # MindSpore's AvgPool3D pools these (recorded in test_avg_pool3d_small_input)
            want = tuple(_ceil_size(n, k, s, p) for n in size)
            if min(want) >= 1:
                assert cell(ms.Tensor(x)).shape[2:] == want
                continue
            want = None
        if want is None:
            with pytest.raises(ValueError):
                cell(ms.Tensor(x))
            continue
        got = cell(ms.Tensor(x)).asnumpy()
        assert got.shape == want.shape, (size, k, s, p)
        assert np.isfinite(got).all(), (size, k, s, p)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        checked += 1
    assert checked >= 50


def test_functional_ceil_mode_issue_cases():
    x = ms.Tensor(np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8))
    y = ops.max_pool2d(x, 1, 4, ceil_mode=True)
    assert y.shape == (1, 1, 2, 2)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[0, 4], [32, 36]])
    y = ops.avg_pool2d(x, 1, 4, ceil_mode=True)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[0, 4], [32, 36]])
    y = ops.max_pool3d(ms.Tensor(np.ones((1, 1, 5, 5, 5), np.float32)), 2, 3, ceil_mode=True)
    assert y.shape == (1, 1, 2, 2, 2)
    assert np.isfinite(y.asnumpy()).all()
    # a kernel larger than the padded input gives one partial window with ceil_mode
    want = F.max_pool2d(torch.ones(1, 1, 3, 3), 4, 2, 0, ceil_mode=True).shape
    got = ops.max_pool2d(ms.Tensor(np.ones((1, 1, 3, 3), np.float32)), 4, 2, ceil_mode=True)
    assert tuple(got.shape) == tuple(want)


def test_avg_pool3d_small_input_as_mindspore():
    # shapes recorded from MindSpore 2.10 nn.AvgPool3d(k, s, pad_mode='pad', padding=p,
    # ceil_mode=True); PyTorch refuses an unpadded input smaller than the kernel
    for size, k, s, p, want in [((5, 5, 1), 3, 1, 1, (5, 5, 1)), ((1, 2, 8), 4, 2, 2, (2, 2, 5)),
                                ((1, 1, 2), 4, 4, 0, (1, 1, 1))]:
        x = ms.Tensor(np.ones((1, 1) + size, np.float32))
        y = nn.AvgPool3d(k, s, pad_mode="pad", padding=p, ceil_mode=True)(x)
        assert y.shape[2:] == want
        assert np.isfinite(y.asnumpy()).all()
    with pytest.raises(ValueError, match="larger than the padded input"):
        nn.AvgPool3d(2, 1, pad_mode="pad", ceil_mode=True)(ms.Tensor(np.ones((1, 1, 1, 6, 5),
                                                                             np.float32)))
    # MindSpore: ops.max_pool2d on 3x3 with ceil_mode: k4 s2 -> 1x1, k5 s3 -> 1x1, k4 s1 raises
    x = ms.Tensor(np.ones((1, 1, 3, 3), np.float32))
    assert ops.max_pool2d(x, 4, 2, ceil_mode=True).shape == (1, 1, 1, 1)
    assert ops.max_pool2d(x, 5, 3, ceil_mode=True).shape == (1, 1, 1, 1)
    with pytest.raises(ValueError):
        ops.max_pool2d(x, 4, 1, ceil_mode=True)
