"""An independent reader of TensorBoard event files for the summary tests: the TFRecord framing
(length, masked CRC-32C of the length, data, masked CRC-32C of the data; every CRC checked)
and the protobuf wire format of TensorBoard's Event, decoded by hand (no tensorboardX, no
protobuf package)."""

import glob
import os
import struct

import numpy as np


def _crc32c_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def masked_crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    """The data of each record of a TFRecord file, CRCs checked."""
    blob = open(path, "rb").read()
    at, out = 0, []
    while at < len(blob):
        header = blob[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (crc_len,) = struct.unpack("<I", blob[at + 8:at + 12])
        assert crc_len == masked_crc32c(header), f"bad length crc at byte {at}"
        data = blob[at + 12:at + 12 + length]
        (crc_data,) = struct.unpack("<I", blob[at + 12 + length:at + 16 + length])
        assert crc_data == masked_crc32c(data), f"bad data crc at byte {at}"
        out.append(data)
        at += 16 + length
    assert at == len(blob), "trailing bytes"
    return out


def _varint(buf, at):
    shift = value = 0
    while True:
        byte = buf[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7


def fields(buf):
    """{field number: [raw values]}: ints for varints, bytes for the rest."""
    out, at = {}, 0
    while at < len(buf):
        key, at = _varint(buf, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(buf, at)
        elif wire == 1:
            value, at = buf[at:at + 8], at + 8
        elif wire == 5:
            value, at = buf[at:at + 4], at + 4
        elif wire == 2:
            length, at = _varint(buf, at)
            value, at = buf[at:at + length], at + length
        else:
            raise AssertionError(f"wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def _double(raw):
    return struct.unpack("<d", raw)[0]


def _doubles(raws):
    # proto3 packs repeated doubles; an unpacked writer gives one 8-byte value per item
    return np.concatenate([np.frombuffer(r, "<f8") for r in raws]) if raws else np.zeros(0)


def _histogram(buf):
    f = fields(buf)
    get = (lambda n: _double(f[n][0]) if n in f else 0.0)
    return {"min": get(1), "max": get(2), "num": get(3), "sum": get(4), "sum_squares": get(5),
            "bucket_limit": _doubles(f.get(6, [])), "bucket": _doubles(f.get(7, []))}


def _image(buf):
    f = fields(buf)
    return {"height": f[1][0], "width": f[2][0], "colorspace": f[3][0], "png": f[4][0]}


_DTYPES = {1: "<f4", 2: "<f8", 3: "<i4", 4: "u1", 5: "<i2", 6: "i1", 9: "<i8", 10: "?",
           17: "<u2", 19: "<f2", 22: "<u4", 23: "<u8"}


def _tensor(buf):
    f = fields(buf)
    dtype = f[1][0]
    shape = [fields(d).get(1, [0])[0] for d in fields(f[2][0]).get(2, [])] if 2 in f else []
    if 8 in f:  # string_val: a text summary
        return [s.decode() for s in f[8]]
    return np.frombuffer(f[4][0], _DTYPES[dtype]).reshape(shape)


def _value(buf):
    f = fields(buf)
    tag = f[1][0].decode()
    if 2 in f:
        return tag, "scalar", struct.unpack("<f", f[2][0])[0]
    if 4 in f:
        return tag, "image", _image(f[4][0])
    if 5 in f:
        return tag, "histogram", _histogram(f[5][0])
    if 8 in f:
        return tag, "tensor", _tensor(f[8][0])
    raise AssertionError(f"value {tag!r} holds no data")


def events(path):
    """[(step, wall_time, file_version or None, [(tag, kind, value), ...])] of one file."""
    out = []
    for data in records(path):
        f = fields(data)
        step = f.get(2, [0])[0]
        version = f[3][0].decode() if 3 in f else None
        values = [_value(v) for s in f.get(5, []) for v in fields(s).get(1, [])]
        out.append((step, _double(f[1][0]), version, values))
    return out


def event_file(folder):
    """The one event file of `folder`."""
    found = glob.glob(os.path.join(folder, "*tfevents*"))
    assert len(found) == 1, found
    return found[0]


def by_tag(path):
    """{tag: [(step, kind, value)]} over one file, in file order."""
    out = {}
    for step, _, _, values in events(path):
        for tag, kind, value in values:
            out.setdefault(tag, []).append((step, kind, value))
    return out
