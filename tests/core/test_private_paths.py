"""MindSpore's private module paths and internals its own test suite imports (issue 28; see
tools/ms_testsuite.py): each holds the object or behaviour MindSpore 2.10 has there."""

import warnings

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.ms_replay import install_alias


@pytest.fixture(scope="module", autouse=True)
def _alias():
    install_alias()


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


def test_common_paths_hold_the_top_level_objects():
    from mindspore.common import jit, mutable
    from mindspore.common.api import jit_class
    from mindspore.ops.composite.base import GradOperation

    assert mutable is ms.mutable and jit is ms.jit and jit_class is ms.jit_class
    assert GradOperation is ms.ops.GradOperation


def test_ops_function_modules_hold_ops():
    import mindspore.ops.function as F
    from mindspore.ops.function.math_func import approximate_equal

    assert F.hstack is ops.hstack and approximate_equal is ops.approximate_equal


def test_pynative_executor_sync_and_grad_flag():
    from mindspore.common.api import _pynative_executor as ex

    assert ex.sync() is None
    ex.set_grad_flag(True)
    assert ex.grad_flag() is True
    ex.set_grad_flag(False)
    with pytest.raises(TypeError, match="set_async_for_graph"):
        ex.set_async_for_graph(1)


def test_cell_graph_executor_compile_runs_the_cell_once():
    from mindspore.common.api import _cell_graph_executor as ex

    calls = []

    class Net(ms.nn.Cell):
        def construct(self, x):
            calls.append(x.shape)
            return x * 2

    phase, ok = ex.compile(Net(), t([[1.0, 2.0]]))
    assert ok is True and calls == [(1, 2)] and ex.has_compiled(phase)

    class Bad(ms.nn.Cell):
        def construct(self, x):
            return ops.matmul(x, x)

    with pytest.raises((ValueError, TypeError)):
        ex.compile(Bad(), t([[1.0, 2.0, 3.0]]))


def test_checkparam_expand_tuple():
    from mindspore._checkparam import once, triple, twice

    assert twice(3) == (3, 3) and once(2) == (2,) and triple((1, 2, 3)) == (1, 2, 3)
    with pytest.raises(TypeError, match="input type must be integer or tuple"):
        twice("a")
    with pytest.raises(TypeError, match="dimension must be 2, but got"):
        twice((1, 2, 3))
    with pytest.raises(TypeError, match="must be an integer"):
        twice((1, True))


def test_inner_ops_dynamic_markers_pass_values_and_gradients():
    from mindspore.ops.operations import _inner_ops as inner

    x = t([[1.0, -2.0], [3.0, 4.0]])
    for marker in (inner.ConvertToDynamic(), inner.ConvertToDynamic(is_dynamic_rank=True),
                   inner.GpuConvertToDynamicShape(), inner.ErrorOnDynamicShapeInput()):
        out = marker(x)
        assert out is not x and np.array_equal(out.asnumpy(), x.asnumpy())
        grad = ms.grad(lambda v, m=marker: (m(v) * v).sum())(x)
        np.testing.assert_allclose(grad.asnumpy(), 2 * x.asnumpy())
    with pytest.raises(TypeError, match="is_dynamic_rank"):
        inner.ConvertToDynamic(is_dynamic_rank=1)
    out = inner.DynamicBroadcastTo()(t([1.0, 2.0]), ms.Tensor(np.array([3, 2], np.int64)))
    assert out.shape == (3, 2) and out.asnumpy()[2, 1] == 2.0


