"""Keep freed tensor buffers in the process heap (glibc), so a training step does not fault
them in from the OS again.

glibc serves blocks above its mmap threshold with fresh `mmap`s and returns them on `free`, and
trims the heap top above its trim threshold: every step's multi-MB temporaries (activations,
gradients, BLAS outputs) then cost page faults on first touch — measured at 40-60 % of an MLP
training step. Raising both thresholds keeps those pages in the heap for the next step. Set
`CELLGRAD_HEAP_TUNING=0` to leave the allocator alone (for example when embedding cellgrad in a
process that tunes malloc itself).
"""

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's largest allowed value on 64-bit systems
TRIM_THRESHOLD = 1 << 30

tuned = False


def tune():
    """Raise glibc's mmap and trim thresholds once; returns whether they are set."""
    global tuned
    if tuned or os.environ.get("CELLGRAD_HEAP_TUNING", "1") == "0":
        return tuned
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    tuned = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return tuned
