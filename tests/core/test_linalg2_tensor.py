"""Tensor methods of linear algebra (common/_tm_linalg.py): they call the ops functions with
the tensor first, with MindSpore's method signatures. MindSpore's numbers:
ms_programs/linalg_tensor.py."""

import inspect

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(9)
G = Tensor(RNG.standard_normal((3, 3)) + 3 * np.eye(3))
B = Tensor(RNG.standard_normal((3, 2)))


@pytest.mark.parametrize("method, fn", [
    (lambda: G.det(), lambda: ops.det(G)),
    (lambda: G.slogdet()[1], lambda: ops.slogdet(G)[1]),
    (lambda: G.matrix_power(3), lambda: ops.matrix_power(G, 3)),
    (lambda: B.cholesky_solve(G), lambda: ops.cholesky_solve(B, G)),
    (lambda: G.cross(G * 2 + 1), lambda: ops.cross(G, G * 2 + 1)),
    (lambda: G.cov(correction=0), lambda: ops.cov(G, correction=0)),
    (lambda: G.renorm(2, 0, 1.0), lambda: ops.renorm(G, 2, 0, 1.0)),
    (lambda: B.addmm(G, B, beta=0.5, alpha=2), lambda: ops.addmm(B, G, B, beta=0.5, alpha=2)),
    (lambda: G.addr(B[:, 0], B[:, 1], 0.5, 2),
     lambda: ops.addr(G, B[:, 0], B[:, 1], beta=0.5, alpha=2)),
    (lambda: G.qr(False)[0], lambda: ops.qr(G, "complete")[0]),
])
def test_method_equals_function(method, fn):
    np.testing.assert_allclose(method().asnumpy(), fn().asnumpy())


def test_trace_numpy_style():
    x = Tensor(np.arange(24.0).reshape(2, 3, 4))
    np.testing.assert_allclose(x.trace(1, 1, 2).asnumpy(), np.trace(x.asnumpy(), 1, 1, 2))
    assert Tensor(np.arange(9).reshape(3, 3), ms.int32).trace().dtype == ms.int64
    assert gradcheck(lambda t: t.trace(-1), Tensor(RNG.standard_normal((3, 4))))


def test_addmm_in_place():
    c = B.copy()
    out = c.addmm_(G, B, beta=0.5, alpha=2)
    assert out is c
    np.testing.assert_allclose(c.asnumpy(), ops.addmm(B, G, B, beta=0.5, alpha=2).asnumpy())


def test_triangular_solve_reads_one_triangle():
    x, a = B.triangular_solve(G, upper=False)
    assert a is G
    np.testing.assert_allclose(np.tril(G.asnumpy()) @ x.asnumpy(), B.asnumpy(), atol=1e-12)


def test_signatures():
    assert str(inspect.signature(ms.Tensor.ormqr)) == \
        "(self, input2, input3, left=True, transpose=False)"
    assert str(inspect.signature(ms.Tensor.addmm_)) == "(self, mat1, mat2, *, beta=1, alpha=1)"
