"""The direct convolution kernel for few input taps (`_kernels/conv_small.pyx`, LeNet's first
layer): the same outputs and gradients as the im2col + GEMM path within float32 rounding,
with and without bias, with the input's gradient, for inputs changed after the forward, and
argument checks that name the kernel."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad_nn._kernels import conv_small
from cellgrad_nn.spatial import conv

pytestmark = pytest.mark.skipif(not conv_small.fast(), reason="no AVX2+FMA on this CPU")


def data(c=1, o=6, h=28, seed=0, n=4):
    rng = np.random.default_rng(seed)
    return (Tensor(rng.standard_normal((n, c, h, h)).astype(np.float32)),
            Tensor(rng.standard_normal((o, c, 5, 5)).astype(np.float32)),
            Tensor(rng.standard_normal(o).astype(np.float32)),
            Tensor(rng.standard_normal((n, o, h - 4, h - 4)).astype(np.float32)))


def value_and_grads(x, w, b, cot, direct, monkeypatch):
    monkeypatch.setattr(conv, "_DIRECT", direct)
    f = (lambda x, w, b: (ops.conv2d(x, w, b) * cot).sum()) if b is not None else \
        (lambda x, w: (ops.conv2d(x, w) * cot).sum())
    args = (x, w, b) if b is not None else (x, w)
    out = ops.conv2d(*args)
    grads = ms.grad(f, grad_position=tuple(range(len(args))))(*args)
    return [out.asnumpy()] + [g.asnumpy() for g in grads]


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(1, 6, 28), (1, 3, 20), (1, 2, 36)])
def test_direct_matches_im2col(monkeypatch, bias, shape):
    x, w, b, cot = data(*shape)
    assert conv._direct(x.asnumpy(), w.asnumpy(), (0, 0, 0, 0), (1, 1), (1, 1), 1,
                        (shape[2] - 4, shape[2] - 4))
    got = value_and_grads(x, w, b if bias else None, cot, True, monkeypatch)
    want = value_and_grads(x, w, b if bias else None, cot, False, monkeypatch)
    for a, e in zip(got, want):
        np.testing.assert_allclose(a, e, rtol=2e-5, atol=2e-4)


def test_the_direct_path_keeps_its_own_copy_of_the_input(monkeypatch):
    x, w, b, cot = data()
    want = value_and_grads(x, w, b, cot, False, monkeypatch)
    monkeypatch.setattr(conv, "_DIRECT", True)

    def f(w):
        out = ops.conv2d(x, w, b)
        x.asnumpy()[...] = 0  # the input changes after the forward
        return (out * cot).sum()

    gw = ms.grad(f)(w)
    np.testing.assert_allclose(gw.asnumpy(), want[2], rtol=2e-5, atol=2e-4)


def test_other_geometries_stay_on_im2col():
    x, w = np.zeros((2, 6, 12, 12), np.float32), np.zeros((16, 6, 5, 5), np.float32)
    assert not conv._direct(x, w, (0,) * 4, (1, 1), (1, 1), 1, (8, 8))  # LeNet's 2nd layer
    x1, w1 = np.zeros((2, 1, 28, 28), np.float32), np.zeros((6, 1, 5, 5), np.float32)
    assert not conv._direct(x1, w1, (1,) * 4, (1, 1), (1, 1), 1, (26, 26))  # padded
    assert not conv._direct(x1, w1, (0,) * 4, (2, 2), (1, 1), 1, (12, 12))  # strided
    assert not conv._direct(x1.astype(np.float64), w1.astype(np.float64), (0,) * 4, (1, 1),
                            (1, 1), 1, (24, 24))


def test_the_kernels_check_their_arrays():
    x, w = np.zeros((2, 1, 8, 8), np.float32), np.zeros((3, 1, 3, 3), np.float32)
    with pytest.raises(ValueError, match="conv_forward: expected a C-contiguous float32"):
        conv_small.conv_forward(x, w, None, np.zeros((2, 3, 5, 5), np.float32))
    with pytest.raises(ValueError, match="conv_forward: expected a C-contiguous float32"):
        conv_small.conv_forward(x.astype(np.float64), w, None,
                                np.zeros((2, 3, 6, 6), np.float32))
    with pytest.raises(ValueError, match="conv_backward: expected a C-contiguous float32"):
        conv_small.conv_backward(x, w, np.zeros((2, 3, 6, 6), np.float32), None,
                                 np.zeros((3, 1, 2, 2), np.float32), None)
    out = np.empty((2, 3, 6, 6), np.float32)
    conv_small.conv_forward(x + 1, w + 1, np.arange(3, dtype=np.float32), out)
    np.testing.assert_array_equal(out[:, :, 0, 0], [[9, 10, 11], [9, 10, 11]])
