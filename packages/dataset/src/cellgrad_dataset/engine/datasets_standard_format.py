"""Mirrors `mindspore.dataset.engine.datasets_standard_format`: the names of
`cellgrad.dataset` at this path."""

import cellgrad_dataset as _dataset


def __getattr__(name):
    return getattr(_dataset, name)


def __dir__():
    return dir(_dataset)
