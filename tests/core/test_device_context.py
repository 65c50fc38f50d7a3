"""`cellgrad.device_context.cpu` (MindSpore's `mindspore.device_context.cpu`): `threads_num` sets
the CPU kernels' (numpy's OpenBLAS) thread count once per process, with MindSpore's errors."""

import subprocess
import sys
import textwrap

import pytest

from cellgrad import device_context
from cellgrad.device_context.cpu import op_tuning


def test_cpu_is_the_device():
    assert device_context.cpu.is_available() is True and device_context.cpu.device_count() == 1
    assert device_context.cpu.threads_num is op_tuning.threads_num


@pytest.mark.parametrize("num, error, message", [
    ("2", TypeError, "The parameter 'num' must be <class 'int'>, but got <class 'str'>"),
    (0, ValueError, "The 'num' must be int and must > 0, but got '0' with type 'int'."),
    (True, TypeError, "The 'num' must be int and must > 0, but got 'True' with type 'bool'."),
])
def test_bad_counts(num, error, message):
    with pytest.raises(error) as info:
        op_tuning.threads_num(num)
    assert str(info.value) == message


def test_sets_blas_threads_once_per_process():
    # a child process: the setting is once per process and changes numpy's BLAS threads
    code = textwrap.dedent("""
        from cellgrad import _blas_threads
        from cellgrad.device_context.cpu.op_tuning import threads_num
        assert threads_num(1) is None
        lib = _blas_threads.openblas()
        assert lib is None or lib.get() == 1
        try:
            threads_num(2)
        except RuntimeError as e:
            print(e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "The 'threads_num' can not be set repeatedly."
