"""What makes damage detectable: cellgrad's header and footer, the hash, MindSpore's CRC.

Files cellgrad writes start with a header and end with a footer, both protobuf fields with
numbers MindSpore does not use, so MindSpore's parser skips them (checked with MindSpore 2.10):

    header  = field 52752: b"CGCKPTH1" | u64 file length | u64 number of entries
    entries ...
    footer  = field 52753: u64 hash per entry | u64 number of entries
                           | u64 offset of the footer | u64 hash of these | b"CGCKPTF2"
    [MindSpore's CRC trailer: b"crc_num" + CRC-32 of all preceding bytes, 10 bytes big-endian]

The header says how long the file is, so a file cut anywhere (also between entries) is
detected; the footer's per-entry hashes catch changed bytes and name the entry; the footer's
own hash covers the header's bytes too.

The hash (`DataHash`, footer b"CGCKPTF2") is XXH3-64 (the `xxhash` package) of each 4 MiB
piece, taken while the piece is in cache, possibly on a helper thread (xxhash releases the
GIL), and the entry's hash is XXH3-64 of the pieces' hashes in order plus the length: a
change anywhere, reordered pieces or rows, is missed with probability 2^-64. It is not a
cryptographic hash (AES-GCM is the option against tampering).

Legacy: files written before it (footer b"CGCKPTF1") carry `Sum64`, a weighted 64-bit sum
that some two-word changes cancel in; they are still read and verified with it.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, NamedTuple

import numpy as np
import xxhash

from cellgrad_checkpoint import wire

HEADER_FIELD = 52752
FOOTER_FIELD = 52753
HEADER_MAGIC = b"CGCKPTH1"
FOOTER_MAGIC = b"CGCKPTF2"  # entries hashed with `DataHash` (XXH3-64)
LEGACY_FOOTER_MAGIC = b"CGCKPTF1"  # legacy: entries summed with `Sum64`
HEADER_PAYLOAD = 24
FOOTER_TAIL = 32  # the fixed part at the very end of the footer
HEADER_KEY = wire.key(HEADER_FIELD, wire.LEN)
FOOTER_KEY = wire.key(FOOTER_FIELD, wire.LEN)
HEADER_SIZE = len(HEADER_KEY) + 1 + HEADER_PAYLOAD

CRC_MAGIC = b"crc_num"
CRC_TRAILER = 17

_ROW_BYTES = 8192  # the data is summed as rows of 1024 little-endian u64 words
_LANE_WEIGHTS = np.arange(1, 2 * (_ROW_BYTES // 8), 2, dtype=np.uint64)  # odd
_MASK = (1 << 64) - 1
_LENGTH_MIX = 0x9E3779B97F4A7C15
_HEAD_MIX = 0xFF51AFD7ED558CCD
PIECE = 1 << 22  # 4 MiB: the hash's unit, and the size data is written and read in
_U64 = struct.Struct("<Q")


def xxh3(data) -> int:
    """XXH3-64 of a bytes-like object (the GIL is released from 64 KiB on)."""
    return xxhash.xxh3_64_intdigest(data)


def combine(piece_digests, nbytes: int) -> int:
    """The hash of `nbytes` bytes from its 4 MiB pieces' XXH3-64 hashes, in order."""
    return xxh3(struct.pack(f"<{len(piece_digests)}QQ", *piece_digests, nbytes))


def data_hash(data) -> int:
    """`DataHash` of a whole buffer."""
    h = DataHash()
    h.update(data)
    return h.digest()


class DataHash:
    """The hash of a byte stream fed in 4 MiB pieces (only the last may be shorter): each
    piece's XXH3-64, computed at once or (with `executor`) on another thread while the caller
    goes on with the next piece, then `combine`d in order."""

    __slots__ = ("_digests", "_nbytes")

    def __init__(self):
        self._digests = []
        self._nbytes = 0

    def update(self, data, executor=None) -> None:
        view = memoryview(data).cast("B")
        if self._nbytes % PIECE:
            raise ValueError("DataHash: only the last piece may be shorter than PIECE")
        for start in range(0, len(view), PIECE):
            piece = view[start:start + PIECE]
            self._digests.append(xxh3(piece) if executor is None
                                 else executor.submit(xxh3, piece))
        self._nbytes += len(view)

    def digest(self) -> int:
        return combine([d if isinstance(d, int) else d.result() for d in self._digests],
                       self._nbytes)


