"""Helpers shared by the checkpoint tests (importable: this folder is on sys.path while its
tests run; not named conftest so that it cannot clash with another folder's).

`FIXTURES` holds real MindSpore 2.10 files with JSON sidecars (copied from the project's
shared fixtures, so a clean clone has them); `NETS` holds network checkpoints written by
MindSpore with `fixtures/mindspore-nets/make.py`.
"""

import json
import pathlib

import numpy as np

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn

HERE = pathlib.Path(__file__).parent
FIXTURES = HERE / "fixtures" / "mindspore-ckpt"
NETS = HERE / "fixtures" / "mindspore-nets"
KEY = b"0123456789abcdef"


def sidecar(name):
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def values(value):
    """A loaded value as (dtype name, shape, nested Python values), like the sidecars."""
    if isinstance(value, str):
        return "str", [0], value
    arr = value.asnumpy()
    if arr.dtype.kind == "f":
        arr = arr.astype(np.float64)
    return str(value.dtype), list(value.shape), arr.tolist()


def expected(entry):
    return entry["dtype"], entry["shape"], entry["values"]


def assert_same_params(a, b):
    """Two dicts of Parameters/str hold the same names, dtypes, shapes and bits."""
    assert list(a) == list(b)
    for name in a:
        if isinstance(a[name], str):
            assert a[name] == b[name]
            continue
        assert a[name].dtype == b[name].dtype, name
        assert a[name].shape == b[name].shape, name
        np.testing.assert_array_equal(a[name].asnumpy(), b[name].asnumpy(), err_msg=name)


class Bare(nn.Cell):
    """`nn.Dense(3, 2)`'s parameter names without ops-nn: `weight`, `bias`."""

    def __init__(self, weight=None, bias=None):
        super().__init__()
        self.weight = Parameter(Tensor(np.zeros((2, 3), np.float32) if weight is None
                                       else weight), name="weight")
        self.bias = Parameter(Tensor(np.zeros(2, np.float32) if bias is None else bias),
                              name="bias")

    def construct(self, x):
        return ms.ops.matmul(x, self.weight.T) + self.bias

