"""`transforms.Plugin`: MindSpore's C++ plugin loader, which has no meaning here."""

from cellgrad_dataset.transforms.base import TensorOperation


class Plugin(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Plugin`, which loads a function from a MindData
    C++ plugin library; cellgrad has no C++ data engine, so it raises saying what to use."""

    def __init__(self, lib_path, func_name, user_args=None):
        raise RuntimeError("Plugin: MindData C++ plugin libraries cannot be loaded by cellgrad "
                           "(it has no C++ data engine); pass a Python callable to "
                           "Dataset.map instead.")
