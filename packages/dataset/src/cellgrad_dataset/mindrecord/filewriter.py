"""Mirrors `mindspore.mindrecord.FileWriter`."""

import os
import re
import stat
import tempfile
import weakref

import numpy as np

from cellgrad import log as logger
from cellgrad_dataset.mindrecord import _format, _index, _msgpack
from cellgrad_dataset.mindrecord._pages import ShardPages
from cellgrad_dataset.mindrecord.exceptions import (
    MRMDefineIndexError,
    MRMGetMetaError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)

__all__ = ["FileWriter"]

# Python type name of a value -> the schema types it may be written to (as MindSpore; its check
# is `schema_type in allowed`, a substring test where `allowed` is a str).
VALUE_TYPE_MAP = {"int": ["int32", "int64"], "float": ["float32", "float64"], "str": "string",
                  "bytes": "bytes", "int32": "int32", "int64": "int64", "float32": "float32",
                  "float64": "float64", "ndarray": ["int32", "int64", "float32", "float64"]}
_INT_RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}
_FORBIDDEN = set('\\/:*?"<>|`&\';')


def check_filename(path, arg_name=""):
    """MindSpore's file name check (ParamValueError)."""
    arg_name = "File path" if not arg_name else f"'{arg_name}'"
    if not path:
        raise ParamValueError(f"{arg_name} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    name = os.path.basename(path)
    if set(name) & _FORBIDDEN:
        raise ParamValueError(r"File name should not contains \/:*?\"<>|`&;\'")
    if name.startswith(" ") or name.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")
    return True


class FileWriter:
    """Mirrors `mindspore.mindrecord.FileWriter`: writes rows (dicts) to MindRecord files that
    MindSpore reads, `shard_num` files named `file_name` + shard number when more than one.

    Files are written under temporary names and renamed into place by `commit`, so a failed or
    missing commit leaves no file that looks valid (existing files are kept until then).
    """

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_filename(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not _format.MIN_SHARD_COUNT <= shard_num <= _format.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{_format.MIN_SHARD_COUNT} and {_format.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._file_name = file_name
        width = len(str(shard_num - 1))
        self._paths = [file_name] if shard_num == 1 else \
            [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)]
        self._overwrite = overwrite
        self._append = False
        self._flushed = False
        self._parallel_writer = None
        self._schema = None
        self._desc = ""
        self._index_fields = None
        self._header_size = _format.DEFAULT_HEADER_SIZE
        self._page_size = _format.DEFAULT_PAGE_SIZE
        self._compression_size = 0
        self._shards = None  # ShardPages per path once the files are open
        self._fds = []  # open file descriptors (closed by commit or when the writer dies)
        self._temps = []  # temporary files not yet renamed into place
        self._calls = 0
        self._cleanup = None

    @classmethod
    def open_for_append(cls, file_name):
        """Opens the MindRecord file `file_name` (a single-shard set) to append rows to it."""
        check_filename(file_name)
        if not os.path.isfile(file_name):
            raise RuntimeError(f"The input: {file_name} is not exists.")
        if not os.path.isfile(file_name + ".db"):
            raise RuntimeError(f"The input: {file_name}.db is not exists.")
        header = _format.read_header(file_name)
        if len(header["shard_addresses"]) != 1:
            raise RuntimeError(f"Invalid file, {file_name} is one of "
                               f"{len(header['shard_addresses'])} shard files; MindRecord can "
                               f"only append to a set of one file.")
        writer = cls(file_name)
        writer._append = True
        writer._schema = header["schema"]
        writer._desc = header["desc"]
        writer._index_fields = header["index_fields"]
        writer._header_size, writer._page_size = header["header_size"], header["page_size"]
        writer._compression_size = header["compression_size"]
        fd = os.open(file_name, os.O_RDWR)
        writer._shards = [ShardPages(fd, header["header_size"], header["page_size"],
                                     header["pages"])]
        writer._fds = [fd]
        writer._cleanup = weakref.finalize(writer, _close_all, writer._fds, writer._temps)
        return writer

    def add_schema(self, content, desc=None):
        """Sets the schema: field name -> {"type": int32|int64|float32|float64|string|bytes}
        or, for arrays, {"type": int32|int64|float32|float64, "shape": [...]}."""
        error = _schema_error(content)
        if error:
            raise MRMInvalidSchemaError(error)
        if self._shards is not None or self._append:
            raise RuntimeError("Invalid data, the schema of MindRecord files can only be added "
                               "before writing rows.")
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc if desc else ""

    def add_index(self, index_fields):
        """Selects the scalar fields indexed in the `.db` files (default: every scalar field)."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._schema is None:
            raise MRMGetMetaError
        blobs = _format.blob_fields(self._schema)
        for field in index_fields:
            if field in blobs:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not "
                                          f"primitive type.")
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
            if field not in self._schema:
                raise RuntimeError(f"Invalid input, 'index_fields': {field} can not found in "
                                   f"schema: {_format.schema_text(self._schema)}. Please use "
                                   f"'add_index' function with fields of the schema.")
        if self._shards is not None:
            raise RuntimeError("Invalid data, index fields of MindRecord files can only be "
                               "added before writing rows.")
        self._index_fields = list(dict.fromkeys(index_fields))

    def set_header_size(self, header_size):
        """Sets the size of each file's header area (16 KB to 128 MB, a multiple of 4)."""
        self._check_size("header", header_size, _format.MIN_HEADER_SIZE,
                         _format.MAX_HEADER_SIZE)
        self._header_size = header_size

    def set_page_size(self, page_size):
        """Sets the size of a page (32 KB to 256 MB, a multiple of 4); a row must fit in one."""
        self._check_size("page", page_size, _format.MIN_PAGE_SIZE, _format.MAX_PAGE_SIZE)
        self._page_size = page_size

    def _check_size(self, what, size, low, high):
        if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
            raise RuntimeError(f"Invalid data, {what} size: {size} should be in range [{low} "
                               f"bytes, {high} bytes].")
        if size % 4:
            raise RuntimeError(f"Invalid data, {what} size: {size} should be divided by four.")
        if self._shards is not None:
            raise RuntimeError(f"Invalid data, the {what} size of MindRecord files can only be "
                               f"set before writing rows.")

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Writes rows (a list of dicts) after checking them against the schema; a row that does
        not match it is skipped with a warning naming it (as MindSpore).

        Rows are spread evenly over the shards; with `parallel_writer=True` each call's rows go
        to one shard in turn and every shard file is a set of its own (as MindSpore's parallel
        writer processes make them; here they are written in this process)."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel_writer is None:
            self._parallel_writer = parallel_writer
        if self._parallel_writer != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        self._open()
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        if self._flushed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord "
                               "files.When creating new MindRecord files, please remove "
                               "`commit` before `write_raw_data`. In other cases, when "
                               "appending to existing MindRecord files, please call "
                               "`open_for_append` first and then `write_raw_data`.")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        rows = []
        for i, row in enumerate(raw_data):
            error = _row_error(self._schema, row, i)
            if error:
                logger.warning(f"For 'FileWriter' of {self._file_name}: {error} The row is "
                               f"not written.")
            else:
                rows.append(row)
        if not rows:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' "
                               "to mindrecord file. Please check the abnormal input data "
                               "indicated in the warning log above.")
        raws, blobs = self._encode(rows)
        n = len(self._shards)
        if parallel_writer:  # MindSpore's parallel writers take whole calls in turn
            parts = [(0, 0)] * n
            parts[self._calls % n] = (0, len(rows))
        else:
            per, extra = divmod(len(rows), n)
            sizes = [per + ((k - self._calls) % n < extra) for k in range(n)]
            starts = np.cumsum([0] + sizes)
            parts = [(int(starts[k]), int(starts[k + 1])) for k in range(n)]
        for shard, (start, end) in zip(self._shards, parts):
            shard.add(raws[start:end], blobs[start:end])
        self._calls += 1

    def _encode(self, rows):
        schema = self._schema
        blob_names = _format.blob_fields(schema)
        raw_names = [k for k in sorted(schema) if k not in blob_names]
        compress = _format.compresses(schema)
        raws, blobs = [], []
        for row in rows:
            raw = {k: row[k].item() if isinstance(row[k], np.generic) else row[k]
                   for k in raw_names}
            raws.append(_msgpack.pack(raw or _format.DUMMY_RAW))
            if blob_names:
                parts = [_format.field_bytes(row[k], schema[k]) for k in blob_names]
                blob, saved = _format.merge_blob(parts, schema, compress)
                self._compression_size += saved
            else:
                blob = _format.DUMMY_BLOB
            blobs.append(blob)
        return raws, blobs

    def _open(self):
        """Checks the schema and target files and opens the temporary files (once)."""
        if self._shards is not None:
            return
        if self._schema is None:
            raise RuntimeError("Invalid data, schema is not found in header, please use "
                               "'add_schema' to add a schema for new mindrecord files.")
        self._check_targets()
        if self._index_fields is None:
            self._index_fields = [k for k in sorted(self._schema)
                                  if k not in _format.blob_fields(self._schema)]
        if self._parallel_writer:  # MindSpore's parallel writers ignore the set sizes
            self._header_size = _format.DEFAULT_HEADER_SIZE
            self._page_size = _format.DEFAULT_PAGE_SIZE
        self._cleanup = weakref.finalize(self, _close_all, self._fds, self._temps)
        for path in self._paths:
            fd, work = _temporary(path)
            self._fds.append(fd)
            self._temps.append(work)
        self._shards = [ShardPages(fd, self._header_size, self._page_size) for fd in self._fds]

    def _check_targets(self):
        """The target folders exist and, unless overwriting, the files do not."""
        for path in self._paths:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise RuntimeError(f"Invalid file, the folder of MindRecord file {path} does "
                                   f"not exist.")
            if not self._overwrite and (os.path.exists(path) or os.path.exists(path + ".db")):
                raise RuntimeError(f"Invalid file, mindrecord files already exist. Please "
                                   f"check file path: {os.path.abspath(path)}.\nIf you do not "
                                   f"want to keep the files, set the 'overwrite' parameter to "
                                   f"True and try again.")

    def _discard(self):
        """Removes the temporary files of a writer that will not be committed."""
        if self._cleanup is not None:
            self._cleanup()

    def commit(self):
        """Writes the headers and `.db` index files and puts the files in place."""
        if self._flushed and not self._append:
            raise RuntimeError(f"Invalid data, MindRecord files {self._paths} were already "
                               f"committed.")
        self._open()
        try:
            self._finish()
        except BaseException:
            self._cleanup()
            raise
        self._flushed = True

    def _finish(self):
        names = [os.path.basename(p) for p in self._paths]
        header = {"header_size": self._header_size, "page_size": self._page_size,
                  "compression_size": max(self._compression_size, 0),
                  "index_fields": self._index_fields, "desc": self._desc,
                  "schema": self._schema, "shard_addresses": names}
        if self._parallel_writer:  # MindSpore's parallel writers each make a set of one file
            heads = [_format.header_json(dict(header, shard_addresses=[name]), 0, shard.pages)
                     for name, shard in zip(names, self._shards)]
        else:
            heads = [_format.header_json(header, k, shard.pages)
                     for k, shard in enumerate(self._shards)]
        for path, shard in zip(self._paths, self._shards):
            fd, db = _temporary(path + ".db")
            os.close(fd)
            self._temps.append(db)
            _index.write_index(db, os.path.basename(path), self._schema, self._index_fields,
                               shard.index_rows(self._index_fields))
        for head, shard in zip(heads, self._shards):
            if not shard.pages:  # a file without rows is its bare header, as MindSpore's
                os.ftruncate(shard.fd, 0)
            os.pwrite(shard.fd, head, 0)
            os.fsync(shard.fd)
        while self._fds:
            os.close(self._fds.pop())
        # in place: data files first, their indexes last (an old index must not outlive the
        # data file it describes, and a data file without an index does not read as valid)
        for path in self._paths:
            if os.path.exists(path + ".db"):
                os.remove(path + ".db")
        final = ([] if self._append else self._paths) + [p + ".db" for p in self._paths]
        for temp, path in zip(list(self._temps), final):
            os.chmod(temp, stat.S_IRUSR | stat.S_IWUSR)
            os.replace(temp, path)
            self._temps.remove(temp)
        self._cleanup.detach()
        logger.info(f"The list of mindrecord files created are: {list(self._paths)}, and the "
                    f"list of index files are: {[p + '.db' for p in self._paths]}")


