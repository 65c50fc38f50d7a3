"""The dataset pipeline: `Dataset` and the stages its methods add (batch, map, shuffle, ...).

Mirrors `mindspore.dataset.Dataset` for in-memory data. A stage reads rows (tuples of numpy
values, one per column) from its input one epoch at a time; iterators turn them into Tensors.
Unlike MindSpore, one dataset may feed several pipelines (MindSpore raises "not a tree").
"""

import itertools

import numpy as np

from cellgrad_dataset.sampling import epoch_rng


class Dataset:
    """The base of every dataset: pipeline methods and iterators."""

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        if children is None:
            children = []
        self.children = list(children) if isinstance(children, (list, tuple)) else [children]

    # ---- what a stage implements ----

    def _rows(self, epoch):
        """The rows of one epoch: an iterator of tuples of numpy values."""
        raise NotImplementedError(f"{type(self).__name__} does not produce rows")

    def _size(self):
        """Rows per epoch, or None when it is only known by reading them."""
        return self.children[0]._size()

    def get_col_names(self):
        """The column names, in row order."""
        return self.children[0].get_col_names()

    def _stage(self):
        """Distinguishes the random streams of several shuffling stages in one pipeline."""
        return 1 + max((c._stage() for c in self.children), default=0)

    # ---- MindSpore's API ----

    def get_dataset_size(self):
        """Rows (or batches) per epoch; reads one epoch when no stage knows it."""
        size = self._size()
        if size is None:
            size = sum(1 for _ in self._rows(0))
        return size

    def get_batch_size(self):
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        return self.children[0].get_repeat_count() if self.children else 1

    def output_shapes(self, estimate=False):
        row = next(iter(self._rows(0)))
        return [list(np.shape(v)) for v in row]

    def output_types(self):
        row = next(iter(self._rows(0)))
        return [np.asarray(v).dtype for v in row]

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Mirrors `Dataset.batch`: stack `batch_size` rows into one per column."""
        unsupported = set(kwargs) - {"python_multiprocessing", "max_rowsize"}
        if unsupported:
            raise TypeError(f"For 'batch', cellgrad does not support the arguments "
                            f"{sorted(unsupported)}: map the rows before batching instead.")
        return BatchDataset(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size):
        """Mirrors `Dataset.shuffle`: a shuffle buffer of `buffer_size` rows."""
        return ShuffleDataset(self, buffer_size)

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, **kwargs):
        """Mirrors `Dataset.map`: apply `operations` (one callable or a list, in order)."""
        return MapDataset(self, operations, input_columns, output_columns)

    def repeat(self, count=None):
        """Mirrors `Dataset.repeat`: `count` epochs of the input in one (None or -1: forever)."""
        return RepeatDataset(self, count)

    def take(self, count=-1):
        """Mirrors `Dataset.take`: the first `count` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count):
        """Mirrors `Dataset.skip`: all but the first `count` rows."""
        return SkipDataset(self, count)

    def project(self, columns):
        """Mirrors `Dataset.project`: keep `columns`, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Mirrors `Dataset.rename`."""
        return RenameDataset(self, input_columns, output_columns)

    def split(self, sizes, randomize=True):
        """Mirrors `Dataset.split`; only a source dataset (NumpySlices, random-access
        GeneratorDataset) can be split."""
        raise TypeError(f"For 'split', only a source dataset can be split, but got a "
                        f"{type(self).__name__}; split before batch/map/shuffle.")

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=False):
        """Mirrors `Dataset.create_tuple_iterator`: rows as lists of Tensors (or arrays)."""
        from cellgrad_dataset.iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """Mirrors `Dataset.create_dict_iterator`: rows as {column: Tensor}."""
        from cellgrad_dataset.iterators import DictIterator

        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def __len__(self):
        return self.get_dataset_size()


def _positive_int(owner, name, value, allow=()):
    if value in allow and not isinstance(value, bool):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        extra = f" or {' or '.join(map(str, allow))}" if allow else ""
        raise ValueError(f"For '{owner}', {name} must be a positive int{extra}, but got "
                         f"{value!r}.")
    return int(value)


def _column_list(owner, name, columns, known):
    columns = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in columns if c not in known]
    if missing:
        raise ValueError(f"For '{owner}', {name} {missing} are not columns of the dataset; "
                         f"its columns are {known}.")
    return columns


