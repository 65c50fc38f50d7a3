"""The private-path names MindSpore's own tests import: `ops.function.array_func`'s `*_ext`,
`gen_ops_def`'s `*_ext` and Primitive classes, `auto_generate`'s backward Primitives,
`math_func.F`, `standard_method.ms_len`, `common.parameter._Buffer`, `ops.composite.base.core`
and `ops.operations._csr_ops` (values recorded from MindSpore: ms_programs/private_ext_funcs)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad._extends.parse.standard_method import ms_len
from cellgrad.common.parameter import _Buffer
from cellgrad.ops.auto_generate import gen_ops_def
from cellgrad.ops.function import array_func as af
from cellgrad.testing import gradcheck

X = np.array([[3.0, -1.0, 2.0, 7.0], [0.5, 4.0, -2.0, 1.0], [6.0, 6.0, 0.0, -3.0]], np.float32)


def test_split_ext_int_and_sections():
    x = Tensor(X)
    parts = af.split_ext(x, 3, 1)
    assert [p.shape for p in parts] == [(3, 3), (3, 1)]
    np.testing.assert_array_equal(parts[1].asnumpy(), X[:, 3:])
    parts = af.split_ext(x, [1, 2])
    assert [p.shape for p in parts] == [(1, 4), (2, 4)]
    with pytest.raises(TypeError, match="`split_size` should be integer"):
        af.split_ext(x, 1.5)
    with pytest.raises(TypeError, match="`split_size` should be integer"):
        af.split_ext(x, True)


@pytest.mark.parametrize("name, reduce, arg", [("max", np.max, np.argmax),
                                               ("min", np.min, np.argmin)])
def test_max_min_ext(name, reduce, arg):
    fn = getattr(af, f"{name}_ext")
    x = Tensor(X)
    assert float(fn(x)) == reduce(X)
    values, indices = fn(x, 1)
    np.testing.assert_array_equal(values.asnumpy(), reduce(X, 1))
    np.testing.assert_array_equal(indices.asnumpy(), arg(X, 1))
    assert indices.dtype == ms.int64
    values, indices = fn(x, 0, True)
    assert values.shape == indices.shape == (1, 4)
    with pytest.raises(ValueError, match=f"For '{name}', the `keepdim` must be False"):
        fn(x, None, True)
    with pytest.raises(TypeError, match=f"For '{name}_ext', 'dim' must be an int or None"):
        fn(x, x)


def test_max_ext_gradient():
    x = Tensor(np.array([[1.0, 5.0, 2.0], [4.0, 3.0, 0.5]]))
    assert gradcheck(lambda t: af.max_ext(t, 1)[0], x)
    assert gradcheck(lambda t: af.min_ext(t), x)


def test_new_ones_new_zeros():
    x = Tensor(X)
    ones = af.new_ones(x, (2, 3))
    assert ones.shape == (2, 3) and ones.dtype == ms.float32 and ones.asnumpy().sum() == 6
    zeros = af.new_zeros(x, 2, dtype=ms.int32)
    assert zeros.dtype == ms.int32 and zeros.asnumpy().tolist() == [0, 0]
    with pytest.raises(TypeError, match="For 'new_ones', 'input' must be a Tensor"):
        af.new_ones(np.ones(2), (2,))
    with pytest.raises(TypeError, match="For 'new_zeros', 'input' must be a Tensor"):
        af.new_zeros([1.0], (2,))


def test_gather_ext_values_and_gradient():
    index = Tensor(np.array([[0, 0], [1, 3], [3, 2]], np.int64))
    out = af.gather_ext(Tensor(X), 1, index)
    np.testing.assert_array_equal(out.asnumpy(), np.take_along_axis(X, index.asnumpy(), 1))
    assert gradcheck(lambda t: af.gather_ext(t, 1, index), Tensor(X.astype(np.float64)))


def test_gen_ops_def_ext_functions_and_classes():
    x = Tensor(X)
    np.testing.assert_allclose(gen_ops_def.add_ext(x, 1.0, 2.0).asnumpy(), X + 2.0)
    np.testing.assert_allclose(gen_ops_def.sub_ext(x, x, alpha=3).asnumpy(), -2 * X)
    a = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    b = np.arange(18, dtype=np.float32).reshape(2, 3, 3)
    np.testing.assert_allclose(gen_ops_def.bmm_ext(Tensor(a), Tensor(b)).asnumpy(), a @ b)
    assert gen_ops_def.Reciprocal is ops.Reciprocal
    assert gen_ops_def.abs is ops.abs  # the functions it had before
    assert {"Reciprocal", "bmm_ext", "TanhGrad"} <= set(dir(gen_ops_def))
    assert gradcheck(lambda p, q: gen_ops_def.sub_ext(p, q, 2.5),
                     Tensor(X.astype(np.float64)), Tensor(X.astype(np.float64) + 1))


def test_auto_generate_is_an_attribute_of_ops():
    import cellgrad.ops.auto_generate as gen

    assert ms.ops.auto_generate is gen


def test_tanh_grad_values_gradient_and_dtypes():
    gen = ops.auto_generate
    y = np.array([0.5, -0.25, 0.9])
    dy = np.array([1.0, 2.0, -3.0])
    out = gen.TanhGrad()(Tensor(y, ms.float32), Tensor(dy, ms.float32))
    np.testing.assert_allclose(out.asnumpy(), dy * (1 - y * y), rtol=1e-6)
    assert out.dtype == ms.float32
    assert gradcheck(lambda a, b: gen.TanhGrad()(a, b), Tensor(y), Tensor(dy))
    with pytest.raises(TypeError, match="For 'TanhGrad', 'y' and 'dy' must be Tensors of one"):
        gen.TanhGrad()(Tensor([1, 2]), Tensor([1, 2]))
    with pytest.raises(TypeError, match="For 'TanhGrad', 'dy' must be a Tensor"):
        gen.TanhGrad()(Tensor(y), 1.0)


def test_softmax_backward_is_softmax_vjp():
    gen = ops.auto_generate
    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(3, 4)))
    dout = Tensor(rng.normal(size=(3, 4)))
    def softmax(t, dim):  # from core ops (ops.softmax is cellgrad-ops-nn's)
        e = ops.exp(t)
        return e / e.sum(dim, keepdims=True)

    for dim in (-1, 0):
        out, back = ms.vjp(lambda t, d=dim: softmax(t, d), x)
        np.testing.assert_allclose(gen.SoftmaxBackward()(dout, out, dim).asnumpy(),
                                   back(dout)[0].asnumpy(), rtol=1e-10)
    assert gradcheck(lambda d, o: gen.SoftmaxBackward()(d, o, -1), dout, softmax(x, -1))
    with pytest.raises(TypeError, match="For 'SoftmaxBackward', 'dim' must be an int"):
        gen.SoftmaxBackward()(dout, x, 1.0)


def test_tracev2_grad_is_trace_vjp():
    gen = ops.auto_generate
    rng = np.random.default_rng(1)
    a = Tensor(rng.normal(size=(2, 3, 4)))
    for offset, axis1, axis2 in ((0, 1, 2), (1, 1, 2), (-1, 2, 0), (2, 0, 2)):
        out, back = ms.vjp(lambda t, o=offset, p=axis1, q=axis2: ops.diagonal(t, o, p, q).sum(-1),
                           a)  # TraceV2's forward
        dout = Tensor(rng.normal(size=out.shape))
        got = gen.tracev2_grad_op(dout, Tensor([2, 3, 4]), offset, axis1, axis2)
        np.testing.assert_allclose(got.asnumpy(), back(dout)[0].asnumpy())
    assert isinstance(gen.tracev2_grad_op, gen.TraceV2Grad)
    with pytest.raises(ValueError, match="'dout' must have the shape \\(4,\\)"):
        gen.tracev2_grad_op(Tensor(np.ones(3)), Tensor([2, 3, 4]), 0, 0, 1)
    with pytest.raises(ValueError, match="'axis1' and 'axis2' must be two different axes"):
        gen.tracev2_grad_op(Tensor(np.ones(3)), Tensor([2, 3, 4]), 0, 1, 1)


def test_math_func_holds_ops_function_as_F():
    from cellgrad.ops import function
    from cellgrad.ops.function.math_func import F

    assert F is function
    out = F.inplace_index_add(Tensor(np.zeros((3, 2), np.float32)), Tensor([0, 2], ms.int32),
                              Tensor(np.ones((2, 2), np.float32)), 0)
    assert out.asnumpy().tolist() == [[1, 1], [0, 0], [1, 1]]


def test_ms_len():
    assert ms_len([1, 2, 3]) == 3 and ms_len("abcd") == 4 and ms_len({"a": 1}) == 1
    assert ms_len(Tensor(X)) == 3
    with pytest.raises(AttributeError, match="'int' object has no attribute '__len__'"):
        ms_len(3)


def test_buffer_marks_a_detached_tensor():
    t = Tensor(np.array([1.0, 2.0], np.float32))
    buf = _Buffer(t, persistent=False)
    assert type(buf) is Tensor and buf is not t
    assert isinstance(buf, _Buffer) and not isinstance(t, _Buffer)
    assert buf.persistent is False and _Buffer(t).persistent is True
    assert buf.asnumpy().tolist() == [1.0, 2.0]
    grad = ops.grad(lambda a: (_Buffer(a) * a).sum())(Tensor(np.array([3.0])))
    assert grad.asnumpy().tolist() == [3.0]  # the buffer's copy gets no gradient
    with pytest.raises(ValueError, match="input data should not be None"):
        _Buffer(None)
    with pytest.raises(TypeError, match="type of input data should be Tensor"):
        _Buffer([1.0])


def test_buffer_assigned_to_a_cell_is_registered():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = _Buffer(Tensor(np.zeros(2, np.float32)))
            self.plain = Tensor(np.ones(2, np.float32))

        def construct(self, x):
            return x + self.count

    net = Net()
    assert [name for name, _ in net.named_buffers()] == ["count"]
    assert list(net.state_dict()) == ["count"]
    net.count = _Buffer(Tensor(np.full(2, 3.0, np.float32)))
    assert net(Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [4.0, 4.0]
    registered = Tensor(np.ones(1, np.float32))
    net.register_buffer("extra", registered)
    assert isinstance(registered, _Buffer)  # register_buffer marks it, as MindSpore's


def test_composite_base_core_sets_flags():
    from cellgrad.ops.composite.base import core

    def fn():
        return 1

    fn._func_graph_flags = {"old": True}
    assert core(fn, tg=True) is fn and fn._func_graph_flags == {"core": True, "tg": True}
    assert core(x=False)(fn)._func_graph_flags == {"core": True, "x": False}


def test_csr_ops_primitives():
    from cellgrad.ops.operations import _csr_ops

    indptr, indices = Tensor([0, 1, 3], ms.int32), Tensor([0, 1, 3], ms.int32)
    values, shape = Tensor(np.array([2.0, 3.0, 4.0], np.float32)), (2, 4)
    dense = np.arange(8, dtype=np.float32).reshape(2, 4)
    full = np.zeros((2, 4), np.float32)
    full[0, 0], full[1, 1], full[1, 3] = 2.0, 3.0, 4.0
    mask = full != 0
    np.testing.assert_allclose(
        _csr_ops.CSRGather()(indptr, indices, Tensor(dense), shape).asnumpy(), dense[mask])
    np.testing.assert_allclose(
        _csr_ops.CSRMul()(indptr, indices, values, shape, Tensor(dense)).asnumpy(),
        (full * dense)[mask])
    np.testing.assert_allclose(
        _csr_ops.CSRDiv()(indptr, indices, values, shape, Tensor(dense + 1)).asnumpy(),
        (full / (dense + 1))[mask])
    vec = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)
    np.testing.assert_allclose(
        _csr_ops.CSRMV()(indptr, indices, values, shape, Tensor(vec)).asnumpy(), full @ vec)
    np.testing.assert_allclose(
        _csr_ops.CSRMM()(indptr, indices, values, shape, Tensor(dense.T)).asnumpy(),
        full @ dense.T)
    np.testing.assert_allclose(
        _csr_ops.CSRReduceSum()(indptr, indices, values, shape, 1).asnumpy(),
        full.sum(1, keepdims=True))
    assert _csr_ops.CSR2COO()(indptr, 3).asnumpy().tolist() == [0, 1, 1]
    assert _csr_ops.COO2CSR()(Tensor([0, 1, 1], ms.int32), 2).asnumpy().tolist() == [0, 1, 3]
    with pytest.raises(TypeError, match="For 'CSRMul', expected \\(indptr, indices, values"):
        _csr_ops.CSRMul()(indptr, indices, values, shape)
