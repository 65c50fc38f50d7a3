"""`format='safetensors'`: files laid out as the safetensors package writes them (MindSpore 2.10).

Names sorted, `__metadata__ = {"format": "ms"}` (plus `crc_num` with `crc_check`, a CRC-32
chained over the sorted names and `bytes(array)` — for a 0-d integer that is *value* zero
bytes, MindSpore's quirk, reproduced). The package itself decides the tensors' order (asked
with empty stand-ins); the bytes are written by cellgrad through `atomic.atomic_write`, so a
killed save leaves only cellgrad's own temporary file, which the next save removes (the
package's `serialize_file` leaves `.tmpXXXXXX` files nothing removes).

With `marks`, cellgrad adds two metadata keys: `cellgrad.xxh3`, each tensor's hash
(`integrity.DataHash`), and `cellgrad.mark`, the XXH3-64 of the whole header (its 8-byte
length and JSON, this mark's value counted as 16 zeros). A file with either key (or a key a
few bytes away from one) claims to be cellgrad's: it must carry a valid mark, or it is
damaged. Files with neither (written by another tool) load unchecked. Legacy: files with
only `cellgrad.sum64` (written before XXH3) are verified with `integrity.Sum64`.

Loading checks the header with the safetensors package, then reads each tensor straight
into its final array at the header's offsets, hashing each 4 MiB piece as it arrives
(safetensors' numpy loader copies twice and has no bfloat16).
"""

from __future__ import annotations

import io
import json
import struct
from typing import Callable, Dict, List, Optional

import numpy as np

from cellgrad_checkpoint import integrity
from cellgrad_checkpoint.dtypes import (
    FILE_DTYPES,
    FROM_SAFETENSORS,
    SAFETENSORS_CODES,
    SPEC_NAMES,
    STR,
)
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.errors import CheckpointError, WireError, warn
from cellgrad_checkpoint.sources import FileSource, MemorySource, check_regular

HASHES_KEY = "cellgrad.xxh3"
MARK_KEY = "cellgrad.mark"
LEGACY_SUMS_KEY = "cellgrad.sum64"  # legacy: Sum64 checksums, no mark
_PLACEHOLDER = "0" * 16
_MAX_HEADER = 100 * 1024 * 1024  # the safetensors package's own limit
_INTEGER = {"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"}
_MAX_DIMS = 64  # numpy's limit on an array's dimensions


