"""Replay the MindSpore programs of `ms_programs/` (ms.jit training steps, jitted construct,
Python results) on cellgrad with cellgrad-jit installed: jitted calls replay (see
`cellgrad.ms_replay`)."""

from cellgrad.ms_replay import replay_test

test_program_prints_what_mindspore_printed = replay_test(__file__)
