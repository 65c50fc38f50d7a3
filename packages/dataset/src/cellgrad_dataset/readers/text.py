"""Line-oriented files: `CSVDataset`, `TextFileDataset`.

MindSpore reads these as non-mappable sources: the (sorted) files form one stream of rows,
a shard is a contiguous range of that stream (wrapping around to its start so every shard
has the same number of rows), and the range is cut into one block per file, handed to the
`num_parallel_workers` readers in turn; the rows come out one from each reader in turn. The
unshuffled order below reproduces that, so it depends on the worker count as MindSpore's.
"""

import csv
import glob
import io
import os
import re

import numpy as np

from cellgrad_dataset import config
from cellgrad_dataset.readers.common import FileSource, check_type, check_workers, data_error
from cellgrad_dataset.samplers import Shuffle
from cellgrad_dataset.sampling import epoch_rng


def find_files(patterns):
    """MindSpore's expansion of `dataset_files`: glob patterns, every one must match."""
    if isinstance(patterns, str):
        patterns = [patterns]
    check_type("dataset_files", patterns, (list, tuple))
    files, unmatched = [], []
    for pattern in patterns:
        matches = [m for m in glob.glob(pattern, recursive=True) if os.path.isfile(m)]
        if matches:
            files.extend(matches)
        else:
            unmatched.append(pattern)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return sorted(files)


def read_text(path, owner):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except UnicodeDecodeError as err:
        raise data_error(owner, f"{path} is not UTF-8 text ({err}).") from err


def shuffle_mode(shuffle):
    """"false", "global", "files" or "infile" from a bool or a `Shuffle` member."""
    if isinstance(shuffle, bool):
        return "global" if shuffle else "false"
    value = getattr(shuffle, "value", None)
    if type(shuffle).__name__ != "Shuffle" or not isinstance(value, str):
        raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                        "'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                        "'Shuffle.FILES' or 'Shuffle.INFILE'.")
    return value if value in ("false", "files", "infile") else "global"


