"""Scatter and segment ops (ops/_fn_scatter.py): values against numpy, MindSpore's gradient
rules, gradchecks of the compositions, in-place writes and MindSpore's errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops
from cellgrad.testing import gradcheck

IDX = Tensor(np.array([[0, 0], [0, 0], [2, 1]], np.int32))
UPD = Tensor(np.array([2.0, 3.0, -4.0], np.float32))


def _x():
    return Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))


@pytest.mark.parametrize("name, first", [("add", 5.0), ("sub", -5.0), ("mul", 0.0),
                                         ("div", 0.0), ("max", 3.0), ("min", 0.0),
                                         ("update", 3.0)])
def test_tensor_scatter_repeated_indices(name, first):
    out = getattr(ops, f"tensor_scatter_{name}")(_x(), IDX, UPD)
    assert out.dtype == ms.float32 and out.shape == (3, 2)
    assert out.asnumpy()[0, 0] == first
    np.testing.assert_array_equal(out.asnumpy()[1], [2.0, 3.0])


def test_tensor_scatter_gradients_follow_mindspore():
    gx, gu = ops.grad(lambda a, u: ops.tensor_scatter_mul(a, IDX, u).sum(), (0, 1))(_x(), UPD)
    np.testing.assert_allclose(gx.asnumpy(), [[6, 1], [1, 1], [1, -4]])
    np.testing.assert_allclose(gu.asnumpy(), [0, 0, 5])
    gx, gu = ops.grad(lambda a, u: ops.tensor_scatter_max(a, IDX, u).sum(), (0, 1))(_x(), UPD)
    np.testing.assert_allclose(gx.asnumpy(), [[0, 1], [1, 1], [1, 1]])
    np.testing.assert_allclose(gu.asnumpy(), [0, 1, 0])
    gx, gu = ops.grad(lambda a, u: ops.tensor_scatter_update(a, IDX, u).sum(), (0, 1))(_x(), UPD)
    np.testing.assert_allclose(gx.asnumpy(), [[0, 1], [1, 1], [1, 0]])
    np.testing.assert_allclose(gu.asnumpy(), [1, 1, 1])  # every write sees its place's gradient


def test_tensor_scatter_add_sub_and_scatter_nd_gradcheck():
    idx = Tensor(np.array([[0, 1], [0, 1], [2, 0]], np.int64))
    assert gradcheck(lambda a, u: ops.tensor_scatter_add(a, idx, u) * a, _x(), UPD)
    assert gradcheck(lambda a, u: ops.tensor_scatter_sub(a, idx, u) ** 2, _x(), UPD)
    assert gradcheck(lambda u: ops.scatter_nd(idx, u, (3, 2)) ** 2, UPD)


def test_tensor_scatter_against_torch():
    torch = pytest.importorskip("torch")
    x = np.arange(6, dtype=np.float64).reshape(3, 2)
    u = np.array([2.0, 3.0, -4.0])
    rows, cols = np.array([0, 0, 2]), np.array([0, 0, 1])
    want = torch.tensor(x).index_put((torch.tensor(rows), torch.tensor(cols)), torch.tensor(u),
                                     accumulate=True)
    got = ops.tensor_scatter_add(Tensor(x), Tensor(np.stack([rows, cols], 1)), Tensor(u))
    np.testing.assert_allclose(got.asnumpy(), want.numpy())


def test_tensor_scatter_errors():
    with pytest.raises(RuntimeError, match=r"the 0-th value of 'indices'\[5, 0\] is out of range"):
        ops.tensor_scatter_add(_x(), Tensor(np.array([[5, 0]], np.int32)), Tensor([1.0]))
    with pytest.raises(TypeError, match="input_x_type must equal to updates type"):
        ops.tensor_scatter_add(_x(), Tensor(np.array([[0, 0]], np.int32)),
                               Tensor(np.array([1], np.int32)))
    with pytest.raises(ValueError, match="dimension of 'indices' cannot be less than 2"):
        _x().scatter_sub(Tensor(np.array([1], np.int32)), Tensor(np.ones((1, 2), np.float32)))


def test_scatter_family_writes_the_parameter():
    p = Parameter(Tensor(np.ones((3, 2), np.float32)), name="p")
    out = ops.scatter_mul(p, Tensor(np.array([0, 0], np.int32)), Tensor(np.full((2, 2), 2.0,
                                                                              np.float32)))
    np.testing.assert_array_equal(p.asnumpy()[0], [4, 4])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())
    ops.scatter_max(p, Tensor(np.array([1, 1], np.int32)),
                    Tensor(np.array([[3, 0], [5, -1]], np.float32)))
    np.testing.assert_array_equal(p.asnumpy()[1], [5, 1])
    ops.ScatterSub()(p, Tensor(np.array([2], np.int32)), Tensor(np.ones((1, 2), np.float32)))
    np.testing.assert_array_equal(p.asnumpy()[2], [0, 0])
    ops.scatter_nd_add(p, Tensor(np.array([[0, 1], [0, 1]], np.int32)), Tensor([1.0, 2.0]))
    assert p.asnumpy()[0, 1] == 7
    ops.scatter_nd_min(p, Tensor(np.array([[1]], np.int32)), Tensor([[-1.0, 9.0]]))
    np.testing.assert_array_equal(p.asnumpy()[1], [-1, 1])
    ops.ScatterAddWithAxis(1)(p, Tensor(np.array([[1, 1], [0, 0], [1, 0]], np.int32)),
                              Tensor(np.ones((3, 2), np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [[4, 9], [1, 1], [1, 1]])


def test_scatter_family_errors():
    p = Parameter(Tensor(np.ones((3, 2), np.float32)), name="p")
    with pytest.raises(RuntimeError, match=r"should be in \[0, 3\), but got '5'"):
        ops.scatter_mul(p, Tensor(np.array([5], np.int32)), Tensor(np.ones((1, 2), np.float32)))
    with pytest.raises(ValueError, match=r"indices_shape: \(1\), updates_shape: \(2, 2\)"):
        ops.scatter_div(p, Tensor(np.array([0], np.int32)), Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(TypeError, match=r"argument\[indices type\] must be a type of"):
        ops.scatter_min(p, Tensor(np.array([0.0], np.float32)), Tensor(np.ones((1, 2),
                                                                                np.float32)))


def test_unsorted_segments_values_and_empty_segments():
    x = Tensor(np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32))
    ids = Tensor(np.array([0, 2, 0], np.int32))
    mx = ops.unsorted_segment_max(x, ids, 4).asnumpy()
    np.testing.assert_array_equal(mx[0], [7, 8, 9])
    assert mx[1, 0] == np.finfo(np.float32).min
    assert ops.unsorted_segment_min(x, ids, 4).asnumpy()[3, 0] == np.finfo(np.float32).max
    np.testing.assert_array_equal(ops.unsorted_segment_prod(x, ids, 4).asnumpy()[:2],
                                  [[7, 16, 27], [1, 1, 1]])
    ints = ops.UnsortedSegmentMax()(Tensor(np.array([1, 2, 3], np.int32)), ids, 4)
    assert ints.dtype == ms.int32 and ints.asnumpy()[1] == np.iinfo(np.int32).min


def test_unsorted_segment_gradients_split_ties_and_handle_zeros():
    g = ops.grad(lambda a: ops.unsorted_segment_max(a, Tensor(np.array([0, 0, 0])), 2).sum())(
        Tensor(np.array([[1.0, 2], [1, 3], [0, 3]], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [[0.5, 0], [0.5, 0.5], [0, 0.5]])
    g = ops.grad(lambda a: ops.unsorted_segment_prod(a, Tensor(np.array([0, 0, 1])), 2).sum())(
        Tensor(np.array([[1.0, 2], [0, 3], [0, 3]], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [[0, 3], [1, 2], [1, 1]])


def test_sorted_segments():
    x = Tensor(np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32))
    ids = Tensor(np.array([0, 0, 2], np.int32))
    np.testing.assert_array_equal(ops.SegmentSum()(x, ids).asnumpy(),
                                  [[5, 7, 9], [0, 0, 0], [7, 8, 9]])
    np.testing.assert_array_equal(ops.SegmentMean()(x, ids).asnumpy()[0], [2.5, 3.5, 4.5])
    np.testing.assert_array_equal(ops.SegmentMax()(x, ids).asnumpy()[1], [0, 0, 0])
    np.testing.assert_array_equal(ops.SegmentProd()(x, ids).asnumpy()[:2],
                                  [[4, 10, 18], [1, 1, 1]])
    with pytest.raises(ValueError, match="sorted in ascending order"):
        ops.SegmentMin()(x, Tensor(np.array([0, 2, 1], np.int32)))
    assert gradcheck(lambda a: ops.SegmentMean()(a, ids) ** 2, x)


def test_tensor_methods_of_scatter():
    x = _x()
    out = x.scatter_add(1, Tensor(np.array([[0, 0]], np.int64)), Tensor([[1.0, 2.0]]))
    np.testing.assert_array_equal(out.asnumpy()[0], [3, 1])
    out = x.scatter_add(Tensor(np.array([[2, 1]], np.int32)), Tensor([5.0]))
    assert out.asnumpy()[2, 1] == 10
    np.testing.assert_array_equal(x.unsorted_segment_max(Tensor(np.array([1, 1, 0])), 2)
                                  .asnumpy(), [[4, 5], [2, 3]])
    y = _x()
    assert y.scatter_add_(1, Tensor(np.array([[0, 0]], np.int64)), Tensor([[1.0, 2.0]])) is y
    assert y.asnumpy()[0, 0] == 3


def test_sparse_segment_mean():
    x = Tensor(np.array([[0, 1, 2], [1, 2, 3], [3, 6, 7]], np.float32))
    out = ops.sparse_segment_mean(x, Tensor(np.array([0, 1, 2], np.int32)),
                                  Tensor(np.array([0, 0, 2], np.int32)))
    np.testing.assert_allclose(out.asnumpy(), [[0.5, 1.5, 2.5], [0, 0, 0], [3, 6, 7]])
    assert gradcheck(lambda a: ops.sparse_segment_mean(a, Tensor(np.array([2, 0, 2])),
                                                       Tensor(np.array([0, 1, 1]))) ** 2, x)
