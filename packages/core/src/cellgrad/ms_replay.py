"""Replaying MindSpore programs on cellgrad and comparing with MindSpore's recorded stdout.

For cellgrad's tests and for plugin authors. Each `<folder>/ms_programs/<name>.py` is a plain
MindSpore program; `<name>.out` is what MindSpore 2.10 printed for it (recorded under real
MindSpore, e.g. by cellgrad's `tests/core/ms_programs/record.py`). The program runs with
`mindspore` and every `mindspore.x.y` module mapped to cellgrad's (`install_alias`) and must
print the same text, token by token; numbers may differ in the last digits (MindSpore's CPU
kernels approximate exp, tanh, ... differently from numpy), which also moves numpy's column
padding, so whitespace is not compared.

A test module replays its folder with `test_program = replay_test(__file__)`.
"""

import importlib
import importlib.abc
import importlib.util
import math
import os
import pathlib
import re
import subprocess
import sys

# A sign before a digit belongs to the number ("[-0." is "[" and "-0."): zeros' signs and the
# alignment they shift compare as numbers.
TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)|[^\s\d+-]+|[-+]")

ALIAS = """
import runpy, sys
from cellgrad.ms_replay import install_alias
install_alias()
runpy.run_path(sys.argv[1], run_name="__main__")
"""


class MindSporeAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports of `mindspore` and of every `mindspore.x.y` give `cellgrad`, `cellgrad.x.y`.

    A testing device (replayed programs, real MindSpore clients such as mindcv): cellgrad
    itself never hides its modules behind a finder.
    """

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "mindspore" and not fullname.startswith("mindspore."):
            return None
        try:
            found = importlib.util.find_spec(_cellgrad_name(fullname))
        except ModuleNotFoundError:  # a parent cellgrad does not have
            return None
        return None if found is None else importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return importlib.import_module(_cellgrad_name(spec.name))

    def exec_module(self, module):
        """The cellgrad module ran when `create_module` imported it."""


def _cellgrad_name(fullname):
    return "cellgrad" + fullname[len("mindspore"):]


def install_alias():
    """Make `import mindspore` and every `mindspore.x.y` import resolve to cellgrad's."""
    if not any(isinstance(finder, MindSporeAlias) for finder in sys.meta_path):
        sys.meta_path.insert(0, MindSporeAlias())
    sys.modules.setdefault("mindspore", importlib.import_module("cellgrad"))


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
        if not math.isclose(fa, fb, rel_tol=2e-4, abs_tol=1e-6) and not _last_digit(a, b, fa, fb):
            return False
    return True


def _last_digit(a, b, fa, fb):
    """Whether decimal tokens `a`, `b` differ by one unit of their last printed digit: a value
    within float32 noise of a rounding edge prints either way."""
    if "." not in a or "." not in b or "e" in a + b:
        return False
    places = len(a.split(".")[1])
    return places == len(b.split(".")[1]) and abs(fa - fb) <= 1.0001 * 10.0 ** -places


def programs(folder):
    """The recorded programs of `folder` (those with an `.out`)."""
    return sorted(p.stem for p in folder.glob("*.py") if p.with_suffix(".out").exists())


NEEDS = re.compile(r"^# replay needs: (.+)$", re.M)


def needs(prog):
    """The modules a program declares it needs (`# replay needs: ml_dtypes, torch`): its
    replay skips without them (an optional dependency such as bfloat16's ml_dtypes)."""
    return [m.strip() for line in NEEDS.findall(prog.read_text()) for m in line.split(",")]


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
        prog = folder / f"{name}.py"
        for module in needs(prog):
            pytest.importorskip(module, reason=f"{name}.py needs {module}")
        run_and_compare(prog)

    return test_program_prints_what_mindspore_printed
