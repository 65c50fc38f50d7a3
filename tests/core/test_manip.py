"""Array manipulation ops and primitives (ops/_fn_manip.py, ops/_prim_array2.py): values
against numpy (and PyTorch where it has the op), gradchecks of the compositions, errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(0)
A = RNG.uniform(-1, 1, (2, 3, 4))
M = RNG.uniform(-1, 1, (3, 3))


def T(x):
    return Tensor(np.asarray(x))


@pytest.mark.parametrize("fn, ref", [
    (lambda x: ops.fliplr(x), lambda x: np.fliplr(x)),
    (lambda x: ops.flipud(x), lambda x: np.flipud(x)),
    (lambda x: ops.rot90(x, 1, (0, 2)), lambda x: np.rot90(x, 1, (0, 2))),
    (lambda x: ops.rot90(x, -3, (1, 2)), lambda x: np.rot90(x, -3, (1, 2))),
    (lambda x: ops.rot90(x, 2, (0, 1)), lambda x: np.rot90(x, 2, (0, 1))),
    (lambda x: ops.moveaxis(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    (lambda x: ops.movedim(x, (0, 1), (2, 0)), lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    (lambda x: ops.swapdims(x, 0, 2), lambda x: np.swapaxes(x, 0, 2)),
    (lambda x: ops.narrow(x, 2, 1, 2), lambda x: x[:, :, 1:3]),
    (lambda x: ops.diagflat(x[0, 0], 1), lambda x: np.diagflat(x[0, 0], 1)),
    (lambda x: ops.ravel(x), lambda x: x.ravel()),
    (lambda x: ops.msort(x), lambda x: np.sort(x, 0)),
    (lambda x: ops.mirror_pad(x, T([[0, 0], [1, 2], [2, 1]]), "REFLECT"),
     lambda x: np.pad(x, [(0, 0), (1, 2), (2, 1)], mode="reflect")),
    (lambda x: ops.MirrorPad("SYMMETRIC")(x, T([[1, 1], [0, 0], [3, 0]])),
     lambda x: np.pad(x, [(1, 1), (0, 0), (3, 0)], mode="symmetric")),
    (lambda x: ops.PadV3("edge")(x, T([1, 2])), lambda x: np.pad(x, [(0, 0)] * 2 + [(1, 2)],
                                                              mode="edge")),
    (lambda x: ops.PadV3("circular")(x, T([1, 1, 2, 0])),
     lambda x: np.pad(x, [(0, 0), (2, 0), (1, 1)], mode="wrap")),
    (lambda x: ops.PadV3()(x, T([1, 1, 0, 1]), T(np.float64(9))),
     lambda x: np.pad(x, [(0, 0), (0, 1), (1, 1)], constant_values=9)),
    (lambda x: ops.vstack([x[0], x[1]]), lambda x: np.vstack([x[0], x[1]])),
    (lambda x: ops.hstack([x[0], x[1]]), lambda x: np.hstack([x[0], x[1]])),
    (lambda x: ops.dstack([x[0], x[1]]), lambda x: np.dstack([x[0], x[1]])),
    (lambda x: ops.column_stack([x[0, 0], x[1, 0]]), lambda x: np.column_stack([x[0, 0],
                                                                                x[1, 0]])),
    (lambda x: ops.atleast_3d(x[0]), lambda x: np.atleast_3d(x[0])),
    (lambda x: ops.atleast_2d(x[0, 0]), lambda x: np.atleast_2d(x[0, 0])),
])
def test_values_against_numpy_and_gradcheck(fn, ref):
    np.testing.assert_allclose(fn(T(A)).asnumpy(), ref(A))
    assert gradcheck(fn, T(A))


def test_splits():
    x = T(np.arange(24.0).reshape(2, 3, 4))
    assert [p.shape for p in ops.hsplit(x, 2)] == [(2, 2, 4), (2, 1, 4)]
    assert [p.shape for p in ops.vsplit(x, [1])] == [(1, 3, 4), (1, 3, 4)]
    assert [p.shape for p in ops.dsplit(x, 2)] == [(2, 3, 2), (2, 3, 2)]
    with pytest.raises(ValueError, match="at least 3-D"):
        ops.dsplit(x[0], 2)


def test_scatter_writes_against_torch_and_gradcheck():
    torch = pytest.importorskip("torch")
    t = torch.tensor(A)
    src1 = RNG.uniform(-1, 1, (2, 4))
    np.testing.assert_allclose(ops.select_scatter(T(A), T(src1), 1, 2).asnumpy(),
                               torch.select_scatter(t, torch.tensor(src1), 1, 2).numpy())
    src2 = RNG.uniform(-1, 1, (2, 3, 2))
    np.testing.assert_allclose(ops.slice_scatter(T(A), T(src2), 2, 0, 4, 2).asnumpy(),
                               torch.slice_scatter(t, torch.tensor(src2), 2, 0, 4, 2).numpy())
    src3 = RNG.uniform(-1, 1, (4, 2))
    np.testing.assert_allclose(ops.diagonal_scatter(T(A), T(src3), 1, 0, 1).asnumpy(),
                               torch.diagonal_scatter(t, torch.tensor(src3), 1, 0, 1).numpy())
    np.testing.assert_allclose(ops.diag_embed(T(M), 1, 0, 2).asnumpy(),
                               torch.diag_embed(torch.tensor(M), 1, 0, 2).numpy())
    assert gradcheck(lambda x, s: ops.select_scatter(x, s, 1, 2) ** 2, T(A), T(src1))
    assert gradcheck(lambda x, s: ops.slice_scatter(x, s, 2, 0, 4, 2) ** 2, T(A), T(src2))
    assert gradcheck(lambda x, s: ops.diagonal_scatter(x, s, 1, 0, 1) ** 2, T(A), T(src3))
    assert gradcheck(lambda x: ops.diag_embed(x, -1), T(M))


def test_index_writes():
    x = T(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(ops.index_fill(x, 1, T([0, 2]), 9.0).asnumpy(),
                                  [[9, 1, 9], [9, 4, 9]])
    assert ops.index_fill(T(np.array([1, 2, 3], np.int32)), 0, T([0]), 1.5).dtype == ms.int32
    np.testing.assert_array_equal(ops.inplace_add(x, T(np.ones((1, 3))), (1,)).asnumpy()[1],
                                  [4, 5, 6])
    np.testing.assert_array_equal(ops.inplace_update(x, T(np.ones((1, 3))), 1).asnumpy()[1],
                                  [1, 1, 1])
    np.testing.assert_array_equal(x.asnumpy()[1], [3, 4, 5])  # a new Tensor, as MindSpore
    np.testing.assert_array_equal(
        ops.IndexPut(1)(x, T([1.0, 2.0]), (T([0, 1]), T([1, 2]))).asnumpy(),
        [[0, 2, 2], [3, 4, 7]])
    np.testing.assert_array_equal(
        ops.MaskedScatter()(x, T(np.array([True, False, True])), T(np.arange(6.0))).asnumpy(),
        [[0, 1, 1], [2, 4, 3]])
    assert gradcheck(lambda a, v: ops.inplace_sub(a, v, (1, 0)) * a, x, T(np.ones((2, 3))))
    assert gradcheck(lambda a: ops.index_fill(a, 0, T([1]), 2.0) * a, x)
    p = Parameter(T(np.zeros((3, 2), np.float32)), name="w")
    ops.inplace_index_add(p, T(np.array([0, 0], np.int32)), T(np.ones((2, 2), np.float32)), 0)
    np.testing.assert_array_equal(p.asnumpy()[0], [2, 2])
    y = T(np.zeros((2, 2), np.float32))
    assert ops.put_(y, T(np.array([0, 3, 0])), T([1.0, 2.0, 3.0]), True) is y
    np.testing.assert_array_equal(y.asnumpy(), [[4, 0], [0, 2]])
    np.testing.assert_array_equal(ops.FillDiagonal(9.0, True)(T(np.zeros((5, 2)))).asnumpy()[3],
                                  [9, 0])


def test_search_and_unique():
    seq = T(np.array([1.0, 3, 5, 7], np.float32))
    out = ops.searchsorted(seq, T(np.array([3.0, 6, 9], np.float32)))
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [1, 3, 4]
    out = ops.searchsorted(seq, T(np.array([3.0], np.float32)), side="right", out_int32=True)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [2]
    b = ops.bucketize(T(np.array([[3.0, 6], [9, 1]])), [1.0, 3, 5, 7])
    assert b.dtype == ms.int32 and b.asnumpy().tolist() == [[1, 3], [4, 0]]
    assert ops.LowerBound()(T([[1.0, 3, 5]]), T([[3.0, 4]])).asnumpy().tolist() == [[1, 2]]
    assert ops.UpperBound(ms.int64)(T([[1.0, 3, 5]]), T([[3.0, 4]])).dtype == ms.int64
    y, inv, cnt = ops.unique_consecutive(T(np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32)), True,
                                         True)
    assert y.asnumpy().tolist() == [1, 2, 3, 1, 2] and cnt.asnumpy().tolist() == [2, 2, 1, 2, 1]
    assert inv.dtype == ms.int64 and inv.asnumpy().tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    y, idx = ops.unique_with_pad(T(np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], np.int32)), 0)
    assert y.asnumpy().tolist() == [1, 5, 4, 3, 2, 0, 0, 0, 0, 0]
    assert idx.asnumpy().tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert ops.NthElement(True)(T([[3.0, 1, 2], [6, 5, 4]]), 0).asnumpy().tolist() == [3, 6]
    assert ops.argwhere(T([[0, 1], [2, 0]])).asnumpy().tolist() == [[0, 1], [1, 0]]
    assert ops.UnravelIndex()(T(np.array([5, 3], np.int32)), T(np.array([2, 3], np.int32))) \
        .asnumpy().tolist() == [[1, 1], [2, 0]]


def test_combinatorics_and_indices():
    v = T(np.array([1, 2, 3], np.int32))
    assert ops.combinations(v, 2, True).shape == (6, 2)
    assert ops.cartesian_prod(v, T(np.array([4, 5], np.int32))).asnumpy()[1].tolist() == [1, 5]
    np.testing.assert_array_equal(ops.tril_indices(3, 4, 1).asnumpy(), np.stack(np.tril_indices(3,
                                                                                   1, 4)))
    assert ops.TriuIndices(3, 3, -1)().dtype == ms.int32
    assert ops.vander(T(np.array([1, 2, 3], np.int32))).dtype == ms.int64
    assert gradcheck(lambda x: ops.vander(x, 3), T(np.array([0.5, 1.5, -1.0])))


def test_space_batch_round_trip_and_space_to_depth():
    x = T(RNG.uniform(-1, 1, (2, 3, 4, 6)))
    b = ops.space_to_batch_nd(x, (2, 3), ((0, 0), (0, 0)))
    assert b.shape == (12, 3, 2, 2)
    np.testing.assert_allclose(ops.batch_to_space_nd(b, (2, 3), ((0, 0), (0, 0))).asnumpy(),
                               x.asnumpy())
    padded = ops.SpaceToBatchND((2, 2), ((1, 1), (0, 2)))(x)
    assert padded.shape == (8, 3, 3, 4)
    assert gradcheck(lambda a: ops.SpaceToBatch(2, [[0, 0], [0, 0]])(a) ** 2, x)
    d = ops.SpaceToDepth(2)(T(np.arange(16.0).reshape(1, 1, 4, 4)))
    assert d.asnumpy()[0, :, 0, 0].tolist() == [0, 1, 4, 5]


def test_primitives_of_shapes():
    x = T(np.arange(6.0).reshape(2, 3))
    assert ops.Rank()(x) == 2
    assert ops.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)
    assert ops.TensorShape()(x).asnumpy().tolist() == [2, 3]
    assert ops.Pack(1)((x, x)).shape == (2, 2, 3)
    assert [t.shape for t in ops.Unpack(1)(x)] == [(2,)] * 3
    with pytest.raises(ValueError, match=r"x1.shape\[0\] must be equal to 1"):
        ops.ParallelConcat()((x, x))
    assert ops.DiagPart()(T(np.arange(16.0).reshape(4, 4))).asnumpy().tolist() == [0, 5, 10, 15]
    assert [p.shape for p in ops.SplitV((1, -1), 1, 2)(x)] == [(2, 1), (2, 2)]
    assert ops.Padding(4)(T([[8.0], [10.0]])).asnumpy().tolist() == [[8, 0, 0, 0], [10, 0, 0, 0]]
    assert ops.Roll((1, -1), (0, 1))(x).asnumpy().tolist() == [[4, 5, 3], [1, 2, 0]]
    assert isinstance(ops.IdentityN()([x, x]), tuple)


def test_errors():
    x = T(np.arange(6.0).reshape(2, 3))
    with pytest.raises(RuntimeError, match="rotation dims must be different"):
        ops.rot90(x, 1, (0, 0))
    with pytest.raises(TypeError, match=r"argument\[shape\] must be Tensor"):
        ops.expand(x, (2, 3))
    with pytest.raises(ValueError, match="src shape should be equal to the slice size"):
        ops.slice_scatter(x, T(np.ones((2, 1))), 1, 0, 3, 2)
    with pytest.raises(TypeError, match="should be 'float'"):
        ops.Bucketize([1.0, 3])
    with pytest.raises(ValueError, match="must be 1-D"):
        ops.unique_with_pad(x, 0)


def test_tensor_methods():
    x = T(np.arange(6.0).reshape(2, 3))
    assert x.sum_to_size(1, 3).asnumpy().tolist() == [[3, 5, 7]]
    assert x.sum_to_size(3).asnumpy().tolist() == [3, 5, 7]
    assert x.new_full((2,), 3, dtype=ms.int32).asnumpy().tolist() == [3, 3]
    assert x.new_empty((2, 1)).shape == (2, 1)
    b = T(np.zeros((2, 3), np.float32))
    assert b.copy_(T(np.array([1, 2, 3], np.int32))) is b and b.asnumpy()[1, 2] == 3
    with pytest.raises(RuntimeError, match="Could not set tensor of type Int32"):
        b.set_(T(np.array([1], np.int32)))
    d = T(np.zeros((3, 2), np.float32))
    d.index_copy_(0, T(np.array([2, 0])), T(np.ones((2, 2), np.float32)))
    assert d.asnumpy()[:, 0].tolist() == [1, 0, 1]
    d.index_add_(0, T(np.array([1, 1])), T(np.ones((2, 2), np.float32)), alpha=2)
    assert d.asnumpy()[1].tolist() == [4, 4]
    d.index_fill_(1, T(np.array([1])), 5.0)
    assert d.asnumpy()[:, 1].tolist() == [5, 5, 5]
    d.index_put_((T(np.array([0])),), T(np.float32(3)))
    assert d.asnumpy()[0].tolist() == [3, 3]
    e = T(np.zeros((3, 3), np.float32))
    assert e.fill_diagonal_(2.0) is e and np.trace(e.asnumpy()) == 6
    assert x[0].searchsorted(T(np.array([3.0]))).dtype == ms.int32
    assert x.view_as(T(np.zeros((3, 2)))).shape == (3, 2)
    assert x.narrow(1, 1, 2).shape == (2, 2)
    assert x.rot90(1, (0, 1)).shape == (3, 2)


def test_gathers_fills_and_utilities():
    a = T(np.arange(6.0).reshape(2, 3).astype(np.float32))
    assert ops.gather_d(a, 1, T(np.array([[0, 0], [2, 1]]))).asnumpy().tolist() == [[0, 0],
                                                                                   [5, 4]]
    idx, mask = ops.choice_with_mask(T(np.array([[True, False], [True, True]])), 4)
    assert idx.shape == (4, 2) and mask.asnumpy().tolist() == [True, True, True, False]
    assert ops.tensor_range(T(1), T(5), T(2)).asnumpy().tolist() == [1, 3]
    assert ops.fills(a, 2).asnumpy().tolist() == [[2, 2, 2], [2, 2, 2]]
    assert ops.FillV2()(T(np.array([2, 1])), T(np.float32(1.5))).asnumpy().tolist() == [[1.5],
                                                                                        [1.5]]
    assert ops.Eps()(T(np.zeros(2, np.float16))).asnumpy()[0] == np.finfo(np.float16).eps
    values, where = ops.ListDiff()(T(np.array([1, 2, 3, 4], np.int32)),
                                   T(np.array([2, 4], np.int32)))
    assert values.asnumpy().tolist() == [1, 3] and where.dtype == ms.int32
    splits, vals = ops.RaggedRange(ms.int64)(T(np.array([0, 5], np.int32)),
                                             T(np.array([3, 7], np.int32)),
                                             T(np.array([1, 1], np.int32)))
    assert splits.asnumpy().tolist() == [0, 3, 5] and vals.asnumpy().tolist() == [0, 1, 2, 5, 6]
    assert ops.EqualCount()(T(np.array([1, 2, 3], np.int32)),
                            T(np.array([1, 0, 3], np.int32))).asnumpy().tolist() == [2]
    rows = ops.EmbeddingLookup()(a, T(np.array([1, 0, 5])), 0).asnumpy()
    assert rows.tolist() == [[3, 4, 5], [0, 1, 2], [0, 0, 0]]
    assert ops.TensorToTuple()(T(np.array([1, 2]))) == (1, 2)
    assert ops.DataFormatDimMap()(T(np.array([0, 1, 2, 3, -1], np.int32))).asnumpy().tolist() \
        == [0, 3, 1, 2, 2]
    with pytest.raises(ValueError, match="CPU only"):
        ops.move_to(a, "Ascend")
    assert a.select(1, 2).asnumpy().tolist() == [2, 5]
    assert a[0].itemset(1, 9.0).asnumpy().tolist() == [0, 9, 2]
    choice = T(np.array([0, 1, 1], np.int32)).choose((T(np.array([1, 2, 3])),
                                                      T(np.array([7, 8, 9]))))
    assert choice.asnumpy().tolist() == [1, 8, 9]
    v = T(np.arange(4.0).astype(np.float32))
    cond = T(np.array([True, False, True, False]))
    assert v.where(cond, T(np.float32(-1))).asnumpy().tolist() == [0, -1, 2, -1]
    assert v.fills(2.0).asnumpy().tolist() == [2, 2, 2, 2]
    vals, pos = ops.SubAndFilter()(T(np.array([1, 3, 5, 8, 9, 16], np.int32)), 10, 1)
    assert vals.asnumpy().tolist() == [0, 2, 4, 7, 8] and pos.asnumpy().tolist() == [0, 1, 2, 3, 4]
