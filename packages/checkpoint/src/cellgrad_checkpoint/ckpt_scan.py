"""Pass one of reading a .ckpt body: find every record and its fields without reading data.

Every length is checked against the bytes that enclose it (and so against the file's real
size) before anything is read or allocated; a problem raises `WireError` at its offset.
Parses as protobuf does: fields in any order, packed or unpacked dims, unknown fields skipped,
a repeated `tensor` field merged into the first.
"""

from __future__ import annotations

from typing import List, Optional

from cellgrad_checkpoint import integrity, wire
from cellgrad_checkpoint.errors import WireError

_WINDOW = 1 << 16
_MAX_TYPE_LEN = 64
MAX_DIMS = 64  # numpy's limit on an array's dimensions (MindSpore's tensors allow 8)


class Record:
    """One `Checkpoint.value` record: where it is and what it declares."""

    __slots__ = ("index", "start", "end", "tag", "tensor_type", "dims", "data_start",
                 "data_len", "has_tensor", "maptensor")

    def __init__(self, index, start, end):
        self.index = index
        self.start = start
        self.end = end
        self.tag: Optional[str] = None
        self.tensor_type: Optional[str] = None
        self.dims: List[int] = []
        self.data_start = end
        self.data_len = 0
        self.has_tensor = False
        self.maptensor = False


class Window:
    """Reads of a source through a 64 KiB window: record headers cost one read per window."""

    def __init__(self, source):
        self.source = source
        self.start = 0
        self.buf = b""

    def get(self, pos: int, n: int) -> bytes:
        if not (self.start <= pos and pos + n <= self.start + len(self.buf)):
            self.buf = self.source.pread(pos, min(max(n, _WINDOW), self.source.size - pos))
            self.start = pos
            if len(self.buf) < n:
                raise WireError("the file ends early", pos + len(self.buf))
        return self.buf[pos - self.start:pos - self.start + n]

    def varint(self, pos: int, end: int):
        buf = self.get(pos, min(wire.MAX_VARINT_BYTES, end - pos))
        value, used = wire.decode_varint(buf, 0, len(buf), base=pos)
        return value, pos + used


class Scan:
    """The records of `[0, end)` and cellgrad's header, if the body starts with one."""

    def __init__(self, source, end: int):
        self.window = Window(source)
        self.end = end
        self.records: List[Record] = []
        self.header = None  # (total length, records) from cellgrad's header
        self.unknown_bytes = 0
        pos = 0
        while pos < end:
            pos = self._top_level_field(pos)

    def _top_level_field(self, pos):
        w = self.window
        key, p = w.varint(pos, self.end)
        field, wire_type = key >> 3, key & 7
        if wire_type != wire.LEN:
            if field in (1, integrity.HEADER_FIELD, integrity.FOOTER_FIELD):
                raise WireError(f"field {field} has wire type {wire_type}, expected 2", pos)
            return _skip(w, wire_type, p, self.end, pos)
        length, p = w.varint(p, self.end)
        stop = p + length
        if stop > self.end:
            error = WireError(f"the entry claims {length} bytes but only {self.end - p} remain: "
                              f"the file is truncated or damaged", pos)
            if field == 1:
                error.entry = self._name_of_cut_record(p) or f"#{len(self.records) + 1}"
            raise error
        if field == 1:
            record = Record(len(self.records), pos, stop)
            self.records.append(record)
            try:
                _value(w, record, p, stop)
            except WireError as e:
                e.entry = record.tag if record.tag is not None else f"#{record.index + 1}"
                raise
        elif field == integrity.HEADER_FIELD and pos == 0:
            self.header = integrity.parse_header(w.get(p, length))
            if self.header is None:
                raise WireError("cellgrad's header is damaged", pos)
        elif field == integrity.FOOTER_FIELD:
            raise WireError("cellgrad's footer is not at the end of the file", pos)
        else:
            self.unknown_bytes += stop - pos
        return stop


    def _name_of_cut_record(self, p):
        """The name of a record that runs past the end, if its tag comes first and is whole."""
        try:
            record = Record(0, p, self.end)
            _value(self.window, record, p, self.end)
        except WireError:
            pass
        return record.tag


def _skip(w, wire_type, p, end, at):
    if wire_type == wire.VARINT:
        return w.varint(p, end)[1]
    if wire_type == wire.LEN:
        length, p = w.varint(p, end)
        size = length
    elif wire_type == wire.I64:
        size = 8
    elif wire_type == wire.I32:
        size = 4
    else:
        raise WireError(f"invalid wire type {wire_type}", at)
    if p + size > end:
        raise WireError(f"a field claims {size} bytes but only {end - p} remain", at)
    return p + size


def _len_field(w, p, end, at):
    length, p = w.varint(p, end)
    if p + length > end:
        raise WireError(f"a field claims {length} bytes but only {end - p} remain", at)
    return p, p + length


def _value(w, record, pos, end):
    while pos < end:
        at = pos
        key, pos = w.varint(pos, end)
        field, wire_type = key >> 3, key & 7
        if field in (1, 2, 3) and wire_type != wire.LEN:
            raise WireError(f"field {field} of an entry has wire type {wire_type}, expected 2", at)
        if field == 1:
            start, pos = _len_field(w, pos, end, at)
            try:
                record.tag = w.get(start, pos - start).decode("utf-8")
            except UnicodeDecodeError:
                raise WireError("the entry's name is not valid UTF-8", start) from None
        elif field == 2:
            start, pos = _len_field(w, pos, end, at)
            record.has_tensor = True
            _tensor(w, record, start, pos)
        elif field == 3:
            pos = _len_field(w, pos, end, at)[1]
            record.maptensor = True
        else:
            pos = _skip(w, wire_type, pos, end, at)


def _tensor(w, record, pos, end):
    while pos < end:
        at = pos
        key, pos = w.varint(pos, end)
        field, wire_type = key >> 3, key & 7
        if field == 1 and wire_type == wire.VARINT:
            dim, pos = w.varint(pos, end)
            _add_dim(record, dim, at)
        elif field == 1 and wire_type == wire.LEN:  # packed dims
            start, pos = _len_field(w, pos, end, at)
            while start < pos:
                dim, start = w.varint(start, pos)
                _add_dim(record, dim, at)
        elif field in (2, 3) and wire_type != wire.LEN:
            raise WireError(f"field {field} of a tensor has wire type {wire_type}, expected 2", at)
        elif field == 2:
            start, pos = _len_field(w, pos, end, at)
            if pos - start > _MAX_TYPE_LEN:
                raise WireError(f"the tensor_type is {pos - start} bytes long", at)
            record.tensor_type = w.get(start, pos - start).decode("latin-1")
        elif field == 3:
            start, pos = _len_field(w, pos, end, at)
            record.data_start, record.data_len = start, pos - start
        else:
            pos = _skip(w, wire_type, pos, end, at)


def _add_dim(record, dim, at):
    if len(record.dims) == MAX_DIMS:
        raise WireError(f"the tensor has more than {MAX_DIMS} dimensions, more than an array "
                        f"can have", at)
    record.dims.append(wire.as_int64(dim))
