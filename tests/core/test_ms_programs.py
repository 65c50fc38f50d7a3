"""Replay the MindSpore programs of `ms_programs/` on cellgrad (see `tests/ms_replay.py`)."""

from ms_replay import replay_test

test_program_prints_what_mindspore_printed = replay_test(__file__)
