"""Replay the recurrent-layer MindSpore programs (`ms_programs/rnn_*.py`) on cellgrad."""

import pytest

from cellgrad.ms_replay import programs, run_and_compare

from pathlib import Path

FOLDER = Path(__file__).parent / "ms_programs"


@pytest.mark.parametrize("name", [n for n in programs(FOLDER) if n.startswith("rnn_")])
def test_rnn_program_prints_what_mindspore_printed(name):
    run_and_compare(FOLDER / f"{name}.py")
