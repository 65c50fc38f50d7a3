"""vmap's out_axes given as a one-entry tuple/list for a single-Tensor output (MindSpore 2.10)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


@pytest.mark.parametrize("out_axes,shape", [((0,), (2, 3)), ((1,), (3, 2)), ([0], (2, 3))])
def test_one_entry_tuple(out_axes, shape):
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = ops.vmap(lambda t: t * 2, 0, out_axes)(x)
    assert isinstance(out, Tensor) and out.shape == shape
    want = x.asnumpy() * 2
    np.testing.assert_array_equal(out.asnumpy(), want if shape == (2, 3) else want.T)


def test_triu_vmap_as_mindspore_test():
    x = np.random.default_rng(0).random((2, 3, 4, 5)).astype(np.float32)
    out = ms.vmap(lambda t, k: ops.triu(t, k), in_axes=(0, None), out_axes=(0,))(Tensor(x), 1)
    np.testing.assert_array_equal(out.asnumpy(), np.triu(x, 1))


def test_size_mismatch_message():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(RuntimeError, match=r"The size of vmap's 'out_axes' should be equal to "
                                           r"the result size: 1, but got size: 2."):
        ops.vmap(lambda t: t * 2, 0, (0, 0))(x)
