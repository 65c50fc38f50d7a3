"""Tensor str()/repr() against MindSpore 2.10's output (spec section 14)."""

import numpy as np
import pytest

from cellgrad._format import tensor_repr, tensor_str

f32 = np.float32

# (values, dtype name, str, repr): the rows of the table in spec section 14
TABLE = [
    (
        np.array([1.0, 2.5, -3.0], f32),
        "Float32",
        "[ 1.   2.5 -3. ]",
        "Tensor(shape=[3], dtype=Float32, value="
        " [ 1.00000000e+00,  2.50000000e+00, -3.00000000e+00])",
    ),
    (np.array(2.5, f32), "Float32", "2.5", "Tensor(shape=[], dtype=Float32, value= 2.5)"),
    (np.array(3.0, f32), "Float32", "3.0", "Tensor(shape=[], dtype=Float32, value= 3)"),
    (np.array(3, np.int64), "Int64", "3", "Tensor(shape=[], dtype=Int64, value= 3)"),
    (
        np.array([[1, 2], [3, 4]], f32),
        "Float32",
        "[[1. 2.]\n [3. 4.]]",
        "Tensor(shape=[2, 2], dtype=Float32, value=\n"
        "[[ 1.00000000e+00,  2.00000000e+00],\n"
        " [ 3.00000000e+00,  4.00000000e+00]])",
    ),
    (
        np.array([1e-5, 123456.7], f32),
        "Float32",
        "[1.000000e-05 1.234567e+05]",
        "Tensor(shape=[2], dtype=Float32, value= [ 9.99999975e-06,  1.23456703e+05])",
    ),
    (
        np.array([1.0, 1 / 3], np.float64),
        "Float64",
        "[1.         0.33333333]",
        "Tensor(shape=[2], dtype=Float64, value= [ 1.00000000e+00,  3.33333333e-01])",
    ),
    (
        np.array([1.0, 0.1], np.float16),
        "Float16",
        "[1.  0.1]",
        "Tensor(shape=[2], dtype=Float16, value= [ 1.0000e+00,  9.9976e-02])",
    ),
    (
        np.array([1, 2, 3], np.int64),
        "Int64",
        "[1 2 3]",
        "Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])",
    ),
    (
        np.array([1, -2], np.int32),
        "Int32",
        "[ 1 -2]",
        "Tensor(shape=[2], dtype=Int32, value= [ 1, -2])",
    ),
    (
        np.array([1, 1000000], np.int64),
        "Int64",
        "[      1 1000000]",
        "Tensor(shape=[2], dtype=Int64, value= [      1, 1000000])",
    ),
    (
        np.array([True, False]),
        "Bool",
        "[ True False]",
        "Tensor(shape=[2], dtype=Bool, value= [ True, False])",
    ),
    (
        np.array([1, 2], f32),
        "BFloat16",
        "[1.000000 2.000000]",
        "Tensor(shape=[2], dtype=BFloat16, value= [1, 2])",
    ),
    (
        np.array([np.nan, np.inf, -np.inf], f32),
        "Float32",
        "[ nan  inf -inf]",
        "Tensor(shape=[3], dtype=Float32, value="
        " [            nan,             inf,            -inf])",
    ),
    (np.zeros((0, 3), f32), "Float32", "[]", "Tensor(shape=[0, 3], dtype=Float32, value=\n)"),
    (
        np.arange(8, dtype=f32).reshape(2, 2, 2),
        "Float32",
        "[[[0. 1.]\n  [2. 3.]]\n\n [[4. 5.]\n  [6. 7.]]]",
        "Tensor(shape=[2, 2, 2], dtype=Float32, value=\n"
        "[[[ 0.00000000e+00,  1.00000000e+00],\n"
        "  [ 2.00000000e+00,  3.00000000e+00]],\n"
        " [[ 4.00000000e+00,  5.00000000e+00],\n"
        "  [ 6.00000000e+00,  7.00000000e+00]]])",
    ),
]


@pytest.mark.parametrize(("arr", "dtype", "expected_str", "expected_repr"), TABLE)
def test_spec_table(arr, dtype, expected_str, expected_repr):
    assert tensor_str(arr, dtype) == expected_str
    assert tensor_repr(arr, dtype) == expected_repr


# 0-d values use C++ stream formatting: 6 significant digits
@pytest.mark.parametrize(
    ("value", "dtype", "text"),
    [
        (np.float32(1 / 3), "Float32", "0.333333"),
        (np.float32(123456.7), "Float32", "123457"),
        (np.float32(16777216.0), "Float32", "1.67772e+07"),
        (np.float32(-0.0), "Float32", "-0"),
        (np.float32(1e-5), "Float32", "1e-05"),
        (np.float32(np.nan), "Float32", "nan"),
        (np.float32(np.inf), "Float32", "inf"),
        (np.float32(-np.inf), "Float32", "-inf"),
        (np.float64(1 / 3), "Float64", "0.333333"),
        (np.float16(0.1), "Float16", "0.0999756"),
        (np.float32(2.5), "BFloat16", "2.5"),
        (np.int32(-7), "Int32", "-7"),
        (np.uint8(200), "UInt8", "200"),
        (np.int8(-5), "Int8", "-5"),
        (np.bool_(True), "Bool", "True"),
        (np.bool_(False), "Bool", "False"),
    ],
)
def test_scalar_repr(value, dtype, text):
    assert tensor_repr(np.array(value), dtype) == f"Tensor(shape=[], dtype={dtype}, value= {text})"


