"""softmax, log_softmax, dense, bias_add: gradcheck, values, errors, torch."""

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import ops

CASES = [
    Case("softmax", ops.softmax, [(3, 4)]),
    Case("softmax", lambda x: ops.softmax(x, 0), [(3, 2, 2)], tag="axis0"),
    Case("log_softmax", ops.log_softmax, [(3, 4)]),
    Case("log_softmax", lambda x: ops.log_softmax(x, 1), [(2, 3, 2)], tag="axis1"),
    Case("dense", ops.dense, [(3, 4), (2, 4), (2,)]),
    Case("dense", ops.dense, [(2, 3, 4), (5, 4)], tag="3d-nobias"),
    Case("dense", ops.dense, [(4,), (3, 4), (3,)], tag="1d-input"),
    Case("dense", ops.dense, [(3, 4), (4,), ()], tag="1d-weight"),
    Case("bias_add", ops.bias_add, [(2, 3, 2, 2), (3,)]),
    Case("bias_add", ops.bias_add, [(2, 3), (3,)], tag="2d"),
]
GRADCHECKED = names(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradgradcheck(case):
    check_second_order(case)


def test_softmax_is_stable_for_huge_logits_and_keeps_dtype():
    for dt in (np.float16, np.float32, np.float64):
        x = ms.Tensor(np.array([[1000.0, 1001.0, -1000.0]], dt))
        p, lp = ops.softmax(x), ops.log_softmax(x)
        assert p.asnumpy().dtype == dt and lp.asnumpy().dtype == dt
        assert np.isfinite(p.asnumpy()).all() and np.isfinite(lp.asnumpy()[0, :2]).all()
        np.testing.assert_allclose(p.asnumpy()[0, :2], [0.26894142, 0.7310586], rtol=2e-3)
    np.testing.assert_allclose(lp.asnumpy()[0], [-1.3132617, -0.3132617, -2001.3132617])


def test_softmax_dtype_argument_casts_first():
    out = ops.softmax(ms.Tensor(np.array([1.0, 2.0], np.float32)), dtype=ms.float64)
    assert out.dtype == ms.float64


def test_softmax_errors():
    x = ms.Tensor(np.array([-1.0, 2.0], np.float32))
    with pytest.raises(ValueError, match=r"For 'softmax', 'axis' must be in \[-1, 1\) for an "
                                         r"input of rank 1, got 3"):
        ops.softmax(x, axis=3)
    with pytest.raises(TypeError, match="For 'log_softmax', 'axis' must be an int, got tuple"):
        ops.log_softmax(x, axis=(0,))
    with pytest.raises(TypeError, match="For 'softmax', 'input' must be a floating Tensor"):
        ops.softmax(ms.Tensor(np.array([1, 2], np.int32)))


def test_dense_values_and_shapes_as_mindspore():
    one = ms.Tensor(np.ones((4, 3), np.float32))
    assert ops.dense(ms.Tensor(np.ones((2, 3), np.float32)), one,
                     ms.Tensor(np.ones(4, np.float32))).asnumpy().tolist() == [[4.0] * 4] * 2
    assert ops.dense(ms.Tensor(np.ones(3, np.float32)), one).asnumpy().tolist() == [3.0] * 4
    out = ops.dense(ms.Tensor(np.ones((5, 2, 3), np.float32)), one)
    assert out.shape == (5, 2, 4) and out.dtype == ms.float32
    w1 = ms.Tensor(np.ones(3, np.float32))
    assert ops.dense(ms.Tensor(np.ones((2, 3), np.float32)), w1).asnumpy().tolist() == [3.0] * 2


def test_dense_errors():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"For 'dense', the last dimension of 'input' must equal "
                       r".*got input Tensor\(shape=\(2, 3\), dtype=Float32\) and weight "
                       r"Tensor\(shape=\(4, 5\), dtype=Float32\)"):
        ops.dense(x, ms.Tensor(np.ones((4, 5), np.float32)))
    with pytest.raises(ValueError, match=r"For 'dense', 'bias' must have shape \(4,\)"):
        ops.dense(x, ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones(5, np.float32)))
    with pytest.raises(TypeError, match="For 'dense', 'weight' must be a Tensor, got ndarray"):
        ops.dense(x, np.ones((4, 3)))


def test_bias_add_adds_along_channel_axis_and_checks_it():
    x = ms.Tensor(np.zeros((2, 3, 2), np.float32))
    out = ops.bias_add(x, ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert out.asnumpy()[1, :, 1].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match=r"For 'bias_add', 'bias' must have 3 elements \(the "
                                         r"channel dimension 1 of input_x\)"):
        ops.bias_add(x, ms.Tensor(np.ones(4, np.float32)))


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_against_torch(torch, dtype):
    F = torch.nn.functional
    tol = 1e-12 if dtype == np.float64 else 1e-6
    kw = dict(dtype=dtype, atol=tol, rtol=tol * 10)
    torch_compare(torch, [(3, 5)], lambda x: ops.softmax(x * 4, 1),
                  lambda x: F.softmax(x * 4, 1), **kw)
    torch_compare(torch, [(3, 5, 2)], lambda x: ops.log_softmax(x * 4, 1),
                  lambda x: F.log_softmax(x * 4, 1), **kw)
    torch_compare(torch, [(6, 5), (4, 5), (4,)], ops.dense, F.linear, **kw)
    torch_compare(torch, [(2, 6, 5), (4, 5)], ops.dense, F.linear, **kw)
    torch_compare(torch, [(2, 3, 2, 2), (3,)], ops.bias_add,
                  lambda x, b: x + b.reshape(1, 3, 1, 1), **kw)
