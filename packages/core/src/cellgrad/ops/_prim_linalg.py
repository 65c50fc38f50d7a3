"""Linear-algebra Primitive classes of `mindspore.ops` (`ops.Svd()(x)`, `ops.MatrixSolve()`,
...): constructor arguments are attributes, call arguments inputs; each calls the functional
op of `_fn_linalg2` / `_fn_matrix_diag`."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import float32
from cellgrad.ops import _fn_linalg2 as LA
from cellgrad.ops import _fn_matrix_diag as MD
from cellgrad.ops import functional as F
from cellgrad.ops._tm_array import inverse
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["Cdist", "Cholesky", "CholeskyInverse", "CholeskySolve", "Cross", "EuclideanNorm",
           "Geqrf", "Ger", "LogMatrixDeterminant", "Lstsq", "LuSolve", "LuUnpack",
           "MatrixBandPart", "MatrixDeterminant", "MatrixDiagPartV3", "MatrixDiagV3",
           "MatrixExp", "MatrixInverse", "MatrixPower", "MatrixSetDiagV3", "MatrixSolve",
           "MatrixSolveLs", "MatrixTriangularSolve", "NuclearNorm", "Orgqr", "Ormqr", "Pdist",
           "Qr", "Renorm", "Svd", "Trace", "TridiagonalMatMul"]


def _stateless(name, fn, doc):
    def __call__(self, *args):
        return fn(*args)

    return type(name, (Primitive,), {"__call__": __call__,
                                     "__doc__": f"Mirrors `mindspore.ops.{name}`: {doc}."})


MatrixDeterminant = _stateless("MatrixDeterminant", LA.det, "the determinant")
LogMatrixDeterminant = _stateless("LogMatrixDeterminant", LA.slogdet, "(sign, log|det|)")
MatrixExp = _stateless("MatrixExp", LA.matrix_exp, "the matrix exponential")
MatrixBandPart = _stateless("MatrixBandPart", LA.matrix_band_part, "the band (x, lower, upper)")
Trace = _stateless("Trace", LA.trace, "the sum of the main diagonal")
Ger = _stateless("Ger", LA.ger, "the outer product of two vectors")
Geqrf = _stateless("Geqrf", LA.geqrf, "LAPACK's compact QR (a, tau)")
Orgqr = _stateless("Orgqr", LA.orgqr, "Q from geqrf's output (x, tau)")
LuSolve = _stateless("LuSolve", LA.lu_solve, "solves from an LU factorization (x, lu, pivots)")


class Svd(Primitive):
    """Mirrors `mindspore.ops.Svd`: `(s, u, v)`; with `compute_uv=False`, u and v are zeros of
    shape (1,) as MindSpore's."""

    @prim_attr_register
    def __init__(self, full_matrices=False, compute_uv=True):
        pass

    def __call__(self, a):
        if self.compute_uv:
            return LA.svd(a, self.full_matrices, True)
        s = LA.svd(a, compute_uv=False)
        return s, F.zeros((1,), a.dtype), F.zeros((1,), a.dtype)


class Qr(Primitive):
    """Mirrors `mindspore.ops.Qr`: `(q, r)`, complete when `full_matrices`."""

    @prim_attr_register
    def __init__(self, full_matrices=False):
        pass

    def __call__(self, x):
        return LA.qr(x, "complete" if self.full_matrices else "reduced")


class Cholesky(Primitive):
    """Mirrors `mindspore.ops.Cholesky`."""

    @prim_attr_register
    def __init__(self, upper=False):
        pass

    def __call__(self, input_x):
        return LA.cholesky(input_x, self.upper)


class CholeskyInverse(Primitive):
    """Mirrors `mindspore.ops.CholeskyInverse`."""

    @prim_attr_register
    def __init__(self, upper=False):
        pass

    def __call__(self, x):
        return LA.cholesky_inverse(x, self.upper)


class CholeskySolve(Primitive):
    """Mirrors `mindspore.ops.CholeskySolve`: solves with the factor `x2`."""

    @prim_attr_register
    def __init__(self, upper=False):
        pass

    def __call__(self, x1, x2):
        return LA.cholesky_solve(x1, x2, self.upper)


