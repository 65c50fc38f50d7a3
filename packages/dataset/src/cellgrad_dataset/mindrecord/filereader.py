"""Mirrors `mindspore.mindrecord.FileReader`."""

import math
import os

from cellgrad import log as logger
from cellgrad_dataset.mindrecord._shards import ShardSet
from cellgrad_dataset.mindrecord.exceptions import ParamTypeError, ParamValueError
from cellgrad_dataset.mindrecord.filewriter import check_filename

__all__ = ["FileReader"]

_INT64_MIN = -(1 << 63)


def python_value(value):
    """A scalar field as MindSpore's FileReader returns it: its JSON bridge turns a whole float
    into an int (and one beyond int64, or infinite, into int64's minimum, as the C++ cast does)."""
    if not isinstance(value, float) or value != value:
        return value
    if math.isinf(value):
        return _INT64_MIN
    if value != math.floor(value):
        return value
    return int(value) if _INT64_MIN <= value < -_INT64_MIN else _INT64_MIN


def check_reader_args(file_name, num_consumer):
    """MindSpore's checks of a reader's files and `num_consumer` (FileReader, MindPage)."""
    for name in file_name if isinstance(file_name, list) else [file_name]:
        check_filename(name)
    # MindSpore caps it at the core count but never checks its default (4)
    max_consumer = max(os.cpu_count() or 1, 4)
    if num_consumer is None:
        raise ParamValueError("Parameter num_consumer is None.")
    if not isinstance(num_consumer, int):
        raise ParamValueError("Parameter num_consumer is not int.")
    if not 1 <= num_consumer <= max_consumer:
        raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between 1 and "
                              f"{max_consumer}.")


class FileReader:
    """Mirrors `mindspore.mindrecord.FileReader`: reads the rows of MindRecord files as dicts.

    `file_name` is one file of a set (all its shards are read) or a list of files (only those).
    `num_consumer` is checked as MindSpore does; rows are read in the calling thread.
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        check_reader_args(file_name, num_consumer)
        if operator is not None:
            logger.warning("The parameter 'operator' will be deprecated in a future version.")
        if columns and not isinstance(columns, list):
            raise ParamTypeError("columns", "list")
        self._columns = columns or None
        self._closed = False
        self._shards = ShardSet(file_name)
        schema = self._shards.schema
        for column in self._columns or []:
            if column not in schema:
                raise RuntimeError(f"Invalid data, column name: {column} can not found in "
                                   f"schema. Please check the 'column_list'.")
        self._wanted = self._columns or list(schema)

    def get_next(self):
        """Yields each row as a dict: its scalar fields (sorted by name), then its blob fields
        (bytes as bytes, arrays as numpy arrays)."""
        schema, wanted = self._shards.schema, set(self._wanted)
        blob_order = [c for c in (self._columns or self._shards.blob_fields)
                      if c in self._shards.blob_fields]
        for i in range(len(self._shards)):
            raw, blobs = self._shards.row(i, wanted)
            row = {k: python_value(v) for k, v in raw.items() if k in schema and k in wanted}
            for field in blob_order:
                row[field] = blobs[field]
            yield row

    def close(self):
        """Closes the files."""
        if not self._closed:
            self._shards.close()
            self._closed = True

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finalizer
            pass

    def schema(self):
        """The schema of the MindRecord files (field -> {"type", optional "shape"})."""
        return self._shards.schema

    def len(self):
        """The number of rows in the MindRecord files."""
        return len(self._shards)
