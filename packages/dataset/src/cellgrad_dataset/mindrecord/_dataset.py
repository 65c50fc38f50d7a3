"""Mirrors `mindspore.dataset.MindDataset`: a pipeline source reading MindRecord files."""

import numbers
import os

import numpy as np

from cellgrad_dataset.mindrecord._shards import ShardSet
from cellgrad_dataset.sampling import check_shards, epoch_rng
from cellgrad_dataset.sources import _RandomAccess

_SHUFFLE_MODES = ("false", "adaptive", "global", "partial", "files", "infile")


class MindDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.MindDataset`: the rows of MindRecord files, columns in schema
    (name) order or `columns_list` order.

    Scalars come out as 0-d arrays of the schema type (strings as numpy str), `bytes` fields as
    a 1-element bytes array, array fields reshaped to their schema shape. `padded_sample` rows
    (`num_padded` of them) are appended after the files' rows, so that shards come out even.
    `shuffle` is a bool or a `Shuffle` mode: GLOBAL/ADAPTIVE/PARTIAL shuffle all rows, FILES
    the order of the files, INFILE the rows inside each file.
    """

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        super().__init__()
        _check_args(dataset_files, columns_list, num_parallel_workers, num_shards, shard_id,
                    padded_sample, num_padded, num_samples)
        if sampler is not None and shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        mode = _shuffle_mode(shuffle, num_samples)
        self._files = ShardSet(dataset_files, missing=ValueError)
        schema = self._files.schema
        self._names = list(columns_list) if columns_list else sorted(schema)
        for name in self._names:
            if name not in schema:
                raise RuntimeError(f"Invalid data, column name: {name} can not found in schema. "
                                   f"Please check the 'column_list'.")
        self._wanted = set(self._names)
        self._padded = None
        if padded_sample is not None:
            self._padded = tuple(_value(padded_sample[c], schema[c], padded=True)
                                 for c in self._names)
        self._num_padded = num_padded or 0
        n = len(self._files) + self._num_padded
        if self._num_padded and num_shards and n % num_shards:
            raise RuntimeError(f"Invalid data, the size of dataset and padded samples: {n} "
                               f"should be divisible by num_shards: {num_shards}.")
        self._mode = mode if mode in ("files", "infile") else None
        self._shard_args = (num_shards, shard_id)
        _check_sampling(sampler, num_shards, shard_id)
        extra = {} if sampler is None else {"sampler": sampler}
        self._init_sampling("MindDataset", n, None if sampler is not None else mode != "false",
                            num_samples, num_shards, shard_id, **extra)

    def _row(self, i):
        if i >= len(self._files):
            return self._padded
        raw, blobs = self._files.row(i, self._wanted)
        schema = self._files.schema
        return tuple(_value(blobs[c] if c in blobs else raw[c], schema[c]) for c in self._names)

    def _indices(self, epoch):
        if self._mode is None:
            return super()._indices(epoch)
        rng = epoch_rng(epoch, 0)
        shards = self._files.rows[:, 0]
        spans = [np.flatnonzero(shards == k) for k in range(len(self._files.paths))]
        if self._mode == "files":
            spans = [spans[k] for k in rng.permutation(len(spans))]
        else:
            spans = [rng.permutation(s) for s in spans]
        order = np.concatenate(spans + [np.arange(len(self._files), self._n)]).astype(np.int64)
        num_shards, shard_id = self._shard_args
        if num_shards:
            total = -(-len(order) // num_shards) * num_shards
            order = np.resize(order, total)[shard_id::num_shards]
        return order

    def __getitem__(self, index):
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"Argument index with value {index!r} is not of type "
                            f"[<class 'int'>], but got {type(index)}.")
        if index < 0:
            raise ValueError(f"index cannot be negative, but got {index}.")
        if index >= self._n:
            raise IndexError(f"For 'MindDataset', index {index} is out of range: the dataset "
                             f"has {self._n} rows.")
        return list(self._row(index))


def _value(value, spec, padded=False):
    """A field value as MindDataset gives it (padded samples are converted the same way)."""
    kind = spec["type"]
    if "shape" in spec:
        if padded:
            data = value.tobytes() if isinstance(value, np.ndarray) else bytes(value)
            value = np.frombuffer(data, dtype=kind).reshape(spec["shape"])
        return value
    if kind == "bytes":
        return np.array([bytes(value)])
    if kind == "string":
        return np.array(str(value))
    return np.array(value, dtype=kind)


def _check_args(dataset_files, columns_list, num_parallel_workers, num_shards, shard_id,
                padded_sample, num_padded, num_samples):
    """MindSpore's `check_minddataset` (TypeError / ValueError / RuntimeError)."""
    files = dataset_files if isinstance(dataset_files, list) else [dataset_files]
    for f in files:
        if not isinstance(f, (str, os.PathLike)) or not os.path.isfile(f):
            raise ValueError(f"The file {f} does not exist or permission denied!")
    for name, value in (("num_samples", num_samples),
                        ("num_parallel_workers", num_parallel_workers),
                        ("num_shards", num_shards), ("shard_id", shard_id),
                        ("num_padded", num_padded)):
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, numbers.Integral)):
            raise TypeError(f"Argument {name} with value {value!r} is not of type "
                            f"[<class 'int'>], but got {type(value)}.")
    if columns_list is not None and not isinstance(columns_list, list):
        raise TypeError(f"Argument columns_list with value {columns_list!r} is not of type "
                        f"[<class 'list'>], but got {type(columns_list)}.")
    if padded_sample is not None and not isinstance(padded_sample, dict):
        raise TypeError(f"Argument padded_sample with value {padded_sample!r} is not of type "
                        f"[<class 'dict'>], but got {type(padded_sample)}.")
    if padded_sample is not None:
        if num_padded is None:
            raise RuntimeError("padded_sample is specified and requires num_padded as well.")
        if num_padded < 0:
            raise ValueError(f"num_padded is invalid, num_padded={num_padded}.")
        if columns_list is None:
            raise RuntimeError("padded_sample is specified and requires columns_list as well.")
        if any(c not in padded_sample for c in columns_list):
            raise ValueError("padded_sample cannot match columns_list.")
    if padded_sample is None and num_padded is not None:
        raise RuntimeError("num_padded is specified but padded_sample is not.")


def _check_sampling(sampler, num_shards, shard_id):
    """MindSpore's checks of how the sampling arguments combine (RuntimeErrors)."""
    if sampler is not None and (num_shards is not None or shard_id is not None):
        raise RuntimeError("sampler and sharding cannot be specified at the same time.")
    if num_shards is not None and shard_id is None:
        raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
    if shard_id is not None and num_shards is None:
        raise RuntimeError("shard_id is specified but num_shards is not.")
    check_shards("MindDataset", num_shards, shard_id)


def _shuffle_mode(shuffle, num_samples):
    """'false', 'global', ... from a bool or a `Shuffle` member (MindSpore's checks)."""
    if shuffle is None or isinstance(shuffle, bool):
        return "false" if shuffle is False else "adaptive"
    mode = getattr(shuffle, "value", None)
    if type(shuffle).__name__ != "Shuffle" or mode not in _SHUFFLE_MODES:
        raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                        "'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                        "'Shuffle.FILES' or 'Shuffle.INFILE'.")
    if num_samples and mode in ("files", "infile"):
        raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot be "
                         "specified at the same time.")
    return mode