class Scheme(NamedTuple):
    """How the entries of one footer version are hashed."""

    piece: Callable  # (4 MiB piece, its index) -> the piece's value
    data: Callable  # (the pieces' values in order, length) -> the data's hash
    head: Callable  # an entry's non-data bytes -> their hash
    entry: Callable  # (non-data hash, data hash) -> the entry's hash
    stream: type  # the incremental form: update(data, executor), digest()


def _entry_hash(head_digest: int, data_digest: int) -> int:
    return xxh3(struct.pack("<QQ", head_digest, data_digest))


XXH3 = Scheme(piece=lambda view, index: xxh3(view), data=combine, head=xxh3,
              entry=_entry_hash, stream=DataHash)


# ---- legacy (footer b"CGCKPTF1"): kept to verify files written before XXH3 ----
class Sum64:
    """Legacy: the checksum of a byte stream fed in 4 MiB pieces (the last may be shorter).

    Each piece is a matrix of 8 KiB rows; its words are summed down the rows (numpy's fastest
    reduction), the 1024 column sums weighted by odd numbers, and the piece's total by
    another odd number for its place: any change of one word changes the sum. A piece's share
    depends only on its bytes and place, so `update(..., executor)` computes it on another
    thread while the caller reads the next piece.
    """

    __slots__ = ("_total", "_nbytes", "_pending")

    def __init__(self):
        self._total = 0
        self._nbytes = 0
        self._pending = []

    def update(self, data, executor=None) -> None:
        a = np.frombuffer(data, np.uint8)
        if self._nbytes % PIECE:
            raise ValueError("Sum64: only the last piece may be shorter than PIECE")
        for start in range(0, a.size, PIECE):
            piece, index = a[start:start + PIECE], (self._nbytes + start) // PIECE
            if executor is None:
                self._total += _share(piece, index)
            else:
                self._pending.append(executor.submit(_share, piece, index))
        self._nbytes += a.size

    def digest(self) -> int:
        total = self._total + sum(future.result() for future in self._pending)
        return digest_of(total, self._nbytes)


def digest_of(shares: int, nbytes: int) -> int:
    """The checksum of `nbytes` bytes whose pieces' shares (`share`) add up to `shares`:
    pieces may be summed in any order, on any thread."""
    return (shares + nbytes * _LENGTH_MIX) & _MASK


def share(piece, index: int) -> int:
    """Piece number `index`'s share of the checksum of the bytes it belongs to (a piece is
    PIECE bytes of a buffer starting at index * PIECE; only the last may be shorter)."""
    return _share(np.frombuffer(piece, np.uint8), index)


