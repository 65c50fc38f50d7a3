"""`mindspore.ops` spellings of nn functions cellgrad already has: `ops.unfold` / `ops.fold`
(im2col / col2im, as `mint.nn.functional`), `ops.adaptive_avg_pool2d_ext`, `ops.bidense` and
the `LogSoftmaxExt` Primitive."""

import numpy as np

from cellgrad import Tensor, ops
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.rnn import _checks


def _mint():
    from cellgrad_nn.mint import functional

    return functional


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `mindspore.ops.unfold`: (N, C, H, W) -> (N, C * kh * kw, L) sliding blocks."""
    if not isinstance(input, Tensor) or input.ndim != 4:
        raise ValueError(f"For primitive[Im2Col], the dimension of input x must be equal to 4, "
                         f"but got {input.ndim if isinstance(input, Tensor) else input}.")
    return _mint().unfold(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `mindspore.ops.fold`: (N, C * kh * kw, L) blocks summed into (N, C,
    *output_size); `output_size` is an int32 Tensor of two values, as in MindSpore."""
    if not isinstance(output_size, Tensor):
        got = type(output_size).__name__.capitalize()
        if isinstance(output_size, (tuple, list)):
            got += f"[Int64*{len(output_size)}]"
        raise TypeError(f"For Primitive[Col2Im], the type of input argument[output_size] must be "
                        f"Tensor but got {got}.")
    size = tuple(int(v) for v in output_size.asnumpy().reshape(-1))
    return _mint().fold(input, size, kernel_size, dilation, padding, stride)


def adaptive_avg_pool2d_ext(input, output_size):
    """Mirrors `mindspore.ops.adaptive_avg_pool2d_ext` (`mint.nn.functional`'s spelling)."""
    return _mint().adaptive_avg_pool2d(input, output_size)


def bidense(input1, input2, weight, bias=None):
    """Mirrors `mindspore.ops.bidense`: y = input1^T weight input2 + bias over the last axis
    (`weight` (out, in1, in2)). Integer inputs sum as Int64 (MindSpore's `sum`), cast to the
    bias' dtype when a bias is added."""
    ints = all(isinstance(t, Tensor) and t.asnumpy().dtype.kind in "iu"
               for t in (input1, input2, weight))
    if isinstance(input1, Tensor) and isinstance(weight, Tensor) and \
            input1.dtype != weight.dtype:  # MindSpore's MatMul of input1 and weight
        raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' "
                        f"with type Tensor[{input1.dtype}] and 'x2' with type "
                        f"Tensor[{weight.dtype}].")
    if not ints:
        for name, t in (("input1", input1), ("input2", input2), ("weight", weight)):
            _checks.floating("bidense", name, t)
    if weight.ndim != 3 or weight.shape[1:] != (input1.shape[-1], input2.shape[-1]):
        raise ValueError(f"For 'bidense', 'weight' must be (out, {input1.shape[-1]}, "
                         f"{input2.shape[-1]}), but got {_checks.describe(weight)}.")
    if bias is not None and (input1.dtype != bias.dtype or input2.dtype != bias.dtype):
        raise TypeError(f"For 'bidense', the dtype of 'bias', 'input1' and 'input2' must be the "
                        f"same, but got {bias.dtype}, {input1.dtype} and {input2.dtype}.")
    if ints:
        out = Tensor(np.einsum("...i,oij,...j->...o", *(t.asnumpy().astype(np.int64)
                                                        for t in (input1, weight, input2))))
        return out if bias is None else out.astype(bias.dtype) + bias
    out = ops.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias


class LogSoftmaxExt(Primitive):
    """Mirrors `mindspore.ops.LogSoftmaxExt()(input, dim=None, dtype=None)`:
    `mint.nn.functional.log_softmax`."""

    def __call__(self, input, dim=None, dtype=None):
        return _mint().log_softmax(input, dim, dtype=dtype)