def test_inner_ops_same_type_shape():
    from mindspore.ops.operations import _inner_ops as inner

    x = t([1.0, 2.0])
    assert inner.SameTypeShape()(x, t([3.0, 4.0])) is x
    with pytest.raises(TypeError, match="x dtype should be = y dtype: Int32, but got Float32"):
        inner.SameTypeShape()(x, ms.Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(ValueError, match=r"x shape should be = y shape: \(3,\), but got \(2,\)"):
        inner.SameTypeShape()(x, t([1.0, 2.0, 3.0]))


def test_functional_sequence_queries_are_false_eagerly():
    from mindspore.ops import functional as F

    assert F.is_sequence_value_unknown((2, 3)) is False
    assert ops.is_sequence_shape_unknown([2]) is False
    with pytest.raises(TypeError, match="IsShapeUnKnown should be tuple or list"):
        F.is_sequence_value_unknown(3)


def test_grad_ops_match_mindspore():
    from mindspore.ops.operations import _grad_ops as G

    x, d = t([0.1, -0.5, 0.7]), t([1.0, 2.0, 3.0])
    y = t([1.5, 2.0, 3.0])
    # MindSpore 2.10's outputs for these inputs
    np.testing.assert_allclose(G.ACosGrad()(x, d).asnumpy(), [-1.0050378, -2.309401, -4.20084],
                               rtol=1e-6)
    np.testing.assert_allclose(G.AsinGrad()(x, d).asnumpy(), [1.0050378, 2.309401, 4.20084],
                               rtol=1e-6)
    np.testing.assert_allclose(G.AtanGrad()(x, d).asnumpy(), [0.990099, 1.6, 2.0134227],
                               rtol=1e-6)
    np.testing.assert_allclose(G.AcoshGrad()(y, d).asnumpy(),
                               [0.46964246, 0.55144113, 0.2994647], rtol=1e-6)
    np.testing.assert_allclose(G.AsinhGrad()(y, d).asnumpy(),
                               [0.42509604, 0.5316044, 0.29798377], rtol=1e-6)
    dout = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2))
    np.testing.assert_array_equal(G.BiasAddGrad()(dout).asnumpy(), [60, 92, 124])
    np.testing.assert_array_equal(G.BiasAddGrad(data_format="NHWC")(dout).asnumpy(), [132, 144])
    with pytest.raises(ValueError, match="data_format"):
        G.BiasAddGrad(data_format="NCW")
    out = G.StridedSliceGrad()(ms.Tensor(np.ones((1, 2, 2), np.float32)), (2, 3, 4), (1, 0, 1),
                               (2, 3, 4), (1, 2, 2))
    expected = np.zeros((2, 3, 4), np.float32)
    expected[1, ::2, 1::2] = 1
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_nn_grad_jvp_vjp_cells():
    from mindspore.nn.grad import Jvp, Vjp

    class Cube(ms.nn.Cell):
        def construct(self, x):
            return x ** 3

    x, v = t([[1.0, 2.0], [3.0, 4.0]]), t(np.ones((2, 2)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        jvp_cell, vjp_cell = Jvp(Cube()), Vjp(Cube())
    for out, tangent in (jvp_cell(x, v), vjp_cell(x, v)):
        np.testing.assert_allclose(out.asnumpy(), x.asnumpy() ** 3)
        np.testing.assert_allclose(tangent.asnumpy(), 3 * x.asnumpy() ** 2)
    with pytest.raises(TypeError, match="'v' must match the output"):
        vjp_cell(x, (v, v))
    with pytest.raises(DeprecationWarning):
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            Jvp(Cube())


def test_set_context_graph_knobs():
    ms.set_context(jit_level="O1", infer_boost="on", exec_order="dfs")
    try:
        assert ms.get_context("jit_level") == "O1" and ms.get_context("exec_order") == "dfs"
        with pytest.raises(RuntimeError, match="'jit_level' must be a str"):
            ms.set_context(jit_level=1)
        with pytest.raises(ValueError, match=r"'exec_order' must be one of \['bfs', 'dfs'\]"):
            ms.set_context(exec_order="x")
    finally:
        ms.set_context(jit_level="", infer_boost="off", exec_order="bfs")


def test_sequence_ops_match_mindspore():
    from mindspore.ops.operations import _sequence_ops as S

    out = S.TupleToTensor()((1, 2.5), ms.int32)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [1, 2]
    assert S.ListToTensor()([1, 2], ms.int64).dtype == ms.int64
    assert S.TensorToTuple()(ms.Tensor([1, 2])) == (1, 2)
    assert S.TensorToList()(t([1.5, 2.0])) == [1.5, 2.0]
    assert S.TensorToScalar()(ms.Tensor(3)) == 3
    with pytest.raises(ValueError, match="0-D Tensor"):
        S.TensorToScalar()(t([1.0]))
    with pytest.raises(TypeError, match="must be a tuple"):
        S.TupleToTensor()([1], ms.float32)
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    parts = S.SequenceUnstack(axis=1)(x)
    assert isinstance(parts, tuple) and [p.asnumpy().tolist() for p in parts] == [
        [0, 3], [1, 4], [2, 5]]
    np.testing.assert_array_equal(S.SequenceAddN()((x, x)).asnumpy(), 2 * x.asnumpy())


def test_sparse_ops_path():
    from mindspore.ops.operations.sparse_ops import SparseTensorDenseAdd, SparseTensorDenseMatmul

    assert SparseTensorDenseAdd is ops.SparseTensorDenseAdd
    assert SparseTensorDenseMatmul is ops.SparseTensorDenseMatmul


def test_custom_function_forward_backward():
    from mindspore import _Function, _no_grad

    class Square(_Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x)
            return x * x + y

        @staticmethod
        def backward(ctx, dz):
            (x,) = ctx.saved_tensors
            return 2 * x * dz, dz * 4  # y's gradient deliberately not the true one

    x, y = t([2.0, 3.0]), t([1.0, 1.0])
    np.testing.assert_allclose(Square.apply(x, y).asnumpy(), [5.0, 10.0])
    gx, gy = ops.GradOperation(get_all=True)(Square.apply)(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [4.0, 6.0])
    np.testing.assert_allclose(gy.asnumpy(), [4.0, 4.0])
    assert _no_grad is ms.no_grad


def test_c_expression_tensorpy_is_the_tensor_base():
    from mindspore._c_expression import TensorPy

    assert isinstance(t([1.0]), TensorPy) and isinstance(ms.Parameter(t([1.0]), "p"), TensorPy)
    assert not isinstance(np.ones(1), TensorPy)
