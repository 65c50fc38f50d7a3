"""Issue 21 items 8 and 9 (core): errors keep their cause and name the API and the problem;
shape and range errors MindSpore raises as RuntimeError are also RuntimeError here (and still
the ValueError/IndexError cellgrad raised before)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad._errors import IndexRangeError, ShapeError, ValueRangeError


def test_shared_classes_are_both():
    assert issubclass(ShapeError, ValueError) and issubclass(ShapeError, RuntimeError)
    assert issubclass(ValueRangeError, ValueError) and issubclass(ValueRangeError, RuntimeError)
    assert issubclass(IndexRangeError, IndexError) and issubclass(IndexRangeError, RuntimeError)


def test_tensor_plus_str_names_the_op_and_chains_numpys_error():
    with pytest.raises(TypeError) as info:
        ms.Tensor([1.0]) + "abc"
    text = str(info.value)
    assert text.startswith("For 'add', ")
    assert "got inputs Tensor(shape=(1,), dtype=Float32), str 'abc'" in text
    assert "__init__" not in text
    assert type(info.value) is TypeError
    assert info.value.__cause__ is not None  # numpy's own error, kept
    assert "ufunc" in str(info.value.__cause__)


def test_broadcast_failure_keeps_value_error_and_cause():
    with pytest.raises(ValueError, match="For 'add', the input shapes cannot be broadcast") as e:
        ms.Tensor(np.ones((2, 3), np.float32)) + ms.Tensor(np.ones((4, 5), np.float32))
    assert e.value.__cause__ is not None


@pytest.mark.parametrize("transform", ["grad", "value_and_grad"])
def test_grad_of_a_non_callable(transform):
    # MindSpore 2.10: TypeError 'The fn should be callable, but got int' when called
    g = getattr(ms, transform)(5)
    with pytest.raises(TypeError, match=f"For '{transform}', the fn should be callable, but got "
                                        "int."):
        g(ms.Tensor([1.0]))


def test_vjp_jvp_of_a_non_callable():
    x = ms.Tensor([1.0])
    with pytest.raises(TypeError, match="For 'vjp', the fn should be callable, but got int."):
        ms.vjp(5, x)
    with pytest.raises(TypeError, match="For 'jvp', the fn should be callable, but got str."):
        ms.jvp("f", x, x)


def test_grad_weights_not_tensors():
    x = ms.Tensor([1.0])
    # MindSpore 2.10's message, word for word (programs print it): TypeError 'The weights you
    # provided is expected to be a tensor, or a list or tuple. but got 123' (at call)
    g = ms.grad(lambda t: t * 2, grad_position=None, weights=123)
    with pytest.raises(TypeError, match=r"^The weights you provided is expected to be a tensor, "
                                        r"or a list or tuple. but got 123$"):
        g(x)
    # MindSpore 2.10: RuntimeError 'The pointer[tensor] is null.'
    with pytest.raises(RuntimeError, match="For 'grad', every entry of 'weights' must be a "
                                           "Tensor; entry 0 is a int"):
        ms.grad(lambda t: t * 2, grad_position=None, weights=[1])(x)
    with pytest.raises(TypeError, match="The weights you provided .* but got w"):
        ms.value_and_grad(lambda t: t * 2, grad_position=None, weights="w")(x)


def test_matmul_shape_mismatch_is_runtime_error_too():
    a, b = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 5), np.float32))
    for call in (lambda: ops.matmul(a, b), lambda: a @ b):
        # MindSpore 2.10: RuntimeError "For 'MatMulExt' op, shape1[-1] must be equal to ..."
        with pytest.raises(RuntimeError, match="For 'matmul', the contracted dimensions"):
            call()
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ShapeError, match="batch dimensions"):
        ops.matmul(ms.Tensor(np.ones((2, 2, 3), np.float32)),
                   ms.Tensor(np.ones((3, 3, 4), np.float32)))


def test_gather_index_out_of_range_is_runtime_error_too():
    x = ms.Tensor(np.ones((4, 3), np.float32))
    idx = ms.Tensor(np.array([5], np.int32))
    # MindSpore 2.10: RuntimeError "For 'Gather', the 'input_indices' should be in the range
    # [0, 4), but got 5"
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in "
                                           r"the range \[0, 4\), but got 5"):
        ops.gather(x, idx, 0)
    with pytest.raises(IndexError):
        ops.gather(x, idx, 0)


def test_gather_elements_index_out_of_range_is_runtime_error_too():
    x = ms.Tensor(np.ones((4, 3), np.float32))
    idx = ms.Tensor(np.full((4, 3), 5, np.int32))
    with pytest.raises(RuntimeError, match=r"For 'gather_elements', index values must be in "
                                           r"\[-3, 3\)"):
        ops.gather_elements(x, 1, idx)
    with pytest.raises(IndexError):
        ops.gather_elements(x, 1, idx)


def test_numpy_matmul_shape_mismatch_stays_value_error():
    # mindspore.numpy.matmul raises ValueError (recorded in ms_programs/numpy_math_misc)
    import cellgrad.numpy as mnp
    with pytest.raises(ValueError) as info:
        mnp.matmul(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones(2, np.float32)))
    assert type(info.value) is ValueError
