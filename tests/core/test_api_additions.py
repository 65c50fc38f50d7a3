"""Behaviour behind signatures matched to MindSpore 2.10: sens_param, amax/amin initial and
where, round decimals, nonzero as_tuple, TruncatedNormal bounds, ReduceSum skip_mode."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.common.initializer import TruncatedNormal, initializer


def test_grad_with_sens_param_takes_the_output_gradient_last():
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    sens = Tensor(np.array([1.0, 0.5, 2.0], np.float32))
    g = ms.grad(lambda a: a * a, sens_param=True)(x, sens)
    np.testing.assert_allclose(g.asnumpy(), [2.0, 2.0, 12.0])
    value, g = ms.value_and_grad(lambda a: (a * a).sum(), sens_param=True)(x, Tensor(3.0))
    assert float(value.asnumpy()) == 14.0
    np.testing.assert_allclose(g.asnumpy(), [6.0, 12.0, 18.0])
    with pytest.raises(TypeError, match="the last argument must be the sensitivity"):
        ms.grad(lambda a: a, sens_param=True)()


def test_a_scalar_sensitivity_fills_the_output_shape():
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    g = ms.grad(lambda a: a * 3.0, sens_param=True)(x, Tensor(np.float32(2.0)))
    np.testing.assert_allclose(g.asnumpy(), [[6.0, 6.0]])


def test_amax_amin_initial_and_where():
    x = Tensor(np.array([[1.0, 5.0], [-2.0, 3.0]], np.float32))
    np.testing.assert_allclose(ops.amax(x, 1, initial=4.0).asnumpy(), [5.0, 4.0])
    where = Tensor(np.array([[True, False], [True, True]]))
    np.testing.assert_allclose(ops.amax(x, 1, initial=-9.0, where=where).asnumpy(), [1.0, 3.0])
    np.testing.assert_allclose(ops.amin(x, 0, initial=0.0).asnumpy(), [-2.0, 0.0])
    with pytest.raises(ValueError, match="'where' needs 'initial'"):
        ops.amax(x, where=where)


def test_round_decimals_and_nonzero_as_tuple():
    np.testing.assert_allclose(ops.round(Tensor(np.array([1.234, 2.5])), decimals=2).asnumpy(),
                               [1.23, 2.5])
    rows, cols = Tensor(np.array([[0, 1], [2, 0]])).nonzero(as_tuple=True)
    assert rows.asnumpy().tolist() == [0, 1] and cols.asnumpy().tolist() == [1, 0]
    assert Tensor(np.array([[0, 1], [2, 0]])).nonzero().shape == (2, 2)


def test_truncated_normal_mean_and_bounds():
    ms.set_seed(0)
    v = initializer(TruncatedNormal(sigma=1.0, mean=0.5, a=0.0, b=1.0), (20000,)).asnumpy()
    assert v.min() >= 0.0 and v.max() <= 1.0 and abs(v.mean() - 0.5) < 0.01
    with pytest.raises(ValueError, match="a must be less than b"):
        initializer(TruncatedNormal(a=1.0, b=0.0), (2,)).asnumpy()


def test_reduce_sum_skip_mode_and_gather_batch_dims():
    x = Tensor(np.ones((2, 3), np.float32))
    assert ops.ReduceSum(skip_mode=True)(x) is x
    assert float(ops.ReduceSum()(x).asnumpy()) == 6.0
    params = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))
    out = ops.Gather()(params, Tensor(np.array([1, 0], np.int32)), 1)
    np.testing.assert_allclose(out.asnumpy(), [[2.0, 1.0], [4.0, 3.0]])
    out = ops.Gather(batch_dims=1)(params, Tensor(np.array([[0], [1]], np.int32)), 1)
    np.testing.assert_allclose(out.asnumpy(), [[1.0], [4.0]])


def test_tensor_function_and_module_path():
    import numpy as np

    import cellgrad as ms
    from cellgrad.common.tensor import Tensor

    t = ms.tensor([1.0, 2.0], ms.float64)
    assert isinstance(t, Tensor) and t.dtype == ms.float64
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 2.0])
    assert ms.tensor(3).dtype == ms.int64
    assert Tensor.__module__ == "cellgrad.common.tensor"


def test_reduce_op_is_in_the_core():
    # Single-process code (mindcv's metrics) imports it without an MPI package installed.
    from cellgrad.ops import ReduceOp

    assert (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD) == \
        ("sum", "max", "min", "prod")


def test_gradient_of_an_integer_input_holds_integers():
    # a float rule's gradient is cast to the input's dtype, data and label alike (MindSpore)
    import numpy as np

    import cellgrad as ms
    from cellgrad import Tensor, ops

    a, b = Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1, 1], np.int32))
    ga, gb = ms.grad(lambda x, y: ops.maximum(x, y), (0, 1))(a, b)
    assert ga.asnumpy().dtype == np.int32 and ga.asnumpy().tolist() == [0, 1]
    assert gb.asnumpy().tolist() == [0, 0]
