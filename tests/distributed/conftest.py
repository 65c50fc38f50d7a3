"""Fixtures of the distributed tests: every test starts from a fresh communication state and
the default auto-parallel context (the in-process tests run in a world of one)."""

import pytest

import cellgrad as ms
from cellgrad import communication


@pytest.fixture(autouse=True)
def fresh_state():
    ms.reset_auto_parallel_context()
    communication.release()
    yield
    ms.reset_auto_parallel_context()
    communication.release()


@pytest.fixture
def world():
    """`init()` in this process: a world of one."""
    communication.init()
    return communication
