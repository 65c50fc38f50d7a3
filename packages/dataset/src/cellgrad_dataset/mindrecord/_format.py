"""MindRecord's on-disk layout (format version 3.0), as MindSpore 2.10 writes and reads it.

A shard file is a header area then pages:

* bytes [0, 8): the length n of the header JSON (uint64, little-endian); [8, 8 + n): the JSON
  (schema, index fields, page table, sizes, the names of every shard file of the set); the rest
  of the header area (`header_size` bytes) is zeros.
* page k starts at `header_size + k * page_size`. A BLOB_DATA page holds, per row, a uint64
  (little-endian) length then the row's blob: the bytes of its one blob field, or, with several
  blob fields, each one as a big-endian uint64 length then its bytes. A RAW_DATA page holds,
  per row, a uint64 length then the row's scalar fields as a MessagePack map. Raw rows come in
  row groups, one per blob page. The last page of the file is not padded.
* int32/int64 array fields are stored compressed: a big-endian uint32 count, 2 bits per value
  saying its width (int8/16/32/64), then each value little-endian in that width.

Next to each shard, `<shard>.db` is an SQLite index with one INDEXES row per data row (where its
raw and blob bytes are) plus the index fields, and a SHARD_NAME table.
"""

import json
import os
import struct

import numpy as np

VERSION = "3.0"
MIN_HEADER_SIZE, MAX_HEADER_SIZE, DEFAULT_HEADER_SIZE = 1 << 14, 1 << 27, 1 << 24
MIN_PAGE_SIZE, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE = 1 << 15, 1 << 28, 1 << 25
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
DUMMY_RAW = {"id": 0}  # the raw part of rows whose every field is a blob field
DUMMY_BLOB = bytes(4)  # the blob part of rows without blob fields
_LEN = struct.Struct("<Q")
_BIG_LEN = struct.Struct(">Q")


def blob_fields(schema):
    """The fields stored in blob pages (bytes and arrays), in schema (sorted) order."""
    return [k for k in sorted(schema) if schema[k]["type"] == "bytes" or "shape" in schema[k]]


def compresses(schema):
    """Whether int32/int64 array fields are stored compressed (any exists, as MindSpore)."""
    return any("shape" in v and v["type"] in ("int32", "int64") for v in schema.values())


# --- header -------------------------------------------------------------------------------

def header_json(header, shard_id, pages):
    """The header of one shard as MindSpore serializes it (keys in its order, compact)."""
    schema = header["schema"]
    fields = {k: ({"shape": list(schema[k]["shape"]), "type": schema[k]["type"]}
                  if "shape" in schema[k] else {"type": schema[k]["type"]})
              for k in sorted(schema)}
    index = [{"index_field": f, "schema_id": 0} for f in header["index_fields"]] or None
    body = {
        "header_size": header["header_size"], "index_fields": index,
        "page": [_page_json(p, shard_id) for p in pages] or None,
        "page_size": header["page_size"], "compression_size": header["compression_size"],
        "schema": [{"blob_fields": blob_fields(schema), "desc": header["desc"],
                    "schema": fields}],
        "shard_addresses": header["shard_addresses"], "shard_id": shard_id,
        "statistics": None, "version": VERSION,
    }
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if len(data) + 8 > header["header_size"]:
        raise RuntimeError(f"Invalid data, the MindRecord header ({len(data) + 8} bytes) is "
                           f"larger than header_size {header['header_size']}; call "
                           f"'set_header_size' with a larger size.")
    return _LEN.pack(len(data)) + data


def _page_json(page, shard_id):
    groups = page["row_group_ids"] or [(0, 0)]
    return {"end_row_id": page["end_row_id"], "page_id": page["page_id"],
            "page_size": page["page_size"], "page_type": page["page_type"],
            "page_type_id": page["page_type_id"],
            "row_group_ids": [{"id": i, "offset": o} for i, o in groups],
            "shard_id": shard_id, "start_row_id": page["start_row_id"]}