def _temporary(path):
    """A new temporary file next to `path` (file descriptor, name)."""
    return tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".writing",
                            dir=os.path.dirname(os.path.abspath(path)))


def _close_all(fds, paths):
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
    for path in paths:
        try:
            os.remove(path)
        except OSError:
            pass


def _schema_error(content):
    """MindSpore's schema check: the error message, or '' when `content` is valid."""
    if not content:
        return "Schema content is empty."
    if not isinstance(content, dict):
        return "Schema content should be dict."
    for k, v in content.items():
        if not isinstance(k, str) or not re.match(r"^[0-9a-zA-Z\_]+$", k):
            return f"Field '{k}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
        if not v or not isinstance(v, dict):
            return f"Field '{k}' should be dict."
        if len(v) == 1 and "type" in v:
            if v["type"] not in _format.SCALAR_TYPES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
        elif len(v) == 2 and "type" in v:
            if v["type"] not in _format.ARRAY_TYPES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
            if "shape" not in v:
                return f"Field '{v}' contains illegal attributes."
            if not isinstance(v["shape"], list):
                return f"Field '{k}' contain illegal attribute '{v['shape']}'."
        else:
            return f"Field '{v}' contains illegal attributes."
    return ""


def _row_error(schema, row, i):
    """Why row `i` does not match the schema (MindSpore's messages), or '' when it does."""
    for field, spec in schema.items():
        if field not in row:
            return f"for schema, {i} th data is wrong, there is not field: '{field}' in the " \
                   f"raw data."
        value = row[field]
        kind = type(value).__name__
        if kind not in VALUE_TYPE_MAP:
            return f"for schema, {i} th data is wrong, data type: '{kind}' for field: " \
                   f"'{field}' is not matched."
        if spec["type"] not in VALUE_TYPE_MAP[kind]:
            return f"for schema, {i} th data is wrong, data type: '{spec['type']}' for " \
                   f"field: '{field}' is not matched."
        if kind == "ndarray":
            if "shape" not in spec:
                return f"for schema, {i} th data is wrong, data shape for field: '{field}' " \
                       f"is not specified."
            if spec["type"] != str(value.dtype):
                return f"for schema, {i} th data is wrong, data type: '{value.dtype}' for " \
                       f"field: '{field}' is not matched."
            try:
                np.reshape(value, spec["shape"])
            except ValueError:
                return f"for schema, {i} th data is wrong, data shape: '{value.shape}' for " \
                       f"field: '{field}' is not matched."
        elif "shape" in spec:
            return f"for schema, {i} th data is wrong, data type: '{kind}' for field: " \
                   f"'{field}' is not matched."
        elif spec["type"] in _INT_RANGES:
            low, high = _INT_RANGES[spec["type"]]
            if not low <= int(value) <= high:  # MindSpore lets these through unreadable
                return f"field: {field} type : {spec['type']} value: {value} is out of range"
    return ""
