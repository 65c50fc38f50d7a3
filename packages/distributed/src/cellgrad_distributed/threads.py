"""The processes of a job on one host share its cores.

numpy's BLAS starts one thread per core in every process; N processes on one host would run
N times as many threads as cores, and OpenBLAS's threads spin while they wait: measured on
this project's 2-core machine, `mpirun -n 2 cellgrad-digits` took 22 s instead of 1.5 s. So
`init()` limits each process to its share of the cores, through threadpoolctl, unless the
user set a thread count in the environment.
"""

from __future__ import annotations

import os

_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")
_limits = None  # kept: the limit lasts as long as the process


def cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def share_cores(local_processes):
    """Limit BLAS threads to this process's share of the host's cores; returns the limit
    (None when the environment sets it or there is nothing to share)."""
    global _limits
    if local_processes <= 1 or any(os.environ.get(v) for v in _ENV):
        return None
    from threadpoolctl import threadpool_limits

    share = max(1, cores() // local_processes)
    _limits = threadpool_limits(limits=share, user_api="blas")
    return share
