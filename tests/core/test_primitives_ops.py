"""The core primitive classes real MindSpore code uses: values against numpy, output dtypes and
MindSpore's errors for bad attributes and inputs (behaviour checked against MindSpore 2.10)."""

import functools
import itertools

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops

X = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
C = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)


def _np(t):
    return t.asnumpy()


# ---- StridedSlice: every mask against numpy's own indexing ----
def _numpy_index(begin, end, strides, bm, em, elm, nam, sam):
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if elm & bit:
            index.append(Ellipsis)
        elif nam & bit:
            index.append(None)
        elif sam & bit:
            index.append(0 if bm & bit else b)
        else:
            index.append(slice(None if bm & bit else b, None if em & bit else e, s))
    return tuple(index)


STRIDED = [
    ((0, 0, 0, 0, 0), (0, 1, 0), (2, 3, 4), (1, 1, 2)),
    ((1, 2, 0, 0, 0), (1, 1, 0), (2, 2, 4), (1, 1, 1)),
    ((0, 0, 1, 0, 0), (0, 1), (0, 3), (1, 1)),  # x[..., 1:3]
    ((0, 0, 2, 0, 0), (1, 0, -3), (2, 0, 5), (1, 1, 2)),  # x[1:2, ..., -3:5:2]
    ((0, 0, 0, 2, 0), (1, 0, 1), (2, 0, 3), (1, 1, 1)),  # x[1:2, None, 1:3]
    ((0, 0, 0, 5, 0), (0, 1, 0), (0, 2, 0), (1, 1, 1)),  # x[None, 1:2, None]
    ((0, 0, 0, 0, 3), (1, 2, 0), (2, 3, 4), (1, 1, 1)),  # x[1, 2, 0:4]
    ((1, 0, 0, 0, 1), (1,), (2,), (1,)),  # begin_mask wins over shrink's begin: x[0]
    ((0, 0, 1, 0, 2), (0, 2), (0, 3), (1, 1)),  # x[..., 2]
    ((0, 0, 0, 0, 0), (1, -1, 3), (-3, -4, 0), (-1, -1, -1)),  # negative strides
    ((0, 0, 0, 0, 0), (5, 0), (7, 3), (1, 1)),  # past the end: empty
    ((0, 3, 0, 0, 0), (-1, -2), (0, 0), (-2, -1)),
]


@pytest.mark.parametrize("masks,begin,end,strides", STRIDED)
def test_strided_slice_matches_numpy(masks, begin, end, strides):
    out = ops.StridedSlice(*masks)(Tensor(X), begin, end, strides)
    ref = X[_numpy_index(begin, end, strides, *masks)]
    assert out.shape == ref.shape and out.dtype == ms.float32
    np.testing.assert_array_equal(_np(out), ref)


def test_strided_slice_random_masks_match_numpy():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(300):
        n = int(rng.integers(1, 5))
        begin, end = tuple(rng.integers(-5, 6, n).tolist()), tuple(rng.integers(-5, 7, n).tolist())
        strides = tuple(rng.choice([-2, -1, 1, 1, 2, 3], n).tolist())
        masks = [int(rng.integers(0, 2 ** n)) if rng.random() < 0.4 else 0 for _ in range(5)]
        if bin(masks[2]).count("1") > 1:
            masks[2] = 0
        if masks[4]:  # MindSpore rejects a negative stride on a shrunk axis (tested below)
            strides = tuple(abs(s) for s in strides)
        try:
            ref = X[_numpy_index(begin, end, strides, *masks)]
        except IndexError:
            with pytest.raises(IndexError, match="shrink_axis_mask"):
                ops.StridedSlice(*masks)(Tensor(X), begin, end, strides)
            continue
        out = _np(ops.StridedSlice(*masks)(Tensor(X), list(begin), Tensor(list(end)), strides))
        assert out.shape == np.shape(ref)
        np.testing.assert_array_equal(out, ref)
        checked += 1
    assert checked > 200


