"""Mirrors `mindspore.common.seed`: `set_seed` and `get_seed` (defined in `cellgrad.context`)."""

from cellgrad.context import get_seed, set_seed  # noqa: F401
