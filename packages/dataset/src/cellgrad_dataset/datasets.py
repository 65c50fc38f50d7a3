"""The dataset pipeline: `Dataset` and the stages its methods add (batch, map, shuffle, ...).

Mirrors `mindspore.dataset.Dataset`. A stage reads rows (tuples of numpy values, one per
column) from its input one epoch at a time (`_rows(epoch)`); iterators turn them into Tensors.
Stages that can also pass whole blocks of rows (`_blocks(epoch, size)`: one stacked array per
column) let `batch` skip the per-row work: in-memory sources, maps whose operations define
`_apply_batch`, project and rename. Unlike MindSpore, one dataset may feed several pipelines
(MindSpore raises "not a tree"). Column names are resolved when first needed (as MindSpore,
an unknown column is a RuntimeError when the pipeline is built, not when the method is called).
"""

import itertools
import numbers
import os

import numpy as np

from cellgrad_dataset.columns import names_arg as _names_arg
from cellgrad_dataset.columns import resolve as _resolve
from cellgrad_dataset.sampling import epoch_rng

INT32_MAX = 2147483647
_MAP_CHUNK = 64  # rows per task sent to a map worker process


def _check_workers(num):
    if num is None:
        return None
    if isinstance(num, bool) or not isinstance(num, numbers.Integral):
        raise TypeError(f"Argument num_parallel_workers with value {num!r} is not of type "
                        f"[<class 'int'>], but got {type(num)}.")
    cpus = os.cpu_count() or 1
    if not 1 <= num <= cpus:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {cpus}!")
    return int(num)


def _default_workers():
    from cellgrad_dataset import config

    return config.get_num_parallel_workers()


def _int_in(value, name, lo, hi=INT32_MAX, allow=()):
    if value in allow and not isinstance(value, bool):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not lo <= value <= hi:
        raise ValueError(f"Input {name} is not within the required interval of [{lo}, {hi}].")
    return int(value)


def _op_name(op):
    return getattr(op, "__name__", None) or type(op).__name__


def _as_outputs(out):
    if type(out) is np.ndarray:
        return (out,)
    values = tuple(out) if isinstance(out, tuple) else (out,)
    return tuple(v if isinstance(v, np.ndarray) else np.asarray(v) for v in values)


