"""Leftover functions of `mindspore.ops`: `diff`, `logspace`, `gumbel_softmax`, the fused
norms `rms_norm`/`add_rms_norm`/`add_layer_norm` (Ascend kernels in MindSpore 2.10, computed
here by their documented formulas), `type_as`, `deepcopy`, `assign_sub`, `intopk`."""

import copy

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float16, float32, float64, to_dtype
from cellgrad.ops import functional as F

__all__ = ["diff", "diff_ext", "einsum_ext", "baddbmm_ext", "mse_loss_ext", "logspace",
           "gumbel_softmax", "rms_norm", "add_rms_norm", "add_layer_norm", "type_as",
           "deepcopy", "assign_sub", "intopk", "cond", "make_row_tensor",
           "make_row_tensor_inner", "row_tensor_get_indices", "row_tensor_get_values",
           "row_tensor_get_dense_shape", "row_tensor_add"]


def _tensor(op, name, value):
    if not isinstance(value, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a tensor, but got {type(value)}")


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """Mirrors `mindspore.ops.diff`: `x[..., 1:] - x[..., :-1]` along `axis` after joining
    `prepend`/`append`; bool Tensors give `!=`. MindSpore 2.10 accepts only n=1."""
    _tensor("diff", "x", x)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'diff', the type of 'n' must be 'int', but got "
                        f"'{type(n).__name__}'.")
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    if x.ndim == 0:
        raise TypeError("For 'diff', the dimension 'x' must be at least 1, but got 0")
    axis = axis + x.ndim if axis < 0 else axis
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = F.cat(parts, axis)
    size = x.shape[axis]
    if size == 0:
        return x
    hi, lo = F.narrow(x, axis, 1, size - 1), F.narrow(x, axis, 0, size - 1)
    if x.dtype == to_dtype("bool"):
        return F.logical_xor(hi, lo)
    return F.sub(hi, lo)



def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """Mirrors `mindspore.ops.diff_ext`: the `n`-th difference along `dim` (any n >= 0)."""
    _tensor("diff_ext", "input", input)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"For 'diff_ext', 'n' must be a non-negative int, but got {n}.")
    out = input
    for step in range(n):
        if out.shape[dim] == 0 and step:
            break
        out = diff(out, 1, dim, prepend if step == 0 else None, append if step == 0 else None)
    return out


