"""bfloat16 as a real dtype: ml_dtypes' numpy bfloat16 storage (the cellgrad-core[bfloat16]
extra), MindSpore's printing/promotion (replayed), arithmetic and gradients staying bfloat16,
and a clear error when ml_dtypes is missing."""

import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.ms_replay import run_and_compare

PROGRAMS = pathlib.Path(__file__).parent / "bfloat16_programs"


def test_missing_ml_dtypes_is_a_clear_error_and_the_dtype_still_exists():
    code = textwrap.dedent("""
        import sys

        class NoMlDtypes:  # as if ml_dtypes were not installed
            def find_spec(self, name, path=None, target=None):
                if name == "ml_dtypes":
                    raise ModuleNotFoundError("No module named 'ml_dtypes'")

        sys.meta_path.insert(0, NoMlDtypes())
        import cellgrad as ms
        from cellgrad import Tensor
        print(ms.bfloat16, repr(ms.bfloat16), ms.bfloat16.itemsize, ms.bfloat16.is_floating_point)
        print(ms.float32.to_complex(), ms.bfloat16 in ms.common.dtype.float_type)
        for make in (lambda: Tensor([1.0], ms.bfloat16), lambda: Tensor([1.0]).bfloat16(),
                     lambda: ms.ops.cast(Tensor([1.0]), ms.bfloat16),
                     lambda: ms.ops.ones((2,), ms.bfloat16),
                     lambda: ms.dtype_to_nptype(ms.bfloat16)):
            try:
                make()
                print("no error")
            except ImportError as e:
                print(type(e).__name__, e)
        print(Tensor([1.0]) + 1)
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["BFloat16 mindspore.bfloat16 2 True", "Complex64 True"]
    want = ("ImportError bfloat16 tensors need the ml_dtypes package (numpy's bfloat16): install "
            "it with `pip install 'cellgrad-core[bfloat16]'` (or `pip install ml_dtypes`).")
    assert lines[2:7] == [want] * 5
    assert lines[7] == "[2.]"


def test_bfloat16_prints_and_computes_as_mindspore():
    pytest.importorskip("ml_dtypes")
    run_and_compare(PROGRAMS / "bfloat16_dtype.py")


@pytest.fixture
def bf16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    return np.dtype(ml_dtypes.bfloat16)


def test_storage_is_numpys_bfloat16(bf16):
    t = Tensor([1.0, 2.7], ms.bfloat16)
    assert t.asnumpy().dtype == bf16 and t.dtype is ms.bfloat16
    assert ms.dtype_to_nptype(ms.bfloat16) is bf16.type
    assert Tensor(np.array([0.5], bf16)).dtype is ms.bfloat16  # from a bfloat16 array
    assert t.asnumpy().view(np.uint16).tolist() == [0x3F80, 0x402D]  # 2.7 rounds to 2.703125
    assert t.nbytes == 4 and t.itemsize == 2


def test_arithmetic_stays_bfloat16_and_rounds_each_result(bf16):
    x = Tensor(np.array([[1.0, 3.0], [0.1, -2.0]], np.float32), ms.bfloat16)
    for r in (x @ x, ops.matmul(x, x), ops.exp(x), x ** 2, ops.sqrt(ops.abs(x)), ops.tanh(x),
              x.sum(), x.mean(axis=0), ops.maximum(x, x), ops.softmax(x) if hasattr(ops, "softmax")
              else x):
        assert r.dtype is ms.bfloat16 and r.asnumpy().dtype == bf16
    # matmul is computed in float32 and rounded once, to bfloat16
    a = x.asnumpy().astype(np.float32)
    assert (x @ x).asnumpy().tolist() == (a @ a).astype(bf16).tolist()
    assert (x > 0.5).dtype is ms.bool_ and (x > 0.5).asnumpy().tolist() == [[True, True],
                                                                            [False, False]]


def test_promotion(bf16):
    x = Tensor([1.0], ms.bfloat16)
    assert (x + Tensor([1.0], ms.float16)).dtype is ms.float32
    assert (x + Tensor([1.0])).dtype is ms.float32
    assert (x + Tensor([1.0], ms.float64)).dtype is ms.float64
    assert (x + Tensor([1], ms.int64)).dtype is ms.bfloat16
    assert (x + 1).dtype is ms.bfloat16 and (x * 0.3).dtype is ms.bfloat16
    assert (x + Tensor(np.array([1j], np.complex64))).dtype is ms.complex64


def test_gradients_in_bfloat16(bf16):
    w = Tensor(np.array([0.5, -1.25, 2.0], np.float32), ms.bfloat16)
    g = ms.grad(lambda v: (v * v * 3).sum())(w)
    assert g.dtype is ms.bfloat16
    assert g.float().asnumpy().tolist() == [3.0, -7.5, 12.0]


def test_bfloat16_method_and_casts(bf16):
    t = Tensor([1.0, 2.7, -5.5]).bfloat16()
    assert t.dtype is ms.bfloat16
    assert t.float().asnumpy().tolist() == [1.0, 2.703125, -5.5]
    assert t.astype(ms.int32).asnumpy().tolist() == [1, 2, -5]
    assert t.astype(ms.float16).dtype is ms.float16
    assert Tensor(np.array([np.finfo(np.float32).max])).bfloat16().float().asnumpy()[0] == np.inf
    assert ops.ones((2,), ms.bfloat16).asnumpy().dtype == bf16