class Dataset:
    """Mirrors `mindspore.dataset.Dataset`: the base of every dataset."""

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        if children is None:
            children = []
        self.children = list(children) if isinstance(children, (list, tuple)) else [children]
        self.num_parallel_workers = num_parallel_workers
        self._init_step = 0

    # ---- what a stage implements ----

    def _rows(self, epoch):
        """The rows of one epoch: an iterator of tuples of numpy values."""
        raise NotImplementedError(f"{type(self).__name__} does not produce rows")

    def _size(self):
        """Rows per epoch, or None when it is only known by reading them."""
        return self.children[0]._size()

    def get_col_names(self):
        """Mirrors `Dataset.get_col_names`."""
        return self.children[0].get_col_names()

    def _block_capable(self):
        return False

    def _blocks(self, epoch, size):
        raise NotImplementedError

    def is_shuffled(self):
        return any(c.is_shuffled() for c in self.children)

    def is_sharded(self):
        return any(c.is_sharded() for c in self.children)

    def _stage(self):
        """Distinguishes the random streams of several shuffling stages in one pipeline."""
        return 1 + max((c._stage() for c in self.children), default=0)

    # ---- sizes and shapes ----

    def get_dataset_size(self):
        """Mirrors `Dataset.get_dataset_size`; reads one epoch when no stage knows it."""
        size = self._size()
        if size is None:
            size = sum(1 for _ in self._rows(0))
        return size

    def get_batch_size(self):
        """Mirrors `Dataset.get_batch_size`."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        """Mirrors `Dataset.get_repeat_count`."""
        return self.children[0].get_repeat_count() if self.children else 1

    def _first_row(self):
        for row in self._rows(0):
            return row
        raise RuntimeError("The dataset is empty: it has no row to read shapes or types from.")

    def output_shapes(self, estimate=False):
        """Mirrors `Dataset.output_shapes`: the shapes of the first row."""
        return [list(np.shape(v)) for v in self._first_row()]

    def output_types(self):
        """Mirrors `Dataset.output_types`: the numpy dtypes of the first row."""
        return [np.asarray(v).dtype for v in self._first_row()]

    def get_class_indexing(self):
        """Mirrors `Dataset.get_class_indexing` (an empty dict but for class-folder readers)."""
        return self.children[0].get_class_indexing() if self.children else {}

    def num_classes(self):
        """Mirrors `Dataset.num_classes`."""
        return self.children[0].num_classes() if self.children else None

    # ---- pipeline operations ----

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Mirrors `Dataset.batch`: `batch_size` rows (an int, or a callable of BatchInfo)
        stacked into one per column; `per_batch_map` maps the columns' lists of rows."""
        allowed = {"per_batch_map", "input_columns", "output_columns", "python_multiprocessing",
                   "max_rowsize"}
        unknown = sorted(set(kwargs) - allowed)
        if unknown:
            raise TypeError(f"batch() got an unexpected keyword argument '{unknown[0]}'")
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """Mirrors `Dataset.padded_batch`: batch, padding the columns of `pad_info`
        ({column: (shape or None, pad value)}; None dims: the batch's longest)."""
        return PaddedBatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                                  pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        """Mirrors `Dataset.bucket_batch_by_length`."""
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                          bucket_batch_sizes, element_length_function, pad_info,
                                          pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        """Mirrors `Dataset.shuffle`: a shuffle buffer of `buffer_size` rows."""
        return ShuffleDataset(self, buffer_size)

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, **kwargs):
        """Mirrors `Dataset.map`: apply `operations` (one callable or a list, in order)."""
        allowed = {"python_multiprocessing", "max_rowsize", "cache", "callbacks", "offload"}
        unknown = sorted(set(kwargs) - allowed)
        if unknown:
            raise TypeError(f"map() got an unexpected keyword argument '{unknown[0]}'")
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers,
                          **kwargs)

    def flat_map(self, func):
        """Mirrors `Dataset.flat_map`: `func(*row)` returns a dataset for each row (called now,
        as MindSpore does); the result is those datasets one after another."""
        if not callable(func):
            raise TypeError("func must be a function.")
        parts = []
        for row in self._rows(0):
            part = func(*row)
            if not isinstance(part, Dataset):
                raise TypeError("flat_map must return a Dataset object.")
            parts.append(part)
        if not parts:
            raise RuntimeError("For 'flat_map', the dataset has no rows to map.")
        return parts[0] if len(parts) == 1 else ConcatDataset(parts)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Mirrors `Dataset.filter`: keep the rows for which `predicate` is true."""
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def repeat(self, count=None):
        """Mirrors `Dataset.repeat`: `count` epochs of the input in one (None or -1: forever)."""
        return RepeatDataset(self, count)

    def take(self, count=-1):
        """Mirrors `Dataset.take`: the first `count` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count):
        """Mirrors `Dataset.skip`: all but the first `count` rows."""
        return SkipDataset(self, count)

    def zip(self, datasets):
        """Mirrors `Dataset.zip`: the columns of this dataset and `datasets` side by side."""
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        elif not isinstance(datasets, tuple):
            raise TypeError(f"Argument datasets with value {datasets!r} is not of type "
                            f"[<class 'tuple'>, <class 'mindspore.dataset.engine.datasets."
                            f"Dataset'>], but got {type(datasets)}.")
        return ZipDataset((self,) + datasets)

    def concat(self, datasets):
        """Mirrors `Dataset.concat` (and `+`): this dataset's rows, then those of `datasets`."""
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        if not isinstance(datasets, list) or \
                not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError(f"Argument datasets with value {datasets!r} is not of type "
                            f"[<class 'list'>, <class 'mindspore.dataset.engine.datasets."
                            f"Dataset'>], but got {type(datasets)}.")
        return ConcatDataset([self] + datasets)

    def __add__(self, datasets):
        return self.concat(datasets)

    def project(self, columns):
        """Mirrors `Dataset.project`: keep `columns`, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Mirrors `Dataset.rename`."""
        return RenameDataset(self, input_columns, output_columns)

    def apply(self, apply_func):
        """Mirrors `Dataset.apply`: `apply_func(self)`, which must return a dataset."""
        if not callable(apply_func):
            raise TypeError(f"Argument apply_func with value {apply_func!r} is not of type "
                            f"[<class 'function'>], but got {type(apply_func)}.")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return dataset

    def split(self, sizes, randomize=True):
        """Mirrors `Dataset.split`: parts of the given sizes (ints summing to the size, or
        fractions summing to 1); a non-source dataset splits with skip/take."""
        if self.is_sharded():
            raise RuntimeError("Dataset should not be sharded before split.")
        if randomize:
            raise RuntimeError("Dataset.split with randomize=True needs a source that is read "
                               "by index (NumpySlicesDataset, a random-access GeneratorDataset, "
                               "a file reader); split the source, or pass randomize=False.")
        parts, skip = [], 0
        for size in _split_parts(self, sizes):
            part = self.skip(skip) if skip else self
            parts.append(part.take(size))
            skip += size
        return tuple(parts)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Mirrors `Dataset.sync_wait`: after each `num_batch` rows the pipeline waits for
        `sync_update(condition_name)`."""
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Mirrors `Dataset.sync_update`: release the `sync_wait` named `condition_name`."""
        node = self._find_sync(condition_name)
        if node is None:
            raise RuntimeError(f"Condition name not found: {condition_name!r}.")
        node._update(num_batch, data)

    def _find_sync(self, name):
        if isinstance(self, SyncWaitDataset) and self.condition_name == name:
            return self
        for child in self.children:
            found = child._find_sync(name)
            if found is not None:
                return found
        return None

    def reset(self):
        """Mirrors `Dataset.reset`: the next iterator starts again from the first step."""
        self._init_step = 0

    def set_init_step(self, init_step):
        """Mirrors `Dataset.set_init_step`: the next iterator resumes after `init_step` steps
        (rows of this dataset) counted from the first epoch."""
        self._init_step = _int_in(init_step, "init_step", 0, 2**63 - 1)

    def get_init_step(self):
        """Mirrors `Dataset.get_init_step`."""
        return getattr(self, "_init_step", 0)

    def save(self, file_name, num_files=1, file_type='mindrecord'):
        """Mirrors `Dataset.save`: write one epoch to MindRecord files (`mindrecord._save`)."""
        from cellgrad_dataset.mindrecord._save import save

        save(self, file_name, num_files, file_type)

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