def einsum_ext(equation, *operands):
    """Mirrors `mindspore.ops.einsum_ext` (Ascend-only in MindSpore 2.10): `ops.einsum`."""
    from cellgrad.ops._fn_einsum import einsum

    return einsum(equation, *operands)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.baddbmm_ext`: `beta * input + alpha * (batch1 @ batch2)`."""
    from cellgrad.ops._fn_linalg_products import baddbmm

    return baddbmm(input, batch1, batch2, beta, alpha)


def mse_loss_ext(input, target, reduction="mean"):
    """Mirrors `mindspore.ops.mse_loss_ext`: `ops.mse_loss` (needs cellgrad-ops-nn)."""
    import cellgrad.ops

    return cellgrad.ops.mse_loss(input, target, reduction)


def logspace(start, end, steps, base=10, *, dtype=float32):
    """Mirrors `mindspore.ops.logspace`: `base ** linspace(start, end, steps)`."""
    from cellgrad.ops._prim_leftovers import LogSpace

    return LogSpace(steps, base, dtype)(start, end)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """Mirrors `mindspore.ops.gumbel_softmax`: `softmax((logits + g) / tau)` with Gumbel(0, 1)
    noise `g`; `hard=True` returns the one-hot of the argmax with the soft sample's gradient."""
    _tensor("gumbel_softmax", "logits", logits)
    # float64 is accepted too (MindSpore 2.10 takes float16/float32) so it can be gradchecked
    if logits.dtype not in (float16, float32, float64):
        raise TypeError(f"For 'gumbel_softmax', the 'logits' should be one of "
                        f"[mindspore.float16, mindspore.float32], but got '{logits.dtype!r}'.")
    if isinstance(tau, bool) or not isinstance(tau, float) or tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', the 'tau' must be float and must > 0, but got "
                         f"'{tau}' with type '{type(tau).__name__}'.")
    if not isinstance(hard, bool):
        raise TypeError(f"For 'gumbel_softmax', the 'hard' must be bool, but got "
                        f"'{hard}' with type '{type(hard).__name__}'.")
    if isinstance(dim, bool) or not isinstance(dim, int) or \
            not -logits.ndim <= dim < logits.ndim:
        raise ValueError(f"For 'gumbel_softmax', the 'dim' must be in range of "
                         f"[{-logits.ndim}, {logits.ndim}), but got {dim} with type "
                         f"'{type(dim).__name__}'.")
    u = seeding.generator("gumbel_softmax").uniform(np.finfo(np.float32).tiny, 1.0,
                                                     logits.shape)
    noise = make_tensor((-np.log(-np.log(u))).astype(logits._data.dtype), None, 0, logits.dtype)
    z = F.div(F.add(logits, noise), tau)
    # softmax from core ops (ops.softmax is cellgrad-ops-nn's); the shift only steadies exp
    e = F.exp(F.sub(z, F.stop_gradient(F.amax(z, dim, True))))
    soft = F.div(e, F.sum(e, dim, True))
    if not hard:
        return soft
    index = np.expand_dims(np.argmax(soft._data, axis=dim), dim)
    one_hot = np.zeros_like(soft._data)
    np.put_along_axis(one_hot, index, 1, axis=dim)
    one_hot = make_tensor(one_hot, None, 0, soft.dtype)
    return F.add(F.sub(one_hot, F.stop_gradient(soft)), soft)


def _norm_axes(op, x, gamma):
    _tensor(op, "gamma", gamma)
    if gamma.ndim == 0 or gamma.ndim > x.ndim or \
            tuple(x.shape[x.ndim - gamma.ndim:]) != tuple(gamma.shape):
        raise ValueError(f"For '{op}', the shape of 'gamma' must be the trailing dimensions of "
                         f"'x' {tuple(x.shape)}, but got {tuple(gamma.shape)}.")
    return tuple(range(x.ndim - gamma.ndim, x.ndim))


def rms_norm(x, gamma, epsilon=1e-6):
    """Mirrors `mindspore.ops.rms_norm`: `(y, rstd)` with
    `rstd = 1 / sqrt(mean(x**2) + epsilon)` over gamma's trailing axes and
    `y = x * rstd * gamma`; rstd is float32 (shape: leading axes, then 1s)."""
    _tensor("rms_norm", "x", x)
    axes = _norm_axes("rms_norm", x, gamma)
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or \
            not 0 < epsilon <= 1:
        raise ValueError(f"For 'rms_norm', 'epsilon' must be in (0, 1], but got {epsilon}.")
    rstd = F.rsqrt(F.add(F.mean(F.square(x), axes, True), epsilon))
    y = F.mul(F.mul(x, rstd), gamma)
    return y, F.cast(rstd, float32) if x.dtype != float64 else rstd


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """Mirrors `mindspore.ops.add_rms_norm`: `rms_norm(x1 + x2)`, returning `(y, rstd, x)`."""
    _tensor("add_rms_norm", "x1", x1)
    _tensor("add_rms_norm", "x2", x2)
    x = F.add(x1, x2)
    y, rstd = rms_norm(x, gamma, epsilon)
    return y, rstd, x


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """Mirrors `mindspore.ops.add_layer_norm`: `x = x1 + x2` normalized over its last axis,
    `(y, mean, rstd, x)`; mean and rstd are float32 of shape `x.shape[:-1] + (1,)`."""
    for name, value in (("x1", x1), ("x2", x2), ("beta", beta)):
        _tensor("add_layer_norm", name, value)
    x = F.add(x1, x2)
    axes = _norm_axes("add_layer_norm", x, gamma)
    if tuple(beta.shape) != tuple(gamma.shape):
        raise ValueError(f"For 'add_layer_norm', 'beta' must have the shape of 'gamma' "
                         f"{tuple(gamma.shape)}, but got {tuple(beta.shape)}.")
    mean = F.mean(x, axes, True)
    centered = F.sub(x, mean)
    rstd = F.rsqrt(F.add(F.mean(F.square(centered), axes, True), epsilon))
    y = F.add(F.mul(F.mul(centered, rstd), gamma), beta)
    keep = (lambda t: t) if x.dtype == float64 else (lambda t: F.cast(t, float32))
    return y, keep(mean), keep(rstd), x


def type_as(input, other):
    """Mirrors `mindspore.ops.type_as`: `input` cast to the dtype of `other`."""
    _tensor("type_as", "input", input)
    _tensor("type_as", "other", other)
    return F.cast(input, other.dtype)


def deepcopy(input_x):
    """Mirrors `mindspore.ops.deepcopy`: a new Tensor holding a copy of the data."""
    if isinstance(input_x, TensorBuffer):  # differentiable, as MindSpore's
        return input_x.clone()
    return copy.deepcopy(input_x)


def _shape(shape):
    return "(" + ", ".join(str(s) for s in shape) + ")"


def assign_sub(variable, value):
    """Mirrors `mindspore.ops.assign_sub`: subtracts `value` (same shape) from `variable` in
    place and returns the new value as a Tensor."""
    from cellgrad import _jit_hook

    if not isinstance(variable, TensorBuffer):
        raise TypeError(f"For 'AssignSub', 'variable' must be a Tensor or Parameter, but got "
                        f"{type(variable).__name__}.")
    src = value._data if isinstance(value, TensorBuffer) else np.asarray(value)
    if src.ndim != variable.ndim:
        raise ValueError(f"For 'AssignSub','value' must have the same rank as 'variable'. But "
                         f"got 'value' rank: {src.ndim}, 'variable' rank: {variable.ndim}.")
    if src.shape != tuple(variable.shape):
        raise ValueError(f"For 'AssignSub','value' must have the same shape as 'variable'. But "
                         f"got 'value' shape: {_shape(src.shape)}, 'variable' shape: "
                         f"{_shape(variable.shape)}.")
    data = variable._data
    _jit_hook.wrote(variable, "assign_sub")
    data -= src.astype(data.dtype)
    return make_tensor(data.copy(), None, 0, variable.dtype)


def intopk(x1, x2, k):
    """Mirrors `mindspore.ops.intopk`: whether each row's target `x2[i]` is among the `k`
    largest of `x1[i]` (ties with the k-th value count as in)."""
    from cellgrad.ops._prim_leftovers import InTopK

    return InTopK(k)(x1, x2)


def cond(A, p=None):
    """Mirrors `mindspore.ops.cond(A, p=None)`: the condition number of (a batch of) square
    matrices, `norm(A, p) * norm(inv(A), p)`; for p None/2/-2 the ratio of the largest and
    smallest singular values (the smallest over the largest for -2)."""
    from cellgrad.ops._fn_linalg2 import svd
    from cellgrad.ops._fn_linalg_norms import matrix_norm
    from cellgrad.ops._tm_array import inverse

    _tensor("cond", "A", A)
    if A.ndim < 2:
        raise ValueError(f"For 'cond', 'A' must have at least 2 dimensions, but got {A.ndim}.")
    if p is None or p in (2, -2):
        sv = svd(A, compute_uv=False)
        hi, lo = F.amax(sv, -1), F.amin(sv, -1)
        return F.div(lo, hi) if p == -2 else F.div(hi, lo)
    if p not in ("fro", "nuc", 1, -1, float("inf"), float("-inf")):
        raise ValueError(f"For 'cond', 'p' must be None, 'fro', 'nuc', inf, -inf, 1, -1, 2 or "
                         f"-2, but got {p}.")
    return F.mul(matrix_norm(A, p), matrix_norm(inverse(A), p))


def make_row_tensor(indices, values, dense_shape):
    """Mirrors `mindspore.ops.make_row_tensor`: `RowTensor(indices, values, dense_shape)`."""
    from cellgrad import RowTensor

    return RowTensor(indices, values, tuple(dense_shape))


def make_row_tensor_inner(*args):
    """Mirrors `mindspore.ops.make_row_tensor_inner(indices, values, dense_shape)`."""
    return make_row_tensor(*args)


def _row_tensor(op, x):
    from cellgrad import RowTensor

    if not isinstance(x, RowTensor):
        raise TypeError(f"For '{op}', input[0] should be RowTensor, but got "
                        f"{type(x).__name__}.")
    return x


def row_tensor_get_indices(*args):
    """Mirrors `mindspore.ops.row_tensor_get_indices(x)`."""
    (x,) = args
    return _row_tensor("RowTensorGetIndices", x).indices


def row_tensor_get_values(*args):
    """Mirrors `mindspore.ops.row_tensor_get_values(x)`."""
    (x,) = args
    return _row_tensor("RowTensorGetValues", x).values


def row_tensor_get_dense_shape(*args):
    """Mirrors `mindspore.ops.row_tensor_get_dense_shape(x)`."""
    (x,) = args
    return _row_tensor("RowTensorGetDenseShape", x).dense_shape


def row_tensor_add(*args):
    """Mirrors `mindspore.ops.row_tensor_add(x, y)`: the RowTensor with `y` added to its
    values (broadcast over the rows)."""
    x, y = args
    x = _row_tensor("RowTensorAdd", x)
    return make_row_tensor(x.indices, F.add(x.values, y), x.dense_shape)
