"""`format='safetensors'`: files written by the safetensors package, as MindSpore 2.10 does.

Names sorted, `__metadata__ = {"format": "ms"}` (plus `crc_num` with `crc_check`, a CRC-32
chained over the sorted names and `bytes(array)` — for a 0-d integer that is *value* zero
bytes, MindSpore's quirk, reproduced). With `marks`, cellgrad adds `cellgrad.sum64`: each
tensor's checksum (`integrity.Sum64`), so a flipped data byte is detected on load.

Loading checks the header with the safetensors package, then reads each tensor straight
into its final array at the header's offsets (safetensors' numpy loader copies twice and has
no bfloat16).
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
    SPEC_NAMES,
    STR,
)
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.errors import CheckpointError, WireError, warn
from cellgrad_checkpoint.sources import FileSource, MemorySource

SUMS_KEY = "cellgrad.sum64"
_MAX_HEADER = 100 * 1024 * 1024  # the safetensors package's own limit
_INTEGER = {"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"}


def write_safetensors(temp_path: str, entries: List[Entry], *, crc: bool, marks: bool) -> None:
    import safetensors

    specs, metadata, crc_num, sums = {}, {"format": "ms"}, 0, {}
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.tensor_type == STR:
            raise TypeError(f"For 'save_checkpoint', format='safetensors' cannot hold the str "
                            f"value of '{entry.name}' (safetensors stores only tensors).")
        arr = entry.data
        specs[entry.name] = safetensors.TensorSpec(
            dtype=SPEC_NAMES[entry.tensor_type], shape=list(arr.shape),
            data_ptr=arr.ctypes.data, data_len=arr.nbytes)
        if crc:
            crc_num = integrity.crc32(entry.name.encode("utf-8"), crc_num)
            crc_num = _crc_value(entry, crc_num)
        if marks:
            sums[entry.name] = format(integrity.sum64(arr.reshape(-1).view(np.uint8)), "x")
    if crc:
        metadata["crc_num"] = str(crc_num)
    if marks:
        metadata[SUMS_KEY] = json.dumps(sums, separators=(",", ":"))
    safetensors.serialize_file(specs, temp_path, metadata=metadata if specs else None)


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
    try:
        header = json.loads(source.pread(8, length).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WireError("the header is not valid JSON", 8) from None
    if not isinstance(header, dict):
        raise WireError("the header is not a JSON object", 8)
    return header, 8 + length


class _Reader:
    def __init__(self, source, name, header, base):
        self.source, self.name, self.base = source, name, base
        self.metadata = header.pop("__metadata__", None) or {}
        if not isinstance(self.metadata, dict):
            raise self.fail("the header's __metadata__ is malformed", 8)
        self.header = header
        self.sums = None
        if SUMS_KEY in self.metadata:
            try:
                self.sums = {k: int(v, 16) for k, v in json.loads(self.metadata[SUMS_KEY]).items()}
            except (ValueError, TypeError, AttributeError):
                raise self.fail("cellgrad's checksums in the metadata are damaged", 8) from None

    def fail(self, problem, offset=None, entry=None):
        return CheckpointError(self.name, problem, offset=offset, entry=entry)

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
        need = FILE_DTYPES[tensor_type].itemsize * int(np.prod(shape, dtype=object))
        if not 0 <= begin <= end <= self.source.size - self.base or end - begin != need:
            raise self.fail(f"offsets {begin}..{end} do not fit shape {shape} of "
                            f"{info['dtype']} in the file", self.base + begin, key)
        data = np.empty(end - begin, np.uint8)
        data_sum = integrity.Sum64()
        for start in range(0, data.size, integrity.PIECE):
            piece = data[start:start + integrity.PIECE]
            self.source.readinto(self.base + begin + start, piece)
            data_sum.update(piece)
        if self.sums is not None:
            want = self.sums.get(key)
            if want != data_sum.digest():
                raise self.fail("the tensor does not match its checksum in the metadata: the "
                                "file is corrupted", self.base + begin, key)
        return Entry(key, tensor_type, shape, data.view(FILE_DTYPES[tensor_type]).reshape(shape))

    def _check_crc(self, crc_num):
        want = self.metadata.get("crc_num")
        if want is None:
            warn("For 'load_checkpoint', the safetensors file do not contain the crc code, "
                 "please check the file.")
        elif str(crc_num) != want:
            raise self.fail("the crc check has failed: the file is damaged")


def _ints(value):
    return isinstance(value, list) and all(type(v) is int and v >= 0 for v in value)
