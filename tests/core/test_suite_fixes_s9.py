"""Causes of MindSpore test-suite failures (issue 28), each checked against MindSpore 2.10:
Tensor ==/!= with non-numbers, reductions with a Tensor axis, candidate samplers, indexing that
selects nothing, Tensor methods' second overloads, numpy operands on the left, ApproximateEqual
and BroadcastTo argument errors."""

import re

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.ops import operations as P

# ---- Tensor == / != compare elementwise only with a Tensor, an int or a float ----

@pytest.mark.parametrize("other", [(), [], [0, 1], None, "a", np.array([0, 1]), np.int32(1)])
def test_eq_with_a_non_number_is_false(other):
    t = Tensor(np.array([0, 1]))
    assert (t == other) is False
    assert (t != other) is True


def test_eq_with_numbers_is_elementwise():
    t = Tensor(np.array([0, 1]))
    for other in (1, 1.0, True, np.float64(1.0), Tensor(1)):
        out = t == other
        assert out.dtype == ms.bool_
        np.testing.assert_array_equal(out.asnumpy(), [False, True])
        np.testing.assert_array_equal((t != other).asnumpy(), [True, False])
    assert (ms.Parameter(t, name="p") == ()) is False


def test_eq_with_empty_tuple_as_reduce_sum_checks_it():
    # ReduceSum's "axis is ()" check compares the axis with (): a Tensor axis must not raise
    x = Tensor(np.arange(4.0, dtype=np.float32).reshape(2, 2, 1))
    out = P.ReduceSum()(x, Tensor(np.array([-1])))
    np.testing.assert_array_equal(out.asnumpy(), [[0.0, 1.0], [2.0, 3.0]])


# ---- reductions take a 0-d or 1-D integer Tensor as the axis ----

X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
AX = np.array([0, 1])


@pytest.mark.parametrize("fn, ref", [
    (lambda x, a: ops.reduce_sum(x, a), lambda x: x.sum((0, 1))),
    (lambda x, a: P.ReduceSum()(x, a), lambda x: x.sum((0, 1))),
    (lambda x, a: ops.reduce_mean(x, a), lambda x: x.mean((0, 1))),
    (lambda x, a: ops.sum(x, a), lambda x: x.sum((0, 1))),
    (lambda x, a: x.sum(a), lambda x: x.sum((0, 1))),
    (lambda x, a: x.mean(a), lambda x: x.mean((0, 1))),
    (lambda x, a: P.ReduceMax()(x, a), lambda x: x.max((0, 1))),
    (lambda x, a: ops.amax(x, a), lambda x: x.max((0, 1))),
    (lambda x, a: P.ReduceMin()(x, a), lambda x: x.min((0, 1))),
    (lambda x, a: P.ReduceProd()(x, a), lambda x: x.prod((0, 1))),
])
def test_reduce_with_tensor_axis(fn, ref):
    out = fn(Tensor(X), Tensor(AX))
    assert out.shape == (4,)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), ref(X), rtol=1e-6)


def test_reduce_with_tensor_axis_keep_dims_0d_and_empty():
    x = Tensor(X)
    assert P.ReduceMean(True)(x, Tensor(AX)).shape == (1, 1, 4)
    np.testing.assert_array_equal(P.ReduceSum()(x, Tensor(1)).asnumpy(), X.sum(1))
    out = P.ReduceSum()(x, Tensor(np.array([], np.int64)))  # empty: every axis, as ()
    assert out.shape == () and float(out) == 276.0
    np.testing.assert_array_equal(P.ReduceAll()(x > 1, Tensor(AX)).asnumpy(),
                                  [False, False, True, True])


@pytest.mark.parametrize("axis, shape, dtype", [
    (np.array([1.0], np.float32), [1], "Float32"), (np.array([[1]]), [1, 1], "Int64")])
def test_reduce_with_a_bad_tensor_axis(axis, shape, dtype):
    with pytest.raises(TypeError, match=rf"For ReduceSum, the 1'th input is a Tensor whose "
                                        rf"shape is \{shape}\ and dtype is \[{dtype}\], which "
                                        rf"can not be converted to tuple of int."):
        P.ReduceSum()(Tensor(X), Tensor(axis))


