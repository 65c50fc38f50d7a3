"""Source datasets over Python and numpy data: `NumpySlicesDataset`, `GeneratorDataset`."""

import numpy as np

from cellgrad_dataset.datasets import Dataset
from cellgrad_dataset.sampling import Sampler, check_shards, epoch_rng


class _RandomAccess(Dataset):
    """A source whose rows are read by index: shuffled, sharded and split by a Sampler."""

    def _init_sampling(self, owner, n, shuffle, num_samples, num_shards, shard_id):
        check_shards(owner, num_shards, shard_id)
        if num_samples is not None and (isinstance(num_samples, bool)
                                        or not isinstance(num_samples, int) or num_samples < 0):
            raise ValueError(f"For '{owner}', num_samples must be a non-negative int, but got "
                             f"{num_samples!r}.")
        self._owner = owner
        self._sampler = Sampler(n, True if shuffle is None else bool(shuffle), num_shards,
                                shard_id, num_samples or None)
        self._subset = None  # row indices into the data, set on the parts of a split

    def _size(self):
        return self._sampler.size()

    def get_col_names(self):
        return list(self._names)

    def _rows(self, epoch):
        for i in self._sampler.indices(epoch):
            yield self._row(int(i if self._subset is None else self._subset[i]))

    def split(self, sizes, randomize=True):
        """Mirrors `Dataset.split`: parts of the given sizes (ints, or fractions summing to 1)."""
        n = self._sampler.n
        counts = _split_sizes(sizes, n)
        order = epoch_rng(0, 0).permutation(n) if randomize else np.arange(n)
        if self._subset is not None:
            order = self._subset[order]
        parts, start = [], 0
        for count in counts:
            part = self._copy()
            part._subset = order[start:start + count]
            part._sampler = Sampler(count, self._sampler.shuffle)
            parts.append(part)
            start += count
        return parts

    def _copy(self):
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone


def _split_sizes(sizes, n):
    sizes = list(sizes)
    if not sizes or any(isinstance(s, bool) or not isinstance(s, (int, float)) for s in sizes):
        raise ValueError(f"For 'split', sizes must be a non-empty list of ints or of floats, "
                         f"but got {sizes!r}.")
    if all(isinstance(s, int) for s in sizes):
        if any(s < 1 for s in sizes) or sum(sizes) != n:
            raise ValueError(f"For 'split', int sizes must be positive and sum to the dataset "
                             f"size {n}, but got {sizes}.")
        return sizes
    if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
        raise ValueError(f"For 'split', float sizes must be in (0, 1] and sum to 1, but got "
                         f"{sizes}.")
    counts = [int(round(s * n)) for s in sizes]
    counts[0] += n - sum(counts)  # rounding leftovers go to the first part, as MindSpore
    if any(c < 1 for c in counts):
        raise ValueError(f"For 'split', sizes {sizes} of a dataset of {n} rows leave an empty "
                         f"part.")
    return counts


def _as_value(v):
    return v if isinstance(v, np.ndarray) else np.asarray(v)


class NumpySlicesDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.NumpySlicesDataset`: rows sliced from arrays along axis 0.

    `data` is one array-like (one column), a tuple of them (several columns) or a dict
    (column name -> array-like).
    """

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        super().__init__()
        if isinstance(data, dict):
            names, columns = list(data), [np.asarray(v) for v in data.values()]
        elif isinstance(data, tuple):
            names, columns = None, [np.asarray(v) for v in data]
        else:
            names, columns = None, [np.asarray(data)]
        if not columns or any(c.ndim == 0 for c in columns):
            raise ValueError("For 'NumpySlicesDataset', data must hold at least one array with a "
                             "first axis to slice, but got "
                             f"{[np.shape(c) for c in columns] or data!r}.")
        lengths = {len(c) for c in columns}
        if len(lengths) > 1:
            raise ValueError(f"For 'NumpySlicesDataset', every column must have the same length, "
                             f"but got lengths {[len(c) for c in columns]}.")
        if names is None:
            names = list(column_names) if column_names is not None else \
                [f"column_{i}" for i in range(len(columns))]
        if len(names) != len(columns):
            raise ValueError(f"For 'NumpySlicesDataset', column_names {names} name "
                             f"{len(names)} columns but data has {len(columns)}.")
        if sampler is not None:
            raise TypeError("For 'NumpySlicesDataset', samplers are not supported by cellgrad; "
                            "use shuffle, num_samples, num_shards and shard_id.")
        self._names, self._columns = names, columns
        self._init_sampling("NumpySlicesDataset", lengths.pop(), shuffle, num_samples,
                            num_shards, shard_id)

    def _row(self, i):
        return tuple(c[i] for c in self._columns)


class GeneratorDataset(_RandomAccess):
    """Mirrors `mindspore.dataset.GeneratorDataset`.

    `source` is random-access (`__getitem__` and `__len__`: shuffled by default, can be
    sharded and split), an iterable, or a callable returning an iterator (read in order).
    Each item is one value per column (a tuple), or a single value for one column.
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        super().__init__()
        if column_names is None:
            raise ValueError("For 'GeneratorDataset', column_names must be given (a name or a "
                             "list of names).")
        self._names = [column_names] if isinstance(column_names, str) else list(column_names)
        if sampler is not None or batch_sampler is not None or collate_fn is not None:
            raise TypeError("For 'GeneratorDataset', samplers and collate_fn are not supported "
                            "by cellgrad; use shuffle, num_shards/shard_id and batch().")
        self._source = source
        self._random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if self._random_access:
            self._init_sampling("GeneratorDataset", len(source), shuffle, num_samples,
                                num_shards, shard_id)
            return
        if shuffle or num_shards is not None or shard_id is not None:
            raise ValueError("For 'GeneratorDataset', shuffle and num_shards/shard_id need a "
                             "random-access source (with __getitem__ and __len__), but got "
                             f"{type(source).__name__}.")
        self._num_samples = num_samples or None

    def _size(self):
        if self._random_access:
            return super()._size()
        if self._num_samples is not None:
            return None if not hasattr(self._source, "__len__") else \
                min(len(self._source), self._num_samples)
        return len(self._source) if hasattr(self._source, "__len__") else None

    def _row(self, i):
        return self._check_row(self._source[i], i)

    def _check_row(self, item, where):
        values = tuple(item) if isinstance(item, (tuple, list)) else (item,)
        if len(values) != len(self._names):
            raise ValueError(f"For 'GeneratorDataset', row {where} has {len(values)} values but "
                             f"column_names {self._names} name {len(self._names)} columns.")
        return tuple(_as_value(v) for v in values)

    def _rows(self, epoch):
        if self._random_access:
            yield from super()._rows(epoch)
            return
        items = self._source() if callable(self._source) else iter(self._source)
        for i, item in enumerate(items):
            if self._num_samples is not None and i >= self._num_samples:
                return
            yield self._check_row(item, i)
