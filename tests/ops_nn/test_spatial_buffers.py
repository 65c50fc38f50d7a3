"""The spatial ops' buffer pool: an array comes back only once nothing references it."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad_nn.spatial import _buffers as B

BIG = (64, 1024)  # 256 kB of float32: above the pool's threshold


@pytest.fixture(autouse=True)
def fresh_pool():
    B.clear()
    yield
    B.clear()


def test_a_released_array_is_reused_a_held_one_never():
    a = B.empty(BIG, np.float32)
    address = a.ctypes.data
    b = B.empty(BIG, np.float32)
    assert b.ctypes.data != address  # `a` is still held
    del a
    c = B.empty(BIG, np.float32)
    assert c.ctypes.data == address


def test_views_keep_their_array_out_of_the_pool():
    a = B.empty(BIG, np.float32)
    address = a.ctypes.data
    view = a.reshape(-1)[10:]
    narrow = view[5:7]
    del a
    assert B.empty(BIG, np.float32).ctypes.data != address
    del view
    assert B.empty(BIG, np.float32).ctypes.data != address  # `narrow` still views it
    del narrow
    assert B.empty(BIG, np.float32).ctypes.data == address


def test_an_op_output_held_in_a_tensor_is_not_handed_out(rng):
    x = Tensor(rng.standard_normal((8, 4, 64, 64)).astype(np.float32))
    out = ops.max_pool2d(x, 2)
    address = out.asnumpy().ctypes.data
    assert B.empty(tuple(out.shape), np.float32).ctypes.data != address
    del out
    assert B.empty((8, 4, 32, 32), np.float32).ctypes.data == address


def test_shapes_and_dtypes_do_not_mix_and_small_arrays_are_not_kept():
    a = B.empty(BIG, np.float32)
    address = a.ctypes.data
    del a
    assert B.empty(BIG, np.float64).ctypes.data != address
    assert B.empty((64, 1023), np.float32).ctypes.data != address
    assert B.empty((4, 4), np.float32).shape == (4, 4)
    assert not any(key[0] == (4, 4) for key in B._pool)


def test_zeros_clears_a_reused_array():
    a = B.empty(BIG, np.float32)
    a.fill(3)
    del a
    assert not B.zeros(BIG, np.float32).any()


def test_outputs_kept_across_steps_are_not_overwritten(rng):
    # Two forwards whose outputs are both alive must not share memory.
    x = Tensor(rng.standard_normal((8, 3, 32, 32)).astype(np.float32))
    w = Tensor(rng.standard_normal((4, 3, 3, 3)).astype(np.float32))
    first = ops.conv2d(x, w)
    kept = first.asnumpy().copy()
    second = ops.conv2d(x * 2, w)
    np.testing.assert_array_equal(first.asnumpy(), kept)
    np.testing.assert_allclose(second.asnumpy(), 2 * kept, rtol=1e-5, atol=1e-5)


def test_a_conv_used_twice_in_one_graph_keeps_both_saved_columns(rng):
    x = rng.standard_normal((8, 3, 32, 32))
    w = rng.standard_normal((3, 3, 3, 3))

    def twice(a, c):
        return ops.conv2d(ops.conv2d(a, c, pad_mode="same"), c, pad_mode="same").sum()

    ours = ms.grad(twice, (0, 1))(Tensor(x), Tensor(w))
    torch = pytest.importorskip("torch")
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    conv = torch.nn.functional.conv2d
    conv(conv(tx, tw, padding=1), tw, padding=1).sum().backward()
    np.testing.assert_allclose(ours[0].asnumpy(), tx.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(ours[1].asnumpy(), tw.grad.numpy(), rtol=1e-10)