# ---- candidate samplers ----

def test_uniform_candidate_sampler_true_classes_outside_range():
    # MindSpore: a true class >= range_max (or < 0) gets the uniform probability too
    x = Tensor(np.array([[1], [3], [4], [6], [3]]).astype(np.int32))
    for unique in (True, False):
        s, t, e = P.UniformCandidateSampler(1, 3, unique, 4, seed=1)(x)
        assert (s.shape, t.shape, e.shape) == ((3,), (5, 1), (3,))
        assert (s.dtype, t.dtype, e.dtype) == (ms.int32, ms.float32, ms.float32)
        assert np.all((s.asnumpy() >= 0) & (s.asnumpy() < 4))
        if unique:
            assert len(set(s.asnumpy().tolist())) == 3
        assert np.all(t.asnumpy() == t.asnumpy()[0, 0])
        np.testing.assert_allclose(e.asnumpy(), t.asnumpy()[0, 0])


def test_candidate_sampler_expected_counts_follow_the_number_of_tries():
    # TensorFlow's/MindSpore's expected count: p * num_sampled when no draw was rejected,
    # else 1 - (1 - p)^tries; with all 4 classes drawn uniquely from 4, a value is 1.0 exactly
    # when no duplicate was drawn, and one of 1 - 0.75^k (k > 4) otherwise
    x = Tensor(np.array([[1], [3]]).astype(np.int64))
    allowed = [1.0] + [1 - 0.75 ** k for k in range(5, 200)]
    for seed in range(1, 8):
        s, t, e = P.UniformCandidateSampler(1, 4, True, 4, seed=seed)(x)
        assert s.dtype == ms.int64
        assert sorted(s.asnumpy().tolist()) == [0, 1, 2, 3]
        value = float(e.asnumpy()[0])
        assert min(abs(value - a) for a in allowed) < 1e-6
        np.testing.assert_allclose(t.asnumpy(), value, rtol=1e-6)


def test_candidate_sampler_not_unique_is_p_times_num_sampled():
    x = Tensor(np.array([[1], [3], [4], [6], [3]]).astype(np.int32))
    _, t, e = ops.uniform_candidate_sampler(x, 1, 3, False, 4)
    np.testing.assert_allclose(t.asnumpy(), np.full((5, 1), 0.75), rtol=1e-6)
    np.testing.assert_allclose(e.asnumpy(), np.full(3, 0.75), rtol=1e-6)


def test_log_uniform_candidate_sampler_true_class_outside_range():
    x = Tensor(np.array([[1], [7]]))
    s, t, e = P.LogUniformCandidateSampler(1, 3, False, 5, seed=1)(x)
    p = np.log(np.array([3 / 2, 9 / 8])) / np.log(6)
    np.testing.assert_allclose(t.asnumpy().ravel(), p * 3, rtol=1e-6)
    assert s.dtype == ms.int64 and e.shape == (3,)


def test_uniform_candidate_sampler_large_range():
    x = Tensor(np.random.RandomState(0).randint(0, 20000, (100, 1)).astype(np.int32))
    s, t, e = P.UniformCandidateSampler(1, 100, True, 12221)(x)
    assert (s.shape, t.shape, e.shape) == ((100,), (100, 1), (100,))
    assert len(set(s.asnumpy().tolist())) == 100


# ---- indexing: MindSpore refuses reads that select nothing; an index out of range on a write
# is an IndexError ----

def _x3():
    return Tensor(np.arange(120).reshape(4, 5, 6).astype(np.float32))


