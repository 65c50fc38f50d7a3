"""Mirrors `mindspore.device_context.cpu.op_tuning`: the thread count of CPU kernels."""

from cellgrad import _blas_threads
from cellgrad import _checkparam as Validator
from cellgrad._checkparam import args_type_check

_configured = []  # the count once set: MindSpore allows one setting per process


@args_type_check(num=int)
def threads_num(num):
    """Mirrors `device_context.cpu.op_tuning.threads_num`: the threads CPU kernels use, once
    per process. cellgrad's multi-threaded kernels are numpy's BLAS products, so this sets
    numpy's OpenBLAS thread count (nothing to set with another BLAS)."""
    if _configured:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    num = Validator.check_positive_int(num, "num")
    lib = _blas_threads.openblas()
    if lib is not None:
        with _blas_threads._lock:
            if _blas_threads._depth:  # inside a one-thread section: the count it restores
                _blas_threads._saved = num
            else:
                lib.set(num)
    _configured.append(num)