def test_strided_slice_errors():
    t = Tensor(C)
    with pytest.raises(ValueError, match="begin_mask mask must be greater equal 0, but got -1"):
        ops.StridedSlice(begin_mask=-1)
    with pytest.raises(TypeError, match="'end_mask' should be 'int'"):
        ops.StridedSlice(end_mask=1.5)
    with pytest.raises(ValueError, match="only support one ellipsis in the index, but got 3"):
        ops.StridedSlice(ellipsis_mask=3)
    with pytest.raises(ValueError, match="must have the same length.*'begin': 2, 'end': 1"):
        ops.StridedSlice()(t, (0, 0), (1,), (1, 1))
    with pytest.raises(ValueError, match="'strides' can not contain 0"):
        ops.StridedSlice()(t, (0, 0), (1, 1), (1, 0))
    with pytest.raises(IndexError, match=r"'begin\[0\]' must be in \[-2, 2\) when "
                                         r"'shrink_axis_mask'.*'begin\[0\]': 5"):
        ops.StridedSlice(shrink_axis_mask=1)(t, (5, 0), (6, 1), (1, 1))
    with pytest.raises(IndexError, match=r"'strides\[0\]' cannot be negative.*'strides\[0\]': -1"):
        ops.StridedSlice(shrink_axis_mask=1)(t, (1, 0), (0, 1), (-1, 1))
    with pytest.raises(ValueError, match="indexes 3 dimensions of an input of shape"):
        ops.StridedSlice()(t, (0, 0, 0), (1, 1, 1), (1, 1, 1))
    with pytest.raises(TypeError, match="'begin' should be one of"):
        ops.StridedSlice()(t, (0.5, 0), (1, 1), (1, 1))
    with pytest.raises(TypeError, match="input 'input_x' must be a Tensor"):
        ops.StridedSlice()(C, (0,), (1,), (1,))


def test_slice():
    t = Tensor(X)
    np.testing.assert_array_equal(_np(ops.Slice()(t, (0, 1, 1, 0), (1, 2, -1, 5))),
                                  X[0:1, 1:3, 1:, :])
    np.testing.assert_array_equal(_np(ops.Slice()(Tensor(C), Tensor([0, 1]), Tensor([2, 1]))),
                                  C[:, 1:2])
    with pytest.raises(ValueError, match=r"begin_shape\[1\] and size_shape\[1\] must be no "
                                         r"greater than input_x_shape\[1\]"):
        ops.Slice()(Tensor(C), (0, 1), (1, 5))
    with pytest.raises(ValueError, match="the shape of input|begin|size must be equal"):
        ops.Slice()(Tensor(C), (0,), (1,))


# ---- gathers and scatters ----
def test_gather_nd_gather_d_gather_v2():
    t = Tensor(X[0, :, :, 0])  # (3, 4)
    idx = np.array([[0, 1], [2, 3], [1, 0]], np.int32)
    out = ops.GatherNd()(t, Tensor(idx))
    np.testing.assert_array_equal(_np(out), X[0, :, :, 0][idx[:, 0], idx[:, 1]])
    rows = ops.GatherNd()(Tensor(X), Tensor(np.array([[[1], [0]]], np.int64)))
    assert rows.shape == (1, 2, 3, 4, 5)
    np.testing.assert_array_equal(_np(rows)[0, 0], X[1])
    index = np.array([[0, 2], [1, 1]], np.int64)
    np.testing.assert_array_equal(_np(ops.GatherD()(Tensor(C), 1, Tensor(index))),
                                  np.take_along_axis(C, index, 1))
    np.testing.assert_array_equal(_np(ops.GatherD()(Tensor(C), 1, Tensor([[-1], [0]]))),
                                  [[3.0], [4.0]])
    out = ops.GatherV2()(Tensor(C), Tensor(np.array([2, 0], np.int32)), 1)
    np.testing.assert_array_equal(_np(out), C[:, [2, 0]])


def test_gather_errors():
    with pytest.raises(RuntimeError, match=r"For 'GatherNd', the indices\[0\]: \[2, 0\], does "
                                           r"not index into input_shape"):
        ops.GatherNd()(Tensor(C), Tensor([[2, 0]]))
    with pytest.raises(RuntimeError, match="does not index into"):
        ops.GatherNd()(Tensor(C), Tensor([[-1, 0]]))
    with pytest.raises(TypeError, match=r"primitive\[GatherNd\].*argument\[indices\].*"
                                        r"Tensor\[Float32\]"):
        ops.GatherNd()(Tensor(C), Tensor([[1.0, 0.0]]))
    with pytest.raises(ValueError, match="last dimension of 'indices'.*must be at most"):
        ops.GatherNd()(Tensor(C), Tensor([[0, 0, 0]]))
    with pytest.raises(RuntimeError, match=r"'index' must be in \[-3, 3\), but got: 3"):
        ops.GatherD()(Tensor(C), 1, Tensor([[3], [0]]))


