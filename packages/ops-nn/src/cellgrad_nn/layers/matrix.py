"""The deprecated matrix and special-function cells of `mindspore.nn.layer.math` / `basic`:
`MatDet`, `MatInverse`, `MatrixDiag`, `MatrixDiagPart`, `MatrixSetDiag`, `LGamma`, `DiGamma`,
`IGamma`, `LBeta`.

MindSpore 2.10's CPU build has no kernel for MatDet/MatInverse (Cholesky-based, for symmetric
positive-definite input) nor for MatrixDiagPart/MatrixSetDiag; here they run, and agree with
MindSpore's definitions: the determinant and inverse of any invertible matrix (equal to the
Cholesky route on the matrices MindSpore accepts). The special functions are compositions of
differentiable ops (a reflection for arguments below 1/2), as MindSpore builds them."""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_nn.probability import _special


def _check_rank(cell, arg, x, least):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{cell}', the '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim < least:
        raise ValueError(f"For '{cell}', the rank of '{arg}' must be at least {least}, but got "
                         f"{x.ndim} (shape {x.shape}).")


def _check_square(cell, x):
    _check_rank(cell, "x", x, 2)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{cell}', the last two dimensions of 'x' must be equal (square "
                         f"matrices), but got shape {x.shape}.")


class MatDet(Cell):
    """Mirrors `mindspore.nn.MatDet`: the determinant of each (..., M, M) matrix."""

    def __init__(self):
        super().__init__()

    def construct(self, a):
        _check_square("MatDet", a)
        return ops.det(a)


class MatInverse(Cell):
    """Mirrors `mindspore.nn.MatInverse`: the inverse of each (..., M, M) matrix."""

    def __init__(self):
        super().__init__()

    def construct(self, a):
        _check_square("MatInverse", a)
        return ops.inverse(a)


def _eye_like(rows, cols, x):
    return Tensor(np.eye(rows, cols, dtype=x.asnumpy().dtype))


class MatrixDiag(Cell):
    """Mirrors `mindspore.nn.MatrixDiag`: (..., N) values -> (..., N, N) diagonal matrices."""

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        _check_rank("MatrixDiag", "input_x", input_x, 1)
        n = input_x.shape[-1]
        return ops.expand_dims(input_x, -1) * _eye_like(n, n, input_x)


class MatrixDiagPart(Cell):
    """Mirrors `mindspore.nn.MatrixDiagPart`: (..., M, N) -> the (..., min(M, N)) main
    diagonals."""

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        _check_rank("MatrixDiagPart", "input_x", input_x, 2)
        return ops.diagonal(input_x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """Mirrors `mindspore.nn.MatrixSetDiag`: x with its main diagonals replaced by
    `diagonal` (shape x.shape[:-2] + (min(M, N),))."""

    def __init__(self):
        super().__init__()

    def construct(self, x, diagonal):
        _check_rank("MatrixSetDiag", "x", x, 2)
        rows, cols = x.shape[-2:]
        k = min(rows, cols)
        expected = tuple(x.shape[:-2]) + (k,)
        if not isinstance(diagonal, Tensor) or tuple(diagonal.shape) != expected:
            got = diagonal.shape if isinstance(diagonal, Tensor) else type(diagonal).__name__
            raise ValueError(f"For 'MatrixSetDiag', the shape of 'diagonal' must be {expected} "
                             f"for 'x' of shape {x.shape}, but got {got}.")
        eye = _eye_like(rows, cols, x)
        # (..., k, 1) against the rows when M <= N, (..., 1, k) against the columns otherwise
        placed = ops.expand_dims(diagonal, -1 if rows <= cols else -2) * eye
        return x * (1 - eye) + placed


def _check_float(cell, arg, x):
    if not isinstance(x, Tensor) or x.asnumpy().dtype.type not in (np.float16, np.float32,
                                                                   np.float64):
        got = x.dtype if isinstance(x, Tensor) else type(x).__name__
        raise TypeError(f"For '{cell}', the '{arg}' must be a float Tensor (float16, float32 or "
                        f"float64), but got {got}.")


def _lgamma(x):
    """log|Gamma(x)| for every real x: the series for x >= 1/2, the reflection
    log(pi / |sin(pi x)|) - lgamma(1 - x) below (each branch fed only arguments it is finite
    at, so neither poisons the other's gradient)."""
    low = x < 0.5
    y = ops.where(low, 1.0 - x, x)
    xs = ops.where(low, x, ops.full_like(x, 0.25))
    reflected = math.log(math.pi) - ops.log(ops.abs(ops.sin(math.pi * xs))) - _special.lgamma(y)
    return ops.where(low, reflected, _special.lgamma(y))


def _digamma(x):
    """psi(x) for every real x: psi(1 - x) - pi / tan(pi x) below 1/2."""
    low = x < 0.5
    y = ops.where(low, 1.0 - x, x)
    xs = ops.where(low, x, ops.full_like(x, 0.25))
    return ops.where(low, _special.digamma(y) - math.pi / ops.tan(math.pi * xs),
                     _special.digamma(y))


class LGamma(Cell):
    """Mirrors `mindspore.nn.LGamma`: log|Gamma(x)| elementwise (inf at the poles)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _check_float("LGamma", "x", x)
        return _lgamma(x)


class DiGamma(Cell):
    """Mirrors `mindspore.nn.DiGamma`: the digamma function psi(x) elementwise."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _check_float("DiGamma", "x", x)
        return _digamma(x)


class LBeta(Cell):
    """Mirrors `mindspore.nn.LBeta`: log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)."""

    def __init__(self):
        super().__init__()

    def construct(self, x, y):
        _check_float("LBeta", "x", x)
        _check_float("LBeta", "y", y)
        return _lgamma(x) + _lgamma(y) - _lgamma(x + y)


def _igamma_da(a, x):
    """dP(a, x)/da by a central difference of the float64 series (no closed form)."""
    a64, x64 = a.asnumpy().astype(np.float64), x.asnumpy().astype(np.float64)
    h = 1e-5 * np.maximum(1.0, np.abs(a64))
    return (_special._igamma_numpy(a64 + h, x64) - _special._igamma_numpy(a64 - h, x64)) / (2 * h)


class IGamma(Cell):
    """Mirrors `mindspore.nn.IGamma`: the regularized lower incomplete gamma function P(a, x),
    differentiable in x (its density) and in a (a difference quotient of the series)."""

    def __init__(self):
        super().__init__()

    def construct(self, a, x):
        _check_float("IGamma", "a", a)
        _check_float("IGamma", "x", x)
        a, x = ops.broadcast_to(a, np.broadcast_shapes(a.shape, x.shape)), \
            ops.broadcast_to(x, np.broadcast_shapes(a.shape, x.shape))
        value = _special.igamma(a, x)
        slope = Tensor(_igamma_da(a, x).astype(a.asnumpy().dtype))
        return value + slope * (a - ops.stop_gradient(a))
