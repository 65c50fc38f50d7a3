"""ops.svd on complex64/128 (MindSpore 2.10: complex s, A = U diag(s) V^H; no gradient)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("full", [False, True])
def test_values(dtype, full):
    x = (np.arange(6).reshape(3, 2) * (1 + 1j) + np.array([[1j, 0], [0, 2], [1, 0]])).astype(dtype)
    s, u, v = ops.svd(Tensor(x), full, True)
    assert s.asnumpy().dtype == dtype and u.asnumpy().dtype == dtype
    # MindSpore 2.10's singular values: [11.51347252, 1.85471034]
    np.testing.assert_allclose(s.asnumpy(), [11.51347252, 1.85471034], rtol=1e-5)
    u, v = u.asnumpy()[:, :2], v.asnumpy()
    np.testing.assert_allclose(u @ np.diag(s.asnumpy()) @ v.conj().T, x, atol=1e-5)
    np.testing.assert_allclose(ops.svd(Tensor(x), full, False).asnumpy(), s.asnumpy())


def test_no_complex_gradient():
    x = Tensor(np.array([[1 + 1j, 2], [0, 1j]]))
    with pytest.raises(TypeError, match="For 'svd', the gradient of a complex input"):
        ms.grad(lambda t: ops.real(ops.svd(t, False, False)).sum())(x)
