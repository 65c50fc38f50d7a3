"""gather's out-of-range indices: MindSpore 2.10's RuntimeError and message."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


@pytest.mark.parametrize("call", [lambda x, i: x.gather(i, 0), lambda x, i: ops.gather(x, i, 0),
                                  lambda x, i: ops.Gather()(x, i, 0)])
@pytest.mark.parametrize("idx,got", [([0, 100, 4], 100), ([0, -1, -8], -1)])
def test_message_names_first_bad_index_after_wrapping(call, idx, got):
    x = Tensor(np.arange(7).astype(np.float32))
    with pytest.raises(RuntimeError, match=rf"For 'Gather', the 'input_indices' should be in "
                                           rf"the range \[0, 7\), but got {got}, error_code\[58\]"):
        call(x, Tensor(np.array(idx, np.int32)))
    np.testing.assert_array_equal(call(x, Tensor(np.array([0, -1, 3], np.int32))).asnumpy(),
                                  [0, 6, 3])


def test_axis_bound_and_index_error_class():
    x = Tensor(np.ones((3, 4, 5)), ms.float32)
    with pytest.raises(IndexError, match=r"range \[0, 4\), but got -4"):
        ops.gather(x, Tensor(np.array([0, -8], np.int32)), 1)


def test_vmap_over_indices_only():
    # MindSpore's test_gather_vmap_xdim_is_none: the indices carry the batch, x does not
    x = Tensor(np.array([1, 2, 3], np.float32))
    idx = Tensor(np.array([[0, 1], [2, 0]], np.int32))
    out = ms.vmap(lambda x, i, a: ops.Gather()(x, i, a), in_axes=(None, 0, None))(x, idx, 0)
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2], [3, 1]])
    out = ms.vmap(lambda i: ops.gather(x, i + 0, 0))(idx)  # indices made inside the call
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2], [3, 1]])
    grads = ms.vmap(ms.grad(lambda x, i: ops.gather(x, i, 0).sum()), in_axes=(None, 0))(x, idx)
    np.testing.assert_array_equal(grads.asnumpy(), [[1, 1, 0], [1, 0, 1]])
    xb = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = ms.vmap(lambda x: ops.gather(x, idx[0], 0))(xb)  # still batched, one index set
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1], [3, 4]])
