"""Low-precision storage, float32 arithmetic: what the float16/bfloat16 branches of the nn
kernels call (Dense, convolution, pooling, ReLU).

MindSpore's CPU kernels for float16 compute in float32 and round the result once; numpy's
float16 arithmetic is emulated one element at a time, and even its float16 conversions are
~30x slower than the F16C loops of `_kernels/lowp.pyx`. So a float16 op here converts its
inputs to float32 once, runs the float32 kernel and rounds its result once. bfloat16
(ml_dtypes) converts fast in numpy already.
"""

import numpy as np

from cellgrad import _astype
from cellgrad_nn._kernels import lowp

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)


# the dtype dispatch in C: an O2 step converts ~40 times (cellgrad_nn/_kernels/lowp.pyx)
f32 = lowp.f32
round_to = lowp.round_to


def is_f16(a):
    return a.dtype.char == "e"


relu = lowp.relu16
relu_grad = lowp.relu_grad16


def dense(x, w, b, gemm):
    """float16 `x @ w.T (+ b)`: the product in float32 rounded once, as MindSpore's CPU MatMul
    for float16, then the bias added to it and rounded again (numpy's float16 add, exactly)."""
    out = gemm(f32(x), f32(w))
    if b is not None:
        if x.dtype == _F16 and b.dtype == _F16 and b.ndim == 1 and out.ndim >= 1 and \
                out.shape[-1] == b.shape[0]:
            return lowp.bias_round16(out, b)  # the three steps below in one pass
        out = lowp.to_float32(lowp.to_float16(out))
        out += f32(b)
    return round_to(out, x.dtype)


def dense_grads(grads, dtype):
    """Dense's float32 gradients rounded to the storage dtype once (None stays)."""
    return tuple([None if g is None else round_to(g, dtype) for g in grads])


# the cast op and the tape's gradient casts take these loops too (cellgrad._astype)
_astype.register(np.float16, np.float32, lowp.to_float32)
_astype.register(np.float32, np.float16, lowp.to_float16)


def max_pool_2x2(x, kernel, stride, pads, dilation, out_size):
    """float16 max pooling over windows that tile the plane (2x2, stride 2, no padding) without
    converting: (out, argmax), or None for any other geometry or a nan in `x`."""
    if kernel != (2, 2) or stride != (2, 2) or dilation != (1, 1) or any(pads) or \
            x.ndim != 4 or tuple(out_size) != (x.shape[2] // 2, x.shape[3] // 2):
        return None
    return lowp.max_pool_2x2(x)


scatter_2x2 = lowp.scatter_2x2
