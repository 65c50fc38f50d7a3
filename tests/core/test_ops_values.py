"""MindSpore semantics of the public ops: names, signatures, defaults, output dtypes and
values, primitive-class forms, and the errors bad input raises (spec §15 for dtypes)."""

import inspect

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def t(values, dtype):
    return Tensor(np.array(values, dtype=dtype))


I32 = t([1, 2, 4], np.int32)
F32 = t([1.5, -2.0, 4.0], np.float32)
B = t([True, False, True], np.bool_)
M23 = t([[1, 5, 3], [4, 2, 6]], np.float32)


def check(out, dtype, values):
    assert str(out.dtype) == dtype
    np.testing.assert_array_equal(out.asnumpy(), np.asarray(values))


# ---- signatures (parameter names and defaults of mindspore.ops.*) ----
@pytest.mark.parametrize(
    ("prim", "args", "call"),
    [
        (ops.ReduceSum, "(keep_dims=False, skip_mode=False)", "(x, axis=())"),
        (ops.ReduceMean, "(keep_dims=False)", "(x, axis=())"),
        (ops.Sort, "(axis=-1, descending=False)", "(x)"),
        (ops.TopK, "(sorted=True)", "(x, k)"),
        (ops.Argmax, "(axis=-1, output_type=mindspore.int32)", "(x)"),
        (ops.MatMul, "(transpose_a=False, transpose_b=False)", "(a, b)"),
        (ops.Concat, "(axis=0)", "(tensors)"),
        (ops.Split, "(axis=0, output_num=1)", "(x)"),
    ],
)
def test_primitive_signatures(prim, args, call):
    assert str(inspect.signature(prim.__init__)).replace("self, ", "").replace("self", "") == args
    assert str(inspect.signature(prim.__call__)).replace("self, ", "") == call


def test_public_names_hide_internals():
    assert "CAST" not in ops.__all__ and "IDENTITY" not in ops.__all__
    assert not [n for n in ops.__all__ if n.startswith("_")]
    for name in ("Sort", "UnsortedSegmentSum", "ReduceSum", "sort", "unsorted_segment_sum"):
        assert name in ops.__all__


