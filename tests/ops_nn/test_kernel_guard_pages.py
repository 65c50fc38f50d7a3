"""The vectorised kernels read and write nothing past either edge of their arrays: each runs on
arrays fenced by unreadable pages (`guard_pages.py`) in a child process, where a stray access
faults and names its case."""

import pathlib
import signal
import subprocess
import sys

import pytest

pytest.importorskip("cellgrad_nn")
if not sys.platform.startswith("linux"):
    pytest.skip("guard pages through libc's mprotect: Linux only here", allow_module_level=True)

SCRIPT = pathlib.Path(__file__).with_name("guard_pages.py")


def _child(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=SCRIPT.parent)


def test_a_read_one_element_past_either_edge_faults():
    # the harness itself: without this, a kernel's stray read could go unnoticed
    for edge, at in (("end", "a.ctypes.data + a.nbytes"), ("start", "a.ctypes.data - 4")):
        done = _child("import ctypes, numpy as np, guard_pages as gp\n"
                      f"a = gp.guarded(np.ones(10, np.float32), {edge!r})\n"
                      "assert ctypes.c_float.from_address(a.ctypes.data).value == 1.0\n"
                      f"ctypes.c_float.from_address({at}).value\n")
        assert done.returncode == -signal.SIGSEGV, (edge, done.returncode, done.stderr)


def test_vectorised_kernels_stay_inside_their_arrays():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          timeout=600)
    lines = done.stdout.strip().splitlines()
    last = lines[-1] if lines else "(nothing printed)"
    assert done.returncode == 0, f"{last}: exit {done.returncode}\n{done.stderr[-2000:]}"
    assert last.startswith("ok: ") and int(last.split()[1]) >= 200, last
