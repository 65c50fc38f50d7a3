"""Linear-algebra Primitive classes (ops/_prim_linalg.py) and the MatrixDiagV3 family
(ops/_fn_matrix_diag.py): gradients, values and the primitives MindSpore's CPU build does not
run. MindSpore's numbers: ms_programs/linalg_prims.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(3)


def T(*shape):
    return Tensor(RNG.standard_normal(shape))


X34 = T(2, 3, 4)


@pytest.mark.parametrize("fn, args", [
    (lambda x: ops.matrix_diag_part(x, (-1, 1), 9.0), [X34]),
    (lambda x: ops.matrix_diag_part(x, 1, 0.0, "LEFT_RIGHT"), [X34]),
    (lambda x, d: ops.matrix_set_diag(x, d, (-1, 1)), [X34, T(2, 3, 3)]),
    (lambda d: ops.matrix_diag(d, (-1, 0), 3, 4, 9.0), [T(2, 2, 3)]),
    (lambda d: ops.matrix_diag(d, 1), [T(3)]),
    (lambda a, b, c, r: ops.TridiagonalMatMul()(a, b, c, r), [T(1, 3), T(1, 3), T(1, 3),
                                                             T(3, 2)]),
    (lambda a, r: ops.MatrixSolveLs()(a, r, Tensor(0.5)), [T(4, 3), T(4, 2)]),
    (lambda a, r: ops.MatrixTriangularSolve(False, True)(a + Tensor(3 * np.eye(3)), r),
     [T(3, 3), T(3, 2)]),
    (lambda x: ops.NuclearNorm()(x), [T(4, 3)]),
    (lambda x: ops.EuclideanNorm(True)(x, Tensor([0, 1], ms.int32)), [T(2, 3)]),
    (lambda x: ops.MatrixInverse(True)(x + Tensor(3 * np.eye(3))), [T(3, 3)]),
])
def test_gradcheck(fn, args):
    assert gradcheck(fn, *args)


def test_matrix_diag_roundtrip():
    x = T(3, 4)
    part = ops.matrix_diag_part(x, (-2, 3), 0.0)
    rebuilt = ops.matrix_set_diag(Tensor(np.zeros((3, 4))), part, (-2, 3))
    np.testing.assert_allclose(rebuilt.asnumpy(), x.asnumpy())
    np.testing.assert_allclose(ops.matrix_diag(Tensor([1.0, 2.0])).asnumpy(), np.diag([1, 2]))


def test_primitives_mindspore_cpu_does_not_run():
    x = T(3, 2)
    np.testing.assert_allclose(ops.EuclideanNorm()(x, Tensor([0], ms.int32)).asnumpy(),
                               np.linalg.norm(x.asnumpy(), axis=0))
    assert ops.EuclideanNorm()(Tensor([[3, 4]], ms.int32), Tensor([1], ms.int32)).dtype == \
        ms.int32
    h, tau = ops.Geqrf()(T(4, 3))
    q = ops.Ormqr()(h, tau, Tensor(np.eye(4)))
    np.testing.assert_allclose(q.asnumpy() @ q.asnumpy().T, np.eye(4), atol=1e-12)
    a = T(3, 3)
    np.testing.assert_allclose(ops.MatrixExp()(a * 0).asnumpy(), np.eye(3))


def test_svd_without_uv_returns_zero_placeholders():
    s, u, v = ops.Svd(compute_uv=False)(T(3, 2))
    assert s.shape == (2,) and u.shape == v.shape == (1,)


@pytest.mark.parametrize("call, error", [
    (lambda: ops.Lstsq(l2_regularizer=0.5), TypeError),
    (lambda: ops.MatrixPower(1.5), TypeError),
    (lambda: ops.MatrixDiagV3("UP"), ValueError),
    (lambda: ops.EuclideanNorm()(T(2, 2), (0,)), TypeError),
    (lambda: ops.matrix_set_diag(T(3, 3), T(2), 0), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