def read_header(path):
    """The parsed header of the shard file `path` (RuntimeError naming it when it is not one)."""
    bad = (f"Invalid file, failed to read header content of file: {path}, please check "
           f"correction of MindRecord File")
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise RuntimeError(bad)
            (n,) = _LEN.unpack(head)
            size = os.fstat(f.fileno()).st_size
            if n < 2 or n + 8 > min(size, MAX_HEADER_SIZE):
                raise RuntimeError(bad)
            header = json.loads(f.read(n).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise RuntimeError(bad) from None
    try:
        schema = header["schema"][0]["schema"]
        header = {
            "header_size": int(header["header_size"]), "page_size": int(header["page_size"]),
            "compression_size": int(header.get("compression_size") or 0),
            "index_fields": [f["index_field"] for f in header.get("index_fields") or []],
            "desc": header["schema"][0].get("desc", ""), "schema": schema,
            "shard_addresses": list(header["shard_addresses"]),
            "shard_id": int(header["shard_id"]),
            "pages": [{"page_id": p["page_id"], "page_type": p["page_type"],
                       "page_type_id": p["page_type_id"], "start_row_id": p["start_row_id"],
                       "end_row_id": p["end_row_id"], "page_size": p["page_size"],
                       "row_group_ids": [(g["id"], g["offset"]) for g in p["row_group_ids"]]}
                      for p in header["page"] or []],
        }
        if any(v["type"] not in SCALAR_TYPES for v in schema.values()):
            raise ValueError(schema)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise RuntimeError(bad) from None
    return header


# --- blobs -----------------------------------------------------------------------------------

def field_bytes(value, spec):
    """The stored bytes of one blob field value (already checked against `spec`)."""
    if "shape" in spec:
        return np.ascontiguousarray(value, dtype=spec["type"]).astype("<" + np.dtype(
            spec["type"]).str[1:], copy=False).tobytes()
    return bytes(value)


def merge_blob(parts, schema, compress):
    """The blob of one row from its fields' bytes (`parts`, in blob-field order).

    Returns (blob, bytes saved by the int compression)."""
    fields = blob_fields(schema)
    if compress:
        stored = [compress_ints(p, schema[f]["type"]) if _is_int_array(schema[f]) else p
                  for f, p in zip(fields, parts)]
    else:
        stored = parts
    if len(fields) == 1:
        return stored[0], len(parts[0]) - len(stored[0])
    blob = b"".join(struct.pack(">Q", len(p)) + p for p in stored)
    return blob, sum(len(p) - len(s) for p, s in zip(parts, stored))


class BlobLayout:
    """How to cut one row's blob into its fields' values (prepared once per schema)."""

    def __init__(self, schema):
        compress = compresses(schema)
        self.fields = blob_fields(schema)
        self._specs = [(f, np.dtype("<" + np.dtype(schema[f]["type"]).str[1:])
                        if "shape" in schema[f] else None,
                        schema[f].get("shape"), compress and _is_int_array(schema[f]),
                        schema[f]["type"]) for f in self.fields]

    def split(self, blob, wanted):
        """{field: value} for the blob fields in `wanted` of one row's blob (a memoryview)."""
        out, pos, single = {}, 0, len(self._specs) == 1
        for field, dtype, shape, packed, kind in self._specs:
            if single:
                data = blob
            else:
                if pos + 8 > len(blob):
                    raise ValueError("blob field lengths run past the row's blob")
                (n,) = _BIG_LEN.unpack_from(blob, pos)
                data = blob[pos + 8:pos + 8 + n]
                if len(data) != n:
                    raise ValueError("blob field lengths run past the row's blob")
                pos += 8 + n
            if field not in wanted:
                continue
            if dtype is None:
                out[field] = bytes(data)
            elif packed:
                out[field] = uncompress_ints(bytes(data), kind).astype(kind).reshape(shape)
            else:
                out[field] = np.frombuffer(bytes(data), dtype=dtype).astype(kind).reshape(shape)
        return out


def _is_int_array(spec):
    return "shape" in spec and spec["type"] in ("int32", "int64")


_WIDTH_LIMITS = [(0, np.iinfo(np.int8)), (1, np.iinfo(np.int16)), (2, np.iinfo(np.int32))]


def compress_ints(data, dtype):
    """MindRecord's integer compression of the little-endian int32/int64 bytes `data`."""
    values = np.frombuffer(data, dtype="<i4" if dtype == "int32" else "<i8").astype(np.int64)
    n = len(values)
    codes = np.full(n, 3, np.uint8)
    for code, info in reversed(_WIDTH_LIMITS):
        codes[(values >= info.min) & (values <= info.max)] = code
    padded = np.zeros(-(-n // 4) * 4, np.uint8)
    padded[:n] = codes
    quads = padded.reshape(-1, 4)
    bitmap = (quads[:, 0] << 6) | (quads[:, 1] << 4) | (quads[:, 2] << 2) | quads[:, 3]
    as_bytes = values.astype("<i8").view(np.uint8).reshape(n, 8)
    keep = np.arange(8) < (1 << codes.astype(np.int64))[:, None]
    return struct.pack(">I", n) + bitmap.astype(np.uint8).tobytes() + as_bytes[keep].tobytes()


def uncompress_ints(data, dtype):
    """The int64 values of MindRecord-compressed integers `data`."""
    buf = np.frombuffer(data, np.uint8)
    if len(buf) < 4:
        raise ValueError("compressed integers shorter than their count")
    (n,) = struct.unpack_from(">I", data, 0)
    nmap = -(-n // 4)
    bitmap = buf[4:4 + nmap]
    if len(bitmap) != nmap:
        raise ValueError("compressed integers shorter than their bitmap")
    codes = ((bitmap[:, None] >> np.array([6, 4, 2, 0], np.uint8)) & 3).reshape(-1)[:n]
    widths = (1 << codes.astype(np.int64))
    payload = buf[4 + nmap:]
    if widths.sum() != len(payload):
        raise ValueError("compressed integers do not match their bitmap")
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    cols = np.arange(8)
    keep = cols < widths[:, None]
    full = np.zeros((n, 8), np.uint8)
    full[keep] = payload[(starts[:, None] + cols)[keep]]
    negative = (full[np.arange(n), widths - 1] & 0x80) != 0
    full[~keep & negative[:, None]] = 0xFF
    return full.reshape(-1).view("<i8")


def schema_text(schema):
    """The schema as MindSpore prints it in messages (compact JSON, sorted keys)."""
    return json.dumps(schema, separators=(",", ":"), sort_keys=True)