@pytest.mark.parametrize("index, message", [
    (False, "When tensor is indexed by a bool object, the value only support 'True'."),
    ((False, 3), "Bool element of tuple index must be 'True', but got 'False'."),
    ((False, slice(3, 1, -1)), "Bool element of tuple index must be 'True', but got 'False'."),
    ([], "When tensor is indexed by list, the list can't be empty."),
    ([False] * 4, "When tensor is indexed by list, the list can't be empty."),
])
def test_getitem_selecting_nothing_raises(index, message):
    x = _x3()
    with pytest.raises(IndexError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        x[index]  # noqa: B018
    with pytest.raises(IndexError):
        x[index] *= 2  # an augmented assignment reads first


def test_getitem_true_and_mixed_lists_still_read():
    x = _x3()
    assert x[True].shape == (1, 4, 5, 6)
    np.testing.assert_array_equal(x[[True, 0]].asnumpy(), x.asnumpy()[[1, 0]])
    np.testing.assert_array_equal(x[[3, False]].asnumpy(), x.asnumpy()[[3, 0]])
    y = _x3()
    y[False] = 1.0  # a write with False changes nothing, as MindSpore's
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


def test_setitem_out_of_range_is_an_index_error():
    x = _x3()
    with pytest.raises(IndexError, match="index 4 is out of bounds"):
        x[[4, 2]] = 1.0
    with pytest.raises(IndexError, match="index 4 is out of bounds"):
        x[[4, 2]] += 1.0


# ---- Tensor methods: MindSpore's second overloads (dim/keepdim/dtype, split_size) ----

def test_tensor_mean_dim_overload():
    x = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
    out = x.mean(0, False, dtype=ms.float64)
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), [4.0, 5.0, 6.0, 7.0])
    out = x.mean(dim=1, keepdim=True, dtype=ms.float16)
    assert out.dtype == ms.float16 and out.shape == (3, 1)
    out = Tensor(np.arange(12).reshape(3, 4).astype(np.int32)).mean(dim=1, dtype=ms.float32)
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [1.5, 5.5, 9.5])
    assert x.mean(keep_dims=True, axis=1).shape == (3, 1)
    with pytest.raises(TypeError):
        x.mean(0, False, ms.float64)


def test_tensor_sum_overloads():
    x = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
    out = x.sum(0, False, dtype=ms.float64)
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), [12.0, 15.0, 18.0, 21.0])
    assert x.sum(0, ms.float64).dtype == ms.float64  # (axis, dtype)
    out = x.sum(dim=1, keepdim=True, dtype=ms.int32)
    assert out.dtype == ms.int32 and out.shape == (3, 1)
    np.testing.assert_array_equal(out.asnumpy().ravel(), [6, 22, 38])
    np.testing.assert_array_equal(x.sum(axis=1, keepdims=True, initial=2.0).asnumpy().ravel(),
                                  [8.0, 24.0, 40.0])
    with pytest.raises(TypeError):
        x.sum(0, False, ms.float64)


def test_tensor_split_and_argmax_dim_overloads():
    x = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
    a, b = x.split(split_size=2, dim=1)
    np.testing.assert_array_equal(b.asnumpy(), x.asnumpy()[:, 2:])
    assert [t.shape for t in x.split([1, 3], 1)] == [(3, 1), (3, 3)]
    assert [t.shape for t in x.split(split_size_or_sections=2, axis=1)] == [(3, 2), (3, 2)]
    out = x.argmax(dim=1, keepdim=True)
    assert out.dtype == ms.int64 and out.shape == (3, 1)
    np.testing.assert_array_equal(out.asnumpy().ravel(), [3, 3, 3])
    out = x.argmin(dim=1)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [0, 0, 0])


# ---- numpy on the left of a Tensor: numpy's result (MindSpore's PyNative Tensor) ----

def test_ndarray_on_the_left_gives_numpy_results():
    x1 = Tensor(np.array([1, 2, 3]), ms.float32)
    x2 = Tensor(np.array([2, 4, 6]), ms.float32)
    expect = abs(x1 - x2) < 2.0
    assert isinstance(expect, Tensor)
    out = np.array([True, False, False]) == expect
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, [True, True, True])
    out = np.ones(3) + x1
    assert isinstance(out, np.ndarray) and out.dtype == np.float64
    np.testing.assert_array_equal(out, [2.0, 3.0, 4.0])
    out = np.array([[1.0, 2.0], [3.0, 4.0]]) - Tensor(np.ones((2, 2), np.float32))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, [[0.0, 1.0], [2.0, 3.0]])
    assert isinstance(np.exp(x1), np.ndarray)


