"""A loaded set of MindRecord shard files: headers, row locations and row decoding, shared by
`FileReader` and `MindDataset`."""

import os
import struct

import numpy as np

from cellgrad_dataset.mindrecord import _format, _index, _msgpack

_LEN = struct.Struct("<Q")


class ShardSet:
    """The rows of MindRecord files, in MindSpore's order (shard by shard, then by row id).

    `file_name` is one file of a set written together (every shard listed in its header is
    loaded) or a list of files (only those). Files are opened on first read in each process.
    """

    def __init__(self, file_name, missing=RuntimeError):
        if isinstance(file_name, (list, tuple)):
            paths = [os.fspath(p) for p in file_name]
            for p in paths:
                _check_exists(p, missing)
        else:
            path = os.fspath(file_name)
            _check_exists(path, missing)
            folder = os.path.dirname(path)
            paths = [os.path.join(folder, a) for a in _format.read_header(path)["shard_addresses"]]
            for p in paths:
                _check_exists(p, missing)
        if not paths:
            raise RuntimeError("The input MindRecord file list is empty.")
        self.paths = paths
        self.headers = [_format.read_header(p) for p in paths]
        first = self.headers[0]
        for p, h in zip(paths, self.headers):
            if h["schema"] != first["schema"]:
                raise RuntimeError(f"Invalid file, the schema of {p} differs from the schema "
                                   f"of {paths[0]}; files read together must come from one "
                                   f"dataset.")
        self.schema = first["schema"]
        self._layout = _format.BlobLayout(self.schema)
        self.blob_fields = self._layout.fields
        tables = []
        for k, (p, h) in enumerate(zip(paths, self.headers)):
            locations = _index.read_locations(p + ".db")
            _check_locations(p, h, locations)
            tables.append(np.column_stack([np.full(len(locations), k, np.int64), locations]))
        self.rows = np.concatenate(tables) if tables else np.zeros((0, 8), np.int64)
        self._locations = [tuple(r) for r in self.rows.tolist()]
        self._geometry = [(h["header_size"], h["page_size"]) for h in self.headers]
        self._fds = {}

    def __len__(self):
        return len(self.rows)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_fds"] = {}
        return state

    def close(self):
        for fd in self._fds.values():
            os.close(fd)
        self._fds = {}

    def _read(self, shard, page, start, end):
        fd = self._fds.get((os.getpid(), shard))
        if fd is None:
            fd = self._fds[(os.getpid(), shard)] = os.open(self.paths[shard], os.O_RDONLY)
        header_size, page_size = self._geometry[shard]
        offset = header_size + page * page_size + start
        data = os.pread(fd, end - start, offset)
        if len(data) != end - start:
            raise RuntimeError(f"Invalid file, MindRecord file {self.paths[shard]} is truncated: "
                               f"a row at byte {offset} needs {end - start} bytes.")
        return data

    def row(self, i, wanted):
        """(raw fields dict, {blob field: value} for the blob fields in `wanted`) of row `i`."""
        shard, raw_page, raw_start, raw_end, _, blob_page, blob_start, blob_end = \
            self._locations[i]
        try:
            raw = self._read(shard, raw_page, raw_start, raw_end)
            if _LEN.unpack_from(raw)[0] != len(raw) - 8:
                raise ValueError("the raw row length does not match the index")
            fields = _msgpack.unpack(raw[8:])
            if not isinstance(fields, dict):
                raise ValueError("the raw row is not a map")
            blobs = {}
            if self.blob_fields and not wanted.isdisjoint(self.blob_fields):
                blob = self._read(shard, blob_page, blob_start, blob_end)
                if _LEN.unpack_from(blob)[0] != len(blob) - 8:
                    raise ValueError("the blob row length does not match the index")
                blobs = self._layout.split(memoryview(blob)[8:], wanted)
        except (ValueError, struct.error) as e:
            raise RuntimeError(f"Invalid file, failed to read row {i} of MindRecord file "
                               f"{self.paths[shard]}: {e}.") from None
        return fields, blobs


def _check_exists(path, missing):
    if not os.path.isfile(path):
        if missing is ValueError:
            raise ValueError(f"The file {os.path.abspath(path)} does not exist or permission "
                             f"denied!")
        raise RuntimeError(f"The input: {path} is not exists.")


def _check_locations(path, header, locations):
    """Every row's bytes must lie inside the file (a truncated file fails here, not mid-epoch)."""
    if not len(locations):
        return
    size = os.path.getsize(path)
    hs, ps = header["header_size"], header["page_size"]
    raw_end = hs + locations[:, 0] * ps + locations[:, 2]
    blob_end = hs + locations[:, 4] * ps + locations[:, 6]
    bad = (locations[:, 2] - locations[:, 1] < 8) | (locations[:, 6] - locations[:, 5] < 8)
    if bad.any() or max(raw_end.max(), blob_end.max()) > size:
        raise RuntimeError(f"Invalid file, MindRecord file {path} is truncated or does not "
                           f"match its index {path}.db: its rows need "
                           f"{max(raw_end.max(), blob_end.max())} bytes but it has {size}.")
