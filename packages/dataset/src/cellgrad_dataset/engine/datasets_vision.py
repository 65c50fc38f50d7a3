"""Mirrors `mindspore.dataset.engine.datasets_vision`: the names of `cellgrad.dataset` at this
path (where MindSpore defines MnistDataset, Cifar10Dataset, ImageFolderDataset, ...)."""

import cellgrad_dataset as _dataset


def __getattr__(name):
    return getattr(_dataset, name)


def __dir__():
    return dir(_dataset)
