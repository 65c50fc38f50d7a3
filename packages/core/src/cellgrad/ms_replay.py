"""Replaying MindSpore programs on cellgrad and comparing with MindSpore's recorded stdout.

For cellgrad's tests and for plugin authors. Each `<folder>/ms_programs/<name>.py` is a plain
MindSpore program; `<name>.out` is what MindSpore 2.10 printed for it (recorded under real
MindSpore, e.g. by cellgrad's `tests/core/ms_programs/record.py`). The program runs
with `mindspore` mapped to `cellgrad` and must print the same text, token by token; numbers may
differ in the last digits (MindSpore's CPU kernels approximate exp, tanh, ... differently from
numpy), which also moves numpy's column padding, so whitespace is not compared.

A test module replays its folder with `test_program = replay_test(__file__)`.
"""

import math
import os
import pathlib
import re
import subprocess
import sys

TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)|[^\s\d]+")

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


def same_line(expected, got):
    """Whether two output lines hold the same tokens, numbers within float32 noise."""
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


def programs(folder):
    """The recorded programs of `folder` (those with an `.out`)."""
    return sorted(p.stem for p in folder.glob("*.py") if p.with_suffix(".out").exists())


def run_and_compare(prog):
    """Run one program on cellgrad and assert it printed what MindSpore printed."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.abspath(p) for p in sys.path))
    run = subprocess.run([sys.executable, "-c", ALIAS, str(prog)], capture_output=True,
                         text=True, timeout=300, cwd=prog.parent, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    expected = prog.with_suffix(".out").read_text().splitlines()
    got = run.stdout.splitlines()
    for i, (e, g) in enumerate(zip(expected, got)):
        assert same_line(e, g), (
            f"{prog.name} output line {i + 1} differs:\nmindspore: {e}\ncellgrad:  {g}")
    assert len(got) == len(expected), (
        f"{prog.name} printed {len(got)} lines, expected {len(expected)}")


def replay_test(test_file):
    """A parametrized test replaying every program in `ms_programs/` beside `test_file`."""
    import pytest

    folder = pathlib.Path(test_file).parent / "ms_programs"

    @pytest.mark.parametrize("name", programs(folder))
    def test_program_prints_what_mindspore_printed(name):
        run_and_compare(folder / f"{name}.py")

    return test_program_prints_what_mindspore_printed
