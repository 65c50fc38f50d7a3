"""MindSpore 2.10's leftover ops: values, dtypes and errors recorded from MindSpore 2.10 CPU
(where it runs them), gradients gradchecked in float64."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops
from cellgrad.testing import gradcheck

X = np.array([[1., 3., 6.], [2., 7., 1.]], np.float32)


def test_diff_values_dtypes_and_errors():
    out = ops.diff(Tensor(X))
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [[2., 3.], [5., -6.]]
    assert ops.diff(Tensor(X), 1, 0).asnumpy().tolist() == [[1., 4., -5.]]
    assert Tensor(X).diff().asnumpy().tolist() == [[2., 3.], [5., -6.]]
    ints = ops.diff(Tensor([1, 4, 9], ms.int32))
    assert ints.dtype == ms.int32 and ints.asnumpy().tolist() == [3, 5]
    flags = ops.diff(Tensor([True, False, True]))
    assert flags.dtype == ms.bool_ and flags.asnumpy().tolist() == [True, True]
    joined = ops.diff(Tensor([1., 2.]), prepend=Tensor([0.]), append=Tensor([5.]))
    assert joined.asnumpy().tolist() == [1., 1., 3.]
    with pytest.raises(RuntimeError, match="For 'diff', 'n' must be 1, but got 2"):
        ops.diff(Tensor(X), 2)
    with pytest.raises(TypeError, match="the type of 'n' must be 'int', but got 'float'"):
        ops.diff(Tensor(X), 1.5)
    with pytest.raises(TypeError, match="the dimension 'x' must be at least 1"):
        ops.diff(Tensor(1.0))
    with pytest.raises(TypeError, match="'x' must be a tensor"):
        ops.diff([1, 2])


def test_diff_gradcheck():
    x = Tensor(np.random.RandomState(0).randn(3, 4))
    assert gradcheck(lambda t: ops.diff(t, 1, 0), x)
    assert gradcheck(lambda t: ops.diff(t, prepend=t[:, :1]), x)


def test_logspace_and_LogSpace():
    out = ops.logspace(0.1, 1.0, 5)
    np.testing.assert_allclose(out.asnumpy(), [1.2589254, 2.1134892, 3.5481339, 5.9566216, 10.],
                               rtol=1e-6)
    assert out.dtype == ms.float32
    two = ops.LogSpace(steps=4, base=2)(Tensor(1., ms.float32), Tensor(4., ms.float32))
    assert two.asnumpy().tolist() == [2., 4., 8., 16.]
    assert ops.LogSpace()(Tensor(1.), Tensor(4.)).shape == (10,)
    half = ops.LogSpace(3, 10, ms.float16)(Tensor(1., ms.float16), Tensor(2., ms.float16))
    assert half.dtype == ms.float16 and half.asnumpy().tolist() == [10., 31.625, 100.]
    assert ops.logspace(Tensor(0.), Tensor(2.), 3).asnumpy().tolist() == [1., 10., 100.]
    with pytest.raises(TypeError, match=r"For 'LogSpace', the 'dtype' should be one of "
                                        r"\[mindspore.float16.*but got 'mindspore.int32'"):
        ops.logspace(0, 4, 5, base=2, dtype=ms.int32)


def test_gumbel_softmax():
    ms.set_seed(3)
    soft = ops.gumbel_softmax(Tensor(X), 0.5)
    assert soft.dtype == ms.float32 and soft.shape == (2, 3)
    np.testing.assert_allclose(soft.asnumpy().sum(-1), [1., 1.], rtol=1e-6)
    hard = ops.gumbel_softmax(Tensor(X), 1.0, True)
    assert sorted(hard.asnumpy().reshape(-1).tolist()) == [0, 0, 0, 0, 1, 1]
    ms.set_seed(3)
    assert np.array_equal(ops.gumbel_softmax(Tensor(X), 0.5).asnumpy(), soft.asnumpy())
    with pytest.raises(TypeError, match=r"'logits' should be one of \[mindspore.float16"):
        ops.gumbel_softmax(Tensor([1, 2]), 1.0)
    with pytest.raises(ValueError, match="the 'tau' must be float and must > 0, but got '-1.0'"):
        ops.gumbel_softmax(Tensor(X), -1.0)
    with pytest.raises(ValueError, match=r"the 'dim' must be in range of \[-2, 2\), but got 3"):
        ops.gumbel_softmax(Tensor(X), 1.0, False, 3)


def test_gumbel_softmax_gradcheck():
    logits = Tensor(np.random.RandomState(1).randn(2, 4))

    def soft(t, hard=False):
        ms.set_seed(5)  # one noise draw for every evaluation
        return ops.gumbel_softmax(t, 0.7, hard)

    assert gradcheck(soft, logits)
    # hard=True passes the soft sample's gradient straight through the one-hot
    w = Tensor(np.random.RandomState(4).randn(2, 4))
    g_hard = ms.grad(lambda t: (soft(t, True) * w).sum())(logits)
    g_soft = ms.grad(lambda t: (soft(t) * w).sum())(logits)
    np.testing.assert_allclose(g_hard.asnumpy(), g_soft.asnumpy(), rtol=1e-12)


def _rms(x, g, eps):
    rstd = 1 / np.sqrt((x * x).mean(-1, keepdims=True) + eps)
    return x * rstd * g, rstd


def test_rms_norms_by_formula():
    g = np.array([1., 2., .5], np.float32)
    y, rstd = ops.rms_norm(Tensor(X), Tensor(g))
    want_y, want_r = _rms(X.astype(np.float64), g, 1e-6)
    np.testing.assert_allclose(y.asnumpy(), want_y, rtol=1e-5)
    assert rstd.shape == (2, 1) and rstd.dtype == ms.float32
    np.testing.assert_allclose(rstd.asnumpy(), want_r, rtol=1e-5)
    y2, rstd2, s = ops.add_rms_norm(Tensor(X), Tensor(X), Tensor(g))
    np.testing.assert_allclose(s.asnumpy(), 2 * X)
    np.testing.assert_allclose(y2.asnumpy(), _rms(2 * X.astype(np.float64), g, 1e-6)[0],
                               rtol=1e-5)
    with pytest.raises(ValueError, match="trailing dimensions"):
        ops.rms_norm(Tensor(X), Tensor(np.ones(2, np.float32)))


def test_add_layer_norm_by_formula():
    g, b = np.array([1., 2., .5], np.float32), np.array([0., 1., -1.], np.float32)
    y, mean, rstd, s = ops.add_layer_norm(Tensor(X), Tensor(X), Tensor(g), Tensor(b))
    x = 2 * X.astype(np.float64)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    np.testing.assert_allclose(y.asnumpy(), (x - mu) / np.sqrt(var + 1e-5) * g + b, rtol=1e-5)
    assert mean.shape == rstd.shape == (2, 1)
    np.testing.assert_allclose(mean.asnumpy(), mu, rtol=1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), 1 / np.sqrt(var + 1e-5), rtol=1e-5)
    np.testing.assert_allclose(s.asnumpy(), x)


def test_norms_gradcheck():
    rng = np.random.RandomState(2)
    x, x2 = Tensor(rng.randn(2, 3)), Tensor(rng.randn(2, 3))
    g, b = Tensor(rng.rand(3) + .5), Tensor(rng.randn(3))
    assert gradcheck(lambda a, w: ops.rms_norm(a, w)[0], x, g)
    assert gradcheck(lambda a, c, w: ops.add_rms_norm(a, c, w)[0], x, x2, g)
    assert gradcheck(lambda a, c, w, v: ops.add_layer_norm(a, c, w, v)[0], x, x2, g, b)


def test_type_as_and_deepcopy():
    out = ops.type_as(Tensor(X), Tensor([1], ms.int32))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [[1, 3, 6], [2, 7, 1]]
    x = Tensor(X)
    copy = ops.deepcopy(x)
    assert copy is not x and copy.dtype == ms.float32 and np.array_equal(copy.asnumpy(), X)
    copy[0, 0] = 9.0
    assert x.asnumpy()[0, 0] == 1.0


def test_assign_sub_in_place():
    p = Parameter(Tensor(np.array([5., 6.], np.float32)), name="p")
    out = ops.assign_sub(p, Tensor(np.array([1., 2.], np.float32)))
    assert out.asnumpy().tolist() == [4., 4.] and p.asnumpy().tolist() == [4., 4.]
    ops.AssignSub()(p, Tensor(np.array([1., 2.], np.float32)))
    assert p.asnumpy().tolist() == [3., 2.]
    with pytest.raises(ValueError, match="For 'AssignSub','value' must have the same rank as "
                                         "'variable'. But got 'value' rank: 0, 'variable' "
                                         "rank: 1."):
        ops.assign_sub(p, 1)
    with pytest.raises(ValueError, match=r"'value' shape: \(3\), 'variable' shape: \(2\)"):
        ops.assign_sub(p, Tensor(np.ones(3, np.float32)))


def test_intopk():
    x = Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]], np.float32))
    y = Tensor(np.array([1, 3], np.int32))
    out = ops.intopk(x, y, 3)
    assert out.dtype == ms.bool_ and out.asnumpy().tolist() == [True, False]
    assert ops.InTopK(1)(x, y).asnumpy().tolist() == [True, False]
    assert ops.intopk(x, Tensor([1, 3], ms.int64), 3).asnumpy().tolist() == [True, False]
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float16\], "
                                        r"Tensor\[Float32\]\}, but got Tensor\[Float64\]"):
        ops.intopk(Tensor(x.asnumpy().astype(np.float64)), y, 3)
    with pytest.raises(TypeError, match="the type of 'k' should be 'int', but got type 'float'"):
        ops.InTopK(1.5)


def test_confusion_matrix():
    labels, preds = Tensor([0, 1, 1, 3], ms.int32), Tensor([1, 2, 1, 3], ms.int32)
    out = ops.ConfusionMatrix(4)(labels, preds)
    assert out.dtype == ms.int32
    assert out.asnumpy().tolist() == [[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    weighted = ops.ConfusionMatrix(4, "float32")(labels, preds, Tensor([1., 2., 3., 4.]))
    assert weighted.dtype == ms.float32 and weighted.asnumpy()[1].tolist() == [0, 3, 2, 0]
    with pytest.raises(ValueError, match=r"'labels' must be in \[0, 4\)"):
        ops.ConfusionMatrix(4)(Tensor([0, 5], ms.int32), Tensor([0, 1], ms.int32))


def test_edit_distance():
    i64 = np.int64
    hyp = (Tensor(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]], i64)),
           Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([2, 2, 2], i64)))
    truth = (Tensor(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], i64)),
             Tensor(np.array([1, 3, 2, 1], np.float32)), Tensor(np.array([2, 2, 2], i64)))
    out = ops.EditDistance()(*hyp, *truth)
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [[1., 1.], [1., 1.]]
    seq = (Tensor(np.array([[0, 0], [0, 1], [0, 2]], i64)), Tensor(np.array([1, 2, 3], i64)),
           Tensor(np.array([1, 3], i64)))
    other = (Tensor(np.array([[0, 0], [0, 1]], i64)), Tensor(np.array([1, 3], i64)),
             Tensor(np.array([1, 3], i64)))
    assert ops.EditDistance(False)(*seq, *other).asnumpy().tolist() == [1.]
    assert ops.EditDistance()(*seq, *other).asnumpy().tolist() == [0.5]


def test_assert(capsys):
    assert ops.Assert()(Tensor(True), [Tensor(X)]) is None
    with pytest.raises(RuntimeError, match="assert failed"):
        ops.Assert()(Tensor(False), [Tensor(X)])
    assert capsys.readouterr().out == "For 'Assert' condition is false.\ninput data: [1 3 6]\n"


def test_python_value_helpers():
    assert ops.make_tuple(1, 2) == (1, 2) and ops.make_list(1, 2) == [1, 2]
    assert ops.make_dict(("a", "b"), (1, 2)) == {"a": 1, "b": 2}
    assert ops.tuple_getitem((1, 2, 3), 1) == 2
    assert ops.tuple_setitem((1, 2, 3), 1, 9) == (1, 9, 3)
    assert ops.list_getitem([1, 2, 3], 1) == 2 and ops.list_setitem([1, 2, 3], 1, 9) == [1, 9, 3]
    assert ops.list_len([1, 2, 3]) == 3 and ops.dict_getitem({"a": 1}, "a") == 1
    d = {"a": 1}
    assert ops.dict_setitem(d, "b", 2) == {"a": 1, "b": 2} and d == {"a": 1}
    assert ops.in_dict("a", d) is True and ops.not_in_dict("a", d) is False
    assert ops.is_(None, None) is True and ops.is_not(1, None) is True
    assert repr(ops.typeof(Tensor(X))) == "mindspore.tensor[float32]"
    assert repr(ops.typeof(1)) == "mindspore.int64"
    assert ops.hastype(Tensor(X), ms.dtype.TensorType) is True
    assert ops.hastype(1, ms.int64) is True and ops.hastype(1.0, ms.int64) is False
    assert ops.isconstant(Tensor(X)) is True
    assert ops.tuple_reversed((1, 2, 3)) == (3, 2, 1)
    assert ops.make_slice(1, 5, 2) == slice(1, 5, 2)
    assert ops.array_to_scalar(Tensor(3)) == 3
    assert ops.reduced_shape((2, 3, 4), (1,)) == (2, 1, 4)
    assert ops.reduced_shape((2, 3), ()) == (1, 1)


def test_stop_gradient_in_place():
    def f(a):
        b = a * 2
        ops.stop_gradient_(b)
        return (b * a).sum()

    assert ms.grad(f)(Tensor([1., 2.])).asnumpy().tolist() == [2., 4.]


def test_diff_ext_einsum_ext_baddbmm_ext():
    x = Tensor(X)
    assert ops.diff_ext(x, 2, 1).asnumpy().tolist() == [[1.], [-11.]]
    assert ops.diff_ext(x).asnumpy().tolist() == [[2., 3.], [5., -6.]]
    assert ops.diff_ext(x, 0) is x
    assert gradcheck(lambda t: ops.diff_ext(t, 2), Tensor(np.random.RandomState(6).randn(2, 5)))
    assert ops.einsum_ext("ij->ji", x).asnumpy().tolist() == X.T.tolist()
    out = ops.baddbmm_ext(Tensor(np.ones((1, 2, 2), np.float32)),
                          Tensor(np.ones((1, 2, 3), np.float32)),
                          Tensor(np.ones((1, 3, 2), np.float32)), beta=2, alpha=0.5)
    assert out.asnumpy().tolist() == [[[3.5, 3.5], [3.5, 3.5]]]


def test_switch_and_broadcast_gradient_args():
    assert ops.switch(False, 1, 2) == 2 and ops.switch(True, 1, 2) == 1
    branch = ops.switch_layer(Tensor(1, ms.int32), (lambda v: v + 1, lambda v: v * 2))
    assert branch(3) == 6
    with pytest.raises(IndexError, match="out of range"):
        ops.switch_layer(2, (abs,))
    assert ops.broadcast_gradient_args((2, 1, 3), (4, 3)) == ((1,), (0,))
    assert ops.broadcast_gradient_args((2, 3), (2, 3)) == ((), ())
    with pytest.raises(ValueError, match="do not broadcast"):
        ops.broadcast_gradient_args((2, 3), (4, 3))


def test_loops_in_pynative():
    assert ops.WhileLoop()(lambda v: v < 10, lambda v: v + 3, 1) == 10
    out = ops.ForiLoop()(0, 4, lambda i, v: v + i, Tensor(1.))
    assert out.dtype == ms.float32 and float(out.asnumpy()) == 7.0
    assert ops.ForiLoop()(0, 4, lambda i, v: v + i, 1, unroll=False) == 7
    assert ops.Scan()(lambda c, x: (c + x, c * x), 0, [1, 2, 3]) == (6, [0, 2, 9])
    assert ops.Scan()(lambda c, x: (c + 1, c), 0, None, 3) == (3, [0, 1, 2])
    grad = ms.grad(lambda t: ops.ForiLoop()(0, 3, lambda i, v: v * t, t))(Tensor(2.0))
    assert float(grad.asnumpy()) == 32.0  # d/dt t**4
    with pytest.raises(TypeError, match="'loop_func' must be callable"):
        ops.WhileLoop()(lambda v: False, 3, 1)


def test_data_format_vec_permute_and_coalesce():
    out = ops.DataFormatVecPermute()(Tensor(np.array([1, 2, 3, 4], np.int32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [1, 4, 2, 3]
    back = ops.DataFormatVecPermute("NCHW", "NHWC")(out)
    assert back.asnumpy().tolist() == [1, 2, 3, 4]
    idx, vals, shape = ops.coalesce(Tensor(np.array([[0, 0, 1], [1, 1, 2]], np.int64)),
                                    Tensor(np.array([1, 5, 4], np.float32)),
                                    Tensor(np.array([3, 3], np.int64)))
    assert idx.asnumpy().tolist() == [[0, 1], [1, 2]] and idx.dtype == ms.int64
    assert vals.asnumpy().tolist() == [6., 4.] and shape.asnumpy().tolist() == [3, 3]
    assert ops.Coalesce()(idx, vals, shape)[1].asnumpy().tolist() == [6., 4.]


def test_cond():
    a = Tensor(np.array([[1., 2.], [3., 4.]], np.float32))
    for p, want in [(None, 14.933031), ("fro", 15.000001), (1, 21.0), (float("inf"), 21.0),
                    (-2, 0.0669656)]:
        out = ops.cond(a, p)
        assert out.dtype == ms.float32 and out.shape == ()
        np.testing.assert_allclose(float(out.asnumpy()), want, rtol=1e-5)
    with pytest.raises(ValueError, match="'p' must be None"):
        ops.cond(a, 3)
    m = Tensor(np.array([[2., 0.5], [0.3, 1.5]]))
    assert gradcheck(lambda t: ops.cond(t), m)
    assert gradcheck(lambda t: ops.cond(t, "fro"), m)


def test_no_repeat_ngram():
    seq = Tensor(np.array([[[1, 2, 1, 2, 5, 1, 2]]], np.int32))
    out = ops.NoRepeatNGram(2)(seq, Tensor(np.ones((1, 1, 10), np.float16)))
    assert out.dtype == ms.float16
    assert out.asnumpy().tolist() == [[[1., -65504., 1., 1., 1., -65504., 1., 1., 1., 1.]]]


def test_morph_runs_fn_with_its_own_or_a_custom_gradient():
    def square(a):
        return a * a

    def same(v):
        return v

    x = Tensor(np.array([1., 2.], np.float32))
    plain = ops.Morph(square, same, same)
    assert plain(x).asnumpy().tolist() == [1., 4.]
    assert ms.grad(lambda a: plain(a).sum())(x).asnumpy().tolist() == [2., 4.]
    custom = ops.Morph(square, same, same, bprop_fn=lambda a, out, dout: (dout * 10,))
    assert custom(x).asnumpy().tolist() == [1., 4.]
    assert ms.grad(lambda a: custom(a).sum())(x).asnumpy().tolist() == [10., 10.]
    with pytest.raises(TypeError, match="'fn' must be callable"):
        ops.Morph(1, same, same)


def test_row_tensor_helpers():
    r = ops.make_row_tensor(Tensor([0, 2], ms.int32), Tensor(np.ones((2, 3), np.float32)), (4, 3))
    assert isinstance(r, ms.RowTensor)
    assert ops.row_tensor_get_indices(r).asnumpy().tolist() == [0, 2]
    assert ops.row_tensor_get_values(r).shape == (2, 3)
    assert tuple(ops.row_tensor_get_dense_shape(r)) == (4, 3)
    added = ops.row_tensor_add(r, Tensor(np.array([1., 2., 3.], np.float32)))
    assert added.values.asnumpy().tolist() == [[2., 3., 4.], [2., 3., 4.]]
    assert isinstance(ops.make_row_tensor_inner(r.indices, r.values, (4, 3)), ms.RowTensor)
    with pytest.raises(TypeError, match="For 'RowTensorGetIndices', input\\[0\\] should be "
                                        "RowTensor"):
        ops.row_tensor_get_indices(Tensor([1]))


def test_pyfunc_calls_python_on_numpy():
    def add_mul(a, b):
        assert isinstance(a, np.ndarray)
        return a + b, a * b

    op = ops.PyFunc(add_mul, [ms.float32, ms.float32], [(2,), (2,)], [ms.float32, ms.float32],
                    [(2,), (2,)])
    s, m = op(Tensor([1., 2.]), Tensor([3., 4.]))
    assert s.dtype == ms.float32 and s.asnumpy().tolist() == [4., 6.]
    assert m.asnumpy().tolist() == [3., 8.]
    bad = ops.PyFunc(add_mul, [ms.float32] * 2, [(2,)] * 2, [ms.float32] * 2, [(3,)] * 2)
    with pytest.raises(RuntimeError, match="'out_shapes' says"):
        bad(Tensor([1., 2.]), Tensor([3., 4.]))


def test_non_max_suppression_with_overlaps():
    ov = Tensor(np.array([[0.6964692, 0.28613934, 0.22685145, 0.5513148],
                          [0.71946895, 0.42310646, 0.9807642, 0.6848297],
                          [0.4809319, 0.39211753, 0.343178, 0.7290497],
                          [0.43857226, 0.059677895, 0.39804426, 0.7379954]], np.float32))
    sc = Tensor(np.array([0.18249173, 0.17545176, 0.53155136, 0.53182757], np.float32))
    op = ops.NonMaxSuppressionWithOverlaps()
    out = op(ov, sc, Tensor(4, ms.int32), Tensor(0.1, ms.float32), Tensor(0.2, ms.float32))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [3]
    assert op(ov, sc, Tensor(4, ms.int32), Tensor(0.5), Tensor(0.0)).asnumpy().tolist() == [3]
    assert op(ov, sc, Tensor(4, ms.int32), Tensor(1.0), Tensor(0.0)).asnumpy().tolist() == \
        [3, 2, 0, 1]
    assert op(ov, sc, Tensor(2, ms.int32), Tensor(1.0), Tensor(0.0)).asnumpy().tolist() == [3, 2]
