"""`nn.grad.Jvp(fn)(*inputs, v)` calls `fn(*inputs)` as given (MindSpore): a tuple is one
argument, so a two-input net called with one tuple is a TypeError."""

import numpy as np
import pytest

from cellgrad import Tensor, nn
from cellgrad.nn.grad import Jvp

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class TwoInputs(nn.Cell):
    def construct(self, x, y):
        return 2 * x + 3 * y


X = Tensor(np.array([[1, 2], [3, 4]], np.float32))
V = Tensor(np.ones((2, 2), np.float32))


def test_two_input_net_given_one_tuple_is_a_type_error():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'y'"):
        Jvp(TwoInputs())((X, X), (V, V))


def test_two_inputs_as_arguments():
    out, jv = Jvp(TwoInputs())(X, X, (V, V))
    np.testing.assert_array_equal(out.asnumpy(), 5 * X.asnumpy())
    np.testing.assert_array_equal(jv.asnumpy(), np.full((2, 2), 5.0))