def _split_parts(dataset, sizes):
    """MindSpore's `_get_absolute_split_sizes`, with its `check_split` checks."""
    if not isinstance(sizes, list):
        raise TypeError(f"Argument sizes with value {sizes!r} is not of type [<class 'list'>], "
                        f"but got {type(sizes)}.")
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    all_int = all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
    all_float = all(isinstance(s, float) for s in sizes)
    if not (all_int or all_float):
        raise ValueError("sizes should be list of int or list of float.")
    if all_int and not all(s > 0 for s in sizes):
        raise ValueError("sizes is a list of int, but there should be no negative or zero "
                         "numbers.")
    if all_float:
        if not all(0 < s <= 1 for s in sizes):
            raise ValueError("sizes is a list of float, but there should be no numbers outside "
                             "the range (0, 1].")
        if not abs(sum(sizes) - 1) < 0.00001:
            raise ValueError("sizes is a list of float, but the percentages do not sum up to 1.")
    n = dataset.get_dataset_size()
    if n is None or n <= 0:
        raise RuntimeError("dataset_size is unknown, unable to split.")
    if all_int:
        if sum(sizes) != n:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{n}.")
        return list(sizes)
    counts = []
    for s in sizes:
        count = int(round(s * n))
        if count == 0:
            raise RuntimeError(f"Split percentage {s} is too small.")
        counts.append(count)
    diff = n - sum(counts)
    if diff > 0:
        counts[0] += diff
    else:
        for i, count in enumerate(counts):
            if count + diff > 0:
                counts[i] += diff
                break
    return counts


# ---------------------------------------------------------------- batching


class BatchInfo:
    """Mirrors `mindspore.dataset.BatchInfo`: what `per_batch_map` and a callable
    `batch_size` are told about the batch being built."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        return self._batch_num

    def get_epoch_num(self):
        return self._epoch_num


def _stack(owner, column, values):
    try:
        return np.stack(values)
    except ValueError:
        shapes = sorted({np.shape(v) for v in values})
        raise RuntimeError(f"Inconsistent batch shapes, for '{owner}', the rows of column "
                           f"'{column}' have different shapes {shapes}; a batch needs equal "
                           f"shapes (use padded_batch, or resize or pad them in a map)."
                           ) from None


class BatchDataset(Dataset):
    """Mirrors `mindspore.dataset.BatchDataset`: rows stacked into batches."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None,
                 python_multiprocessing=False, max_rowsize=None):
        super().__init__([input_dataset], num_parallel_workers)
        if callable(batch_size):
            self.batch_size = batch_size
        elif isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral):
            raise TypeError("batch_size should either be an int or a callable.")
        else:
            self.batch_size = _int_in(batch_size, "batch_size", 1)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"Argument drop_remainder with value {drop_remainder!r} is not of "
                            f"type [<class 'bool'>], but got {type(drop_remainder)}.")
        self.drop_remainder = drop_remainder
        self.workers = _check_workers(num_parallel_workers)
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"per_batch_map should be callable, but got {per_batch_map!r}.")
        if per_batch_map is None and (input_columns is not None or output_columns is not None):
            raise ValueError("input_columns and output_columns can only be used with "
                             "per_batch_map.")
        self.per_batch_map = per_batch_map
        self.input_columns = _names_arg(input_columns)
        self.output_columns = _names_arg(output_columns)
        self.python_multiprocessing = bool(python_multiprocessing)
        self.max_rowsize = max_rowsize
        self._layout = None

    def _fixed_size(self):
        return None if callable(self.batch_size) else self.batch_size

    def _size(self):
        n, b = self.children[0]._size(), self._fixed_size()
        if n is None or b is None:
            return None
        if n < 0:
            return -1
        return n // b if self.drop_remainder else -(-n // b)

    def get_batch_size(self):
        b = self._fixed_size()
        return b if b is not None else self.batch_size(BatchInfo(0, 0))

    def _columns(self):
        """(input column indices, kept indices, insert position, output names) of per_batch_map."""
        if self._layout is None:
            known = self.children[0].get_col_names()
            inputs = self.input_columns if self.input_columns is not None else known
            take = _resolve("batch", inputs, known)
            outputs = self.output_columns if self.output_columns is not None else inputs
            self._layout = _layout(known, inputs, outputs) + (take,)
        return self._layout

    def get_col_names(self):
        if self.per_batch_map is None:
            return self.children[0].get_col_names()
        return list(self._columns()[0])

    def _chunks(self, epoch):
        """Lists of rows, one per batch."""
        rows = iter(self.children[0]._rows(epoch))
        for batch_num in itertools.count():
            size = self._fixed_size()
            if size is None:
                size = self.batch_size(BatchInfo(batch_num, epoch))
                _int_in(size, "batch_size", 1)
            chunk = list(itertools.islice(rows, size))
            if not chunk or (self.drop_remainder and len(chunk) < size):
                return
            yield batch_num, chunk

    def _collate(self, chunk):
        names = self.children[0].get_col_names()
        return tuple(_stack("batch", names[i], [r[i] for r in chunk]) for i in range(len(names)))

    def _block_capable(self):
        return self.per_batch_map is None and self._fixed_size() is not None and \
            self.children[0]._block_capable()

    def _rows(self, epoch):
        if self.per_batch_map is None:
            if self._block_capable():
                for block in self.children[0]._blocks(epoch, self.batch_size):
                    if self.drop_remainder and len(block[0]) < self.batch_size:
                        return
                    yield block
                return
            for _, chunk in self._chunks(epoch):
                yield self._collate(chunk)
            return
        names, outputs, keep, insert_at, take = self._columns()
        fn = self._per_batch(take, outputs, epoch)
        tasks = self._chunks(epoch)
        if self.python_multiprocessing:
            from cellgrad_dataset.workers import ordered_map

            results = ordered_map(fn, tasks, self.workers or _default_workers(), "batch",
                                  lambda seq: f"batch {seq} (per_batch_map "
                                              f"{_op_name(self.per_batch_map)})",
                                  self.max_rowsize)
        else:
            results = map(fn, tasks)
        for (chunk_rows, values) in results:
            kept = [_stack("batch", n, [r[i] for r in chunk_rows])
                    for n, i in zip(self._kept_names(keep), keep)]
            yield tuple(kept[:insert_at]) + values + tuple(kept[insert_at:])

    def _kept_names(self, keep):
        names = self.children[0].get_col_names()
        return [names[i] for i in keep]

    def _per_batch(self, take, outputs, epoch):
        return _PerBatch(self.per_batch_map, take, outputs, epoch)