def test_scalar_str():
    assert tensor_str(np.array(True), "Bool") == "True"
    assert tensor_str(np.array(0.1, f32), "Float32") == "0.1"
    assert tensor_str(np.array(2.5, f32), "BFloat16") == "2.500000"


def test_1000_elements_printed_in_full():
    arr = np.arange(1000, dtype=f32)
    rep = tensor_repr(arr, "Float32")
    assert "..." not in rep
    assert rep.count("e+") == 1000
    assert rep.endswith(" 9.99000000e+02])")
    assert "..." not in tensor_str(arr, "Float32")


def test_1001_elements_summarised():
    arr = np.arange(1001, dtype=f32)
    assert tensor_repr(arr, "Float32") == (
        "Tensor(shape=[1001], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,"
        "  2.00000000e+00 ...  9.98000000e+02,  9.99000000e+02,  1.00000000e+03])"
    )
    assert tensor_str(arr, "Float32") == "[   0.    1.    2. ...  998.  999. 1000.]"
    assert (
        tensor_str(arr, "BFloat16")
        == "[0.000000 1.000000 2.000000 ... 998.000000 999.000000 1000.000000]"
    )


def test_str_summarised_above_1000_elements_2d():
    assert tensor_str(np.zeros((10, 100), np.int64), "Int64").count("...") == 0
    assert tensor_str(np.zeros((7, 143), np.int64), "Int64") == (
        "[[0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n ...\n"
        " [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]]"
    )


# The cases below are not in the spec table; they follow MindSpore's TensorStringifier and its
# published tutorial output.


def test_repr_summarises_each_axis_longer_than_6_in_nd_tensors():
    # the logits printed in MindSpore's "Build the Neural Network" tutorial
    head, tail = (
        [-5.08734025e-04, 3.39190010e-04, 4.62840870e-03],
        [
            -1.20305456e-03,
            -5.05689112e-03,
            3.99264274e-03,
        ],
    )
    logits = np.array([head + [0.0] * 4 + tail], f32)
    assert tensor_repr(logits, "Float32") == (
        "Tensor(shape=[1, 10], dtype=Float32, value=\n"
        "[[-5.08734025e-04,  3.39190010e-04,  4.62840870e-03 ..."
        " -1.20305456e-03, -5.05689112e-03,  3.99264274e-03]])"
    )
    rows = np.arange(14, dtype=np.int64).reshape(7, 2)
    assert tensor_repr(rows, "Int64") == (
        "Tensor(shape=[7, 2], dtype=Int64, value=\n"
        "[[ 0,  1],\n [ 2,  3],\n [ 4,  5],\n ...\n [ 8,  9],\n [10, 11],\n [12, 13]])"
    )


def test_repr_int_width_counts_only_printed_elements():
    arr = np.arange(1001, dtype=np.int64)
    assert tensor_repr(arr, "Int64").endswith("value= [   0,    1,    2 ...  998,  999, 1000])")


def test_repr_1d_line_breaks():
    # a line break after every 12 floats / bools and every 24 ints or bfloat16 values
    floats = tensor_repr(np.arange(13, dtype=f32), "Float32")
    assert floats.endswith(" 1.10000000e+01, \n  1.20000000e+01])")
    assert tensor_repr(np.arange(12, dtype=f32), "Float32").endswith(" 1.10000000e+01\n ])")
    ints = tensor_repr(np.arange(25, dtype=np.int32), "Int32")
    assert ints.endswith(
        "value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,"
        " 16, 17, 18, 19, 20, 21, 22, 23, \n 24])"
    )


def test_repr_bfloat16_right_aligned():
    arr = np.array([0.5, -1.5, 100.0], f32)
    assert tensor_repr(arr, "BFloat16") == (
        "Tensor(shape=[3], dtype=BFloat16, value= [ 0.5, -1.5,  100])"
    )


def test_repr_negative_nan_keeps_sign_like_printf():
    arr = np.array([np.copysign(np.nan, -1.0)], f32)
    assert (
        tensor_repr(arr, "Float32") == "Tensor(shape=[1], dtype=Float32, value= [           -nan])"
    )


def test_repr_empty_1d():
    assert tensor_repr(np.zeros(0, f32), "Float32") == "Tensor(shape=[0], dtype=Float32, value= )"


def test_repr_ignores_global_print_options_and_leaves_them_untouched():
    # str() follows them, as MindSpore's: tests/core/test_print_options.py
    before = np.get_printoptions()
    with np.printoptions(precision=2, threshold=5, linewidth=20):
        assert tensor_repr(np.array([1.0, 1 / 3]), "Float64") == (
            "Tensor(shape=[2], dtype=Float64, value= [ 1.00000000e+00,  3.33333333e-01])")
        assert tensor_repr(np.arange(10), "Int64") == (
            "Tensor(shape=[10], dtype=Int64, value= [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])")
    assert np.get_printoptions() == before
