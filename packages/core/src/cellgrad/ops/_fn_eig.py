"""Eigen-decompositions with complex results: `ops.eig`, `ops.eigvals`, the `Eig` and
`MatrixLogarithm` primitives.

Eigenvalues come in MindSpore's order (ascending |w|); eigenvectors have unit norm, their
phase is LAPACK's (MindSpore's Eigen kernel may pick another), so a loss should not depend on
it. Differs from MindSpore on purpose: `eig` and `eigvals` are differentiable here (PyTorch's
rule; MindSpore 2.10 has no bprop for Eig).
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import complex64, complex128
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply, define
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["eig", "eigvals", "Eig", "MatrixLogarithm"]

_ACCEPTED = ("Float32", "Float64", "Complex64", "Complex128")


def _complex_of(a):
    return np.complex128 if a.dtype in (np.float64, np.complex128) else np.complex64


def _eigen_order(w, v):
    """Eigen's ComplexEigenSolver order (MindSpore's kernel): a selection sort by |w|."""
    w, v = w.copy(), v.copy()
    flat_w = w.reshape(-1, w.shape[-1])
    flat_v = v.reshape((-1,) + v.shape[-2:])
    for bw, bv in zip(flat_w, flat_v):
        for i in range(bw.size):
            k = i + int(np.argmin(np.abs(bw[i:])))
            if k != i:
                bw[[i, k]] = bw[[k, i]]
                bv[:, [i, k]] = bv[:, [k, i]]
    return flat_w.reshape(w.shape), flat_v.reshape(v.shape)


def _eig_fwd(a):
    w, v = _eigen_order(*np.linalg.eig(a))
    ct = _complex_of(a)
    return (w.astype(ct), v.astype(ct)), (a.dtype.kind == "c", w.astype(ct), v.astype(ct))


def _eig_bwd(ctx, gw, gv):
    # PyTorch's linalg_eig_backward, in the dL/dRe + i dL/dIm convention; the tape carries
    # unconjugated cotangents (ops/_complex.py), hence the conjugations on entry and exit
    complex_in, w, v = ctx.saved
    gw, gv = np.conj(gw), np.conj(gv)
    vh = np.conj(np.swapaxes(v, -1, -2))
    wc = np.conj(w)
    e = wc[..., None, :] - wc[..., :, None]
    n = w.shape[-1]
    idx = np.arange(n)
    e[..., idx, idx] = 1.0
    vhgv = np.matmul(vh, gv)
    diag_re = np.real(vhgv[..., idx, idx])
    ga = (vhgv - np.matmul(vh, v * diag_re[..., None, :])) / e
    ga[..., idx, idx] = gw
    ga = np.conj(np.linalg.solve(vh, np.matmul(ga, vh)))
    return ga if complex_in else np.ascontiguousarray(ga.real)


EIG = define("eig", _eig_fwd, _eig_bwd, first_order_only=True)


def _square(op, name, a):
    if not isinstance(a, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(a).__name__}.")
    if str(a.dtype) not in _ACCEPTED:
        raise TypeError(f"For '{op}', the dtype of '{name}' must be float32, float64, complex64 "
                        f"or complex128, but got {a.dtype}.")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For '{op}', '{name}' must be square matrices (*, n, n), but got "
                         f"shape {a.shape}.")


def eig(A):
    """Mirrors `mindspore.ops.eig`: `(eigenvalues, eigenvectors)`, complex."""
    _square("eig", "A", A)
    return apply(EIG, (A,))


def eigvals(A):
    """Mirrors `mindspore.ops.eigvals`: the complex eigenvalues."""
    return eig(A)[0]


class Eig(Primitive):
    """Mirrors `mindspore.ops.Eig`: `(eigenvalues, eigenvectors)`; without `compute_v` the
    second output is a 0-D placeholder, as MindSpore's."""

    @prim_attr_register
    def __init__(self, compute_v=False):
        if not isinstance(compute_v, bool):
            raise TypeError(f"For 'Eig', the type of 'compute_v' should be 'bool', but got type "
                            f"'{type(compute_v).__name__}'.")

    def __call__(self, x):
        w, v = eig(x)
        if self.compute_v:
            return w, v
        return w, F.zeros((), w.dtype)


class MatrixLogarithm(Primitive):
    """Mirrors `mindspore.ops.MatrixLogarithm`: the principal logarithm of complex square
    matrices (through the eigen-decomposition; not differentiable, as MindSpore's)."""

    def __call__(self, x):
        if not isinstance(x, TensorBuffer) or x.dtype not in (complex64, complex128):
            got = f"Tensor[{x.dtype}]" if isinstance(x, TensorBuffer) else type(x).__name__
            raise TypeError(f"For primitive[MatrixLogarithm], the input argument[x] must be a "
                            f"type of {{Tensor[Complex128], Tensor[Complex64]}}, but got {got}.")
        _square("MatrixLogarithm", "x", x)
        a = np.asarray(x._data)
        w, v = np.linalg.eig(a)
        out = np.matmul(v * np.log(w)[..., None, :], np.linalg.inv(v)).astype(a.dtype)
        return make_tensor(out, None, 0, x.dtype)