class _PerBatch:
    """`per_batch_map` on a batch's rows; picklable (with a picklable per_batch_map) for
    'spawn' worker processes. Called with a task (batch number, rows)."""

    def __init__(self, per_batch_map, take, outputs, epoch):
        self.per_batch_map, self.take, self.outputs, self.epoch = \
            per_batch_map, take, outputs, epoch

    def __call__(self, task):
        batch_num, chunk = task
        lists = [[r[i] for r in chunk] for i in self.take]
        try:
            out = self.per_batch_map(*lists, BatchInfo(batch_num, self.epoch))
        except Exception as exc:
            raise RuntimeError(f"Exception thrown from user defined Python function in "
                               f"dataset. For 'batch', per_batch_map "
                               f"{_op_name(self.per_batch_map)} failed on batch {batch_num}: "
                               f"{type(exc).__name__}: {exc}") from exc
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(self.outputs):
            raise RuntimeError(f"For 'batch', per_batch_map returned {len(out)} columns but "
                               f"output_columns are {self.outputs}.")
        values = tuple(_stack("batch", name, [np.asarray(v) for v in col])
                       if isinstance(col, list) else np.asarray(col)
                       for name, col in zip(self.outputs, out))
        return chunk, values


def _layout(known, inputs, outputs):
    """Output columns of a map: the outputs take the place of the first input column."""
    first = known.index(inputs[0])
    kept = [c for c in known if c not in inputs]
    insert_at = sum(1 for c in known[:first] if c not in inputs)
    names = kept[:insert_at] + list(outputs) + kept[insert_at:]
    return names, list(outputs), [known.index(c) for c in kept], insert_at


def _pad_to(owner, column, values, shape, value):
    """Stack `values`, padding each to `shape` (None entries: the largest in the batch)."""
    values = [np.asarray(v) for v in values]
    ndim = values[0].ndim
    if any(v.ndim != ndim for v in values):
        raise RuntimeError(f"For '{owner}', the rows of column '{column}' have different ranks "
                           f"{sorted({v.ndim for v in values})}.")
    longest = [max(v.shape[d] for v in values) for d in range(ndim)]
    if shape is None:
        target = longest
    else:
        if len(shape) != ndim:
            raise RuntimeError(f"For '{owner}', the pad shape {list(shape)} of column "
                               f"'{column}' has {len(shape)} dims but its rows have {ndim}.")
        target = [longest[d] if s is None else int(s) for d, s in enumerate(shape)]
    for v in values:
        if any(v.shape[d] > target[d] for d in range(ndim)):
            raise RuntimeError(f"Invalid data, for '{owner}', a row of column '{column}' of "
                               f"shape {list(v.shape)} is larger than the pad shape {target}.")
    out = np.full([len(values)] + target, 0 if value is None else value, dtype=values[0].dtype)
    for i, v in enumerate(values):
        out[(i,) + tuple(slice(0, s) for s in v.shape)] = v
    return out


