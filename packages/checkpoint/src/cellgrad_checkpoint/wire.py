"""Protobuf wire format, as much as the `Checkpoint` message needs (no protobuf library).

A .ckpt file is a concatenation of `Checkpoint` messages; one entry is

    0A len(Value)  0A len(tag) tag  12 len(Tensor)  08 dim ...  12 len(type) type  1A len(data) data

`record_header` builds everything of an entry before its data, so the data itself can be
written straight from the tensor's buffer.
"""

from __future__ import annotations

from typing import Sequence, Tuple

from cellgrad_checkpoint.errors import WireError

VARINT, I64, LEN, I32 = 0, 1, 2, 5
MAX_VARINT_BYTES = 10


def varint(n: int) -> bytes:
    """Unsigned base-128 varint; a negative int64 takes ten bytes, as protobuf writes it."""
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def key(field: int, wire_type: int) -> bytes:
    return varint((field << 3) | wire_type)


def len_field(field: int, payload: bytes) -> bytes:
    return key(field, LEN) + varint(len(payload)) + payload


def record_header(name: bytes, dims: Sequence[int], tensor_type: bytes, data_len: int) -> bytes:
    """The bytes of one `Checkpoint.value` entry up to (not including) its data."""
    tensor_head = b"".join(b"\x08" + varint(d) for d in dims) + len_field(2, tensor_type) \
        + b"\x1a" + varint(data_len)
    value_head = len_field(1, name) + b"\x12" + varint(len(tensor_head) + data_len) + tensor_head
    return b"\x0a" + varint(len(value_head) + data_len) + value_head


def decode_varint(buf, pos: int, end: int, base: int = 0) -> Tuple[int, int]:
    """(value, position after it) of the varint at `buf[pos]`, reading no further than `end`.

    `base` is the file offset of `buf[0]`, for error messages.
    """
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise WireError("the file ends inside a varint", base + start)
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
        if pos - start >= MAX_VARINT_BYTES:
            raise WireError("a varint is longer than 10 bytes", base + start)
    if result >= 1 << 64:
        raise WireError("a varint does not fit in 64 bits", base + start)
    return result, pos


def as_int64(value: int) -> int:
    """A varint read as protobuf's int64 (two's complement)."""
    return value - (1 << 64) if value >= 1 << 63 else value
