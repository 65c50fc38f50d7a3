"""Heap tuning at import (`cellgrad._heap`): freed large buffers are reused without page
faults, and `CELLGRAD_HEAP_TUNING=0` leaves glibc's allocator alone."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")

FAULTS = """
import resource, numpy as np, cellgrad, cellgrad._heap as heap
def step():
    a = np.ones(4 << 20, np.float32)  # 16 MB, above glibc's default mmap threshold
    del a
step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print(heap.tuned, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def run(tuning):
    env = dict(os.environ, CELLGRAD_HEAP_TUNING=tuning)
    out = subprocess.run([sys.executable, "-c", FAULTS], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    return out[0] == "True", int(out[1])


def test_freed_buffers_are_reused_without_page_faults():
    tuned, faults = run("1")
    untuned, untuned_faults = run("0")
    assert tuned and not untuned
    # Untuned, glibc trims the heap top and the buffer's pages are faulted in again each time
    # (492 faults for the 20 buffers here, with transparent huge pages; 4096 per buffer without).
    assert untuned_faults > 100
    assert faults * 10 < untuned_faults