# ---- output dtypes (spec §15 and the MindSpore docs) ----
DTYPES = [
    ("sum int32 -> Int64", lambda: ops.sum(I32), "Int64", 7),
    ("sum bool -> Int64", lambda: ops.sum(B), "Int64", 2),
    ("ReduceSum int32 -> Int64", lambda: ops.ReduceSum()(I32), "Int64", 7),
    ("Tensor.sum int32 -> Int64", lambda: I32.sum(), "Int64", 7),
    ("sum dtype", lambda: ops.sum(I32, dtype=ms.float32), "Float32", 7.0),
    ("sum float32", lambda: ops.sum(F32), "Float32", 3.5),
    ("mean int32 stays Int32", lambda: ops.mean(I32), "Int32", 2),
    ("Tensor.mean int32", lambda: t([1, 2], np.int32).mean(), "Int32", 1),
    ("mean float32", lambda: ops.mean(F32), "Float32", np.float32(3.5) / np.float32(3)),
    ("prod int32 (MindSpore 2.10 gives Int64)", lambda: ops.prod(I32), "Int64", 8),
    ("prod dtype", lambda: ops.prod(I32, dtype=ms.float32), "Float32", 8.0),
    ("argmax Int64", lambda: ops.argmax(F32), "Int64", 2),
    ("argmin Int32 (unlike argmax)", lambda: ops.argmin(F32), "Int32", 1),
    ("Argmax primitive Int32", lambda: ops.Argmax()(F32), "Int32", 2),
    ("Argmax output_type", lambda: ops.Argmax(output_type=ms.int64)(F32), "Int64", 2),
    ("Tensor.argmax Int64", lambda: F32.argmax(), "Int64", 2),
    ("max values", lambda: ops.max(M23, 1)[0], "Float32", [5, 6]),
    ("max indices Int64", lambda: ops.max(M23, 1)[1], "Int64", [1, 2]),
    ("min indices Int64", lambda: ops.min(M23, 0, keepdims=True)[1], "Int64", [[0, 1, 0]]),
    ("amax", lambda: ops.amax(M23), "Float32", 6),
    ("ReduceMax keep_dims", lambda: ops.ReduceMax(keep_dims=True)(M23, 1), "Float32", [[5], [6]]),
    # recorded from MindSpore 2.10 (ms_programs/ops_values.out): Int32 for ops.sort as well
    ("sort indices Int32", lambda: ops.sort(F32)[1], "Int32", [1, 0, 2]),
    ("Sort indices Int32", lambda: ops.Sort()(F32)[1], "Int32", [1, 0, 2]),
    ("Sort descending", lambda: ops.Sort(descending=True)(F32)[0], "Float32", [4, 1.5, -2]),
    ("topk indices Int32", lambda: ops.topk(F32, 2)[1], "Int32", [2, 0]),
    ("TopK", lambda: ops.TopK()(F32, 1)[0], "Float32", [4]),
    ("topk smallest", lambda: ops.topk(F32, 2, largest=False)[0], "Float32", [-2, 1.5]),
    ("int32 + float32", lambda: I32 + F32, "Float32", [2.5, 0, 8]),
    ("int32 + 1", lambda: I32 + 1, "Int32", [2, 3, 5]),
    ("int32 + 1.5", lambda: ops.add(I32, 1.5), "Float32", [2.5, 3.5, 5.5]),
    ("int64 * 2.0 -> Float32", lambda: t([1], np.int64) * 2.0, "Float32", [2]),
    ("int64 + float16", lambda: t([1], np.int64) + t([1], np.float16), "Float16", [2]),
    ("uint8 + int8", lambda: t([1], np.uint8) + t([1], np.int8), "Int16", [2]),
    ("uint8 + 300 wraps", lambda: t([1, 2], np.uint8) + 300, "UInt8", [45, 46]),
    ("bool + 1 -> Int64", lambda: B + 1, "Int64", [2, 1, 2]),
    ("bool + bool", lambda: B + B, "Bool", [True, False, True]),
    ("float16 + 0-d float32", lambda: t([1], np.float16) + t(1, np.float32), "Float32", [2]),
    ("int32 / int32", lambda: ops.div(I32, I32), "Float32", [1, 1, 1]),
    ("div floor", lambda: ops.div(t([7, -7], np.int32), 2, rounding_mode="floor"), "Int32",
     [3, -4]),
    ("div trunc", lambda: ops.div(t([7, -7], np.int32), 2, rounding_mode="trunc"), "Int32",
     [3, -3]),
    ("div trunc float", lambda: ops.div(F32, 2, rounding_mode="trunc"), "Float32", [0, -1, 2]),
    ("int32 // 2", lambda: I32 // 2, "Int32", [0, 1, 2]),
    ("int32 ** 2", lambda: ops.pow(I32, 2), "Int32", [1, 4, 16]),
    ("int32 ** 0.5", lambda: I32**0.5, "Float32", np.sqrt([1, 2, 4], dtype=np.float32)),
    ("sqrt int32", lambda: ops.sqrt(I32), "Float32", np.sqrt([1, 2, 4], dtype=np.float32)),
    ("square int32", lambda: ops.square(I32), "Int32", [1, 4, 16]),
    ("int32 == 1.0", lambda: I32 == 1.0, "Bool", [True, False, False]),
    ("gt", lambda: ops.gt(F32, 1), "Bool", [True, False, True]),
    ("logical_and", lambda: ops.logical_and(B, True), "Bool", [True, False, True]),
    ("logical_not", lambda: ops.logical_not(B), "Bool", [False, True, False]),
    ("cast", lambda: ops.cast(F32, ms.int32), "Int32", [1, -2, 4]),
    ("Cast primitive", lambda: ops.Cast()(I32, ms.float16), "Float16", [1, 2, 4]),
    ("ones default Float32", lambda: ops.ones((2,)), "Float32", [1, 1]),
    ("ones int shape", lambda: ops.ones(2, ms.int32), "Int32", [1, 1]),
    ("zeros", lambda: ops.zeros((1, 2), ms.bool_), "Bool", [[False, False]]),
    ("ones_like", lambda: ops.ones_like(I32), "Int32", [1, 1, 1]),
    ("zeros_like dtype", lambda: ops.zeros_like(I32, dtype=ms.float32), "Float32", [0, 0, 0]),
    ("full int", lambda: ops.full((2,), 3), "Int64", [3, 3]),
    ("full float is Int64 too", lambda: ops.full((2,), 1.5), "Int64", [1, 1]),
    ("full dtype", lambda: ops.full((1,), 1.5, dtype=ms.float32), "Float32", [1.5]),
    ("full_like", lambda: ops.full_like(F32, 2), "Float32", [2, 2, 2]),
    ("fill", lambda: ops.fill(ms.float16, (2,), 2), "Float16", [2, 2]),
    ("Fill primitive", lambda: ops.Fill()(ms.int32, (1, 2), 7), "Int32", [[7, 7]]),
    ("arange int", lambda: ops.arange(3), "Int64", [0, 1, 2]),
    ("arange float", lambda: ops.arange(0, 1, 0.25), "Float32", [0, 0.25, 0.5, 0.75]),
    ("arange dtype", lambda: ops.arange(1, 3, dtype=ms.float64), "Float64", [1, 2]),
    ("where promotes", lambda: ops.where(B, I32, 2.5), "Float32", [1, 2.5, 4]),
    ("where scalar input", lambda: ops.where(B, 7, I32), "Int32", [7, 2, 7]),
    ("where tensors", lambda: ops.where(B, I32, F32), "Float32", [1, -2, 4]),
    ("select", lambda: ops.select(B, F32, 0.0), "Float32", [1.5, 0, 4]),
    ("Select primitive", lambda: ops.Select()(B, I32, I32 * 0), "Int32", [1, 0, 4]),
    ("masked_fill", lambda: ops.masked_fill(I32, B, 9), "Int32", [9, 2, 9]),
    ("masked_select", lambda: ops.masked_select(F32, B), "Float32", [1.5, 4]),
    ("gather", lambda: ops.gather(M23, t([2, 0], np.int32), 1), "Float32", [[3, 1], [6, 4]]),
    ("Gather primitive", lambda: ops.Gather()(F32, t([1], np.int64), 0), "Float32", [-2]),
    ("gather_elements", lambda: ops.gather_elements(t([[1, 2], [3, 4]], np.int32), 1,
                                                    t([[0, 0], [1, 0]], np.int32)),
     "Int32", [[1, 1], [4, 3]]),
    ("index_select", lambda: ops.index_select(M23, 0, t([1], np.int32)), "Float32", [[4, 2, 6]]),
    ("unsorted_segment_sum drops negative ids",
     lambda: ops.unsorted_segment_sum(t([1, 2, 3, 4], np.float32), t([0, 1, -1, 0], np.int32),
                                      2), "Float32", [5, 2]),
    ("UnsortedSegmentSum primitive",
     lambda: ops.UnsortedSegmentSum()(t([[1, 2], [3, 4], [5, 6]], np.int32),
                                      t([1, 1, 0], np.int32), 3),
     "Int32", [[5, 6], [4, 6], [0, 0]]),
    ("clamp", lambda: ops.clamp(F32, -1, 2), "Float32", [1.5, -1, 2]),
    ("clamp max only", lambda: ops.clamp(F32, max=1.0), "Float32", [1, -2, 1]),
    ("clip_by_value", lambda: ops.clip_by_value(F32, 0.0, 3.0), "Float32", [1.5, 0, 3]),
    ("clamp min > max gives max", lambda: ops.clamp(F32, 3.0, 1.0), "Float32", [1, 1, 1]),
    ("abs", lambda: ops.abs(F32), "Float32", [1.5, 2, 4]),
    ("neg int32", lambda: ops.neg(I32), "Int32", [-1, -2, -4]),
    ("maximum", lambda: ops.maximum(I32, F32), "Float32", [1.5, 2, 4]),
    ("minimum scalar", lambda: ops.minimum(I32, 2), "Int32", [1, 2, 2]),
]


@pytest.mark.parametrize(("label", "fn", "dtype", "values"), DTYPES, ids=[d[0] for d in DTYPES])
def test_output_dtype_and_values(label, fn, dtype, values):
    check(fn(), dtype, values)


# ---- shapes and values of shape ops ----
SHAPES = [
    (lambda: ops.reshape(M23, (3, -1)), (3, 2)),
    (lambda: ops.Reshape()(M23, (6,)), (6,)),
    (lambda: ops.transpose(M23, (1, 0)), (3, 2)),
    (lambda: ops.Transpose()(Tensor(np.zeros((2, 3, 4))), (2, 0, 1)), (4, 2, 3)),
    (lambda: ops.permute(Tensor(np.zeros((2, 3, 4))), (1, 2, 0)), (3, 4, 2)),
    (lambda: ops.expand_dims(F32, -1), (3, 1)),
    (lambda: ops.ExpandDims()(F32, 0), (1, 3)),
    (lambda: ops.squeeze(Tensor(np.zeros((1, 2, 1)))), (2,)),
    (lambda: ops.squeeze(Tensor(np.zeros((1, 2, 1))), 2), (1, 2)),
    (lambda: ops.Squeeze(0)(Tensor(np.zeros((1, 2, 1)))), (2, 1)),
    (lambda: ops.Squeeze()(Tensor(np.zeros((1, 2, 1)))), (2,)),
    (lambda: ops.squeeze(Tensor(np.zeros((1, 2, 1))), ()), (2,)),
    (lambda: ops.broadcast_to(F32, (2, 3)), (2, 3)),
    (lambda: ops.broadcast_to(Tensor(np.zeros((2, 1))), (-1, 4)), (2, 4)),
    (lambda: ops.BroadcastTo((2, 2, 3))(F32), (2, 2, 3)),
    (lambda: ops.concat((M23, M23), 1), (2, 6)),
    (lambda: ops.Concat(-1)((F32, F32)), (6,)),
    (lambda: ops.stack((F32, F32), -1), (3, 2)),
    (lambda: ops.Stack(1)((M23, M23)), (2, 2, 3)),
    (lambda: ops.tile(M23, (2, 1)), (4, 3)),
    (lambda: ops.tile(M23, (2,)), (2, 6)),
    (lambda: ops.tile(F32, (2, 1, 2)), (2, 1, 6)),
    (lambda: ops.Tile()(F32, (2,)), (6,)),
    (lambda: ops.flatten(Tensor(np.zeros((2, 3, 4)))), (2, 12)),
    (lambda: ops.flatten(Tensor(np.zeros((2, 3, 4))), start_dim=0), (24,)),
    (lambda: ops.Flatten()(Tensor(np.zeros((2, 3, 4)))), (2, 12)),
    (lambda: Tensor(np.zeros((2, 3, 4))).flatten(), (24,)),
    (lambda: ops.swapaxes(Tensor(np.zeros((2, 3, 4))), 0, 2), (4, 3, 2)),
    (lambda: ops.MatMul(transpose_b=True)(M23, M23), (2, 2)),
    (lambda: ops.BatchMatMul()(Tensor(np.zeros((5, 2, 3))), Tensor(np.zeros((5, 3, 4)))),
     (5, 2, 4)),
    (lambda: ops.matmul(Tensor(np.zeros((2, 1, 2, 3))), Tensor(np.zeros((4, 3, 5)))),
     (2, 4, 2, 5)),
]


@pytest.mark.parametrize(("fn", "shape"), SHAPES)
def test_shape_ops(fn, shape):
    assert fn().shape == shape


def test_shape_ops_move_the_right_values():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    tx = Tensor(x)
    np.testing.assert_array_equal(ops.permute(tx, (2, 0, 1)).asnumpy(), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(ops.tile(tx, (2, 1, 1)).asnumpy(), np.tile(x, (2, 1, 1)))
    np.testing.assert_array_equal(ops.concat((tx, tx), 1).asnumpy(), np.concatenate((x, x), 1))
    np.testing.assert_array_equal(ops.stack((tx, tx), 1).asnumpy(), np.stack((x, x), 1))
    parts = ops.split(tx, 2, 2)
    assert [p.shape for p in parts] == [(2, 3, 2), (2, 3, 2)]
    np.testing.assert_array_equal(parts[1].asnumpy(), x[..., 2:])
    parts = ops.split(Tensor(np.arange(5.0)), 2)
    assert [p.asnumpy().tolist() for p in parts] == [[0, 1], [2, 3], [4]]
    parts = ops.split(tx, [1, 2], 1)
    assert [p.shape for p in parts] == [(2, 1, 4), (2, 2, 4)]
    parts = ops.Split(axis=2, output_num=4)(tx)
    assert len(parts) == 4 and parts[3].asnumpy().tolist() == x[..., 3:].tolist()


def test_sort_and_topk_along_axes():
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32)
    values, idx = ops.sort(Tensor(x), axis=0, descending=True)
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-x, axis=0))
    np.testing.assert_array_equal(idx.asnumpy(), [[0, 1, 1], [1, 0, 0]])
    values, idx = ops.topk(Tensor(x), 1, dim=0)
    assert values.asnumpy().tolist() == [[3, 5, 4]] and idx.asnumpy().tolist() == [[0, 1, 1]]
    values, idx = ops.Sort(axis=1)(Tensor(x))
    np.testing.assert_array_equal(values.asnumpy(), np.sort(x, 1))
    assert str(idx.dtype) == "Int32"


