"""The MessagePack subset MindRecord stores a row's scalar fields in (a map of str -> int,
float or str), encoded as MindSpore's JSON library encodes it: integers in their smallest
format, a float as float32 when that loses nothing, keys in sorted order."""

import struct

import numpy as np

_F32_MAX = float(np.finfo(np.float32).max)


def pack(row):
    """Bytes of the map `row` (str keys, sorted)."""
    out = bytearray()
    _pack_len(out, len(row), 0x80, 0xDE, 0xDF, 16)
    for key in sorted(row):
        _pack_str(out, key)
        _pack_value(out, row[key])
    return bytes(out)


def _pack_len(out, n, fix, code16, code32, fix_limit):
    if n < fix_limit:
        out.append(fix | n)
    elif n <= 0xFFFF:
        out += struct.pack(">BH", code16, n)
    else:
        out += struct.pack(">BI", code32, n)


def _pack_str(out, text):
    data = text.encode("utf-8")
    n = len(data)
    if n < 32:
        out.append(0xA0 | n)
    elif n <= 0xFF:
        out += struct.pack(">BB", 0xD9, n)
    elif n <= 0xFFFF:
        out += struct.pack(">BH", 0xDA, n)
    else:
        out += struct.pack(">BI", 0xDB, n)
    out += data


def _pack_value(out, value):
    if isinstance(value, str):
        _pack_str(out, value)
    elif isinstance(value, (int, np.integer)):
        _pack_int(out, int(value))
    else:
        value = float(value)
        if abs(value) <= _F32_MAX and float(np.float32(value)) == value:
            out += struct.pack(">Bf", 0xCA, value)
        else:
            out += struct.pack(">Bd", 0xCB, value)


_POSITIVE = ((0xCC, "B", 0xFF), (0xCD, "H", 0xFFFF), (0xCE, "I", 0xFFFFFFFF),
             (0xCF, "Q", 0xFFFFFFFFFFFFFFFF))
_NEGATIVE = ((0xD0, "b", -0x80), (0xD1, "h", -0x8000), (0xD2, "i", -0x80000000),
             (0xD3, "q", -0x8000000000000000))


def _pack_int(out, n):
    if -32 <= n <= 0x7F:  # positive and negative fixint
        out += struct.pack(">b" if n < 0 else ">B", n)
        return
    for code, fmt, limit in _POSITIVE if n > 0 else _NEGATIVE:
        if (n <= limit) if n > 0 else (n >= limit):
            out += struct.pack(">B" + fmt, code, n)
            return
    raise OverflowError(f"{n} does not fit in 64 bits")


_FIXED = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b",
          0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
_STR = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I"}
_BIN = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
_ARR = {0xDC: ">H", 0xDD: ">I"}
_MAP = {0xDE: ">H", 0xDF: ">I"}


def unpack(data):
    """The value of the MessagePack bytes `data` (ValueError when they are not valid)."""
    try:
        value, end = _unpack(memoryview(data), 0)
    except (IndexError, struct.error, UnicodeDecodeError) as e:
        raise ValueError(f"not valid MessagePack ({e})") from None
    if end != len(data):
        raise ValueError(f"{len(data) - end} bytes after the MessagePack value")
    return value


def _take(buf, pos, fmt):
    size = struct.calcsize(fmt)
    if pos + size > len(buf):
        raise IndexError("truncated")
    return struct.unpack_from(fmt, buf, pos)[0], pos + size


def _unpack(buf, pos):
    code = buf[pos]
    pos += 1
    if code <= 0x7F:
        return code, pos
    if code >= 0xE0:
        return code - 0x100, pos
    if 0xA0 <= code <= 0xBF:
        return _text(buf, pos, code & 0x1F)
    if 0x80 <= code <= 0x8F:
        return _map(buf, pos, code & 0x0F)
    if 0x90 <= code <= 0x9F:
        return _array(buf, pos, code & 0x0F)
    if code == 0xC0:
        return None, pos
    if code in (0xC2, 0xC3):
        return code == 0xC3, pos
    if code in _FIXED:
        return _take(buf, pos, _FIXED[code])
    if code in _STR:
        n, pos = _take(buf, pos, _STR[code])
        return _text(buf, pos, n)
    if code in _BIN:
        n, pos = _take(buf, pos, _BIN[code])
        if pos + n > len(buf):
            raise IndexError("truncated")
        return bytes(buf[pos:pos + n]), pos + n
    if code in _ARR:
        n, pos = _take(buf, pos, _ARR[code])
        return _array(buf, pos, n)
    if code in _MAP:
        n, pos = _take(buf, pos, _MAP[code])
        return _map(buf, pos, n)
    raise struct.error(f"unsupported type byte 0x{code:02x}")


def _text(buf, pos, n):
    if pos + n > len(buf):
        raise IndexError("truncated")
    return bytes(buf[pos:pos + n]).decode("utf-8"), pos + n


def _array(buf, pos, n):
    items = []
    for _ in range(n):
        item, pos = _unpack(buf, pos)
        items.append(item)
    return items, pos


def _map(buf, pos, n):
    out = {}
    for _ in range(n):
        key, pos = _unpack(buf, pos)
        out[key], pos = _unpack(buf, pos)
    return out, pos
