"""ops.Print / ops.print_ beyond the recorded program (tests/core/ms_programs/print_op.py,
which holds the formats): the names and the empty call."""

import inspect

from cellgrad import ops


def test_print_underscore_is_mindspores_function():
    assert ops.functional.print_ is ops.print_
    assert str(inspect.signature(ops.print_)) == "(*input_x)"
    assert ops.operations.Print is ops.Print


def test_nothing_to_print_prints_nothing_and_returns_none(capsys):
    assert ops.print_() is None and ops.Print()() is None
    assert capsys.readouterr().out == ""
