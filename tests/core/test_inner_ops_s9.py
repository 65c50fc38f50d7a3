"""MindSpore's private op modules its own tests import: `_inner_ops.IsSubClass`/`ClipByNorm`,
the sparse segment reductions and `SparseAdd`, `math_ops.AddV2`, `_sequence_ops.SequenceStack`,
`array_ops.ConcatOffsetV1`, `_grad_ops.ResizeBilinearGrad`, `CombinedNonMaxSuppression`,
`ops._grad_experimental`, `ops._utils`, `hal.contiguous_tensors_handle` and two helpers.

Every expected value, dtype and error below was printed by MindSpore 2.10 (CPU) on the same
inputs.
"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.common import dtype as mstype
from cellgrad.ops.operations import _grad_ops as G
from cellgrad.ops.operations import _inner_ops as inner
from cellgrad.ops.operations import image_ops
from cellgrad.ops.operations import sparse_ops as S
from cellgrad.testing import gradcheck


class _Net(nn.Cell):
    def __init__(self, prim):
        super().__init__()
        self.prim = prim

    def construct(self, *args):
        return self.prim(*args)


def _grads(prim, *args, sens=None):
    net = _Net(prim)
    if sens is None:
        return ops.GradOperation(get_all=True)(net)(*args)
    return ops.GradOperation(get_all=True, sens_param=True)(net)(*args, sens)


# ---------------------------------------------------------------- IsSubClass and dtype kinds

@pytest.mark.parametrize("sub, sup, expect", [
    (mstype.int32, mstype.number, True), (mstype.int32, mstype.Int, True),
    (mstype.float32, mstype.Int, False), (mstype.number, mstype.number, True),
    (mstype.bool_, mstype.number, True), (mstype.int32, mstype.int32, True),
    (mstype.float16, mstype.Float, True), (mstype.uint8, mstype.uint, True),
    (mstype.complex64, mstype.number, True), (mstype.number, mstype.Int, False),
    (mstype.int8, mstype.int16, False), (mstype.bfloat16, mstype.Float, False),
    (mstype.bfloat16, mstype.number, True), (mstype.uint, mstype.number, True),
    (mstype.list_, mstype.number, False), (mstype.number, mstype.list_, False),
    (mstype.TensorType(mstype.float32), mstype.tensor_type, True),
    (mstype.float32, mstype.tensor_type, False),
])
def test_is_subclass(sub, sup, expect):
    assert inner.IsSubClass()(sub, sup) is expect


@pytest.mark.parametrize("args, arg, got", [((None, mstype.number), "sub_type", "NoneType"),
                                             ((mstype.number, None), "type_", "NoneType"),
                                             ((1, mstype.number), "sub_type", "int")])
def test_is_subclass_rejects_non_types(args, arg, got):
    with pytest.raises(TypeError, match=f"For 'IsSubClass', the type of '{arg}' should be 'Type', "
                                        f"but got type '{got}'."):
        inner.IsSubClass()(*args)


def test_dtype_kinds():
    assert (str(mstype.number), str(mstype.uint)) == ("Number", "UInt")
    assert (repr(ms.number), repr(ms.uint)) == ("mindspore.number", "mindspore.uint")
    assert isinstance(mstype.number, mstype.Type)


@pytest.mark.parametrize("x, y, arg", [(5.0, "t", "x"), ("t", 5.0, "y")])
def test_same_type_shape_errors(x, y, arg):
    t = Tensor(np.ones([3, 4], np.float32))
    x, y = (t if v == "t" else v for v in (x, y))
    with pytest.raises(TypeError, match=f"For 'SameTypeShape', the type of '{arg}' should be "
                                        f"'Tensor', but got type 'float'."):
        inner.SameTypeShape()(x, y)


# ---------------------------------------------------------------- ClipByNorm

def test_clip_by_norm_values_and_grads():
    x = Tensor(np.array([[1., 2., 3.], [0.1, 0.2, 0.1]], np.float32))
    c = Tensor(np.array([1.0], np.float32))
    expect = [[0.26669037, 0.53338075, 0.8000711], [0.02666904, 0.05333807, 0.02666904]]
    for axis in (None, (0, 1)):
        out = _Net(inner.ClipByNorm(axis))(x, c)
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-6)
        dx, dc = _grads(inner.ClipByNorm(axis), x, c)
        np.testing.assert_allclose(dx.asnumpy(), [[1.45295039e-01, 2.38997042e-02, -9.74956155e-02],
                                                  [2.54550844e-01, 2.42411301e-01, 2.54550844e-01]],
                                   rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(dc.asnumpy(), [1.70681834], rtol=1e-6)
    # a norm below clip_norm leaves x as it is
    np.testing.assert_allclose(inner.ClipByNorm()(x, Tensor(5.0, ms.float32)).asnumpy(),
                               x.asnumpy(), rtol=1e-6)
    assert inner.ClipByNorm()(Tensor(np.array([1, 2], np.float16)),
                              Tensor(1.0, ms.float32)).dtype == ms.float32


def test_clip_by_norm_per_axis_is_the_documented_formula():
    x = np.array([[1., 2., 3.], [0.1, 0.2, 0.1]], np.float32)
    out = inner.ClipByNorm(1)(Tensor(x), Tensor(np.array([1.0], np.float32))).asnumpy()
    norm = np.sqrt((x * x).sum(1, keepdims=True))
    np.testing.assert_allclose(out, x / np.maximum(norm, 1.0), rtol=1e-6)


@pytest.mark.parametrize("make, exc, msg", [
    (lambda x, c: inner.ClipByNorm(1.0), TypeError,
     "For 'ClipByNorm', the type of 'axis' should be one of '['int', 'tuple', 'list']', but got "
     "type 'float'."),
    (lambda x, c: inner.ClipByNorm(3)(x, c), ValueError,
     "The value in attribute `axis` should be within [-2, 2) range."),
    (lambda x, c: inner.ClipByNorm()(x, 1.0), TypeError,
     "For 'ClipByNorm', the input args must be tensor."),
    (lambda x, c: inner.ClipByNorm()(Tensor([1, 2], ms.int32), c), TypeError,
     "For primitive[ClipByNorm], the input argument[x] must be a type of {Float16, Float32}, "
     "but got Int32."),
])
def test_clip_by_norm_errors(make, exc, msg):
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(exc) as info:
        make(x, Tensor(np.array([1.0], np.float32)))
    assert str(info.value) == msg


# ---------------------------------------------------------------- sparse segment reductions

_X = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], np.float32)
_IDX = np.array([0, 1, 2, 2], np.int32)


def test_sparse_segment_sqrt_n():
    args = (Tensor(_X), Tensor(_IDX), Tensor(np.array([0, 0, 1, 1], np.int32)))
    out = S.SparseSegmentSqrtN()(*args)
    np.testing.assert_allclose(out.asnumpy(), [[4.242641, 5.656854, 7.071068, 8.485282],
                                               [12.727922, 14.142136, 15.55635, 16.970564]],
                               rtol=1e-6)
    dx, di, ds = _grads(S.SparseSegmentSqrtN(), *args,
                        sens=Tensor(np.arange(8, dtype=np.float32).reshape(2, 4)))
    np.testing.assert_allclose(dx.asnumpy(), [[0, 0.707106769, 1.41421354, 2.12132049],
                                              [0, 0.707106769, 1.41421354, 2.12132049],
                                              [5.65685415, 7.07106781, 8.48528194, 9.89949512]],
                               rtol=1e-6)
    assert di.dtype == ms.int32 and not di.asnumpy().any() and not ds.asnumpy().any()


def test_sparse_segment_with_num_segments():
    args = (Tensor(_X), Tensor(_IDX), Tensor(np.array([0, 0, 2, 2], np.int32)),
            Tensor([4], ms.int32))
    sqrt_n = S.SparseSegmentSqrtNWithNumSegments()(*args)
    np.testing.assert_allclose(sqrt_n.asnumpy(), [[4.242641, 5.656854, 7.071068, 8.485282],
                                                  [0, 0, 0, 0],
                                                  [12.727922, 14.142136, 15.55635, 16.970564],
                                                  [0, 0, 0, 0]], rtol=1e-6)
    mean = S.SparseSegmentMeanWithNumSegments()(*args)
    np.testing.assert_allclose(mean.asnumpy(), [[3, 4, 5, 6], [0, 0, 0, 0], [9, 10, 11, 12],
                                                [0, 0, 0, 0]])
    sens = Tensor(np.arange(16, dtype=np.float32).reshape(4, 4))
    dx = _grads(S.SparseSegmentMeanWithNumSegments(), *args, sens=sens)[0]
    np.testing.assert_allclose(dx.asnumpy(), [[0, 0.5, 1, 1.5], [0, 0.5, 1, 1.5],
                                              [8, 9, 10, 11]])
    grads = _grads(S.SparseSegmentSqrtNWithNumSegments(), *args, sens=sens)
    np.testing.assert_allclose(grads[0].asnumpy()[2], [11.3137083, 12.7279224, 14.1421356,
                                                       15.5563498], rtol=1e-6)
    assert len(grads) == 4 and grads[3].shape == (1,)
    f64 = S.SparseSegmentSqrtN()(Tensor(np.arange(6, dtype=np.float64).reshape(3, 2)),
                                 Tensor([2, 0], ms.int64), Tensor([0, 1], ms.int64))
    assert f64.dtype == ms.float64 and f64.asnumpy().tolist() == [[4, 5], [0, 1]]
    f16 = S.SparseSegmentMeanWithNumSegments()(
        Tensor(np.arange(6, dtype=np.float16).reshape(3, 2)), Tensor([2, 0], ms.int64),
        Tensor([0, 1], ms.int64), Tensor(3, ms.int64))
    assert f16.dtype == ms.float16 and f16.asnumpy().tolist() == [[4, 5], [0, 1], [0, 0]]


@pytest.mark.parametrize("prim", [S.SparseSegmentSqrtN, S.SparseSegmentSqrtNWithNumSegments,
                                  S.SparseSegmentMeanWithNumSegments])
def test_sparse_segment_gradcheck(prim):
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((4, 3)))
    idx, seg = Tensor([3, 0, 0, 2], ms.int32), Tensor([0, 0, 1, 1], ms.int32)
    extra = () if prim is S.SparseSegmentSqrtN else (Tensor(3, ms.int32),)
    assert gradcheck(lambda v: prim()(v, idx, seg, *extra), x)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda x: S.SparseSegmentSqrtN()(x, Tensor([0, 5], ms.int32), Tensor([0, 1], ms.int32)),
     ValueError, "For 'SparseSegmentSqrtN', indices is out of range of x's first dimension."),
    (lambda x: S.SparseSegmentSqrtN()(x, Tensor([0, 1], ms.int32), Tensor([1, 0], ms.int32)),
     ValueError, "For 'SparseSegmentSqrtN', indices in 'segment_ids' should be start from 0."),
    (lambda x: S.SparseSegmentSqrtN()(Tensor([[1, 2]], ms.int32), Tensor([0], ms.int32),
                                      Tensor([0], ms.int32)), TypeError,
     "For primitive[SparseSegmentSqrtN], the input argument[x] must be a type of "
     "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32]."),
    (lambda x: S.SparseSegmentSqrtN()(x, Tensor([0, 1], ms.int32), Tensor([0], ms.int32)),
     ValueError, "For 'SparseSegmentSqrtN', the rank of indices and segment_ids must be the "
                 "same, but got indices [2] and segment_ids [1]."),
    (lambda x: S.SparseSegmentSqrtNWithNumSegments()(x, Tensor([0, 1], ms.int32),
                                                     Tensor([0, 3], ms.int32),
                                                     Tensor(2, ms.int32)),
     ValueError, "For 'SparseSegmentSqrtNWithNumSegments', num_segments must be bigger than "
                 "the largest id of segment_ids."),
    (lambda x: S.SparseSegmentSqrtNWithNumSegments()(x, Tensor([0, 1], ms.int32),
                                                     Tensor([1, 0], ms.int32),
                                                     Tensor(3, ms.int32)),
     ValueError, "For 'SparseSegmentSqrtNWithNumSegments', segment_ids should be sorted."),
    (lambda x: S.SparseSegmentMeanWithNumSegments()(x, Tensor([0, 1], ms.int32),
                                                    Tensor([1, 0], ms.int32),
                                                    Tensor(3, ms.int32)),
     ValueError, "For 'SparseSegmentMeanWithNumSegments', input segment_ids should be sorted."),
    (lambda x: S.SparseSegmentMeanWithNumSegments()(x, Tensor([0, 4], ms.int32),
                                                    Tensor([0, 0], ms.int32),
                                                    Tensor(3, ms.int32)),
     ValueError, "For 'SparseSegmentMeanWithNumSegments', input indices is out of range of x's "
                 "first dimension."),
    (lambda x: S.SparseSegmentMeanWithNumSegments()(x, Tensor([0, 1], ms.int32),
                                                    Tensor([0, 1], ms.int64),
                                                    Tensor(2, ms.int32)),
     TypeError, "For primitive[SparseSegmentMeanWithNumSegments], the input type must be same."),
    (lambda x: S.SparseSegmentSqrtN()(x, Tensor([0., 1.]), Tensor([0, 1], ms.int32)),
     TypeError, "For primitive[SparseSegmentSqrtN], the input argument[indices] must be a type "
                "of {Tensor[Int32], Tensor[Int64]}, but got Tensor[Float32]."),
])
def test_sparse_segment_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call(Tensor(_X))
    assert str(info.value) == msg


# ---------------------------------------------------------------- SparseAdd

def _sparse_add_inputs(thresh=0.0):
    return (Tensor([[0, 1], [1, 2]], ms.int64), Tensor([1, 2], ms.float32),
            Tensor([3, 4], ms.int64), Tensor([[0, 1], [2, 2], [0, 0]], ms.int64),
            Tensor([-1, 3, 0.5], ms.float32), Tensor([3, 4], ms.int64),
            Tensor(thresh, ms.float32))


@pytest.mark.parametrize("thresh, indices, values", [
    (0.0, [[0, 1], [1, 2], [2, 2], [0, 0]], [0, 2, 3, 0.5]),
    (0.6, [[1, 2], [2, 2], [0, 0]], [2, 3, 0.5]),
    (-1.0, [[0, 1], [1, 2], [2, 2], [0, 0]], [0, 2, 3, 0.5]),
])
def test_sparse_add(thresh, indices, values):
    idx, vals, shape = S.SparseAdd()(*_sparse_add_inputs(thresh))
    assert idx.dtype == ms.int64 and idx.asnumpy().tolist() == indices
    assert vals.dtype == ms.float32 and vals.asnumpy().tolist() == values
    assert shape.dtype == ms.int64 and shape.asnumpy().tolist() == [3, 4]


def test_sparse_add_grads_and_ints():
    args = _sparse_add_inputs()
    out = S.SparseAdd()(*args)
    sens = (ops.zeros_like(out[0]), Tensor(np.arange(1, 5, dtype=np.float32)),
            ops.zeros_like(out[2]))
    grads = _grads(S.SparseAdd(), *args, sens=sens)
    assert grads[1].asnumpy().tolist() == [1, 2] and grads[4].asnumpy().tolist() == [1, 3, 4]
    assert grads[0].shape == (2, 2) and not grads[0].asnumpy().any()
    assert grads[6].shape == () and grads[6].asnumpy() == 0
    idx, vals, shape = S.SparseAdd()(
        Tensor([[0]], ms.int64), Tensor([1], ms.int32), Tensor([3], ms.int64),
        Tensor([[0], [2]], ms.int64), Tensor([1, -4], ms.int32), Tensor([3], ms.int64),
        Tensor(2, ms.int32))
    assert idx.asnumpy().tolist() == [[0], [2]] and vals.dtype == ms.int32
    assert vals.asnumpy().tolist() == [2, -4] and shape.asnumpy().tolist() == [3]


def test_sparse_add_gradcheck():
    a_i, _, a_s, b_i, _, b_s, _ = _sparse_add_inputs()
    a_v, b_v = Tensor([1.0, 2.0], ms.float64), Tensor([-0.5, 3.0, 0.5], ms.float64)
    thresh = Tensor(0.0, ms.float64)
    assert gradcheck(lambda a, b: S.SparseAdd()(a_i, a, a_s, b_i, b, b_s, thresh)[1], a_v, b_v)


@pytest.mark.parametrize("change, msg", [
    ({4: Tensor([1, 2, 3], ms.float64)},
     "For SparseAdd, the type of x1_values, and x2_values should be the same data type, but got "
     "type of x1_values is Float32, and type of x2_values is Float64"),
    ({6: Tensor(0, ms.int32)},
     "For SparseAdd, the type of x1_values, and thresh should be the same data type, but got "
     "type of x1_values is Float32, and type of thresh is Int32"),
    ({0: Tensor([[0, 1], [1, 2]], ms.int32)},
     "For primitive[SparseAdd], the input argument[x1_indices] must be a type of "
     "{Tensor[Int64]}, but got Tensor[Int32]."),
])
def test_sparse_add_errors(change, msg):
    args = list(_sparse_add_inputs())
    for k, v in change.items():
        args[k] = v
    with pytest.raises(TypeError) as info:
        S.SparseAdd()(*args)
    assert str(info.value) == msg


# -------------------------------------------------- AddV2, SequenceStack, ConcatOffsetV1

def test_add_v2():
    from cellgrad.ops.operations.math_ops import AddV2

    p = AddV2()
    assert repr(p) == "Prim[AddV2]"
    assert p(Tensor([1., 2.]), Tensor([3., 4.])).asnumpy().tolist() == [4, 6]
    out = p(Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [4, 6]
    mixed = p(Tensor([1., 2.]), Tensor([3, 4], ms.int32))
    assert mixed.dtype == ms.float32 and mixed.asnumpy().tolist() == [4, 6]
    with pytest.raises(ValueError, match=r"For primitive\[AddV2\], the input_shape: \[2\] must "
                                         r"be equal to \[\]"):
        p(Tensor([1., 2.]), 1.0)
    with pytest.raises(ValueError, match=r"the input_shape: \[2, 3\] must be equal to \[1, 3\]"):
        p(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((1, 3), np.float32)))
    with pytest.raises(TypeError, match=r"For primitive\[AddV2\], the input argument\[x\]"):
        p(Tensor([True]), Tensor([True]))
    a, b = Tensor(np.array([1.0, -2.0, 0.5])), Tensor(np.array([0.3, 4.0, 2.0]))
    assert gradcheck(lambda u, v: p(u, v) * u, a, b)


def test_sequence_stack():
    from cellgrad.ops.operations._sequence_ops import SequenceStack

    x1 = Tensor(np.zeros((2, 2, 2, 2), np.float32))
    x2 = Tensor(np.arange(16).reshape(2, 2, 2, 2).astype(np.float32))
    for axis in (0, 1, -1):
        out = SequenceStack(axis=axis)((x1, x2))
        np.testing.assert_array_equal(out.asnumpy(), np.stack([x1.asnumpy(), x2.asnumpy()], axis))
    assert repr(SequenceStack(axis=1)) == "Prim[SequenceStack]<axis=1>"
    assert gradcheck(lambda a, b: SequenceStack(1)([a, b]) ** 2,
                     Tensor(np.arange(3.0)), Tensor(np.ones(3)))
    with pytest.raises(TypeError, match="For 'SequenceStack', the input must be a non-empty"):
        SequenceStack()(x1)


def test_concat_offset_v1():
    from cellgrad.ops.operations.array_ops import ConcatOffsetV1

    x1, x2 = Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([1, 5, 3], np.int32))
    for axis in (1, -2):
        out = ConcatOffsetV1()(Tensor(axis, ms.int32), (x1, x2, x1))
        assert isinstance(out, tuple) and all(t.dtype == ms.int32 for t in out)
        assert [t.asnumpy().tolist() for t in out] == [[0, 0, 0], [0, 2, 0], [0, 7, 0]]
    with pytest.raises(TypeError, match=r"For Primitive\[ConcatOffsetV1\], the type of input "
                                        r"argument\[axis\] must be Tensor but got int."):
        ConcatOffsetV1()(1, (x1, x2))
    with pytest.raises(TypeError, match=r"the input argument\[axis\] must be a type of "
                                        r"\{Tensor\[Int32\]\}, but got Tensor\[Int64\]."):
        ConcatOffsetV1()(Tensor(1, ms.int64), (x1, x2))
    with pytest.raises(TypeError, match=r"argument\[tensor0\] must be a type of "
                                        r"\{Tensor\[Int32\]\}, but got Tensor\[Int64\]."):
        ConcatOffsetV1()(Tensor(1, ms.int32), (Tensor(np.array([1, 2], np.int64)),))
    for axis in (3, 0):  # MindSpore's kernel launch fails (RuntimeError)
        with pytest.raises(RuntimeError, match="ConcatOffsetV1"):
            ConcatOffsetV1()(Tensor(axis, ms.int32), (x1, x2))


# ---------------------------------------------------------------- ResizeBilinearGrad

def test_resize_bilinear_grad_values():
    dy = np.array([[[[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]]], np.float32)
    x = np.array([[[[1.1, 2.2], [3.3, 4.4]]]], np.float32)
    out = G.ResizeBilinearGrad()(Tensor(dy), Tensor(x))
    assert out.asnumpy().tolist() == [[[[2.25, 0.75], [0.75, 4.25]]]]
    rng = np.random.RandomState(0)
    dy = Tensor(rng.rand(1, 2, 3, 5).astype(np.float32))
    x = Tensor(rng.rand(1, 2, 4, 3).astype(np.float32))
    expect = {
        (False, False): [0.83488923, 1.0203009, 0.9801141, 0.547286, 0.77913535, 0.88848424],
        (True, False): [0.9064082, 1.2327996, 0.6960964, 0.43234384, 0.79619896, 0.43263644],
        (False, True): [0.81493926, 0.9223269, 0.6254873, 0.61721104, 0.91060185, 0.6059171],
    }
    for (ac, hp), first in expect.items():
        got = G.ResizeBilinearGrad(ac, hp)(dy, x)
        assert got.shape == (1, 2, 4, 3)
        np.testing.assert_allclose(got.asnumpy()[0, 0].reshape(-1)[:6], first, rtol=1e-5)
    ones = Tensor(np.ones((1, 1, 4, 4), np.float32))
    assert G.ResizeBilinearGrad()(ones, Tensor(np.ones((1, 1, 2, 2), np.float16))).dtype == \
        ms.float16
    assert repr(G.ResizeBilinearGrad(True, True)) == \
        "Prim[ResizeBilinearGrad]<align_corners=True, half_pixel_centers=True>"


def test_resize_bilinear_grad_gradcheck_and_torch():
    rng = np.random.default_rng(1)
    dy, x = rng.standard_normal((1, 2, 5, 7)), rng.standard_normal((1, 2, 3, 4))
    assert gradcheck(lambda g: G.ResizeBilinearGrad(False, True)(g, Tensor(x)), Tensor(dy))
    torch = pytest.importorskip("torch")
    for ac, hp in ((True, False), (False, True)):
        xt = torch.tensor(x, requires_grad=True)
        torch.nn.functional.interpolate(xt, size=(5, 7), mode="bilinear",
                                        align_corners=ac).backward(torch.tensor(dy))
        got = G.ResizeBilinearGrad(ac, hp)(Tensor(dy), Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, xt.grad.numpy(), rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- CombinedNonMaxSuppression

_BOXES = np.array([[[[200, 100, 150, 100]], [[220, 120, 150, 100]], [[190, 110, 150, 100]],
                    [[210, 112, 150, 100]]]], np.float32) / 200
_SCORES = np.array([[[0.2, 0.7, 0.1], [0.1, 0.8, 0.1], [0.3, 0.6, 0.1], [0.05, 0.9, 0.05]]],
                   np.float32)


@pytest.mark.parametrize("attrs, inputs, boxes, scores, classes, valid", [
    ((False, True), (4, 1, 0.0, 0.0), [[1, 0.56, 0.75, 0.5]], [0.9], [1], 1),
    ((False, True), (4, 6, 0.5, 0.0),
     [[1, 0.56, 0.75, 0.5], [1, 0.5, 0.75, 0.5], [0.95, 0.55, 0.75, 0.5], [1, 0.5, 0.75, 0.5],
      [1, 0.6, 0.75, 0.5], [1, 0.5, 0.75, 0.5]],
     [0.9, 0.7, 0.3, 0.2, 0.1, 0.1], [1, 1, 0, 0, 0, 2], 6),
    ((False, False), (2, 6, 0.5, 0.15),
     [[1.05, 0.56, 0.75, 0.5], [1, 0.5, 0.75, 0.5], [0.95, 0.55, 0.75, 0.5], [1, 0.5, 0.75, 0.5],
      [0, 0, 0, 0], [0, 0, 0, 0]], [0.9, 0.7, 0.3, 0.2, 0, 0], [1, 1, 0, 0, 0, 0], 4),
    ((True, False), (2, 20, 0.5, 0.15),
     [[1.05, 0.56, 0.75, 0.5], [1, 0.5, 0.75, 0.5], [0.95, 0.55, 0.75, 0.5], [1, 0.5, 0.75, 0.5],
      [0, 0, 0, 0], [0, 0, 0, 0]], [0.9, 0.7, 0.3, 0.2, 0, 0], [1, 1, 0, 0, 0, 0], 4),
    ((False, True), (4, 6, 0.95, 0.0),
     [[1, 0.56, 0.75, 0.5], [1, 0.6, 0.75, 0.5], [1, 0.5, 0.75, 0.5], [0.95, 0.55, 0.75, 0.5],
      [0.95, 0.55, 0.75, 0.5], [1, 0.5, 0.75, 0.5]],
     [0.9, 0.8, 0.7, 0.6, 0.3, 0.2], [1, 1, 1, 1, 0, 0], 6),
])
def test_combined_non_max_suppression(attrs, inputs, boxes, scores, classes, valid):
    per_class, total, iou, score = inputs
    prim = ops.CombinedNonMaxSuppression(*attrs)
    assert type(prim) is image_ops.CombinedNonMaxSuppression
    out = prim(Tensor(_BOXES), Tensor(_SCORES), Tensor(per_class, ms.int32),
               Tensor(total, ms.int32), Tensor(iou, ms.float32), Tensor(score, ms.float32))
    assert [t.dtype for t in out] == [ms.float32, ms.float32, ms.float32, ms.int32]
    np.testing.assert_allclose(out[0].asnumpy(), [boxes], rtol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), [scores], rtol=1e-6)
    assert out[2].asnumpy().tolist() == [classes] and out[3].asnumpy().tolist() == [valid]


# ---------------------------------------------------------------- helper modules

def test_grad_experimental_helpers():
    from cellgrad.ops._grad_experimental import get_bprop_fn
    from cellgrad.ops._grad_experimental.grad_array_ops import _generate_inverse_index
    from cellgrad.ops._grad_experimental.grad_base import bprop_getters
    from cellgrad.ops._grad_experimental.grad_math_ops import (
        _fft_rank_offset,
        _rfft_last_term_shape,
        _rfft_reshape,
        _rfft_tile_reshape,
        binop_grad_common,
    )

    assert _generate_inverse_index((3, 2, 3), 2) == (1, 2, 0)
    assert _fft_rank_offset((1, 2, 3, 4, 5, 10), 3) == 200
    assert _rfft_reshape((1, 2, 3, 4, 5), (2, 5, 7, 8)) == (1, 1, 1, 2, 5, 7, 8)
    assert _rfft_tile_reshape((1, 2, 3, 4, 5)) == (1, 2, 3, 1, 1)
    assert _rfft_last_term_shape((1, 2, 3, 4, 5), (2, 5, 7, 8)) == (1, 1, 1, 1, 2, 5, 7, 8)
    dx, dy = binop_grad_common(Tensor(np.ones((2, 1, 3), np.float32)),
                               Tensor(np.ones((4, 1), np.float32)),
                               Tensor(np.ones((2, 4, 3), np.float32)),
                               Tensor(np.ones((2, 4, 3), np.float32)))
    assert dx.shape == (2, 1, 3) and dx.asnumpy().max() == 4
    assert dy.shape == (4, 1) and dy.asnumpy().max() == 6

    class MockSub(ops.PrimitiveWithInfer):
        @ops.prim_attr_register
        def __init__(self):
            pass

    @bprop_getters.register(MockSub)
    def get_bprop(self):
        return lambda x, y, out, dout: (dout, -dout)

    bprop = get_bprop_fn(MockSub())
    assert bprop(1, 2, 3, 4) == (4, -4)
    assert get_bprop_fn(ops.Primitive("NoSuchPrim")) is None
    with pytest.raises(TypeError, match="must be a Primitive subclass or a str"):
        bprop_getters.register(1)(get_bprop)


def test_get_broadcast_shape():
    from cellgrad.ops._utils import get_broadcast_shape

    assert get_broadcast_shape([1, 2, 3], [2, 1], "P") == [1, 2, 3]
    assert get_broadcast_shape([4, 1], [3], "P") == [4, 3]
    assert get_broadcast_shape([-1, 3], [2, 1], "P") == [2, 3]
    assert get_broadcast_shape([-2], [3], "P") == [-2]
    with pytest.raises(ValueError) as info:
        get_broadcast_shape([2, 3], [4], "Add")
    assert str(info.value) == (
        "For 'Add', x.shape and y.shape need to broadcast. The value of x.shape[-1] or "
        "y.shape[-1] must be 1 or -1 when they are not the same, but got x.shape = [2, 3] and "
        "y.shape = [4].")


def test_is_equal_one_and_handle_loss():
    from cellgrad.nn.layer.basic import _is_equal_one
    from cellgrad.train.callback._callback import _handle_loss

    assert _is_equal_one(None) is False
    for value, expect in ((np.array([1., 1.]), True), (np.array([1., 2.]), False),
                          (np.array([0.5, 1.5], np.float32), True),
                          (np.array([1, 2], np.int32), True)):
        out = _is_equal_one(Tensor(value))
        assert out.dtype == ms.bool_ and out.shape == () and bool(out) is expect
    assert _handle_loss(Tensor(np.array([1., 2.], np.float32))) == 1.5
    first = Tensor(2.5)
    assert _handle_loss((first, 3)) is first
    assert _handle_loss(5) == 5 and _handle_loss((1, 2)) == (1, 2) and _handle_loss("x") == "x"
    loss = _handle_loss(Tensor(3, ms.int32))
    assert isinstance(loss, float) and loss == 3.0


def test_contiguous_tensors_handle():
    from cellgrad.hal.contiguous_tensors_handle import (
        ContiguousTensorsHandle,
        combine_tensor_list_contiguous,
    )

    x = Tensor(np.array([1, 2, 3], np.float32))
    y = Tensor(np.array([4, 5, 6, 7], np.float32))
    z = x + x
    h = combine_tensor_list_contiguous([z, x, y], True)
    assert isinstance(h, ContiguousTensorsHandle)
    assert (h.before_padding_sizes, h.after_padding_sizes) == ([12, 12, 16], [12, 12, 16])
    assert (h.total_padding_size, h.handle_shape) == (40, 10.0)
    assert h[:].asnumpy().tolist() == [2, 4, 6, 1, 2, 3, 4, 5, 6, 7]
    assert h[2].asnumpy().tolist() == [6] and h[3:5].asnumpy().tolist() == [1, 2]
    assert h.slice_by_tensor_index(1, 3).asnumpy().tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert h.slice_by_tensor_index(1).asnumpy().tolist() == [1, 2, 3]
    assert str(h) == ("Handle total size: 40\nTensor[0]: [2. 4. 6.]\nTensor[1]: [1. 2. 3.]\n"
                      "Tensor[2]: [4. 5. 6. 7.]\n")
    x[0] = 100  # the handle sees the tensors' memory
    assert h.slice_by_tensor_index(1).asnumpy().tolist() == [100, 2, 3]
    ints = combine_tensor_list_contiguous([Tensor(np.arange(3, dtype=np.int64)),
                                           Tensor(np.ones((2, 2), np.int64))], False)
    assert ints.before_padding_sizes == [24, 32]
    assert ints[:].asnumpy().tolist() == [0, 1, 2, 1, 1, 1, 1]
    for call, exc, msg in (
            (lambda: h[5:2], ValueError, "slice input error."),
            (lambda: h[-1], ValueError, "slice input is out of tensor_list size."),
            (lambda: h[1.0], TypeError, "slice input must be 1.index -> int.2.[start: end: "
                                        "step] -> [int: int: int]."),
            (lambda: combine_tensor_list_contiguous([1]), TypeError,
             "input list must be [Tensor, ...]."),
            (lambda: combine_tensor_list_contiguous([x], 1), TypeError,
             "enable_mem_align must be bool."),
            (lambda: h.slice_by_tensor_index(2, 1), ValueError, "slice input error.")):
        with pytest.raises(exc) as info:
            call()
        assert str(info.value) == msg


def test_copy_with_slice_writes_through_views():
    copy_with_slice = inner.CopyWithSlice()
    assert ops.CopyWithSlice is inner.CopyWithSlice
    assert repr(copy_with_slice) == "Prim[CopyWithSlice]<side_effect_mem=True>"
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = Tensor(np.zeros((2, 3), np.float32))
    assert copy_with_slice(b, a) is b and b.asnumpy().tolist() == a.asnumpy().tolist()
    view = ops.transpose(a, (1, 0))
    out = copy_with_slice(view, Tensor(np.full((3, 2), 7, np.float32)))
    assert out is view and (view.asnumpy() == 7).all() and (a.asnumpy() == 7).all()
    for src, msg in ((Tensor(np.ones((3, 2), np.float32)), "storage_info->shape is not equal"),
                     (Tensor(np.ones((2, 3), np.int32)), "data_type is not equal"),
                     (1.0, r"the pointer\[src_tensor\] is null")):
        with pytest.raises(RuntimeError, match=msg):
            copy_with_slice(b, src)


def test_data_type_table_and_custom_reg_op():
    from cellgrad.ops import CustomRegOp, DataType

    names = [n for n in vars(DataType) if not n.startswith("_")]
    assert len(names) == 204  # MindSpore 2.10's table
    assert DataType.F32_Default == ("float32", "DefaultFormat")
    assert DataType.F16_5HD == ("float16", "NC1HWC0") and DataType.None_None == ("", "")
    assert DataType.I32_Default_Tuple == ("int32", "DefaultFormat", "tuple")
    assert DataType.BF16_FracZNLSTM == ("bfloat16", "FRACTAL_ZN_LSTM")
    assert not hasattr(DataType, "C64_Default_List") and not hasattr(DataType, "F64_NCDHW")
    info = CustomRegOp("aclnnAddCustom").input(0, "x", "required").input(1, "y", "required") \
        .output(0, "z", "required") \
        .dtype_format(DataType.F16_Default, DataType.F16_Default, DataType.F16_Default) \
        .target("Ascend").get_op_info()
    assert info == {
        "op_name": "aclnnAddCustom",
        "inputs": [{"index": 0, "name": "x", "paramType": "required"},
                   {"index": 1, "name": "y", "paramType": "required"}],
        "outputs": [{"index": 0, "name": "z", "paramType": "required"}], "attr": [],
        "fusion_type": "", "target": "Ascend",
        "dtype_format": [(("float16", "DefaultFormat"),) * 3]}
    with pytest.raises(ValueError, match="The size of 'args' must be equal to the sum of input "
                                         "tensors and output tensors, but got 1 vs 3"):
        CustomRegOp().input(0, "x").input(1, "y").output(0, "z").dtype_format(DataType.F16_Default)
    with pytest.raises(TypeError, match="x value must be int"):
        CustomRegOp().input("x")
    assert CustomRegOp().attr("alpha", "required", "float", "1.0").get_op_info()["attr"] == [
        {"name": "alpha", "paramType": "required", "type": "float", "defaultValue": "1.0"}]


def test_custom_aot_checks_func_then_says_it_cannot_run(monkeypatch, tmp_path):
    monkeypatch.delenv("MS_CUSTOM_AOT_WHITE_LIST", raising=False)
    prefix = "For 'Custom', 'func_type': aot, 'func': "
    custom = ops.Custom("aclnnAddCustom", lambda x, _: x, lambda x, _: x, func_type="aot")
    with pytest.raises(RuntimeError, match="func_type 'aot' compiles a custom device kernel"):
        custom(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError) as info:
        ops.Custom(None, None, None, func_type="aot")
    assert str(info.value) == (prefix + "None, 'func' must be of type str, but got "
                                        "<class 'NoneType'>")
    with pytest.raises(TypeError) as info:
        ops.Custom("aclnnAddCustom", None, None, func_type="aot")
    assert str(info.value) == (prefix + "aclnnAddCustom, 'func' should be like "
                                        "'file_name:func_name', but got aclnnAddCustom")
    legal = tmp_path / "white_list"
    monkeypatch.setenv("MS_CUSTOM_AOT_WHITE_LIST", str(legal))
    ops.Custom(f"{legal}/add.so:f", None, None, func_type="aot")
    with pytest.raises(TypeError, match="the legal path for the file is"):
        ops.Custom(f"{tmp_path}/add.so:f", None, None, func_type="aot")


def test_array_op_check_errors_are_mindspores():
    x = Tensor(np.ones([3, 4], np.float32))
    with pytest.raises(TypeError) as info:
        ops.ExpandDims()(5.0, 1)
    assert str(info.value) == (
        'Failed calling ExpandDims with "ExpandDims()(input_x=float, axis=int)". The valid '
        'calling should be: "ExpandDims()(input_x=<Tensor>, axis=<Tensor, int>)".')
    with pytest.raises(TypeError, match='Failed calling Reshape with "Reshape'):
        ops.Reshape()(5.0, (1, 2))
    with pytest.raises(TypeError, match="reshape"):
        ops.Reshape()(x, (2, 3.0, 2))
    for axis in (-4, 3):
        with pytest.raises(ValueError):
            ops.ExpandDims()(x, axis)
    with pytest.raises(TypeError, match=r"For Primitive\[Dtype\]"):
        ops.DType()(5.0)


def test_registered_bprop_leaves_the_gradient_as_mindspore_pynative_does():
    from cellgrad.ops._grad_experimental.grad_base import bprop_getters

    class MyMul(ops.Primitive):
        @ops.prim_attr_register
        def __init__(self):
            pass

        def __call__(self, x, y):
            return x * y

    x, y = Tensor(np.array([1., 2.], np.float32)), Tensor(np.array([3., 4.], np.float32))

    @bprop_getters.register(MyMul)
    def get_bprop(self):
        return lambda a, b, out, dout: (dout * 10, dout * out)

    dx, dy = ops.GradOperation(get_all=True)(lambda a, b: MyMul()(a, b))(x, y)
    assert dx.asnumpy().tolist() == [3, 4] and dy.asnumpy().tolist() == [1, 2]
