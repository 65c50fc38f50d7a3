"""A tuple/list operand of Tensor + and - becomes a Tensor of the other operand's dtype, as
MindSpore's `sequence_to_tensor`: Tensors in it are stacked and keep their gradients."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def test_tuple_of_tensors_plus_tensor_is_stacked_and_differentiable():
    a, b, c = Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), Tensor([1.0, 1.0])
    out = (a, b) + c
    assert out.shape == (2, 2) and out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [[2, 3], [4, 5]])

    def f(a, b, c):
        return ((a, b) + c * 2).sum() + ([a, b] - c).sum() * 3 + (c * c - (a, b)).sum() * 5

    ga, gb, gc = ms.grad(f, grad_position=(0, 1, 2))(a, b, c)
    np.testing.assert_array_equal(ga.asnumpy(), [-1.0, -1.0])
    np.testing.assert_array_equal(gb.asnumpy(), [-1.0, -1.0])
    np.testing.assert_array_equal(gc.asnumpy(), [18.0, 18.0])


def test_split_outputs_plus_parameter_reach_the_input():
    x = Tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def f(x):
        return ops.ReduceSum()(ops.Split(0, 2)(x) + w, 0).sum()

    np.testing.assert_array_equal(ms.grad(f)(x).asnumpy(), np.ones((2, 3)))


def test_sequence_takes_the_tensor_dtype():
    r = (Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)) + Tensor([0.5, 0.5], ms.float16)
    assert r.dtype == ms.float16
    np.testing.assert_array_equal(r.asnumpy(), [[1.5, 2.5], [3.5, 4.5]])
    r = Tensor([1, 2], ms.int32) + (1.5, 2.7)
    assert r.dtype == ms.int32
    np.testing.assert_array_equal(r.asnumpy(), [2, 4])
    r = (1, 2) - Tensor([1.0, 2.0], ms.float64)
    assert r.dtype == ms.float64
    r = Tensor([1.0, 1.0]) - (Tensor(1.0), 2.0)
    assert r.dtype == ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [0.0, -1.0])


def test_sequence_of_mismatched_shapes_is_an_error():
    with pytest.raises(ValueError, match="stack"):
        (Tensor([1.0, 2.0]), 2.0) - Tensor([1.0, 1.0])
