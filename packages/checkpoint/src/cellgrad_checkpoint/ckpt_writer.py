"""Writing entries as a .ckpt body, streaming each tensor's bytes from its own buffer.

Byte-compatible with MindSpore 2.10: the same records in the same order, tensors over 512 MiB
cut into 512 MiB records with the same tag. With `marks` (the default of `save_checkpoint`)
cellgrad's header and footer (`integrity`) surround the records; MindSpore skips both.
"""

from __future__ import annotations

from typing import Iterable, List, Tuple

from cellgrad_checkpoint import integrity, wire
from cellgrad_checkpoint.entry import Entry

CHUNK = 512 * 1024 * 1024  # MindSpore's record size limit for one tensor's data


def _records(entries: Iterable[Entry]) -> List[Tuple[bytes, memoryview]]:
    """(record header, data) per record; a tensor over 512 MiB becomes several records."""
    records = []
    for entry in entries:
        dims, flat = entry.payload()
        name = entry.name.encode("utf-8")
        kind = entry.tensor_type.encode("ascii")
        data = memoryview(flat)
        starts = range(0, len(data), CHUNK) if len(data) else [0]
        for start in starts:
            piece = data[start:start + CHUNK]
            records.append((wire.record_header(name, dims, kind, len(piece)), piece))
    return records


def write_ckpt(sink, entries: Iterable[Entry], *, marks: bool = True, crc: bool = False) -> int:
    """Write the entries to `sink` (anything with `write`); returns the number of bytes."""
    records = _records(entries)
    size = sum(len(head) + len(data) for head, data in records)
    if marks:
        size += integrity.HEADER_SIZE + integrity.footer_size(len(records))
    total = size + (integrity.CRC_TRAILER if crc else 0)
    state = {"crc": 0}

    def emit(data):
        sink.write(data)
        if crc:
            state["crc"] = integrity.crc32(data, state["crc"])

    header = integrity.header(total, len(records))
    if marks:
        emit(header)
    hashes = []
    with integrity.summing_thread(size if marks else 0) as executor:
        for head, data in records:
            emit(head)
            data_hash = integrity.DataHash()
            for start in range(0, len(data), integrity.PIECE):
                piece = data[start:start + integrity.PIECE]
                emit(piece)
                if marks:
                    data_hash.update(piece, executor)
            hashes.append((head, data_hash))
        checksums = [integrity.XXH3.entry(integrity.xxh3(head), data_hash.digest())
                     for head, data_hash in hashes]
    if marks:
        emit(integrity.footer(checksums, size - integrity.footer_size(len(records)), header))
    if crc:
        sink.write(integrity.crc_trailer(state["crc"]))
    return total