def test_scatter_nd_accumulates_repeats():
    out = ops.ScatterNd()(Tensor([[1], [3], [1]], ms.int32), Tensor([1.0, 2.0, 3.0]), (5,))
    np.testing.assert_array_equal(_np(out), [0.0, 4.0, 0.0, 2.0, 0.0])
    rows = ops.ScatterNd()(Tensor([[1]]), Tensor([[1, 2]]), (3, 2))
    assert rows.dtype == ms.int64
    np.testing.assert_array_equal(_np(rows), [[0, 0], [1, 2], [0, 0]])
    with pytest.raises(RuntimeError, match="does not index into input_shape: \\[3\\]"):
        ops.ScatterNd()(Tensor([[5]]), Tensor([1.0]), (3,))
    with pytest.raises(TypeError, match="'shape' should be one of"):
        ops.ScatterNd()(Tensor([[1]]), Tensor([[1, 2]]), Tensor([3, 2]))
    with pytest.raises(ValueError, match=r"the shape of 'updates' must be \(1, 2\)"):
        ops.ScatterNd()(Tensor([[1]]), Tensor([1.0]), (3, 2))


def test_in_place_scatters_and_assign_add_write_the_parameter():
    p = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p")
    out = ops.ScatterNdUpdate()(p, Tensor([[0], [2]], ms.int32), Tensor(np.ones((2, 2),
                                                                              np.float32)))
    np.testing.assert_array_equal(_np(p), [[1, 1], [0, 0], [1, 1]])
    np.testing.assert_array_equal(_np(out), _np(p))
    assert not isinstance(out, Parameter)
    q = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="q")
    ops.ScatterAdd()(q, Tensor([0, 0, 2], ms.int32), Tensor(np.ones((3, 2), np.float32)))
    np.testing.assert_array_equal(_np(q), [[2, 2], [0, 0], [1, 1]])
    v = Parameter(Tensor(np.ones(2, np.float32)), name="v")
    out = ops.AssignAdd()(v, Tensor([1.0, 2.0]))
    np.testing.assert_array_equal(_np(v), [2.0, 3.0])
    np.testing.assert_array_equal(_np(out), [2.0, 3.0])
    ops.AssignAdd()(v, Tensor([1, 2], ms.int32))
    np.testing.assert_array_equal(_np(v), [3.0, 5.0])
    with pytest.raises(ValueError, match="'value' must have the same rank as 'variable'"):
        ops.AssignAdd()(v, 1)
    with pytest.raises(ValueError, match="'value' must have the same shape as 'variable'"):
        ops.AssignAdd()(v, Tensor([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match=r"'indices' must be in \[0, 3\)"):
        ops.ScatterAdd()(q, Tensor([3], ms.int32), Tensor(np.ones((1, 2), np.float32)))
    with pytest.raises(ValueError, match=r"the shape of 'updates' must be \(2, 2\)"):
        ops.ScatterNdUpdate()(p, Tensor([[0], [2]]), Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(TypeError, match="'use_locking' should be 'bool'"):
        ops.ScatterAdd(use_locking=1)


# ---- reversing, unstacking, arg-with-value, unique ----
def test_reverse_v2_and_reverse_sequence():
    np.testing.assert_array_equal(_np(ops.ReverseV2(axis=(0, -1))(Tensor(X))), X[::-1, ..., ::-1])
    with pytest.raises(TypeError, match="'axis' should be one of"):
        ops.ReverseV2(axis=1)
    with pytest.raises(ValueError, match="cannot contain duplicate dimensions, but got 0"):
        ops.ReverseV2(axis=(0, 0))(Tensor(C))
    with pytest.raises(ValueError, match=r"'axis\[0\]' must be in range of \[-2, 2\), but got 3"):
        ops.ReverseV2(axis=(3,))(Tensor(C))
    x = np.arange(9, dtype=np.float32).reshape(3, 3)
    out = ops.ReverseSequence(seq_dim=1)(Tensor(x), Tensor([1, 2, 3]))
    np.testing.assert_array_equal(_np(out), [[0, 1, 2], [4, 3, 5], [8, 7, 6]])
    out = ops.ReverseSequence(seq_dim=0, batch_dim=1)(Tensor(C), Tensor([1, 2, 2], ms.int32))
    np.testing.assert_array_equal(_np(out), [[1, 5, 6], [4, 2, 3]])
    with pytest.raises(RuntimeError, match=r"Invalid seq_lengths\[1\]: 5"):
        ops.ReverseSequence(seq_dim=1)(Tensor(C), Tensor([1, 5]))
    with pytest.raises(TypeError, match=r"argument\[seq_lengths\].*Tensor\[Float32\]"):
        ops.ReverseSequence(seq_dim=1)(Tensor(C), Tensor([1.0, 2.0]))


def test_unstack():
    parts = ops.Unstack(axis=1)(Tensor(C))
    assert len(parts) == 3 and all(p.shape == (2,) for p in parts)
    np.testing.assert_array_equal(_np(parts[2]), [3.0, 6.0])
    assert [p.shape for p in ops.Unstack()(Tensor(np.ones((2, 0))))] == [(0,), (0,)]
    with pytest.raises(ValueError, match=r"expected to be in range of \[-2, 2\), but got 5"):
        ops.Unstack(axis=5)(Tensor(C))


@pytest.mark.parametrize("axis,keep", list(itertools.product([0, 1, -1], [False, True])))
def test_arg_max_min_with_value(axis, keep):
    x = np.random.default_rng(axis + 3).normal(size=(3, 4)).astype(np.float32)
    for prim, pick in ((ops.ArgMaxWithValue, np.argmax), (ops.ArgMinWithValue, np.argmin)):
        index, value = prim(axis=axis, keep_dims=keep)(Tensor(x))
        assert index.dtype == ms.int64 and value.dtype == ms.float32
        ref_i = pick(x, axis=axis)
        ref_v = np.take_along_axis(x, np.expand_dims(ref_i, axis), axis)
        if not keep:
            ref_v = np.squeeze(ref_v, axis)
        else:
            ref_i = np.expand_dims(ref_i, axis)
        np.testing.assert_array_equal(_np(index), ref_i)
        np.testing.assert_array_equal(_np(value), ref_v)


def test_arg_max_with_value_errors():
    with pytest.raises(ValueError, match=r"the axis must be in \[-2,2\), but got 2"):
        ops.ArgMaxWithValue(axis=2)(Tensor(C))
    with pytest.raises(TypeError, match="'axis' should be 'int'"):
        ops.ArgMaxWithValue(axis=0.5)(Tensor(C))
    with pytest.raises(TypeError, match="'keep_dims' should be 'bool'"):
        ops.ArgMinWithValue(keep_dims=1)(Tensor(C))


def test_unique_keeps_first_appearance_order():
    y, idx = ops.Unique()(Tensor([3, 1, 3, 2, 1], ms.int32))
    np.testing.assert_array_equal(_np(y), [3, 1, 2])
    np.testing.assert_array_equal(_np(idx), [0, 1, 0, 2, 1])
    assert (y.dtype, idx.dtype) == (ms.int32, ms.int32)
    y, idx = ops.Unique()(Tensor([3, 1, 3], ms.int64))
    assert idx.dtype == ms.int64
    y, idx = ops.Unique()(Tensor([3.0, 1.0, 3.0]))
    assert (y.dtype, idx.dtype) == (ms.float32, ms.int32)
    with pytest.raises(RuntimeError, match="Rank of Unique's input must be 1"):
        ops.Unique()(Tensor([[3, 1], [3, 2]]))


# ---- sums, cumulative sums, grids ----
def test_add_n_and_tensor_add():
    out = ops.AddN()([Tensor([1.0]), Tensor([2.0]), Tensor([3.0])])
    np.testing.assert_array_equal(_np(out), [6.0])
    assert _np(ops.AddN()((Tensor([1]),))).tolist() == [1]
    assert _np(ops.AddN()(Tensor([[1.0, 2.0], [3.0, 4.0]]))).tolist() == [4.0, 6.0]
    with pytest.raises(TypeError, match="dtypes must be the same"):
        ops.AddN()([Tensor([1.0]), Tensor([2])])
    with pytest.raises(ValueError, match="input shape must be same"):
        ops.AddN()([Tensor([1.0]), Tensor([2.0, 3.0])])
    with pytest.raises(ValueError, match="input num must be greater than or equal to 1"):
        ops.AddN()([])
    with pytest.raises(TypeError, match="tuple or list of Tensors"):
        ops.AddN()([Tensor([1.0]), 2.0])
    np.testing.assert_array_equal(_np(ops.TensorAdd()(Tensor([1.0]), Tensor([2.0]))), [3.0])


@pytest.mark.parametrize("exclusive,reverse,axis",
                         list(itertools.product([False, True], [False, True], [0, 1, -1])))
def test_cumsum_flags(exclusive, reverse, axis):
    x = np.random.default_rng(1).normal(size=(3, 4)).astype(np.float32)
    ref = np.flip(x, axis) if reverse else x
    ref = np.cumsum(ref, axis)
    if exclusive:
        ref = np.concatenate([np.zeros_like(np.take(ref, [0], axis)),
                              np.take(ref, range(ref.shape[axis] - 1), axis)], axis)
    ref = np.flip(ref, axis) if reverse else ref
    out = ops.CumSum(exclusive, reverse)(Tensor(x), axis)
    np.testing.assert_allclose(_np(out), ref, rtol=1e-6, atol=1e-6)


def test_cumsum_dtypes_and_errors():
    out = ops.CumSum()(Tensor([1, 2], ms.int32), Tensor(0))
    assert out.dtype == ms.int32 and _np(out).tolist() == [1, 3]
    with pytest.raises(TypeError, match=r"argument\[x\].*Tensor\[Bool\]"):
        ops.CumSum()(Tensor([True, True]), 0)
    with pytest.raises(ValueError, match=r"the axis must be in \[-2,2\), but got 2"):
        ops.CumSum()(Tensor(C), 2)
    with pytest.raises(TypeError, match="'exclusive' should be 'bool'"):
        ops.CumSum(exclusive=1)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
    a, b, c = np.arange(3), np.arange(4, 6), np.arange(7, 9)
    out = ops.Meshgrid(indexing=indexing)((Tensor(a), Tensor(b), Tensor(c)))
    ref = np.meshgrid(a, b, c, indexing=indexing)
    for o, r in zip(out, ref):
        assert o.dtype == ms.int64
        np.testing.assert_array_equal(_np(o), r)


def test_meshgrid_errors():
    with pytest.raises(ValueError, match="'indexing' must be 'xy' or 'ij', but got 'xx'"):
        ops.Meshgrid(indexing="xx")
    with pytest.raises(ValueError, match="all tensors should have the same type"):
        ops.Meshgrid()((Tensor([1.0]), Tensor([1])))
    with pytest.raises(TypeError, match="list or tuple of Tensors"):
        ops.Meshgrid()(Tensor([1.0]))


# ---- elementwise ----
def test_reciprocal_round_acos_erf_mod():
    assert ops.Reciprocal()(Tensor([2, 4])).dtype == ms.float32
    np.testing.assert_allclose(_np(ops.Reciprocal()(Tensor([2.0, 4.0]))), [0.5, 0.25])
    np.testing.assert_array_equal(_np(ops.Round()(Tensor([0.5, 1.5, -2.5, 2.4]))),
                                  [0.0, 2.0, -2.0, 2.0])
    assert ops.Round()(Tensor([1, 2])).dtype == ms.int64
    np.testing.assert_allclose(_np(ops.ACos()(Tensor([0.5, -1.0]))), [1.0471976, 3.1415927])
    with pytest.raises(TypeError, match=r"primitive\[ACos\].*Tensor\[Int64\]"):
        ops.ACos()(Tensor([1, 0]))
    np.testing.assert_allclose(_np(ops.Erf()(Tensor([-1.0, 0.0, 0.5, 2.0]))),
                               [-0.8427008, 0.0, 0.5204999, 0.9953223], rtol=1e-6)
    assert ops.Erf()(Tensor([1.0], ms.float64)).dtype == ms.float64
    with pytest.raises(TypeError, match=r"primitive\[Erf\].*Tensor\[Int64\]"):
        ops.Erf()(Tensor([1, 2]))
    out = ops.Mod()(Tensor([-7.0, 7.0, -7.5]), Tensor([3.0, -3.0, 2.0]))
    np.testing.assert_array_equal(_np(out), [-1.0, 1.0, -1.5])  # the sign of x, as C's fmod
    out = ops.Mod()(Tensor([-7, 7], ms.int32), Tensor([3, -3], ms.int32))
    assert out.dtype == ms.int32 and _np(out).tolist() == [-1, 1]
    assert ops.Mod()(Tensor([5, 7]), 3).dtype == ms.int64
    assert ops.Mod()(Tensor([5.5, 7.0]), 2).dtype == ms.float32
    with pytest.raises(TypeError, match="at least one of 'x' and 'y' must be a Tensor"):
        ops.Mod()(5, 3)


@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,jk->...ik", [(2, 2, 3), (3, 2)]),
    ("i,j->ij", [(3,), (2,)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ijk->k", [(2, 3, 4)]),
])
def test_einsum_matches_numpy(equation, shapes):
    rng = np.random.default_rng(len(equation))
    xs = [rng.normal(size=s).astype(np.float32) for s in shapes]
    out = ops.Einsum(equation)(tuple(Tensor(x) for x in xs))
    np.testing.assert_allclose(_np(out), np.einsum(equation, *xs), rtol=1e-5, atol=1e-5)
    assert out.dtype == ms.float32


def test_einsum_errors():
    with pytest.raises(TypeError, match="'equation' should be 'str'"):
        ops.Einsum(1)
    with pytest.raises(TypeError, match="non-empty tuple of Tensors"):
        ops.Einsum("ij->ji")(Tensor(C))
    with pytest.raises(ValueError, match="the number of inputs must be equal"):
        ops.Einsum("ij,jk->ik")((Tensor(C),))
    with pytest.raises(ValueError, match="the term 'ijk' names 3 dimensions"):
        ops.Einsum("ijk->k")((Tensor(C),))
    with pytest.raises(TypeError, match="one dtype"):
        ops.Einsum("ij,jk->ik")((Tensor(C), Tensor(np.ones((3, 2)))))


# ---- scalars, tuples, creation, dtype and size ----
def test_scalar_and_tuple_conversions():
    t = ops.ScalarToTensor()(3)
    assert (t.dtype, t.shape, _np(t).item()) == (ms.float32, (), 3.0)
    assert _np(ops.ScalarToTensor()(3.5, ms.int32)).item() == 3
    assert ops.ScalarToTensor()(True).dtype == ms.float32
    with pytest.raises(TypeError, match="'x' should be one of"):
        ops.ScalarToTensor()(Tensor(3))
    assert ops.ScalarToArray()(3).dtype == ms.int64
    assert ops.ScalarToArray()(2.5).dtype == ms.float32
    assert ops.ScalarCast()(3.7, ms.int64) == 3 and isinstance(ops.ScalarCast()(3.7, ms.int64),
                                                               int)
    assert ops.ScalarCast()(True, ms.float64) == 1.0
    assert ops.ScalarCast()(0, ms.bool_) is False
    with pytest.raises(ValueError, match=r"supported type is in the list.*but got Int32"):
        ops.ScalarCast()(3.7, ms.int32)
    with pytest.raises(TypeError, match="should be one of '\\['bool', 'Number'\\]'"):
        ops.ScalarCast()(Tensor(3.7), ms.int64)
    ints, floats = ops.TupleToArray()((1, 2, 3)), ops.TupleToArray()((1.0, 2.5))
    assert (ints.dtype, floats.dtype) == (ms.int32, ms.float32)
    np.testing.assert_array_equal(_np(floats), [1.0, 2.5])
    with pytest.raises(TypeError, match="must be have same type"):
        ops.TupleToArray()((1.0, 2))
    with pytest.raises(TypeError, match="'x' should be 'tuple', but got type 'list'"):
        ops.TupleToArray()([1, 2])


def test_linspace_eye_dtype_size_identity():
    out = ops.LinSpace()(Tensor(1.0), Tensor(10.0), 5)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(_np(out), [1.0, 3.25, 5.5, 7.75, 10.0])
    assert ops.LinSpace()(Tensor(1.0, ms.float64), Tensor(2.0, ms.float64), Tensor(3)).dtype \
        == ms.float64
    with pytest.raises(TypeError, match="'start' must be a Tensor"):
        ops.LinSpace()(1.0, 10.0, 5)
    with pytest.raises(TypeError, match=r"Tensor\[Float32\], Tensor\[Float64\]\}, but got "
                                        r"Tensor\[Int64\]"):
        ops.LinSpace()(Tensor(1), Tensor(10), 5)
    eye = ops.Eye()(2, 3, ms.int32)
    assert eye.dtype == ms.int32 and _np(eye).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert ops.Eye()(2, 3, ms.bool_).dtype == ms.bool_
    with pytest.raises(TypeError, match="missing 1 required positional argument: 't'"):
        ops.Eye()(2, 2)
    assert ops.DType()(Tensor(C)) == ms.float32 and ops.DType()(Tensor([1])) == ms.int64
    with pytest.raises(TypeError, match=r"Primitive\[Dtype\].*but got <class 'int'>"):
        ops.DType()(3)
    assert ops.Size()(Tensor(X)) == 120 and isinstance(ops.Size()(Tensor(X)), int)
    with pytest.raises(TypeError, match="For 'Size', input must be a Tensor"):
        ops.Size()(3)
    t = Tensor(C)
    same = ops.Identity()(t)
    assert same is not t and np.array_equal(_np(same), C)
    with pytest.raises(TypeError, match="'input_x' must be a Tensor"):
        ops.Identity()(3)


# ---- Print, Depend, Partial, RandomChoiceWithMask ----
def test_print_prints_each_argument_on_its_own_line(capsys):
    w = Parameter(Tensor([1.0]), name="w")
    assert ops.Print()("x:", Tensor(C), 3, (1, 2), w, None) is None
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "x:"
    assert out[1] == "Tensor(shape=[2, 3], dtype=Float32, value="
    assert out[-4:] == ["3", "(1, 2)", "Tensor(shape=[1], dtype=Float32, value= [ "
                                       "1.00000000e+00])", "None"]
    ops.Print()()
    assert capsys.readouterr().out == ""


def test_depend_and_partial():
    t = Tensor(C)
    assert ops.Depend()(t, Tensor(X)) is t
    add_c = ops.Partial()(ops.add, t)
    assert isinstance(add_c, functools.partial)
    np.testing.assert_array_equal(_np(add_c(t)), 2 * C)
    with pytest.raises(TypeError, match="first input must be a callable"):
        ops.Partial()(3, t)


def test_random_choice_with_mask():
    mask = np.array([[False, True], [True, True]])
    index, valid = ops.RandomChoiceWithMask(count=3)(Tensor(mask))
    assert (index.dtype, index.shape, valid.dtype) == (ms.int32, (3, 2), ms.bool_)
    assert _np(valid).all()
    assert sorted(map(tuple, _np(index).tolist())) == [(0, 1), (1, 0), (1, 1)]
    index, valid = ops.RandomChoiceWithMask(count=4)(Tensor(np.array([False, False, True])))
    assert _np(valid).tolist() == [True, False, False, False]
    assert _np(index).tolist() == [[2], [0], [0], [0]]
    index, valid = ops.RandomChoiceWithMask(count=1)(Tensor(mask))
    assert _np(valid).tolist() == [True] and mask[tuple(_np(index)[0])]
    a = ops.RandomChoiceWithMask(count=3, seed=5)(Tensor(mask))[0]
    b = ops.RandomChoiceWithMask(count=3, seed=5)(Tensor(mask))[0]
    np.testing.assert_array_equal(_np(a), _np(b))
    with pytest.raises(ValueError, match="'count' must be int and must > 0, but got '0'"):
        ops.RandomChoiceWithMask(count=0)
    with pytest.raises(TypeError, match=r"argument\[input_x\].*Tensor\[Bool\]"):
        ops.RandomChoiceWithMask()(Tensor([1.0, 2.0]))
