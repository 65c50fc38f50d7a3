"""Source datasets over Python and numpy data: `NumpySlicesDataset`, `GeneratorDataset`,
`PaddedDataset`, and `_RandomAccess`, the base of every source read by row index (the file
readers build on it too)."""

import numbers

import numpy as np

from cellgrad_dataset import config
from cellgrad_dataset.datasets import Dataset, _check_workers, _split_parts
from cellgrad_dataset.samplers import (
    PKSampler,
    SequentialSampler,
    SubsetSampler,
    select_sampler,
)
from cellgrad_dataset.sampling import check_shards, epoch_rng


class _RandomAccess(Dataset):
    """A source whose rows are read by index (`_row(i)`), in the order its sampler draws.

    A subclass sets `self._names` and calls `_init_sampling`; it may define
    `_rows_block(indices)` (one stacked array per column) to be read in blocks, and
    `_class_labels()` (one class per row) to be usable with `PKSampler`.
    """

    def _init_sampling(self, owner, n, shuffle, num_samples, num_shards, shard_id,
                       sampler=None):
        if shuffle is not None and not isinstance(shuffle, bool):
            raise TypeError(f"Argument shuffle with value {shuffle!r} is not of type "
                            f"[<class 'bool'>], but got {type(shuffle)}.")
        if num_samples is not None:
            if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral):
                raise TypeError(f"Argument num_samples with value {num_samples!r} is not of "
                                f"type [<class 'int'>], but got {type(num_samples)}.")
            if num_samples < 0:
                raise ValueError("num_samples exceeds the boundary between 0 and "
                                 "9223372036854775807(INT64_MAX)!")
        check_shards(owner, num_shards, shard_id)
        self._owner = owner
        self._n = int(n)
        self._sampler = select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)
        if isinstance(self._sampler, PKSampler):
            if not hasattr(self, "_class_labels"):
                raise ValueError(f"{owner} doesn't support PKSampler.")
            self._sampler._labels = self._class_labels()

    # ---- the sampler's view ----

    def _size(self):
        return self._sampler._count(self._n)

    def _indices(self, epoch):
        return self._sampler._indices(self._n, epoch)

    def get_col_names(self):
        return list(self._names)

    def _rows(self, epoch):
        row = self._row
        for i in self._indices(epoch).tolist():
            yield row(i)

    def _block_capable(self):
        return hasattr(self, "_rows_block")

    def _blocks(self, epoch, size):
        ids = self._indices(epoch)
        for start in range(0, len(ids), size):
            yield self._rows_block(ids[start:start + size])

    def is_shuffled(self):
        return self._sampler.is_shuffled()

    def is_sharded(self):
        return self._sampler.is_sharded()

    # ---- MindSpore's API for sources that take samplers ----

    def use_sampler(self, new_sampler):
        """Mirrors `MappableDataset.use_sampler`: read the rows `new_sampler` draws."""
        if new_sampler is None:
            raise TypeError("Input sampler can not be None.")
        self._sampler = select_sampler(None, new_sampler, None, None, None)

    def add_sampler(self, new_sampler):
        """Mirrors `MappableDataset.add_sampler`: `new_sampler` samples the current picks."""
        new_sampler.add_child(self._sampler)
        self._sampler = new_sampler

    def split(self, sizes, randomize=True):
        """Mirrors `MappableDataset.split`: parts drawn by chained samplers, as MindSpore."""
        if self.is_sharded():
            raise RuntimeError("Dataset should not be sharded before split.")
        parts = []
        start = 0
        counts = _split_parts(self, sizes)
        order = epoch_rng(0, 99).permutation(sum(counts)).tolist() if randomize else None
        for size in counts:
            part = self._copy()
            if randomize:  # one permutation for every part and every epoch
                part.add_sampler(SubsetSampler(order))
            part.add_sampler(SequentialSampler(start, size))
            part.add_sampler(SequentialSampler())
            parts.append(part)
            start += size
        return tuple(parts)

    def _copy(self):
        import copy

        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._sampler = copy.deepcopy(self._sampler)
        return clone


def _as_value(v):
    """A row's value as the pipeline's own array: a copy (as MindSpore copies rows into its
    tensors), so an operation that writes into its input never changes the user's data."""
    return np.array(v)


def _column(values):
    """One column: an array, or (as MindSpore slices a list item by item) an object array of
    per-row arrays when the list's items are ragged or of different dtypes."""
    if isinstance(values, np.ndarray):
        return values
    rows = [np.asarray(v) for v in values]
    try:
        whole = np.asarray(values)
    except ValueError:
        whole = None
    if whole is not None and whole.dtype != object and \
            all(r.dtype == whole.dtype for r in rows):
        return whole
    column = np.empty(len(rows), dtype=object)
    for i, r in enumerate(rows):
        column[i] = r
    return column


class NumpySlicesDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.NumpySlicesDataset`: rows sliced from arrays along axis 0.

    `data` is a list or array (one column), a tuple of them (several columns) or a dict
    (column name -> values). Read in blocks (fancy indexing) when the rows are batched.
    """

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        super().__init__()
        if not isinstance(data, (list, tuple, dict, np.ndarray)):
            raise TypeError(f"Argument data with value {data} is not of type [<class 'list'>, "
                            f"<class 'tuple'>, <class 'dict'>, <class 'numpy.ndarray'>], but "
                            f"got {type(data)}.")
        if len(data) == 0:
            raise ValueError("Argument data cannot be empty")
        _check_workers(num_parallel_workers)
        if isinstance(data, dict):
            names, columns = [str(k) for k in data], [_column(v) for v in data.values()]
        elif isinstance(data, tuple):
            names, columns = None, [_column(v) for v in data]
        else:
            names, columns = None, [_column(data)]
        if any(c.ndim == 0 for c in columns):
            raise ValueError("For 'NumpySlicesDataset', every column must have a first axis to "
                             f"slice, but got shapes {[c.shape for c in columns]}.")
        if len({len(c) for c in columns}) > 1:
            raise ValueError("Data length in each column is not equal.")
        if column_names is not None:
            given = [column_names] if isinstance(column_names, str) else list(column_names)
            if len(given) != len(columns):
                kind = "dict" if isinstance(data, dict) else \
                    "tuple" if isinstance(data, tuple) else "list"
                raise ValueError(f"Num of input column names is {len(given)}, but required is "
                                 f"{len(columns)} as data is {kind}.")
            names = given
        if names is None:
            names = [f"column_{i}" for i in range(len(columns))]
        self._names, self._columns = names, columns
        self._ragged = [c.dtype == object for c in columns]
        if isinstance(sampler, PKSampler) and not hasattr(self, "_class_labels"):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")
        self._init_sampling("NumpySlicesDataset", len(columns[0]), shuffle, num_samples,
                            num_shards, shard_id, sampler)

    def _row(self, i):
        # copies (0-d arrays for scalar columns), as MindSpore's rows: operations get arrays
        # of their own
        return tuple([np.array(c[i]) for c in self._columns])

    def _block_capable(self):
        return not any(self._ragged)

    def _rows_block(self, indices):
        return tuple(c[indices] for c in self._columns)

    def _blocks(self, epoch, size):
        ids = self._indices(epoch)
        if len(ids) and ids[-1] - ids[0] == len(ids) - 1 and np.all(np.diff(ids) == 1):
            # rows in order (no shuffle): slices, views of the user's arrays; `_apply_batch`
            # operations never write into their inputs, and the iterators copy any view they
            # hand out, so nothing aliases the user's data
            lo, columns = int(ids[0]), self._columns
            for start in range(lo, lo + len(ids), size):
                yield tuple([c[start:start + size] for c in columns])
            return
        yield from super()._blocks(epoch, size)


class GeneratorDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.GeneratorDataset`.

    `source` is random-access (`__getitem__` and `__len__`: sampled, shuffled by default, can
    be sharded and split; read by `num_parallel_workers` worker processes when
    `python_multiprocessing=True`), an iterable, or a callable returning an iterator (read in
    order, in the main process). Each item is one value per column (a tuple), or a single
    value for one column; Python ints become int64, floats float64.
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        super().__init__()
        if column_names is None and schema is None:
            raise ValueError("Neither columns_names nor schema are provided.")
        if schema is not None:
            from cellgrad_dataset.schema import Schema

            schema = schema if isinstance(schema, Schema) else Schema(schema)
            column_names = schema.get_col_names()
            column_types = [c["type"] for c in schema.columns]
        self._names = [column_names] if isinstance(column_names, str) else list(column_names)
        self._types = None if column_types is None else list(column_types)
        self._workers = _check_workers(num_parallel_workers)
        self._multiprocessing = bool(python_multiprocessing)
        self._max_rowsize = max_rowsize
        if batch_sampler is not None or collate_fn is not None:
            raise ValueError("For 'GeneratorDataset', batch_sampler and collate_fn are not "
                             "supported by cellgrad; use sampler= and .batch(per_batch_map=...) "
                             "instead.")
        if isinstance(sampler, PKSampler):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")
        self._source = source
        self._random_access = hasattr(source, "__getitem__")
        if self._random_access:
            if not hasattr(source, "__len__"):
                raise TypeError("For 'GeneratorDataset', a random-access source (with "
                                "__getitem__) must also define __len__.")
            self._init_sampling("GeneratorDataset", len(source), shuffle, num_samples,
                                num_shards, shard_id, sampler)
            return
        for name, value in (("num_shards", num_shards), ("sampler", sampler)):
            if value is not None:
                raise ValueError(f"{name} is not supported if source does not have attribute "
                                 f"'__getitem__'.")
        if num_samples is not None and (isinstance(num_samples, bool) or num_samples < 0):
            raise ValueError("num_samples exceeds the boundary between 0 and "
                             "9223372036854775807(INT64_MAX)!")
        self._num_samples = num_samples or None

    def _size(self):
        if self._random_access:
            return super()._size()
        n = len(self._source) if hasattr(self._source, "__len__") else None
        if self._num_samples is not None:
            return self._num_samples if n is None else min(n, self._num_samples)
        return n

    def _row(self, i):
        return self._check_row(self._source[i], i)

    def _check_row(self, item, where):
        values = tuple(item) if isinstance(item, (tuple, list)) and len(self._names) > 1 \
            or isinstance(item, tuple) else (item,)
        if len(values) != len(self._names):
            raise RuntimeError(f"For 'GeneratorDataset', row {where} has {len(values)} values "
                               f"but column_names {self._names} name {len(self._names)} "
                               f"columns.")
        values = tuple(_as_value(v) for v in values)
        if self._types is not None:  # as MindSpore: a check, not a cast
            for v, t in zip(values, self._types):
                want = np.dtype(_np_type(t))
                if v.dtype != want:
                    raise RuntimeError(
                        f"Invalid Python function, type of returned data in 'GeneratorDataset' "
                        f"should be same with specified column_types, but the type of returned "
                        f"data: {v.dtype} (row {where}), specified column type: {want}")
        return values

    def _block_capable(self):
        return False

    def _rows(self, epoch):
        if not self._random_access:
            items = self._source() if callable(self._source) else iter(self._source)
            for i, item in enumerate(items):
                if self._num_samples is not None and i >= self._num_samples:
                    return
                yield self._check_row(item, i)
            return
        if self._workers > 1 and self._multiprocessing:
            yield from self._parallel_rows(epoch)
            return
        yield from super()._rows(epoch)

    def _parallel_rows(self, epoch):
        from cellgrad_dataset.workers import ordered_map, unpack_rows

        ids = self._indices(epoch).tolist()
        chunk = max(1, min(64, len(ids) // (self._workers * 4) or 1))
        tasks = ((s, ids[s:s + chunk]) for s in range(0, len(ids), chunk))
        read = self._read_chunk
        for rows in ordered_map(read, tasks, self._workers, "GeneratorDataset",
                                lambda seq: f"rows {seq * chunk}..{seq * chunk + chunk - 1}",
                                self._max_rowsize):
            yield from unpack_rows(rows)

    def _read_chunk(self, task):
        from cellgrad_dataset.workers import pack_rows

        start, ids = task
        out = []
        for j, i in enumerate(ids):
            try:
                out.append(self._row(i))
            except Exception as exc:
                raise RuntimeError(f"row {start + j} (source index {i}): "
                                   f"{type(exc).__name__}: {exc}") from exc
        return pack_rows(out)


def _np_type(t):
    return t if isinstance(t, (type, np.dtype)) or isinstance(t, str) else \
        np.dtype(str(t).replace("mindspore.", "").replace("Float", "float").lower())


class PaddedDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.PaddedDataset`: rows given as a list of dicts (column ->
    value), read in order; used to pad a dataset (`+`) to a multiple of the shard count."""

    def __init__(self, padded_samples):
        super().__init__()
        if not isinstance(padded_samples, list):
            raise TypeError(f"Argument padded_samples with value {padded_samples!r} is not of "
                            f"type [<class 'list'>], but got {type(padded_samples)}.")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        for sample in padded_samples:
            if not isinstance(sample, dict):
                raise TypeError(f"Argument padded_element with value {sample!r} is not of type "
                                f"[<class 'dict'>], but got {type(sample)}.")
        self._samples = padded_samples
        self._names = list(padded_samples[0])
        self._init_sampling("PaddedDataset", len(padded_samples), False, None, None, None)

    def _row(self, i):
        sample = self._samples[i]
        if list(sample) != self._names:
            raise RuntimeError(f"For 'PaddedDataset', sample {i} has columns {list(sample)} "
                               f"but sample 0 has {self._names}; every sample needs the same "
                               f"columns.")
        return tuple(_as_value(v) for v in sample.values())


__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "config"]