class BatchDataset(Dataset):
    """Rows stacked into batches (`Dataset.batch`)."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None,
                 python_multiprocessing=False, max_rowsize=None):
        super().__init__([input_dataset])
        if per_batch_map is not None:
            raise TypeError("For 'batch', cellgrad does not support per_batch_map: map the rows "
                            "before batching instead.")
        self.batch_size = _positive_int("batch", "batch_size", batch_size)
        self.drop_remainder = bool(drop_remainder)

    def _size(self):
        n = self.children[0]._size()
        if n is None:
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def get_batch_size(self):
        return self.batch_size

    def _rows(self, epoch):
        rows = iter(self.children[0]._rows(epoch))
        names = self.get_col_names()
        while True:
            chunk = list(itertools.islice(rows, self.batch_size))
            if not chunk or (self.drop_remainder and len(chunk) < self.batch_size):
                return
            yield tuple(_stack(names[i], [r[i] for r in chunk]) for i in range(len(names)))


def _stack(column, values):
    try:
        return np.stack(values)
    except ValueError:
        shapes = sorted({np.shape(v) for v in values})
        raise ValueError(f"For 'batch', the rows of column '{column}' have different shapes "
                         f"{shapes}; a batch needs equal shapes (resize or pad them in a map)."
                         ) from None


class ShuffleDataset(Dataset):
    """Rows drawn at random from a buffer of `buffer_size` rows (`Dataset.shuffle`)."""

    def __init__(self, input_dataset, buffer_size):
        super().__init__([input_dataset])
        self.buffer_size = _positive_int("shuffle", "buffer_size", buffer_size)
        if self.buffer_size < 2:
            raise ValueError(f"For 'shuffle', buffer_size must be greater than 1, but got "
                             f"{buffer_size}.")

    def _rows(self, epoch):
        rng = epoch_rng(epoch, self._stage())
        buffer = []
        for row in self.children[0]._rows(epoch):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            i = int(rng.integers(len(buffer)))
            yield buffer[i]
            buffer[i] = row
        rng.shuffle(buffer)
        yield from buffer


class MapDataset(Dataset):
    """Columns replaced by what `operations` return (`Dataset.map`)."""

    def __init__(self, input_dataset, operations=None, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False, cache=None,
                 callbacks=None, max_rowsize=None, offload=None):
        super().__init__([input_dataset])
        child = input_dataset
        ops = operations if isinstance(operations, (list, tuple)) else [operations]
        bad = [op for op in ops if not callable(op)]
        if not ops or bad:
            raise TypeError(f"For 'map', operations must be a callable or a list of callables, "
                            f"but got {operations!r}.")
        self.operations = list(ops)
        known = child.get_col_names()
        self.inputs = _column_list("map", "input_columns", known[0] if input_columns is None
                                   else input_columns, known)
        self.outputs = self.inputs if output_columns is None else \
            ([output_columns] if isinstance(output_columns, str) else list(output_columns))
        first = known.index(self.inputs[0])
        kept = [c for c in known if c not in self.inputs]
        insert_at = sum(1 for c in known[:first] if c not in self.inputs)
        self.names = kept[:insert_at] + self.outputs + kept[insert_at:]
        self._take = [known.index(c) for c in self.inputs]
        self._keep = [known.index(c) for c in kept]
        self._insert_at = insert_at

    def get_col_names(self):
        return list(self.names)

    def _rows(self, epoch):
        for row in self.children[0]._rows(epoch):
            values = tuple(row[i] for i in self._take)
            for op in self.operations:
                out = op(*values)
                values = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if len(values) != len(self.outputs):
                raise ValueError(f"For 'map', the operations returned {len(values)} columns "
                                 f"but the output columns are {self.outputs}.")
            kept = [row[i] for i in self._keep]
            yield tuple(kept[:self._insert_at]) + tuple(map(np.asarray, values)) + \
                tuple(kept[self._insert_at:])


class RepeatDataset(Dataset):
    """The input's epochs one after another (`Dataset.repeat`)."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        self.count = None if count in (None, -1) else _positive_int("repeat", "count", count)

    def _size(self):
        n = self.children[0]._size()
        if self.count is None:
            return -1  # as MindSpore: an endless dataset has no size
        return None if n is None else n * self.count

    def get_repeat_count(self):
        return -1 if self.count is None else self.count

    def _rows(self, epoch):
        repeats = itertools.count() if self.count is None else range(self.count)
        for r in repeats:
            # Each pass over the input is an epoch of its own (a new shuffle order).
            inner = (epoch << 32) + r if self.count is None else epoch * self.count + r
            yield from self.children[0]._rows(inner)


class TakeDataset(Dataset):
    """The first `count` rows (`Dataset.take`)."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        self.count = None if count == -1 else _positive_int("take", "count", count, allow=(-1,))

    def _size(self):
        n = self.children[0]._size()
        if self.count is None or n is None:
            return n
        return self.count if n < 0 else min(n, self.count)

    def _rows(self, epoch):
        return itertools.islice(self.children[0]._rows(epoch), self.count)


class SkipDataset(Dataset):
    """All but the first `count` rows (`Dataset.skip`)."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
            raise ValueError(f"For 'skip', count must be a non-negative int, but got {count!r}.")
        self.count = int(count)

    def _size(self):
        n = self.children[0]._size()
        return n if n is None or n < 0 else max(0, n - self.count)

    def _rows(self, epoch):
        return itertools.islice(self.children[0]._rows(epoch), self.count, None)


class ProjectDataset(Dataset):
    """Only some columns, reordered (`Dataset.project`)."""

    def __init__(self, input_dataset, columns):
        super().__init__([input_dataset])
        known = input_dataset.get_col_names()
        self.columns = _column_list("project", "columns", columns, known)
        self._take = [known.index(c) for c in self.columns]

    def get_col_names(self):
        return list(self.columns)

    def _rows(self, epoch):
        for row in self.children[0]._rows(epoch):
            yield tuple(row[i] for i in self._take)


class RenameDataset(Dataset):
    """Columns renamed (`Dataset.rename`)."""

    def __init__(self, input_dataset, input_columns, output_columns):
        super().__init__([input_dataset])
        known = input_dataset.get_col_names()
        old = _column_list("rename", "input_columns", input_columns, known)
        new = [output_columns] if isinstance(output_columns, str) else list(output_columns)
        if len(old) != len(new):
            raise ValueError(f"For 'rename', input_columns {old} and output_columns {new} must "
                             f"have the same length.")
        mapping = dict(zip(old, new))
        self.names = [mapping.get(c, c) for c in known]

    def get_col_names(self):
        return list(self.names)

    def _rows(self, epoch):
        return self.children[0]._rows(epoch)
