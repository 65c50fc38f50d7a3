"""`print(tensor)`/`str(tensor)` follow numpy's print options, as MindSpore 2.10's
`str(self.asnumpy())` does; `repr` does not. Expected texts were printed by MindSpore 2.10
(the whole program: ms_programs/printing_options.py)."""

import importlib.util

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor

BF16 = importlib.util.find_spec("ml_dtypes") is not None  # bfloat16 needs cellgrad-core[bfloat16]
needs_bf16 = pytest.mark.skipif(not BF16, reason="needs ml_dtypes (cellgrad-core[bfloat16])")

T = Tensor(np.array([1 / 3, 1234.56789, 1e-10, -7.125], np.float32))


@pytest.fixture(autouse=True)
def restore_print_options():
    with np.printoptions():
        yield


def test_default_options_print_as_before():
    assert str(T) == "[ 3.3333334e-01  1.2345679e+03  1.0000000e-10 -7.1250000e+00]"
    assert str(Tensor(np.float32(1 / 3))) == "0.33333334"


def test_precision(capsys):
    np.set_printoptions(precision=3)
    print(T)
    assert capsys.readouterr().out == "[ 3.333e-01  1.235e+03  1.000e-10 -7.125e+00]\n"
    assert f"{Tensor([1.23456, 2.5])}" == "[1.235 2.5  ]"
    assert str(Tensor(np.array([2 / 3, 98765.4321], np.float64))) == "[6.667e-01 9.877e+04]"
    assert str(Tensor(np.array([0.1, 1.75], np.float16))) == "[0.1  1.75]"
    # a 0-d tensor prints as numpy's scalar: shortest round-trip digits
    assert str(Tensor(np.float32(1234.56789))) == "1234.5679"
    np.set_printoptions(precision=6)
    assert str(Tensor(np.array([1234.56789, 0.123456789], np.float32))) == (
        "[1.234568e+03 1.234568e-01]")


def test_repr_and_containers_ignore_the_options():
    np.set_printoptions(precision=3, threshold=5, edgeitems=1)
    assert repr(T) == ("Tensor(shape=[4], dtype=Float32, value= [ 3.33333343e-01,  "
                       "1.23456787e+03,  1.00000001e-10, -7.12500000e+00])")
    assert repr(Tensor(np.arange(10, dtype=np.int32))) == (
        "Tensor(shape=[10], dtype=Int32, value= [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])")
    assert str((Tensor([1.23456]),)) == (
        "(Tensor(shape=[1], dtype=Float32, value= [ 1.23456001e+00]),)")
    assert str(Parameter(Tensor(np.array([1.23456], np.float32)), name="w")) == (
        "Parameter (name=w, shape=(1,), dtype=Float32, requires_grad=True)")


def test_suppress():
    np.set_printoptions(precision=3, suppress=True)
    assert str(T) == "[   0.333 1234.568    0.      -7.125]"


def test_linewidth():
    np.set_printoptions(linewidth=24)
    assert str(Tensor(np.arange(12, dtype=np.float32) / 4)) == (
        "[0.   0.25 0.5  0.75\n 1.   1.25 1.5  1.75\n 2.   2.25 2.5  2.75]")
    assert str(Tensor(np.arange(20, dtype=np.int64))) == (
        "[ 0  1  2  3  4  5  6\n  7  8  9 10 11 12 13\n 14 15 16 17 18 19]")


def test_threshold_and_edgeitems():
    np.set_printoptions(threshold=5, edgeitems=1)
    assert str(Tensor(np.arange(10, dtype=np.int32))) == "[0 ... 9]"
    assert str(Tensor(np.arange(30, dtype=np.float32).reshape(5, 6) / 8)) == (
        "[[0.    ... 0.625]\n ...\n [3.    ... 3.625]]")
    assert str(Tensor(np.array([True, False] * 4))) == "[ True ... False]"
    np.set_printoptions(threshold=12, edgeitems=3)
    assert str(Tensor(np.arange(12, dtype=np.int32))) == "[ 0  1  2  3  4  5  6  7  8  9 10 11]"
    assert str(Tensor(np.arange(13, dtype=np.int32))) == "[ 0  1  2 ... 10 11 12]"


def test_sign_floatmode_nan_inf_and_formatter():
    np.set_printoptions(sign="+", floatmode="fixed", precision=4)
    assert str(Tensor(np.array([1.5, -2.0, 0.125], np.float32))) == "[+1.5000 -2.0000 +0.1250]"
    np.set_printoptions(sign="-", floatmode="unique", nanstr="NaN!", infstr="Inf!")
    assert str(Tensor(np.array([np.nan, -np.inf, 0.1], np.float32))) == "[ NaN! -Inf!   0.1]"
    np.set_printoptions(formatter={"float": lambda v: f"<{v:.2f}>"})
    assert str(Tensor(np.array([1.0, 2.3456], np.float32))) == "[<1.00> <2.35>]"
    assert str(Tensor(np.array([1, 2], np.int32))) == "[1 2]"


def test_printoptions_context_manager():
    with np.printoptions(precision=5):
        assert str(Tensor(np.array([3.14159265], np.float64))) == "[3.14159]"
    assert str(Tensor(np.array([3.14159265], np.float64))) == "[3.14159265]"


@needs_bf16
def test_bfloat16_keeps_six_decimals_but_follows_layout_options():
    b = Tensor(np.arange(10) / 3, ms.bfloat16)
    np.set_printoptions(precision=2, linewidth=30, sign="+")
    assert str(b) == ("[0.000000 0.333984 0.667969\n 1.000000 1.335938 1.664062\n"
                      " 2.000000 2.328125 2.671875\n 3.000000]")
    np.set_printoptions(threshold=5, edgeitems=1)
    assert str(b) == "[0.000000 ... 3.000000]"
    assert str(Tensor(1 / 3, ms.bfloat16)) == "0.333984"
