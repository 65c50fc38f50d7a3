"""Fixtures shared by the ops-nn tests; helpers live in `nn_gradcheck.py` (importable: this
folder is on sys.path while its tests run)."""

import numpy as np
import pytest

import cellgrad as ms


@pytest.fixture
def torch():
    """PyTorch, or a skip when it is not installed (tests/ops_nn must pass without it)."""
    return pytest.importorskip("torch")


@pytest.fixture
def rng():
    """A fresh, fixed-seed numpy Generator per test."""
    return np.random.default_rng(1234)


@pytest.fixture
def seeded():
    """cellgrad's global seed set to 0 (dropout and initializers draw from it)."""
    ms.set_seed(0)
    yield
    ms.set_seed(0)
