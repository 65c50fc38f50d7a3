"""Replay MindSpore programs on cellgrad and compare stdout with MindSpore's own output.

Each `ms_programs/<name>.py` is a plain MindSpore program; `<name>.out` is what MindSpore 2.10
printed for it (recorded by `ms_programs/record.py`). Here `mindspore` is mapped to
`cellgrad` and the program must print the same text, token by token; numbers may differ in
the last digits (MindSpore's CPU kernels approximate exp, tanh, ... differently from numpy),
which also moves numpy's column padding, so whitespace is not compared.
"""

import math
import os
import pathlib
import re
import subprocess
import sys

import pytest

TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)|[^\s\d]+")


def same_line(expected, got):
    te, tg = TOKEN.findall(expected), TOKEN.findall(got)
    if len(te) != len(tg):
        return False
    for a, b in zip(te, tg):
        if a == b:
            continue
        try:
            fa, fb = float(a), float(b)
        except ValueError:
            return False
        if not math.isclose(fa, fb, rel_tol=2e-4, abs_tol=1e-6):
            return False
    return True

HERE = pathlib.Path(__file__).parent / "ms_programs"
PROGRAMS = sorted(p.stem for p in HERE.glob("*.py") if p.with_suffix(".out").exists())

ALIAS = """
import importlib, sys
import cellgrad
sys.modules["mindspore"] = cellgrad
for sub in ("ops", "nn", "common", "common.initializer", "common.dtype", "context", "train",
            "dataset"):
    try:
        sys.modules["mindspore." + sub] = importlib.import_module("cellgrad." + sub)
    except ImportError:
        pass
import runpy
runpy.run_path(sys.argv[1], run_name="__main__")
"""


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_mindspore_printed(name):
    prog = HERE / f"{name}.py"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.abspath(p) for p in sys.path))
    run = subprocess.run([sys.executable, "-c", ALIAS, str(prog)], capture_output=True,
                         text=True, timeout=300, cwd=HERE, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    expected = prog.with_suffix(".out").read_text().splitlines()
    got = run.stdout.splitlines()
    for i, (e, g) in enumerate(zip(expected, got)):
        assert same_line(e, g), (
            f"{name}.py output line {i + 1} differs:\nmindspore: {e}\ncellgrad:  {g}")
    assert len(got) == len(expected), (
        f"{name}.py printed {len(got)} lines, expected {len(expected)}")
