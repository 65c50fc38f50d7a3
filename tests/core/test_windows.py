"""Window functions (ops/_windows.py): values against numpy/PyTorch, MindSpore's dtypes and
argument rules. MindSpore's own numbers: ms_programs/windows.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops

N7 = Tensor(7, ms.int32)


def test_symmetric_windows_equal_numpy():
    np.testing.assert_allclose(ops.bartlett_window(N7, False).asnumpy(), np.bartlett(7),
                               atol=1e-7)
    np.testing.assert_allclose(ops.blackman_window(N7, False).asnumpy(), np.blackman(7),
                               atol=1e-7)
    np.testing.assert_allclose(ops.hamming_window(7, False).asnumpy(), np.hamming(7), atol=1e-6)
    np.testing.assert_allclose(ops.hann_window(7, False).asnumpy(), np.hanning(7))
    np.testing.assert_allclose(ops.kaiser_window(7, False, 5.0).asnumpy(), np.kaiser(7, 5.0))


def test_periodic_windows_drop_the_last_point_of_one_longer():
    np.testing.assert_allclose(ops.hann_window(6).asnumpy(), np.hanning(7)[:-1])
    np.testing.assert_allclose(ops.bartlett_window(Tensor(6, ms.int64)).asnumpy(),
                               np.bartlett(7)[:-1], atol=1e-7)


def test_against_torch():
    torch = pytest.importorskip("torch")
    for ours, theirs in [
        (ops.hann_window(8), torch.hann_window(8, dtype=torch.float64)),
        (ops.kaiser_window(8), torch.kaiser_window(8, dtype=torch.float64)),
        (ops.hamming_window(8), torch.hamming_window(8)),
        (ops.blackman_window(Tensor(8, ms.int32)), torch.blackman_window(8)),
        (ops.bartlett_window(Tensor(8, ms.int32)), torch.bartlett_window(8)),
    ]:
        np.testing.assert_allclose(ours.asnumpy(), theirs.numpy(), atol=1e-6)


def test_dtypes_as_mindspore():
    assert ops.hann_window(5).dtype == ms.float64
    assert ops.kaiser_window(5).dtype == ms.float64
    assert ops.hann_window(5, dtype=ms.float32).dtype == ms.float32
    assert ops.hamming_window(5).dtype == ms.float32
    assert ops.hamming_window(1).dtype == ms.float64  # MindSpore's early return
    assert ops.bartlett_window(N7).dtype == ms.float32
    assert ops.blackman_window(N7, dtype=ms.float16).dtype == ms.float16
    assert ops.BartlettWindow(dtype=ms.float64)(N7).dtype == ms.float64
    assert ops.HammingWindow()(Tensor([4], ms.int64)).shape == (4,)


@pytest.mark.parametrize("call, error, match", [
    (lambda: ops.bartlett_window(5), TypeError, "must be Tensor"),
    (lambda: ops.blackman_window(Tensor(5.0)), TypeError, "Int32"),
    (lambda: ops.bartlett_window(Tensor([5], ms.int32)), ValueError, "dim"),
    (lambda: ops.bartlett_window(Tensor(-1, ms.int32)), ValueError, "1000000"),
    (lambda: ops.bartlett_window(N7, dtype=ms.int32), TypeError, "float16"),
    (lambda: ops.bartlett_window(N7, periodic=1), TypeError, "bool"),
    (lambda: ops.HammingWindow()(N7), ValueError, "length dim"),
    (lambda: ops.hamming_window(N7), TypeError, "int"),
    (lambda: ops.hamming_window(-2), ValueError, "non negative"),
    (lambda: ops.hamming_window(5, alpha=1), TypeError, "alpha"),
    (lambda: ops.hann_window(5.0), TypeError, "non-negative integer"),
    (lambda: ops.hann_window(5, periodic=1), TypeError, "Boolean"),
    (lambda: ops.kaiser_window(5, dtype=ms.int32), TypeError, "floating point"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
