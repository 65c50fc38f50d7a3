"""Replay the MindSpore programs of `ms_programs/` that need several packages at once (layers
and checkpoints, ...) on cellgrad (see `cellgrad.ms_replay`)."""

from cellgrad.ms_replay import replay_test

test_program_prints_what_mindspore_printed = replay_test(__file__)
