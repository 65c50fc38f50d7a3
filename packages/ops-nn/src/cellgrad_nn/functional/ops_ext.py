"""`mindspore.ops` spellings of nn functions cellgrad already has: `ops.unfold` / `ops.fold`
(im2col / col2im, as `mint.nn.functional`), `ops.adaptive_avg_pool2d_ext`, `ops.bidense` and
the `LogSoftmaxExt` Primitive."""

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
    (`weight` (out, in1, in2))."""
    for name, t in (("input1", input1), ("input2", input2), ("weight", weight)):
        _checks.floating("bidense", name, t)
    if weight.ndim != 3 or weight.shape[1:] != (input1.shape[-1], input2.shape[-1]):
        raise ValueError(f"For 'bidense', 'weight' must be (out, {input1.shape[-1]}, "
                         f"{input2.shape[-1]}), but got {_checks.describe(weight)}.")
    out = ops.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias


class LogSoftmaxExt(Primitive):
    """Mirrors `mindspore.ops.LogSoftmaxExt()(input, dim=None, dtype=None)`:
    `mint.nn.functional.log_softmax`."""

    def __call__(self, input, dim=None, dtype=None):
        return _mint().log_softmax(input, dim, dtype=dtype)
