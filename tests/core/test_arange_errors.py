"""ops.arange's argument checks (MindSpore 2.10's Range messages)."""

import numpy as np
import pytest

from cellgrad import Tensor, ops


@pytest.mark.parametrize("args,msg", [
    ((10, 1), "For Range, delta cannot be positive when limit < start."),
    ((1.0, 0.5), "For Range, delta cannot be positive when limit < start."),
    ((Tensor(10), Tensor(1)), "For Range, delta cannot be positive when limit < start."),
    ((1, 10, -1), "For Range, delta cannot be negative when limit > start."),
    ((0, 10, 0), "For Range, delta cannot be equal to zero."),
])
def test_value_errors(args, msg):
    with pytest.raises(ValueError, match=msg):
        ops.arange(*args)


@pytest.mark.parametrize("args,name", [(([1],), "end"), ((True,), "end"), ((1, 5, True), "step")])
def test_type_errors(args, name):
    with pytest.raises(TypeError, match=f"For 'arange', '{name}' must be a number"):
        ops.arange(*args)


def test_valid_ranges():
    np.testing.assert_array_equal(ops.arange(5, 1, -1).asnumpy(), [5, 4, 3, 2])
    assert ops.arange(1, 1).shape == (0,)
    assert ops.arange(Tensor(3)).asnumpy().tolist() == [0, 1, 2]