def stream_order(counts, workers, num_shards, shard_id):
    """The (file, row) index arrays of one shard's rows in MindSpore's unshuffled order."""
    total = sum(counts)
    per = -(-total // num_shards)
    start, end = shard_id * per, (shard_id + 1) * per
    blocks, before = [], 0
    while total and before < end:
        for f, count in enumerate(counts):
            lo, hi = max(start, before), min(end, before + count)
            if lo < hi:
                blocks.append((f, lo - before, hi - before))
            before += count
    if not blocks:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    # Block j goes to reader j % workers; the output takes the k-th row of every reader's
    # stream, readers in turn, before any (k+1)-th row: sort by (k, reader).
    fill = [0] * workers
    files, rows, ks, readers = [], [], [], []
    for j, (f, lo, hi) in enumerate(blocks):
        w = j % workers
        files.append(np.full(hi - lo, f))
        rows.append(np.arange(lo, hi))
        ks.append(np.arange(fill[w], fill[w] + hi - lo))
        readers.append(np.full(hi - lo, w))
        fill[w] += hi - lo
    order = np.lexsort((np.concatenate(readers), np.concatenate(ks)))
    return np.concatenate(files)[order], np.concatenate(rows)[order]


class _LineSource(FileSource):
    """Rows read from every file at build time; each epoch's order is MindSpore's stream."""

    def _setup(self, read, num_samples, shuffle, num_shards, shard_id):
        """`read()` returns the files and their rows; a RuntimeError it raises (a malformed
        file) is raised again when the rows or their number are first needed."""
        self._check_sampling(None, num_shards, shard_id)
        self._mode = shuffle_mode(shuffle)
        self._shards = (num_shards or 1, shard_id or 0)
        self._start(lambda: self._load(read), False, num_samples, None, None)

    def _load(self, read):
        files, rows_per_file = read()
        if not any(rows_per_file):
            raise data_error(type(self).__name__, f"no rows found in {files}.")
        self._counts = [len(r) for r in rows_per_file]
        self._offsets = np.cumsum([0] + self._counts[:-1])
        self._data = [row for rows in rows_per_file for row in rows]
        return -(-len(self._data) // self._shards[0])

    def get_col_names(self):
        if self._names is None:  # the header could not be read
            raise self._error
        return super().get_col_names()

    def _indices(self, epoch):
        """Shuffle.FILES permutes the files, INFILE the rows of each file, GLOBAL both and
        then every row of the shard (for MindSpore's shuffle buffer)."""
        mode, counts, offsets = self._mode, self._counts, self._offsets
        rng = epoch_rng(epoch, 0) if mode != "false" else None
        files = rng.permutation(len(counts)) if mode in ("global", "files") else \
            np.arange(len(counts))
        file_ids, row_ids = stream_order([counts[f] for f in files], self._workers,
                                         *self._shards)
        ids = offsets[files[file_ids]] + row_ids
        if mode in ("global", "infile"):  # the rows of each file permuted
            ids = np.concatenate([o + rng.permutation(c) for o, c in zip(offsets, counts)])[ids]
        if mode == "global":
            ids = rng.permutation(ids)
        return ids[:self._size()]

    def _row(self, i):
        return self._data[i]


class TextFileDataset(_LineSource):
    """Mirrors `mindspore.dataset.TextFileDataset`: one row per non-empty line, column text.

    Lines are split at "\\n" only (a "\\r" stays in the text) and read as UTF-8. shuffle:
    False, True (= Shuffle.GLOBAL), Shuffle.FILES or Shuffle.INFILE; the random orders are
    cellgrad's (reproducible after `set_seed`), not MindSpore's.
    """

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 cache=None):
        super().__init__()
        self._workers = check_workers(num_parallel_workers) or config.get_num_parallel_workers()
        files = find_files(dataset_files)
        self._names = ["text"]
        self._setup(lambda: (files, [self._lines(path) for path in files]), num_samples,
                    shuffle, num_shards, shard_id)

    def _lines(self, path):
        text = read_text(path, type(self).__name__)
        return [line for line in text.split("\n") if line]

    def _row(self, i):
        return (np.array(self._data[i]),)


_INT = re.compile(r"\s*[+-]?\d+")
_FLOAT = re.compile(r"\s*[+-]?(?:nan|inf(?:inity)?|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)",
                    re.IGNORECASE)


def _parse(field, default, where):
    """A field as MindSpore's CSV reader types it: the leading number of an int or float
    column's text (as C's strtol/strtof), the text itself for a str column."""
    if isinstance(default, str):
        return np.array(field)
    match = (_INT if isinstance(default, int) else _FLOAT).match(field)
    if match is None:
        raise ValueError(f"{where}: {field!r} is not a valid {type(default).__name__} (the "
                         f"column's default is {default!r}).")
    if isinstance(default, int):
        value = int(match.group())
        if not -2**31 <= value < 2**31:
            raise ValueError(f"{where}: {field!r} is out of the int32 range.")
        return np.array(value, np.int32)
    return np.array(float(match.group()), np.float32)


class CSVDataset(_LineSource):
    """Mirrors `mindspore.dataset.CSVDataset`: one column per CSV field.

    Without `column_names` the first line of every file is its header (they must agree);
    without `column_defaults` every column is a string. A column whose default is an int
    (float) gives int32 (float32) values; an empty or non-numeric field there is an error.
    Shuffling is as `TextFileDataset`'s.
    """

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__()
        self._workers = check_workers(num_parallel_workers) or config.get_num_parallel_workers()
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError("field_delim is invalid.")
        check_type("column_defaults", column_defaults, (list,))
        check_type("column_names", column_names, (list,))
        defaults = list(column_defaults or [])
        if any(type(d) not in (int, float, str, bool) for d in defaults):
            raise TypeError("column type in column_defaults is invalid.")
        files = find_files(dataset_files)
        self._names = list(column_names) if column_names is not None else None
        self._setup(lambda: self._read_all(files, field_delim, defaults), num_samples, shuffle,
                    num_shards, shard_id)

    def _read_all(self, files, delim, defaults):
        owner, names = type(self).__name__, self._names
        rows_per_file = []
        for path in files:
            lines = self._read(path, delim, owner)
            if self._names is None:  # every file starts with the header
                header = lines.pop(0)[1] if lines else []
                if names is None:
                    names = header
                if header != names:
                    raise data_error(owner, f"the header {header} of {path} differs from the "
                                            f"header {names} of {files[0]}.")
            rows_per_file.append([self._typed(fields, names, defaults, path, line, owner)
                                  for line, fields in lines])
        if not names:
            raise data_error(owner, f"no column names: {files[0]} has no header line.")
        if len(set(names)) != len(names):
            raise data_error(owner, f"the column names {names} repeat a name.")
        if len(defaults) > len(names):
            raise data_error(owner, f"{len(defaults)} column_defaults given for "
                                    f"{len(names)} columns {names}.")
        self._names = names
        return files, rows_per_file

    @staticmethod
    def _read(path, delim, owner):
        """(line number, fields) of each non-blank record of a CSV file."""
        text = read_text(path, owner)
        reader = csv.reader(io.StringIO(text), delimiter=delim, quotechar='"', strict=True)
        records = []
        try:
            for fields in reader:
                if fields:
                    records.append((reader.line_num, fields))
        except csv.Error as err:
            raise data_error(owner, f"cannot parse the CSV file {path} at line "
                                    f"{reader.line_num}: {err}.") from err
        return records

    @staticmethod
    def _typed(fields, names, defaults, path, line, owner):
        if len(fields) != len(names):
            raise data_error(owner, f"line {line} of {path} has {len(fields)} fields, expected "
                                    f"{len(names)} (columns {names}).")
        where = f"line {line} of {path}"
        try:
            return tuple(_parse(f, defaults[k], where) if k < len(defaults) else np.array(f)
                         for k, f in enumerate(fields))
        except ValueError as err:
            raise data_error(owner, f"{err}") from err