class PaddedBatchDataset(BatchDataset):
    """Mirrors `mindspore.dataset.PaddedBatchDataset`: batches whose `pad_info` columns are
    padded to one shape."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None,
                 pad_info=None):
        super().__init__(input_dataset, batch_size, drop_remainder, num_parallel_workers)
        if pad_info is not None and not isinstance(pad_info, dict):
            raise TypeError(f"Argument pad_info with value {pad_info!r} is not of type "
                            f"[<class 'dict'>], but got {type(pad_info)}.")
        self.pad_info = _check_pad_info(pad_info)

    def _block_capable(self):
        return False

    def _collate(self, chunk):
        names = self.children[0].get_col_names()
        _resolve("padded_batch", list(self.pad_info), names)
        out = []
        for i, name in enumerate(names):
            values = [r[i] for r in chunk]
            if name in self.pad_info:
                shape, value = self.pad_info[name]
                out.append(_pad_to("padded_batch", name, values, shape, value))
            else:
                out.append(_stack("padded_batch", name, values))
        return tuple(out)


def _check_pad_info(pad_info):
    checked = {}
    for name, info in (pad_info or {}).items():
        if info is None:
            checked[name] = (None, 0)
            continue
        if not isinstance(info, tuple) or len(info) != 2:
            raise TypeError(f"Argument pad_info[{name!r}] with value {info!r} is not a tuple of "
                            f"(pad shape, pad value).")
        shape, value = info
        if shape is not None and not isinstance(shape, list):
            raise TypeError(f"Argument pad_shape with value {shape!r} is not of type "
                            f"[<class 'list'>], but got {type(shape)}.")
        checked[name] = (shape, value)
    return checked


class BucketBatchByLengthDataset(Dataset):
    """Mirrors `mindspore.dataset.BucketBatchByLengthDataset`: rows grouped by length into
    buckets, each emitted (padded) when it holds its batch size."""

    def __init__(self, input_dataset, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function, pad_info, pad_to_bucket_boundary, drop_remainder):
        super().__init__([input_dataset])
        self.column_names = _names_arg(column_names)
        if not self.column_names:
            raise ValueError("column_names cannot be empty.")
        bounds, sizes = list(bucket_boundaries), list(bucket_batch_sizes)
        if not bounds:
            raise ValueError("bucket_boundaries cannot be empty.")
        if any(isinstance(b, bool) or not isinstance(b, int) for b in bounds):
            raise TypeError("bucket_boundaries should be a list of int.")
        if any(b <= 0 for b in bounds):
            raise ValueError("bucket_boundaries must only contain positive numbers.")
        if any(b >= a for b, a in zip(bounds, bounds[1:])) or \
                any(b2 <= b1 for b1, b2 in zip(bounds, bounds[1:])):
            raise ValueError("bucket_boundaries should be strictly increasing.")
        if len(sizes) != len(bounds) + 1:
            raise ValueError("bucket_batch_sizes must contain one element more than "
                             "bucket_boundaries.")
        if any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in sizes):
            raise ValueError("bucket_batch_sizes must only contain positive numbers.")
        if element_length_function is None and len(self.column_names) != 1:
            raise ValueError("If element_length_function is not specified, exactly one column "
                             "name should be passed.")
        self.bounds, self.sizes = bounds, sizes
        self.length_fn = element_length_function
        self.pad_info = _check_pad_info(pad_info)
        self.pad_to_bucket_boundary = bool(pad_to_bucket_boundary)
        self.drop_remainder = bool(drop_remainder)

    def _size(self):
        return None

    def _rows(self, epoch):
        names = self.get_col_names()
        take = _resolve("bucket_batch_by_length", self.column_names, names)
        buckets = [[] for _ in self.sizes]
        for row in self.children[0]._rows(epoch):
            if self.length_fn is None:
                length = int(np.shape(row[take[0]])[0]) if np.ndim(row[take[0]]) else 1
            else:
                length = int(self.length_fn(*(row[i] for i in take)))
            b = int(np.searchsorted(self.bounds, length, side="right"))
            buckets[b].append(row)
            if len(buckets[b]) == self.sizes[b]:
                yield self._pad(buckets[b], b, names)
                buckets[b] = []
        if not self.drop_remainder:
            for b, rows in enumerate(buckets):
                if rows:
                    yield self._pad(rows, b, names)

    def _pad(self, rows, b, names):
        out = []
        for i, name in enumerate(names):
            shape, value = self.pad_info.get(name, (None, 0))
            if self.pad_to_bucket_boundary and shape is not None and None in shape:
                if b >= len(self.bounds):
                    raise RuntimeError("Invalid data, requested to pad to bucket boundary "
                                       f"failed, bucket index should be less than "
                                       f"{len(self.bounds)}, but got {b}.")
                shape = [self.bounds[b] - 1 if s is None else s for s in shape]
            out.append(_pad_to("bucket_batch_by_length", name, [r[i] for r in rows], shape,
                               value))
        return tuple(out)


# ---------------------------------------------------------------- row stages


class ShuffleDataset(Dataset):
    """Mirrors `mindspore.dataset.ShuffleDataset`: rows drawn at random from a buffer of
    `buffer_size` rows (each new row takes the place of the row drawn), a new order each
    epoch."""

    def __init__(self, input_dataset, buffer_size):
        super().__init__([input_dataset])
        self.buffer_size = _int_in(buffer_size, "buffer_size", 2)

    def is_shuffled(self):
        return True

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
        while buffer:
            i = int(rng.integers(len(buffer)))
            buffer[i], buffer[-1] = buffer[-1], buffer[i]
            yield buffer.pop()


class MapDataset(Dataset):
    """Mirrors `mindspore.dataset.MapDataset`: columns replaced by what `operations` return.

    With `python_multiprocessing=True` and `num_parallel_workers > 1` the operations run in
    worker processes (`workers.py`), results in order. Operations that define `_apply_batch`
    are applied to whole blocks of rows when the pipeline is batched.
    """

    def __init__(self, input_dataset, operations=None, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False, cache=None,
                 callbacks=None, max_rowsize=None, offload=None):
        super().__init__([input_dataset], num_parallel_workers)
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops:
            raise ValueError("Input operations should not be empty.")
        for op in ops:
            if not callable(op):
                raise ValueError(f"Parameter operations's element of method map should be a "
                                 f"python function or class method which should be callable, "
                                 f"but got: {op}. It doesn't need parentheses for python "
                                 f"function or class method.")
        self.operations = ops
        self.input_columns = _names_arg(input_columns)
        self.output_columns = _names_arg(output_columns)
        self.workers = _check_workers(num_parallel_workers)
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"Argument python_multiprocessing with value "
                            f"{python_multiprocessing!r} is not of type [<class 'bool'>], but "
                            f"got {type(python_multiprocessing)}.")
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize
        self._layout = None

    def _columns(self):
        if self._layout is None:
            known = self.children[0].get_col_names()
            inputs = self.input_columns if self.input_columns is not None else known[:1]
            take = _resolve("map", inputs, known)
            outputs = self.output_columns if self.output_columns is not None else inputs
            self._layout = _layout(known, inputs, outputs) + (take,)
        return self._layout

    def get_col_names(self):
        return list(self._columns()[0])

    def _parallel(self):
        """Worker processes, as MindSpore: with python_multiprocessing, even for one worker."""
        return self.python_multiprocessing

    def _worker_count(self):
        return self.workers or _default_workers()

    def _rows(self, epoch):
        _, outputs, keep, insert_at, take = self._columns()
        apply = _MapRows(self.operations, outputs, keep, insert_at, take)
        rows = self.children[0]._rows(epoch)
        if not self._parallel():
            for i, row in enumerate(rows):
                yield apply.one(row, f"row {i}")
            return
        from cellgrad_dataset.workers import ordered_map, pack_rows, unpack_rows

        chunk = _MAP_CHUNK

        def tasks():
            for seq in itertools.count():
                part = list(itertools.islice(rows, chunk))
                if not part:
                    return
                yield seq * chunk, pack_rows(part)

        for out in ordered_map(apply, tasks(), self._worker_count(), "map",
                               lambda seq: f"rows {seq * chunk}..{seq * chunk + chunk - 1} "
                                           f"(operations "
                                           f"{[_op_name(op) for op in self.operations]})",
                               self.max_rowsize):
            yield from unpack_rows(out)

    def _block_capable(self):
        return all(hasattr(op, "_apply_batch") for op in self.operations) and \
            self.children[0]._block_capable()

    def _blocks(self, epoch, size):
        names, outputs, keep, insert_at, take = self._columns()
        for start, block in _counted(self.children[0]._blocks(epoch, size)):
            values = tuple(block[i] for i in take)
            for op in self.operations:
                try:
                    values = _as_outputs(op._apply_batch(*values))
                except Exception as exc:
                    raise RuntimeError(
                        f"Exception thrown from user defined Python function in dataset. For "
                        f"'map' with operation {_op_name(op)}, rows {start}.."
                        f"{start + len(block[0]) - 1}: {type(exc).__name__}: {exc}") from exc
            if len(values) != len(outputs):
                raise RuntimeError(f"For 'map', the operations returned {len(values)} columns "
                                   f"but the output columns are {outputs}.")
            kept = [block[i] for i in keep]
            yield tuple(kept[:insert_at]) + values + tuple(kept[insert_at:])


class _MapRows:
    """A map's operations on rows; picklable (with picklable operations) so that 'spawn'
    worker processes can run it. Called with a task (first row number, rows)."""

    def __init__(self, operations, outputs, keep, insert_at, take):
        self.operations, self.outputs = operations, outputs
        self.keep, self.insert_at, self.take = keep, insert_at, take

    def __call__(self, task):
        from cellgrad_dataset.workers import pack_rows, unpack_rows

        start, rows = task
        return pack_rows([self.one(r, f"row {start + j}")
                          for j, r in enumerate(unpack_rows(rows))])

    def one(self, row, where):
        values = tuple([row[i] for i in self.take])
        for op in self.operations:
            try:
                out = op(*values)
            except Exception as exc:
                raise RuntimeError(f"Exception thrown from user defined Python function in "
                                   f"dataset. For 'map' with operation {_op_name(op)}, {where}: "
                                   f"{type(exc).__name__}: {exc}") from exc
            values = _as_outputs(out)
        if len(values) != len(self.outputs):
            raise RuntimeError(f"For 'map', the operations returned {len(values)} columns but "
                               f"the output columns are {self.outputs} ({where}).")
        if not self.keep:
            return values
        kept = [row[i] for i in self.keep]
        return tuple(kept[:self.insert_at]) + values + tuple(kept[self.insert_at:])


def _counted(blocks):
    start = 0
    for block in blocks:
        yield start, block
        start += len(block[0])


class FilterDataset(Dataset):
    """Mirrors `mindspore.dataset.FilterDataset`: the rows for which `predicate` is true."""

    def __init__(self, input_dataset, predicate, input_columns=None, num_parallel_workers=None):
        super().__init__([input_dataset], num_parallel_workers)
        if not callable(predicate):
            raise TypeError(f"Argument predicate with value {predicate!r} is not of type "
                            f"[<class 'function'>], but got {type(predicate)}.")
        self.predicate = predicate
        self.input_columns = _names_arg(input_columns)
        _check_workers(num_parallel_workers)

    def _size(self):
        return None

    def _rows(self, epoch):
        known = self.children[0].get_col_names()
        take = _resolve("filter", self.input_columns or known, known)
        for i, row in enumerate(self.children[0]._rows(epoch)):
            try:
                keep = self.predicate(*(row[j] for j in take))
            except Exception as exc:
                raise RuntimeError(f"Exception thrown from user defined Python function in "
                                   f"dataset. For 'filter' with predicate "
                                   f"{_op_name(self.predicate)}, row {i}: "
                                   f"{type(exc).__name__}: {exc}") from exc
            if bool(np.asarray(keep)):
                yield row


class RepeatDataset(Dataset):
    """Mirrors `mindspore.dataset.RepeatDataset`: the input's epochs one after another."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        if count is not None and (isinstance(count, bool)
                                  or not isinstance(count, numbers.Integral)):
            raise TypeError(f"Argument count with value {count!r} is not of type "
                            f"[<class 'int'>], but got {type(count)}.")
        if count is not None and count != -1 and not 1 <= count <= INT32_MAX:
            raise ValueError("count should be either -1 or positive integer, range[1, "
                             "INT32_MAX].")
        self.count = None if count in (None, -1) else int(count)

    def _size(self):
        n = self.children[0]._size()
        if self.count is None or n is None or n < 0:
            return n  # as MindSpore: an endless repeat reports its input's size
        return n * self.count

    def get_repeat_count(self):
        return -1 if self.count is None else self.count

    def _rows(self, epoch):
        repeats = itertools.count() if self.count is None else range(self.count)
        for r in repeats:
            # Each pass over the input is an epoch of its own (a new shuffle order).
            inner = (epoch << 32) + r if self.count is None else epoch * self.count + r
            yield from self.children[0]._rows(inner)