def write_safetensors(sink, entries: List[Entry], *, crc: bool, marks: bool) -> None:
    """Write the entries to `sink` (anything with `write`) as a safetensors file."""
    metadata, crc_num, hashes = {"format": "ms"}, 0, {}
    entries = sorted(entries, key=lambda e: e.name)
    for entry in entries:
        if entry.tensor_type == STR:
            raise TypeError(f"For 'save_checkpoint', format='safetensors' cannot hold the str "
                            f"value of '{entry.name}' (safetensors stores only tensors).")
        if crc:
            crc_num = integrity.crc32(entry.name.encode("utf-8"), crc_num)
            crc_num = _crc_value(entry, crc_num)
        if marks:
            hashes[entry.name] = format(integrity.data_hash(_flat(entry)), "016x")
    if crc:
        metadata["crc_num"] = str(crc_num)
    if marks:
        metadata[HASHES_KEY] = json.dumps(hashes, separators=(",", ":"))
        metadata[MARK_KEY] = _PLACEHOLDER
    ordered = _package_order(entries)
    header, offset = {"__metadata__": metadata} if entries else {}, 0
    for entry in ordered:
        size = entry.data.nbytes
        header[entry.name] = {"dtype": SAFETENSORS_CODES[entry.tensor_type],
                              "shape": list(entry.shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    head = struct.pack("<Q", len(text)) + text
    if marks:
        head = _with_mark(head, integrity.xxh3(head))
    sink.write(head)
    for entry in ordered:
        flat = memoryview(_flat(entry))
        for start in range(0, len(flat), integrity.PIECE):
            sink.write(flat[start:start + integrity.PIECE])


def _flat(entry):
    return entry.data.reshape(-1).view(np.uint8)


def _package_order(entries):
    """The entries in the order the safetensors package lays them out (by dtype, then name),
    found by serializing empty stand-ins of the same names and dtypes."""
    import safetensors

    if not entries:
        return []
    anchor = np.zeros(1, np.uint8)
    specs = {e.name: safetensors.TensorSpec(dtype=SPEC_NAMES[e.tensor_type], shape=[0],
                                            data_ptr=anchor.ctypes.data, data_len=0)
             for e in entries}
    raw = safetensors.serialize(specs)
    (length,) = struct.unpack("<Q", raw[:8])
    by_name = {e.name: e for e in entries}
    return [by_name[name] for name in json.loads(raw[8:8 + length]) if name != "__metadata__"]


def _mark_field(value: str) -> bytes:
    return json.dumps({MARK_KEY: value}, separators=(",", ":")).encode()[1:-1]


def _with_mark(head: bytes, mark: int) -> bytes:
    return head.replace(_mark_field(_PLACEHOLDER), _mark_field(format(mark, "016x")), 1)


def _crc_value(entry, crc_num):
    """CRC-32 of `bytes(array)` as MindSpore computes it, without its zero-bytes allocation."""
    arr = entry.data
    if arr.ndim or entry.tensor_type not in _INTEGER:
        return integrity.crc32(arr.reshape(-1).view(np.uint8), crc_num)
    count = int(arr)
    if count < 0:
        raise ValueError(f"For 'save_checkpoint', crc_check=True with format='safetensors' "
                         f"cannot cover '{entry.name}' = {count}: MindSpore computes this CRC "
                         f"from bytes(array), which fails for a negative 0-d integer.")
    return integrity.crc32_zeros(count, crc_num)


def read_safetensors(source_obj, name: str, *, crc_check: bool,
                     select: Optional[Callable[[str], bool]] = None) -> Dict[str, Entry]:
    """The tensors of a safetensors file (a path or a BytesIO) by sorted name."""
    if isinstance(source_obj, io.BytesIO):
        return _read(MemorySource(source_obj.getvalue()), name, crc_check, select)
    check_regular(source_obj)
    with open(source_obj, "rb", buffering=0) as f:
        return _read(FileSource(f), name, crc_check, select)


def _read(source, name, crc_check, select):
    try:
        _validate(source, name)
        header, base = _header(source, name)
        return _Reader(source, name, header, base).read(crc_check, select)
    except WireError as e:
        raise CheckpointError(name, e.problem, offset=e.offset, entry=e.entry) from None


def _validate(source, name):
    import safetensors

    try:
        if isinstance(source, MemorySource):
            safetensors.deserialize(bytes(source.data))
        else:
            with safetensors.safe_open(name, framework="np"):
                pass
    except Exception as e:  # SafetensorError, or OSError/ValueError for a header it rejects
        raise CheckpointError(name, f"not a valid safetensors file ({e})", offset=0) from None


def _header(source, name):
    if source.size < 8:
        raise WireError("the file is shorter than a safetensors header", 0)
    (length,) = struct.unpack("<Q", source.pread(0, 8))
    if length > min(_MAX_HEADER, source.size - 8):
        raise WireError(f"the header claims {length} bytes", 0)
    raw = source.pread(0, 8 + length)
    try:
        header = json.loads(raw[8:].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WireError("the header is not valid JSON", 8) from None
    if not isinstance(header, dict):
        raise WireError("the header is not a JSON object", 8)
    return (header, raw), 8 + length


def _resembles_ours(key) -> bool:
    """Whether a metadata key is one of cellgrad's, or one with up to 2 bytes changed."""
    for ours in (HASHES_KEY, MARK_KEY):
        if isinstance(key, str) and len(key) == len(ours) and \
                sum(a != b for a, b in zip(key, ours)) <= 2:
            return True
    return False


class _Reader:
    def __init__(self, source, name, header_and_raw, base):
        header, raw = header_and_raw
        self.source, self.name, self.base = source, name, base
        self.metadata = header.pop("__metadata__", None) or {}
        if not isinstance(self.metadata, dict):
            raise self.fail("the header's __metadata__ is malformed", 8)
        self.header = header
        self.sums, self.scheme = None, integrity.XXH3
        if any(_resembles_ours(key) for key in self.metadata):
            self._check_mark(raw)
            self.sums = self._hashes(HASHES_KEY)
        elif LEGACY_SUMS_KEY in self.metadata:  # legacy: Sum64 checksums, header unchecked
            self.sums, self.scheme = self._hashes(LEGACY_SUMS_KEY), integrity.LEGACY_SUM64

    def fail(self, problem, offset=None, entry=None):
        return CheckpointError(self.name, problem, offset=offset, entry=entry)

    def _check_mark(self, raw):
        """The header's hash against the mark; any problem means a damaged file."""
        mark = self.metadata.get(MARK_KEY)
        problem = None
        if HASHES_KEY not in self.metadata or not isinstance(mark, str) or len(mark) != 16:
            problem = "its mark or hashes are missing or malformed"
        else:
            field = _mark_field(mark)
            if raw.count(field) != 1:
                problem = "its mark is not where cellgrad writes it"
            else:
                try:
                    want = int(mark, 16)
                except ValueError:
                    want = None
                got = integrity.xxh3(raw.replace(field, _mark_field(_PLACEHOLDER)))
                if got != want:
                    problem = "the header does not match its mark"
        if problem is not None:
            raise self.fail(f"the header says the file was written by cellgrad, but {problem}: "
                            f"the file is damaged", 0)

    def _hashes(self, key):
        try:
            hashes = {k: int(v, 16) for k, v in json.loads(self.metadata[key]).items()}
        except (ValueError, TypeError, AttributeError):
            raise self.fail("cellgrad's checksums in the metadata are damaged", 8) from None
        if set(hashes) != set(self.header):
            raise self.fail("cellgrad's checksums in the metadata do not name the file's "
                            "tensors", 8)
        return hashes

    def read(self, crc_check, select):
        entries, crc_num = {}, 0
        for key in sorted(self.header):
            chosen = select is None or select(key)
            if not (chosen or crc_check):
                continue
            entry = self._entry(key)
            if crc_check:
                crc_num = integrity.crc32(key.encode("utf-8"), crc_num)
                crc_num = _crc_value(entry, crc_num)
            if chosen:
                entries[key] = entry
        if crc_check:
            self._check_crc(crc_num)
        return entries

    def _entry(self, key):
        info = self.header[key]
        if not isinstance(info, dict) or not _ints(info.get("shape")) or \
                not _ints(info.get("data_offsets")) or len(info["data_offsets"]) != 2:
            raise self.fail("the header's record is malformed", 8, key)
        tensor_type = FROM_SAFETENSORS.get(info.get("dtype"))
        if tensor_type is None:
            raise self.fail(f"dtype {info.get('dtype')!r} is not supported", entry=key)
        shape, (begin, end) = tuple(info["shape"]), info["data_offsets"]
        if len(shape) > _MAX_DIMS:
            raise self.fail(f"the shape has {len(shape)} dimensions, more than the {_MAX_DIMS} "
                            f"an array can have", 8, key)
        need = FILE_DTYPES[tensor_type].itemsize * int(np.prod(shape, dtype=object))
        if not 0 <= begin <= end <= self.source.size - self.base or end - begin != need:
            raise self.fail(f"offsets {begin}..{end} do not fit shape {shape} of "
                            f"{info['dtype']} in the file", self.base + begin, key)
        data = np.empty(end - begin, np.uint8)
        data_hash = self.scheme.stream()
        for start in range(0, data.size, integrity.PIECE):
            piece = data[start:start + integrity.PIECE]
            self.source.readinto(self.base + begin + start, piece)
            data_hash.update(piece)  # while the piece is in cache
        if self.sums is not None and self.sums.get(key) != data_hash.digest():
            raise self.fail("the tensor does not match its checksum in the metadata: the "
                            "file is corrupted", self.base + begin, key)
        try:
            array = data.view(FILE_DTYPES[tensor_type]).reshape(shape)
        except ValueError as e:  # a shape numpy cannot represent, e.g. (0, 2**62)
            raise self.fail(f"shape {shape} cannot be an array ({e})", 8, key) from None
        return Entry(key, tensor_type, shape, array)

    def _check_crc(self, crc_num):
        want = self.metadata.get("crc_num")
        if want is None:
            warn("For 'load_checkpoint', the safetensors file do not contain the crc code, "
                 "please check the file.")
        elif str(crc_num) != want:
            raise self.fail("the crc check has failed: the file is damaged")


def _ints(value):
    return isinstance(value, list) and all(type(v) is int and v >= 0 for v in value)