def test_numpy_scalar_on_the_left_stays_a_tensor_op():
    x1 = Tensor(np.array([1, 2, 3]), ms.float32)
    for s in (np.float32(2), np.float64(2), np.int64(2)):
        out = s * x1
        assert isinstance(out, Tensor) and out.dtype == ms.float32
        np.testing.assert_array_equal(out.asnumpy(), [2.0, 4.0, 6.0])
        np.testing.assert_array_equal((s - x1).asnumpy(), [1.0, 0.0, -1.0])


@pytest.mark.parametrize("tol, kind", [("str", "str"), (1, "int"), (True, "bool"),
                                       (None, "NoneType")])
def test_approximate_equal_tolerance_type(tol, kind):
    with pytest.raises(TypeError, match=rf"^For 'ApproximateEqual', the type of 'tolerance' "
                                        rf"should be 'float', but got type '{kind}'.$"):
        P.ApproximateEqual(tolerance=tol)


def test_approximate_equal_rank_limit():
    x = Tensor(np.ones([2] * 8, np.float32))
    with pytest.raises(RuntimeError, match=r"^For 'ApproximateEqual', the x's rank should be less "
                                           r"than 8, but got: 8$"):
        P.ApproximateEqual(0.5)(x, x)
    assert P.ApproximateEqual(0.5)(x[0], x[0]).shape == (2,) * 7


@pytest.mark.parametrize("shape, bad", [((2, -1, 4, 5), 1), ((-1, 4, 5), 0), ((-1, -1, 5), 0)])
def test_broadcast_to_minus_one_before_the_input_dims(shape, bad):
    x = Tensor(np.ones((4, 5), np.float32))
    with pytest.raises(ValueError, match=rf"^For 'BroadcastTo', -1 in init shape is in an "
                                         rf"incompatible location with given input tensor, -1 "
                                         rf"index in init shape: {bad} but -1 can only be in "
                                         rf"index{len(shape) - 2}onwards for this input.$"):
        P.BroadcastTo(shape)(x)
    assert P.BroadcastTo((2, -1, 5))(x).shape == (2, 4, 5)
    assert ops.broadcast_to(x, (3, -1, -1)).shape == (3, 4, 5)


def test_load_of_resident_data_returns_none():
    p = ms.Parameter(1)
    assert p._load() is None
    np.testing.assert_array_equal(p.asnumpy(), 1)
    assert Tensor(np.ones(2))._load() is None


def test_tensor_sum_bool_dtype_gives_bool():
    x = Tensor([[[1, 2, 3], [2, 3, 4]]], ms.float32)
    for out in (x.sum(dtype=ms.bool_, initial=12), x.sum(dtype=ms.bool_)):
        assert out.dtype == ms.bool_ and out.shape == () and bool(out) is True
    out = x.sum(axis=2, dtype=ms.bool_)
    assert out.dtype == ms.bool_ and out.asnumpy().tolist() == [[True, True]]
    assert bool((x * 0).sum(dtype=ms.bool_, initial=0)) is False


@pytest.mark.parametrize("kw, call", [(dict(dim=1, keepdim=1), "mean(dim=int, keepdim=int)"),
                                      (dict(axis=1, keep_dims=1), "mean(axis=int, keep_dims=int)")])
def test_tensor_mean_keep_flag_must_be_bool(kw, call):
    x = Tensor(np.ones((3, 3, 6), np.float32))
    with pytest.raises(TypeError, match=rf'^Failed calling mean with "{re.escape(call)}".$'):
        x.mean(**kw)
    assert x.mean(axis=1, keep_dims=True).shape == (3, 1, 6)


def test_ndarray_in_place_with_a_tensor():
    a = np.ones(3, np.float32)
    t = Tensor(np.ones(3, np.float32))
    a += t
    np.add(a, t, out=a)
    np.testing.assert_array_equal(a, [3.0, 3.0, 3.0])
    with pytest.raises(TypeError):
        np.add(a, a, out=(t,))
