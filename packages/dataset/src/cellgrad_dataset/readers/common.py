"""What every file reader shares: argument checks, folder checks and the sampling hand-off."""

import os

from cellgrad_dataset.datasets import _check_workers as check_workers  # noqa: F401 (re-export)
from cellgrad_dataset.sampling import check_shards
from cellgrad_dataset.sources import _RandomAccess


def check_dir(dataset_dir):
    """MindSpore's check of `dataset_dir` (a ValueError when the dataset is built)."""
    if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
        raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or "
                         f"permission denied!")
    return os.fspath(dataset_dir)


def check_usage(usage, valid=("train", "test", "all")):
    if usage is None:
        return "all"
    if not isinstance(usage, str):
        raise TypeError(f"Argument usage with value {usage!r} is not of type [<class 'str'>], "
                        f"but got {type(usage)}.")
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


def check_type(name, value, types):
    """MindSpore's argument type check (bool is not an int here)."""
    if value is not None and (not isinstance(value, types)
                              or (isinstance(value, bool) and bool not in types)):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"{[t for t in types]}, but got {type(value)}.")


class FileSource(_RandomAccess):
    """A random-access source read from files; subclasses set `_names` and implement `_row`."""

    _error = None  # a RuntimeError about the files, raised when the rows are first needed

    def _start(self, n, shuffle, num_samples, num_shards, shard_id, sampler=None):
        """Hands the row count and the user's sampling arguments to the engine.

        `n` is the row count, or a function reading the files and returning it: a
        RuntimeError it raises (a bad file) is raised again by `get_dataset_size` and by
        iteration, which is when MindSpore reports it, and not when the dataset is built.
        """
        self._check_sampling(shuffle, num_shards, shard_id, sampler)
        if callable(n):
            try:
                n = n()
            except RuntimeError as err:
                self._error, n, sampler = err, 0, None
        extra = {} if sampler is None else {"sampler": sampler}
        self._init_sampling(type(self).__name__, n, shuffle, num_samples, num_shards, shard_id,
                            **extra)

    def _size(self):
        if self._error is not None:
            raise self._error
        return super()._size()

    def _indices(self, epoch):
        if self._error is not None:
            raise self._error
        return super()._indices(epoch)

    def _check_sampling(self, shuffle, num_shards, shard_id, sampler=None):
        """MindSpore's checks of how the sampling arguments combine (RuntimeErrors)."""
        if sampler is not None and (num_shards is not None or shard_id is not None):
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        if sampler is not None and shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if num_shards is not None and shard_id is None:
            raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
        if shard_id is not None and num_shards is None:
            raise RuntimeError("shard_id is specified but num_shards is not.")
        check_shards(type(self).__name__, num_shards, shard_id)


def data_error(owner, message):
    """A RuntimeError about a dataset's files, naming the dataset (MindSpore's class)."""
    return RuntimeError(f"For '{owner}', {message}")
