"""Fixtures of the checkpoint tests; the helpers live in `ckpt_helpers.py`."""

import pytest
from ckpt_helpers import FIXTURES

import cellgrad as ms


@pytest.fixture
def dense_params():
    """The parameters of MindSpore's dense.ckpt fixture (`weight`, `bias`)."""
    return ms.load_checkpoint(str(FIXTURES / "dense.ckpt"))
