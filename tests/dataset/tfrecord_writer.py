"""A TFRecord writer for the tests (independent of the reader): `tf.train.Example` protobufs
encoded by hand, framed with masked CRC32C checksums, optionally GZIP/ZLIB-compressed."""

import gzip
import struct
import zlib

import numpy as np


def crc32c(data):
    """Bitwise CRC-32C (Castagnoli), reflected polynomial 0x82F63B78."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, payload):
    """A length-delimited field (wire type 2)."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def feature(value):
    """A Feature: bytes/str list -> BytesList (1), float list -> FloatList (2, packed),
    int list -> Int64List (3, packed)."""
    values = value if isinstance(value, list) else [value]
    if values and isinstance(values[0], (bytes, str)):
        body = b"".join(field(1, v.encode() if isinstance(v, str) else v) for v in values)
        return field(1, body)
    if values and isinstance(values[0], float):
        return field(2, field(1, struct.pack(f"<{len(values)}f", *values)))
    return field(3, field(1, b"".join(varint(int(v)) for v in values)))


def example(features):
    """A tf.train.Example: Features (1) holding map<string, Feature> entries (1)."""
    entries = b"".join(field(1, field(1, name.encode()) + field(2, feature(value)))
                       for name, value in features.items())
    return field(1, entries)


def frame(record):
    head = struct.pack("<Q", len(record))
    return head + struct.pack("<I", masked(head)) + record + struct.pack("<I", masked(record))


def write(path, rows, compression=""):
    """Writes `rows` (dicts of feature name -> value) as Examples to a TFRecord file."""
    data = b"".join(frame(example(row)) for row in rows)
    if compression == "GZIP":
        data = gzip.compress(data)
    elif compression == "ZLIB":
        data = zlib.compress(data)
    with open(path, "wb") as f:
        f.write(data)
    return path


def sample_rows(n, start=0):
    """Rows with every feature kind: an image's bytes, an int label, a float vector, a
    scalar float, a string and an int list."""
    rng = np.random.default_rng(start)
    return [{"image": rng.integers(0, 256, 5 + i % 3, dtype=np.uint8).tobytes(),
             "label": start + i,
             "vec": [float(x) for x in np.round(rng.normal(size=3), 3)],
             "score": float(np.float32(0.5 * i - 1.25)),
             "name": f"row{start + i}",
             "ids": [start + i, -(start + i), 2**40 + i]} for i in range(n)]
