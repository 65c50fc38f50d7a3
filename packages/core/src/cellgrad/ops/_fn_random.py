"""The deprecated distribution samplers of `mindspore.ops`: `gamma`, `poisson`, `laplace`.

Their output shape is `shape` broadcast with the parameters' shapes, as MindSpore documents.
Values come from `cellgrad.seeding` (PCG64 streams named after MindSpore's kernels), not from
MindSpore's generator. MindSpore 2.10 has no CPU kernel for Gamma and Poisson; cellgrad samples
them on any machine.
"""

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32
from cellgrad.ops._random import _seed, _shape


def _param(op, name, value):
    if not isinstance(value, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")
    if value.dtype.kind != 2:
        raise TypeError(f"For '{op}', '{name}' must be a float Tensor, but got {value.dtype}.")
    return value._data.astype(np.float32)


def _out_shape(op, shape, *params):
    try:
        return np.broadcast_shapes(shape, *(p.shape for p in params))
    except ValueError:
        raise ValueError(f"For '{op}', the shape {shape} and the parameter shapes "
                         f"{[p.shape for p in params]} do not broadcast.") from None


def _float32(values):
    return make_tensor(np.asarray(values, np.float32), None, 0, float32)


def gamma(shape, alpha, beta, seed=None):
    """Mirrors `mindspore.ops.gamma`: Gamma(alpha, rate beta) samples, Float32."""
    shape = _shape("gamma", shape)
    a, b = _param("gamma", "alpha", alpha), _param("gamma", "beta", beta)
    out = _out_shape("gamma", shape, a, b)
    rng = seeding.generator("Gamma", _seed("gamma", seed))
    return _float32(rng.gamma(np.broadcast_to(a, out), 1.0 / np.broadcast_to(b, out)))


def poisson(shape, mean, seed=None):
    """Mirrors `mindspore.ops.poisson`: Poisson(mean) counts as Float32."""
    shape = _shape("poisson", shape)
    m = _param("poisson", "mean", mean)
    out = _out_shape("poisson", shape, m)
    rng = seeding.generator("Poisson", _seed("poisson", seed))
    return _float32(rng.poisson(np.broadcast_to(m, out)))


def laplace(shape, mean, lambda_param, seed=None):
    """Mirrors `mindspore.ops.laplace`: Laplace(mean, scale lambda_param) samples, Float32."""
    shape = _shape("laplace", shape)
    m = _param("laplace", "mean", mean)
    s = _param("laplace", "lambda_param", lambda_param)
    out = _out_shape("laplace", shape, m, s)
    rng = seeding.generator("StandardLaplace", _seed("laplace", seed))
    return _float32(m + s * rng.laplace(0.0, 1.0, out))
