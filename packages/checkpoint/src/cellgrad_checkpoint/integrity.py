"""What makes damage detectable: cellgrad's header and footer, the checksum, MindSpore's CRC.

Files cellgrad writes start with a header and end with a footer, both protobuf fields with
numbers MindSpore does not use, so MindSpore's parser skips them (checked with MindSpore 2.10):

    header  = field 52752: b"CGCKPTH1" | u64 body length | u64 number of entries
    entries ...
    footer  = field 52753: u64 checksum per entry | u64 number of entries
                           | u64 offset of the footer | u64 checksum of these | b"CGCKPTF1"
    [MindSpore's CRC trailer: b"crc_num" + CRC-32 of all preceding bytes, 10 bytes big-endian]

The header says how long the body is, so a file cut anywhere (also between entries) is
detected; the footer's per-entry checksums catch flipped bytes and name the entry.

The checksum (`Sum64`) is a 64-bit sum of the data's little-endian 8-byte words, each 8 KiB
block weighted by an odd number, plus the length: numpy computes it at memory speed (CRC-32
would cost more than reading the file). Any single-bit error changes it, so does a swap of
blocks; it is not a cryptographic hash (AES-GCM is the option against tampering).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from cellgrad_checkpoint import wire

HEADER_FIELD = 52752
FOOTER_FIELD = 52753
HEADER_MAGIC = b"CGCKPTH1"
FOOTER_MAGIC = b"CGCKPTF1"
HEADER_PAYLOAD = 24
FOOTER_TAIL = 32  # the fixed part at the very end of the footer
HEADER_KEY = wire.key(HEADER_FIELD, wire.LEN)
FOOTER_KEY = wire.key(FOOTER_FIELD, wire.LEN)
HEADER_SIZE = len(HEADER_KEY) + 1 + HEADER_PAYLOAD

CRC_MAGIC = b"crc_num"
CRC_TRAILER = 17

_BLOCK_BYTES = 8192
_BLOCK_WORDS = _BLOCK_BYTES // 8
_MASK = (1 << 64) - 1
_LENGTH_MIX = 0x9E3779B97F4A7C15
_HEAD_MIX = 0xFF51AFD7ED558CCD
PIECE = 1 << 22  # data is written, read and summed in pieces of 4 MiB (a multiple of 8 KiB)


class Sum64:
    """The checksum of a byte stream fed in pieces; all but the last a multiple of 8 KiB."""

    __slots__ = ("_total", "_nbytes")

    def __init__(self):
        self._total = 0
        self._nbytes = 0

    def update(self, data) -> None:
        a = np.frombuffer(data, np.uint8)
        first = self._nbytes // _BLOCK_BYTES
        nblocks = a.size // _BLOCK_BYTES
        total = self._total
        if nblocks:
            sums = a[:nblocks * _BLOCK_BYTES].view("<u8").reshape(nblocks, _BLOCK_WORDS) \
                .sum(axis=1, dtype=np.uint64)
            weights = np.arange(first, first + nblocks, dtype=np.uint64) * np.uint64(2) \
                + np.uint64(1)
            total += int((sums * weights).sum(dtype=np.uint64))
        rest = a[nblocks * _BLOCK_BYTES:]
        if rest.size:
            tail = rest.tobytes() + bytes(-rest.size % 8)
            words = sum(struct.unpack(f"<{len(tail) // 8}Q", tail))
            total += words * (2 * (first + nblocks) + 1)
        self._total = total & _MASK
        self._nbytes += a.size

    def digest(self) -> int:
        return (self._total + self._nbytes * _LENGTH_MIX) & _MASK


def sum64(data) -> int:
    s = Sum64()
    s.update(data)
    return s.digest()


def entry_checksum(head_digest: int, data_digest: int) -> int:
    """One entry's checksum from those of its non-data bytes and of its data."""
    return (head_digest * _HEAD_MIX + data_digest) & _MASK


def header(body_len: int, entries: int) -> bytes:
    return HEADER_KEY + wire.varint(HEADER_PAYLOAD) + HEADER_MAGIC \
        + struct.pack("<QQ", body_len, entries)


def footer_size(entries: int) -> int:
    payload = 8 * entries + FOOTER_TAIL
    return len(FOOTER_KEY) + len(wire.varint(payload)) + payload


def footer_key(entries: int) -> bytes:
    """The footer's field key and length, which precede its payload."""
    return FOOTER_KEY + wire.varint(8 * entries + FOOTER_TAIL)


def footer(checksums, offset: int) -> bytes:
    """The footer record for the entries' checksums; `offset` is where it starts."""
    body = struct.pack(f"<{len(checksums)}Q", *checksums) + struct.pack("<QQ", len(checksums),
                                                                         offset)
    payload = body + struct.pack("<Q", sum64(body)) + FOOTER_MAGIC
    return FOOTER_KEY + wire.varint(len(payload)) + payload


def parse_header(payload: bytes):
    """(body length, entries) from a header field's payload, or None if it is not ours."""
    if len(payload) != HEADER_PAYLOAD or payload[:8] != HEADER_MAGIC:
        return None
    return struct.unpack("<QQ", payload[8:])


def parse_footer_tail(tail: bytes):
    """(entries, footer offset, self checksum) from the footer's last 32 bytes, or None."""
    if len(tail) != FOOTER_TAIL or tail[24:] != FOOTER_MAGIC:
        return None
    return struct.unpack("<QQQ", tail[:24])


def footer_checksums_ok(checksum_bytes: bytes, entries: int, offset: int, self_sum: int) -> bool:
    return sum64(checksum_bytes + struct.pack("<QQ", entries, offset)) == self_sum


def crc_trailer(crc: int) -> bytes:
    return CRC_MAGIC + crc.to_bytes(10, "big")


def crc32(data, crc: int = 0) -> int:
    return zlib.crc32(data, crc)


# CRC-32 of a run of zero bytes without the bytes (zlib's crc32_combine arithmetic): MindSpore's
# safetensors CRC covers `bytes(n)` for a 0-d integer n, which may be huge (a step count).
_POLY = 0xEDB88320


def _multmodp(a: int, b: int) -> int:
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if not a & (m - 1):
                return p
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1


_X2N = [1 << 30]  # x^(2^k) mod p, reflected
for _ in range(31):
    _X2N.append(_multmodp(_X2N[-1], _X2N[-1]))


def crc32_zeros(count: int, crc: int = 0) -> int:
    """`zlib.crc32(bytes(count), crc)` in O(log count)."""
    p, k = 1 << 31, 3  # x^(8 * count)
    while count:
        if count & 1:
            p = _multmodp(_X2N[k & 31], p)
        count >>= 1
        k += 1
    return _multmodp(p, crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF
