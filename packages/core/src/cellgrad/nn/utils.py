"""Mirrors `mindspore.nn.utils`: `no_init_parameters`."""

from contextlib import contextmanager

__all__ = ["no_init_parameters"]


@contextmanager
def no_init_parameters():
    """Mirrors `mindspore.nn.utils.no_init_parameters` (deprecated in MindSpore): a context
    manager (or, called, a decorator) under which networks are built before a checkpoint is
    loaded into them. MindSpore defers filling initializer-made parameters to save device
    memory; cellgrad's parameters are host arrays filled at creation (the same values the
    deferred initialization would give), and loading a checkpoint replaces them either way."""
    yield