def _count_arg(count, allow_all):
    if isinstance(count, bool) or not isinstance(count, numbers.Integral):
        raise TypeError(f"Argument count with value {count!r} is not of type [<class 'int'>], "
                        f"but got {type(count)}.")
    if allow_all:
        if count != -1 and not 0 < count <= INT32_MAX:
            raise ValueError(f"count should be either -1 or within the required interval of "
                             f"(0, 2147483647], got {count}.")
    elif not 0 <= count <= INT32_MAX:
        raise ValueError("Input count is not within the required interval of [0, 2147483647].")
    return int(count)


class TakeDataset(Dataset):
    """Mirrors `mindspore.dataset.TakeDataset`: the first `count` rows."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        count = _count_arg(count, True)
        self.count = None if count == -1 else count

    def _size(self):
        n = self.children[0]._size()
        if self.count is None or n is None:
            return n
        return self.count if n < 0 else min(n, self.count)

    def _rows(self, epoch):
        return itertools.islice(self.children[0]._rows(epoch), self.count)


class SkipDataset(Dataset):
    """Mirrors `mindspore.dataset.SkipDataset`: all but the first `count` rows."""

    def __init__(self, input_dataset, count):
        super().__init__([input_dataset])
        self.count = _count_arg(count, False)

    def _size(self):
        n = self.children[0]._size()
        return n if n is None or n < 0 else max(0, n - self.count)

    def _rows(self, epoch):
        return itertools.islice(self.children[0]._rows(epoch), self.count, None)


class ProjectDataset(Dataset):
    """Mirrors `mindspore.dataset.ProjectDataset`: only some columns, in the given order."""

    def __init__(self, input_dataset, columns):
        super().__init__([input_dataset])
        self.columns = _names_arg(columns)

    def _take(self):
        return _resolve("project", self.columns, self.children[0].get_col_names())

    def get_col_names(self):
        self._take()
        return list(self.columns)

    def _rows(self, epoch):
        take = self._take()
        for row in self.children[0]._rows(epoch):
            yield tuple(row[i] for i in take)

    def _block_capable(self):
        return self.children[0]._block_capable()

    def _blocks(self, epoch, size):
        take = self._take()
        for block in self.children[0]._blocks(epoch, size):
            yield tuple(block[i] for i in take)


class RenameDataset(Dataset):
    """Mirrors `mindspore.dataset.RenameDataset`: columns renamed."""

    def __init__(self, input_dataset, input_columns, output_columns):
        super().__init__([input_dataset])
        self.input_columns = _names_arg(input_columns)
        self.output_columns = _names_arg(output_columns)
        if len(self.input_columns) != len(self.output_columns):
            raise ValueError("Number of column in input_columns and output_columns is not "
                             "equal.")

    def get_col_names(self):
        known = self.children[0].get_col_names()
        _resolve("rename", self.input_columns, known)
        mapping = dict(zip(self.input_columns, self.output_columns))
        return [mapping.get(c, c) for c in known]

    def _rows(self, epoch):
        self.get_col_names()
        return self.children[0]._rows(epoch)

    def _block_capable(self):
        return self.children[0]._block_capable()

    def _blocks(self, epoch, size):
        return self.children[0]._blocks(epoch, size)


class ZipDataset(Dataset):
    """Mirrors `mindspore.dataset.ZipDataset`: rows of several datasets side by side, as many
    as the shortest has."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid dataset in zip: {d!r} is not a dataset.")
        super().__init__(list(datasets))

    def get_col_names(self):
        names = [n for d in self.children for n in d.get_col_names()]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise RuntimeError(f"Invalid data, duplicate column {dup[0]} already exists when "
                               f"zipping datasets: columns must have different names (rename "
                               f"them first).")
        return names

    def _size(self):
        sizes = [d._size() for d in self.children]
        if any(s is None for s in sizes):
            return None
        known = [s for s in sizes if s >= 0]
        return min(known) if known else -1

    def _rows(self, epoch):
        self.get_col_names()
        for parts in zip(*(d._rows(epoch) for d in self.children)):
            yield tuple(v for part in parts for v in part)


