"""Replay the MindSpore programs of `ms_programs/` on cellgrad (see `cellgrad.ms_replay`).

A program whose text says `# replay needs cellgrad_nn` uses layers of cellgrad-ops-nn (the seeds'
ReLU, Conv2d, BatchNorm2d) and is skipped when that package is not installed.
"""

import pathlib

import pytest

from cellgrad.ms_replay import programs, run_and_compare

FOLDER = pathlib.Path(__file__).parent / "ms_programs"


@pytest.mark.parametrize("name", programs(FOLDER))
def test_program_prints_what_mindspore_printed(name):
    prog = FOLDER / f"{name}.py"
    if "# replay needs cellgrad_nn" in prog.read_text():
        pytest.importorskip("cellgrad_nn")
    run_and_compare(prog)
