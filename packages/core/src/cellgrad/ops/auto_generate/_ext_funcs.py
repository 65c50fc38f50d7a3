"""The `*_ext` op functions of `mindspore.ops.auto_generate.gen_ops_def` that `mint` exposes
under their short names, with MindSpore's positional `alpha`: each is the `mint` function."""

from cellgrad import mint


def add_ext(input, other, alpha=1):  # noqa: A002
    """Mirrors `gen_ops_def.add_ext`: `input + alpha * other` (`mint.add`)."""
    return mint.add(input, other, alpha=alpha)


def sub_ext(input, other, alpha=1):  # noqa: A002
    """Mirrors `gen_ops_def.sub_ext`: `input - alpha * other` (`mint.sub`)."""
    return mint.sub(input, other, alpha=alpha)


def bmm_ext(input, mat2):  # noqa: A002
    """Mirrors `gen_ops_def.bmm_ext` (`mint.bmm`): batched matrix products of two 3-D
    tensors."""
    return mint.bmm(input, mat2)