def test_assign_writes_in_place_and_returns_the_new_value():
    v = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="v")
    out = ops.assign(v, Tensor(np.array([1, 2, 3], np.int32)))
    # MindSpore 2.10 returns a Tensor of the new value, not the Parameter, sharing no memory
    assert not isinstance(out, ms.Parameter) and str(out.dtype) == "Float32"
    assert str(v.dtype) == "Float32" and v.asnumpy().tolist() == [1, 2, 3]
    out[0] = 9
    assert out.asnumpy().tolist() == [9, 2, 3] and v.asnumpy().tolist() == [1, 2, 3]
    ops.Assign()(v, Tensor(np.float32(5)))
    assert v.asnumpy().tolist() == [5, 5, 5]


def test_stop_gradient_cuts_the_tape():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    g = ms.grad(lambda a: (a * ops.stop_gradient(a * 3)).sum())(x)
    assert g.asnumpy().tolist() == [3, 6]


# ---- bad input: ValueError/TypeError naming the op, the shapes/dtypes and the expectation ----
A23 = Tensor(np.ones((2, 3), np.float32))
A4 = Tensor(np.ones(4, np.float32))

ERRORS = [
    ("add shapes", lambda: ops.add(A23, A4), ValueError, ["'add'", "(2, 3)", "(4,)"]),
    ("dunder mul shapes", lambda: A23 * A4, ValueError, ["'mul'", "(2, 3)", "(4,)"]),
    ("gt shapes", lambda: A23 > A4, ValueError, ["'gt'", "(2, 3)", "(4,)"]),
    ("matmul inner", lambda: ops.matmul(A23, Tensor(np.ones((4, 2)))), ValueError,
     ["'matmul'", "(2, 3)", "(4, 2)"]),
    ("matmul batch", lambda: Tensor(np.ones((2, 2, 3))) @ Tensor(np.ones((3, 3, 2))), ValueError,
     ["'matmul'", "(2, 2, 3)", "(3, 3, 2)"]),
    ("matmul 0-d", lambda: ops.matmul(A4, Tensor(np.float32(2))), ValueError, ["'matmul'"]),
    ("matmul non-tensor", lambda: ops.matmul(A23, [[1.0]]), TypeError, ["'matmul'", "list"]),
    ("add numpy array", lambda: A23 + np.ones(3), TypeError, ["add", "numpy"]),
    ("where shapes", lambda: ops.where(Tensor(np.ones((2, 2), bool)), A23, 0.0), ValueError,
     ["'where'", "(2, 2)", "(2, 3)"]),
    ("where non-bool", lambda: ops.where(A23, A23, A23), TypeError, ["'where'", "bool"]),
    ("where two scalars", lambda: ops.where(B, 1, 2), TypeError, ["'where'", "scalars"]),
    ("masked_fill mask dtype", lambda: ops.masked_fill(A23, A23, 0.0), TypeError,
     ["'masked_fill'", "bool"]),
    ("masked_select shapes", lambda: ops.masked_select(A23, Tensor(np.ones(2, bool))),
     ValueError, ["'masked_select'", "(2,)", "(2, 3)"]),
    ("reshape", lambda: ops.reshape(A23, (4, 2)), ValueError, ["'reshape'", "(2, 3)", "(4, 2)"]),
    ("transpose perm", lambda: ops.transpose(A23, (0, 0)), ValueError, ["'transpose'", "(0, 0)"]),
    ("expand_dims axis", lambda: ops.expand_dims(A23, 5), ValueError, ["'expand_dims'", "5"]),
    ("squeeze non-1", lambda: ops.squeeze(A23, 1), ValueError, ["'squeeze'", "(2, 3)"]),
    ("broadcast_to", lambda: ops.broadcast_to(A23, (4, 3)), ValueError,
     ["'broadcast_to'", "(2, 3)", "(4, 3)"]),
    ("concat shapes", lambda: ops.concat((A23, A4)), ValueError, ["'concat'", "(2, 3)", "(4,)"]),
    ("concat dtypes", lambda: ops.concat((F32, I32)), TypeError, ["'concat'", "Int32"]),
    ("concat empty", lambda: ops.concat(()), ValueError, ["'concat'", "empty"]),
    ("stack shapes", lambda: ops.stack((A23, A4)), ValueError, ["'stack'", "(2, 3)", "(4,)"]),
    ("stack dtypes", lambda: ops.stack((F32, I32)), TypeError, ["'stack'", "Float32", "Int32"]),
    ("stack non-tensor", lambda: ops.stack((F32, [1.0, 2.0, 3.0])), TypeError, ["'stack'"]),
    ("split sections", lambda: ops.split(A23, [1, 1], 1), ValueError, ["'split'", "[1, 1]"]),
    ("Split divisibility", lambda: ops.Split(1, 2)(A23), ValueError, ["'Split'", "(2, 3)"]),
    ("tile negative", lambda: ops.tile(A23, (1, -1)), ValueError, ["'tile'", "-1"]),
    ("tile type", lambda: ops.tile(A23, 2), TypeError, ["'tile'", "tuple"]),
    ("sum axis", lambda: ops.sum(A23, 2), ValueError, ["'sum'", "'axis' 2", "rank 2"]),
    ("mean axis", lambda: ops.mean(A23, (0, -3)), ValueError, ["'mean'", "(0, -3)", "rank 2"]),
    ("ReduceMax axis type", lambda: ops.ReduceMax()(A23, 0.5), TypeError, ["'amax'", "0.5"]),
    ("argmax empty", lambda: ops.argmax(Tensor(np.zeros(0, np.float32))), ValueError,
     ["argmax", "empty"]),
    ("amax empty", lambda: ops.amax(Tensor(np.zeros((0, 2), np.float32))), ValueError,
     ["empty", "(0, 2)"]),
    ("gather float indices", lambda: ops.gather(A23, Tensor([0.5]), 0), TypeError,
     ["'gather'", "integer"]),
    ("gather out of range", lambda: ops.gather(A23, t([2], np.int32), 0), IndexError,
     ["'Gather'", "'input_indices'", "[0, 2)", "got 2"]),
    ("gather_elements rank", lambda: ops.gather_elements(A23, 0, t([0], np.int32)), ValueError,
     ["'gather_elements'", "(1,)", "(2, 3)"]),
    ("gather_elements range", lambda: ops.gather_elements(A23, 1, t([[3]], np.int32)),
     IndexError, ["'gather_elements'", "[-3, 3)"]),
    ("segment ids dtype", lambda: ops.unsorted_segment_sum(A23, Tensor([0.0, 1.0]), 2),
     TypeError, ["UnsortedSegmentSum", "integer"]),
    ("segment id too large", lambda: ops.unsorted_segment_sum(
        t([1, 2], np.float32), t([0, 3], np.int32), 2), ValueError,
     ["'UnsortedSegmentSum'", "should be [0, 2)"]),
    ("segment ids shape", lambda: ops.unsorted_segment_sum(A23, t([0, 1, 1], np.int32), 2),
     ValueError, ["UnsortedSegmentSum", "(3,)", "(2, 3)"]),
    ("sort 0-d", lambda: ops.sort(Tensor(np.float32(1))), ValueError, ["'sort'", "0-d"]),
    ("topk k", lambda: ops.topk(A23, 4), ValueError, ["'topk'", "4", "(2, 3)"]),
    ("clamp no bounds", lambda: ops.clamp(A23), ValueError, ["'clamp'", "None"]),
    ("div rounding_mode", lambda: ops.div(A23, 2, rounding_mode="round"), ValueError,
     ["'div'", "'round'"]),
    ("ones negative", lambda: ops.ones((2, -1)), ValueError, ["'ones'", "-1"]),
    ("zeros shape type", lambda: ops.zeros("a"), TypeError, ["'zeros'", "shape"]),
    ("arange step 0", lambda: ops.arange(0, 3, 0), ValueError, ["Range", "delta", "zero"]),
    ("cast dtype", lambda: ops.cast(A23, "quaternion"), TypeError, ["quaternion"]),
    ("assign shapes", lambda: ops.assign(A23, A4), ValueError, ["'assign'", "(4,)", "(2, 3)"]),
    ("assign non-tensor", lambda: ops.assign([1.0], A4), TypeError, ["'assign'", "list"]),
    ("neg bool", lambda: -B, TypeError, ["'neg'", "Bool"]),
    ("gather batch_dims", lambda: ops.gather(A23, t([0], np.int32), 0, 1), ValueError,
     ["'gather'", "batch_dims"]),
]


@pytest.mark.parametrize(("label", "fn", "exc", "parts"), ERRORS, ids=[e[0] for e in ERRORS])
def test_bad_input_raises_a_named_error(label, fn, exc, parts):
    with pytest.raises(exc) as info:
        fn()
    msg = str(info.value)
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"
    # numpy's own error, when there is one, is kept as the cause ("The above exception was the
    # direct cause ..."), never as an unrelated error during handling (issue 21 item 8)
    err = info.value
    assert err.__context__ is None or err.__suppress_context__
    assert err.__cause__ is None or err.__cause__ is err.__context__