def zip_datasets(datasets):
    """Mirrors `mindspore.dataset.zip` (exported under that name)."""
    if not isinstance(datasets, tuple) or len(datasets) < 2:
        raise TypeError(f"Argument datasets with value {datasets!r} is not a tuple of at least "
                        f"2 datasets.")
    return ZipDataset(datasets)


zip_datasets.__name__ = zip_datasets.__qualname__ = "zip"


class ConcatDataset(Dataset):
    """Mirrors `mindspore.dataset.ConcatDataset`: the datasets' rows one after another."""

    def __init__(self, datasets):
        super().__init__(list(datasets))

    def get_col_names(self):
        names = self.children[0].get_col_names()
        for d in self.children[1:]:
            if d.get_col_names() != names:
                raise RuntimeError(f"Invalid data, for 'concat', the column names of the "
                                   f"datasets must be the same, but got {names} and "
                                   f"{d.get_col_names()}.")
        return names

    def _size(self):
        sizes = [d._size() for d in self.children]
        if any(s is None for s in sizes):
            return None
        if any(s < 0 for s in sizes):
            return -1
        return sum(sizes)

    def _rows(self, epoch):
        self.get_col_names()
        for d in self.children:
            yield from d._rows(epoch)


class SyncWaitDataset(Dataset):
    """Mirrors `mindspore.dataset.SyncWaitDataset`: after each `num_batch` rows the pipeline
    waits until the training loop calls `sync_update`. The pipeline runs when the loop asks
    for a row, so a row asked for before the update is an error, not a hang."""

    def __init__(self, input_dataset, condition_name, num_batch, callback=None):
        super().__init__([input_dataset])
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name!r} is not of "
                            f"type [<class 'str'>], but got {type(condition_name)}.")
        self.condition_name = condition_name
        self.num_batch = _int_in(num_batch, "num_batch", 1)
        self.callback = callback
        self._allowed = self.num_batch

    def _update(self, num_batch, data):
        if num_batch is not None:
            self.num_batch = _int_in(num_batch, "num_batch", 1)
        self._allowed += self.num_batch
        if self.callback is not None:
            self.callback(data)

    def _rows(self, epoch):
        self._allowed = self.num_batch
        for i, row in enumerate(self.children[0]._rows(epoch)):
            if i >= self._allowed:
                raise RuntimeError(f"For 'sync_wait', the pipeline waits for "
                                   f"sync_update({self.condition_name!r}) before row {i}, but "
                                   f"it was not called.")
            yield row
