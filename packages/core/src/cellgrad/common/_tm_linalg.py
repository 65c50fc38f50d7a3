"""Tensor methods of linear algebra (an area of `_tensor_methods.AREAS`): determinants,
decompositions, solves, the addmm family (and in-place `addmm_`), norms and products, each
the `cellgrad.ops` function with the tensor first."""

from cellgrad import dtype as D
from cellgrad.ops import _fn_eig as E
from cellgrad.ops import _fn_linalg2 as LA
from cellgrad.ops import functional as F
from cellgrad.ops._tm_array import diagonal

THIN = {
    "det": LA.det, "slogdet": LA.slogdet, "logdet": LA.logdet,
    "matrix_determinant": LA.matrix_determinant,
    "log_matrix_determinant": LA.log_matrix_determinant,
    "svd": LA.svd, "cholesky": (LA.cholesky, "upper=False"),
    "cholesky_inverse": (LA.cholesky_inverse, "upper=False"),
    "cholesky_solve": LA.cholesky_solve, "lstsq": LA.lstsq, "lu_solve": LA.lu_solve,
    "matrix_power": LA.matrix_power, "ger": LA.ger, "inner": LA.inner, "cross": LA.cross,
    "cov": LA.cov, "eigvals": E.eigvals, "geqrf": LA.geqrf,
    "orgqr": LA.orgqr, "ormqr": (LA.ormqr, "input2, input3, left=True, transpose=False"),
    "renorm": LA.renorm, "addmm": LA.addmm, "addbmm": LA.addbmm,
    "baddbmm": (LA.baddbmm, "batch1, batch2, *, beta=1, alpha=1"),
}


def addmv(self, mat, vec, beta=1, alpha=1):
    """Mirrors `mindspore.Tensor.addmv`: `beta * self + alpha * (mat @ vec)` (`beta` and
    `alpha` by position too, as MindSpore's method)."""
    return LA.addmv(self, mat, vec, beta=beta, alpha=alpha)


def trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    """Mirrors `mindspore.Tensor.trace`: the sum of the `offset` diagonal of the (axis1,
    axis2) planes (integer inputs sum to Int64, as MindSpore's)."""
    if dtype is None and not self.dtype.is_floating_point and not self.dtype.is_complex:
        dtype = D.int64
    return F.sum(diagonal(self, offset, axis1, axis2), -1, dtype=dtype)


def qr(self, some=True):
    """Mirrors `mindspore.Tensor.qr`: reduced (`some`) or complete `(Q, R)`."""
    return LA.qr(self, "reduced" if some else "complete")


def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """Solves `A X = self` for a triangular `A`: `(X, A)` (MindSpore 2.10's method raises an
    AttributeError from its registry; this is the documented behaviour)."""
    return LA.triangular_solve(self, A, upper, transpose, unitriangular)


def addr(self, vec1, vec2, beta=1, alpha=1):
    """Mirrors `mindspore.Tensor.addr`: `beta * self + alpha * outer(vec1, vec2)`."""
    return LA.addr(self, vec1, vec2, beta=beta, alpha=alpha)


def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """Mirrors `mindspore.Tensor.addmm_`: `addmm` in place; returns this tensor."""
    from cellgrad.common._tensor_methods import _inplace

    return _inplace(self, LA.addmm(self, mat1, mat2, beta=beta, alpha=alpha))


METHODS = {"trace": trace, "qr": qr, "triangular_solve": triangular_solve, "addr": addr,
           "addmm_": addmm_, "addmv": addmv}