def _share(piece, index):
    """Piece number `index`'s share of the checksum."""
    rows = piece.size // _ROW_BYTES
    columns = np.zeros(_ROW_BYTES // 8, np.uint64)
    if rows:
        columns = piece[:rows * _ROW_BYTES].view("<u8").reshape(rows, -1).sum(axis=0,
                                                                              dtype=np.uint64)
    rest = piece[rows * _ROW_BYTES:]
    if rest.size:  # a last partial row, padded with zeros
        row = np.zeros(_ROW_BYTES, np.uint8)
        row[:rest.size] = rest
        columns += row.view("<u8")
    return int((columns * _LANE_WEIGHTS).sum(dtype=np.uint64)) * (2 * index + 1) & _MASK


THREADED = 16 << 20  # from this many bytes to checksum on, helper threads may sum pieces


MAX_HELPERS = 3


def helper_threads(nbytes: int) -> int:
    """How many threads beside the caller's should read and checksum `nbytes` of a file: one
    per core that is idle right now (Linux: /proc/loadavg's count of runnable threads, which
    includes the caller), at most MAX_HELPERS; none for less than THREADED bytes. Without
    that count, a core is assumed idle only with 4 or more cores."""
    if nbytes < THREADED:
        return 0
    cores = _usable_cores()
    running = _runnable()
    idle = (cores - 1 if cores >= 4 else 0) if running is None else cores - running
    return max(0, min(MAX_HELPERS, idle))


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _runnable():
    """The number of threads runnable right now on the machine (the caller is one), or None."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def summing_thread(nbytes: int):
    """A thread for `DataHash.update(..., executor)` when there are `nbytes` to hash and a core
    idle right now (else None): the sums then overlap the writes of the next pieces. Measured
    on a 192 MiB save with the second core idle: 101 ms with it, 109 without, 99 for the same
    save without checksums."""
    if helper_threads(nbytes) == 0:
        yield None
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="cellgrad-ckpt-sum") as pool:
        yield pool


def sum64(data) -> int:
    """Legacy: `Sum64` of a whole buffer."""
    s = Sum64()
    s.update(data)
    return s.digest()


def entry_checksum(head_digest: int, data_digest: int) -> int:
    """Legacy: one entry's checksum from those of its non-data bytes and of its data."""
    return (head_digest * _HEAD_MIX + data_digest) & _MASK


LEGACY_SUM64 = Scheme(piece=lambda view, index: share(view, index),
                      data=lambda shares, nbytes: digest_of(sum(shares), nbytes), head=sum64,
                      entry=entry_checksum, stream=Sum64)
SCHEMES = {FOOTER_MAGIC: XXH3, LEGACY_FOOTER_MAGIC: LEGACY_SUM64}


def header(body_len: int, entries: int) -> bytes:
    return HEADER_KEY + wire.varint(HEADER_PAYLOAD) + HEADER_MAGIC \
        + struct.pack("<QQ", body_len, entries)


def footer_size(entries: int) -> int:
    payload = 8 * entries + FOOTER_TAIL
    return len(FOOTER_KEY) + len(wire.varint(payload)) + payload


def footer_key(entries: int) -> bytes:
    """The footer's field key and length, which precede its payload."""
    return FOOTER_KEY + wire.varint(8 * entries + FOOTER_TAIL)


def footer(checksums, offset: int, head: bytes) -> bytes:
    """The footer record for the entries' hashes; `offset` is where it starts, `head` the
    file's header record (its bytes are covered by the footer's own hash)."""
    body = struct.pack(f"<{len(checksums)}Q", *checksums) + struct.pack("<QQ", len(checksums),
                                                                         offset)
    payload = body + _U64.pack(xxh3(head + body)) + FOOTER_MAGIC
    return FOOTER_KEY + wire.varint(len(payload)) + payload


def parse_header(payload: bytes):
    """(body length, entries) from a header field's payload, or None if it is not ours."""
    if len(payload) != HEADER_PAYLOAD or payload[:8] != HEADER_MAGIC:
        return None
    return struct.unpack("<QQ", payload[8:])


def parse_footer_tail(tail: bytes):
    """(entries, footer offset, self hash, magic) from the footer's last 32 bytes, or None."""
    if len(tail) != FOOTER_TAIL or tail[24:] not in SCHEMES:
        return None
    return struct.unpack("<QQQ", tail[:24]) + (tail[24:],)


def footer_checksums_ok(checksum_bytes: bytes, entries: int, offset: int, self_sum: int,
                        magic: bytes = FOOTER_MAGIC, head: bytes = b"") -> bool:
    """Whether the footer's own hash matches (with the header's bytes `head`; the legacy
    footer covers only its own fields)."""
    body = checksum_bytes + struct.pack("<QQ", entries, offset)
    if magic == LEGACY_FOOTER_MAGIC:
        return sum64(body) == self_sum
    return xxh3(head + body) == self_sum


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