class MatrixInverse(Primitive):
    """Mirrors `mindspore.ops.MatrixInverse` (of the transpose when `adjoint`)."""

    @prim_attr_register
    def __init__(self, adjoint=False):
        pass

    def __call__(self, x):
        out = inverse(x)
        return F.swapaxes(out, -1, -2) if self.adjoint else out


class MatrixSolve(Primitive):
    """Mirrors `mindspore.ops.MatrixSolve`."""

    @prim_attr_register
    def __init__(self, adjoint=False):
        pass

    def __call__(self, matrix, rhs):
        return LA.matrix_solve(matrix, rhs, self.adjoint)


class MatrixSolveLs(Primitive):
    """Mirrors `mindspore.ops.MatrixSolveLs`: the least-squares solution of `matrix X = rhs`
    with an L2 penalty `l2` (normal equations; `fast=False` uses the SVD pseudo-inverse when
    the penalty is 0)."""

    @prim_attr_register
    def __init__(self, fast=True):
        pass

    def __call__(self, matrix, rhs, l2):
        l2 = float(np.asarray(l2._data)) if isinstance(l2, TensorBuffer) else float(l2)
        mt = F.swapaxes(matrix, -1, -2)
        m, n = matrix.shape[-2:]
        if not self.fast and l2 == 0.0:
            return F.matmul(LA.pinv(matrix), rhs)
        if m >= n:
            gram = F.matmul(mt, matrix) + l2 * _eye(n, matrix)
            return LA.matrix_solve(gram, F.matmul(mt, rhs))
        gram = F.matmul(matrix, mt) + l2 * _eye(m, matrix)
        return F.matmul(mt, LA.matrix_solve(gram, rhs))


def _eye(n, like):
    return F.cast(F.eye(n, n), like.dtype)


class MatrixTriangularSolve(Primitive):
    """Mirrors `mindspore.ops.MatrixTriangularSolve`: reads the lower (or upper) triangle of
    `matrix`; `adjoint` solves with its transpose."""

    @prim_attr_register
    def __init__(self, lower=True, adjoint=False):
        pass

    def __call__(self, matrix, rhs):
        return LA.triangular_solve(rhs, matrix, not self.lower, self.adjoint)[0]


class MatrixPower(Primitive):
    """Mirrors `mindspore.ops.MatrixPower` (`n` is no Primitive attribute, as MindSpore's)."""

    def __init__(self, n):
        super().__init__("MatrixPower")
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"For 'MatrixPower', the type of 'n' should be 'int', but got type "
                            f"'{type(n).__name__}'.")
        self.n = n

    def __call__(self, x):
        return LA.matrix_power(x, self.n)


class MatrixDiagV3(Primitive):
    """Mirrors `mindspore.ops.MatrixDiagV3`: (x, k, num_rows, num_cols, padding_value)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        MD._check_align("MatrixDiagV3", align)

    def __call__(self, x, k, num_rows, num_cols, padding_value):
        return MD.matrix_diag(x, k, num_rows, num_cols, padding_value, self.align)


class MatrixDiagPartV3(Primitive):
    """Mirrors `mindspore.ops.MatrixDiagPartV3`: (x, k, padding_value)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        MD._check_align("MatrixDiagPartV3", align)

    def __call__(self, x, k, padding_value):
        return MD.matrix_diag_part(x, k, padding_value, self.align)


class MatrixSetDiagV3(Primitive):
    """Mirrors `mindspore.ops.MatrixSetDiagV3`: (x, diagonal, k)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        MD._check_align("MatrixSetDiagV3", align)

    def __call__(self, x, diagonal, k):
        return MD.matrix_set_diag(x, diagonal, k, self.align)


class Lstsq(Primitive):
    """Mirrors `mindspore.ops.Lstsq` (MindSpore accepts only `l2_regularizer=0.0`)."""

    @prim_attr_register
    def __init__(self, fast=True, l2_regularizer=0.0):
        if l2_regularizer != 0.0:
            raise TypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got "
                            f"'{l2_regularizer}'.")

    def __call__(self, matrix, rhs):
        return LA.lstsq(matrix, rhs)


class LuUnpack(Primitive):
    """Mirrors `mindspore.ops.LuUnpack`: `(P, L, U)`."""

    @prim_attr_register
    def __init__(self, unpack_data=True, unpack_pivots=True):
        pass

    def __call__(self, LU_data, LU_pivots):
        return LA.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class Ormqr(Primitive):
    """Mirrors `mindspore.ops.Ormqr` (which MindSpore's CPU build does not run)."""

    @prim_attr_register
    def __init__(self, left=True, transpose=False):
        pass

    def __call__(self, x, tau, other):
        return LA.ormqr(x, tau, other, self.left, self.transpose)


class Cross(Primitive):
    """Mirrors `mindspore.ops.Cross` (dim -65530: the first axis of size 3)."""

    @prim_attr_register
    def __init__(self, dim=-65530):
        pass

    def __call__(self, x1, x2):
        return LA.cross(x1, x2, None if self.dim == -65530 else self.dim)


class Cdist(Primitive):
    """Mirrors `mindspore.ops.Cdist`."""

    @prim_attr_register
    def __init__(self, p=2.0):
        pass

    def __call__(self, input_x, input_y):
        return LA.cdist(input_x, input_y, self.p)


class Pdist(Primitive):
    """Mirrors `mindspore.ops.Pdist`."""

    @prim_attr_register
    def __init__(self, p=2.0):
        pass

    def __call__(self, x):
        return LA.pdist(x, self.p)


class Renorm(Primitive):
    """Mirrors `mindspore.ops.Renorm`."""

    @prim_attr_register
    def __init__(self, p, dim, maxnorm):
        self.add_prim_attr("p", float(p))  # MindSpore keeps p as a float attribute

    def __call__(self, x):
        return LA.renorm(x, int(self.p), self.dim, self.maxnorm)


class NuclearNorm(Primitive):
    """Mirrors `mindspore.ops.NuclearNorm`: the sum of singular values over `dim` (default
    the last two axes)."""

    @prim_attr_register
    def __init__(self, dim=None, keepdim=False):
        if dim is None:  # MindSpore's marker for "the last two axes"
            self.add_prim_attr("dim", [1000])

    def __call__(self, x):
        dim = (-2, -1) if list(self.dim) == [1000] else tuple(self.dim)
        return LA.matrix_norm(x, "nuc", dim, self.keepdim)


class EuclideanNorm(Primitive):
    """Mirrors `mindspore.ops.EuclideanNorm`: the 2-norm over the `axes` Tensor."""

    @prim_attr_register
    def __init__(self, keep_dims=False):
        pass

    def __call__(self, x, axes):
        if not isinstance(axes, TensorBuffer):
            raise TypeError(f"For Primitive[EuclideanNorm], the type of input argument[axes] "
                            f"must be Tensor but got {type(axes).__name__}.")
        ax = tuple(int(a) for a in np.asarray(axes._data).reshape(-1))
        if x.dtype.np_dtype.kind != "f":
            return F.cast(LA.vector_norm(F.cast(x, float32), 2, ax, self.keep_dims), x.dtype)
        return LA.vector_norm(x, 2, ax, self.keep_dims)


class TridiagonalMatMul(Primitive):
    """Mirrors `mindspore.ops.TridiagonalMatMul`: the tridiagonal matrix of (superdiag,
    maindiag, subdiag), each (..., 1, M), times rhs (..., M, N)."""

    def __call__(self, superdiag, maindiag, subdiag, rhs):
        m = rhs.shape[-2]
        zero = F.zeros_like(rhs[..., :1, :])
        below = F.concat([zero, rhs[..., :m - 1, :]], -2)
        above = F.concat([rhs[..., 1:, :], zero], -2)

        def column(d):
            return F.swapaxes(d, -1, -2)

        return column(maindiag) * rhs + column(superdiag) * above + column(subdiag) * below

