"""TFRecord files of `tf.train.Example` protobufs: `TFRecordDataset`.

A TFRecord file is a sequence of records: a little-endian uint64 length, the masked CRC-32C of
those 8 bytes, the data, the masked CRC-32C of the data (both checked here; the data's when
the row is read). The data is an Example: Features (field 1) holding map<string, Feature>
entries (field 1: key 1, value 2); a Feature is a BytesList (1), FloatList (2) or Int64List
(3), each a repeated field 1. The wire format is decoded here, without TensorFlow.
"""

import gzip
import mmap
import os
import struct
import zlib

import numpy as np

from cellgrad_dataset import config
from cellgrad_dataset.cache import check_cache
from cellgrad_dataset.readers.common import data_error
from cellgrad_dataset.readers.text import _LineSource, find_files
from cellgrad_dataset.samplers import Shuffle
from cellgrad_dataset.schema import Schema

try:  # the C implementations, when installed; the table below otherwise
    from google_crc32c import value as _crc32c_fast
except ImportError:
    try:
        from crc32c import crc32c as _crc32c_fast
    except ImportError:
        _crc32c_fast = None


def _table():
    table = []
    for n in range(256):
        for _ in range(8):
            n = (n >> 1) ^ (0x82F63B78 if n & 1 else 0)
        table.append(n)
    return table


_TABLE = _table()
_NP_TABLE = np.array(_TABLE, np.uint32)
_CHUNK = 256  # bytes per chunk of the vectorized CRC


def _zeros_operator(count):
    """Byte tables of the linear map "feed `count` zero bytes" on the raw CRC register."""
    def one_zero(state):
        return _TABLE[state & 0xFF] ^ (state >> 8)

    def apply(columns, state):
        out, bit = 0, 0
        while state:
            if state & 1:
                out ^= columns[bit]
            state, bit = state >> 1, bit + 1
        return out

    result = [1 << i for i in range(32)]  # identity
    power = [one_zero(1 << i) for i in range(32)]
    while count:
        if count & 1:
            result = [apply(power, c) for c in result]
        power = [apply(power, c) for c in power]
        count >>= 1
    return [[apply(result, x << (8 * k)) for x in range(256)] for k in range(4)]


_SHIFT = _zeros_operator(_CHUNK)


def _crc_loop(data, crc):
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def _crc_vectorized(data, crc):
    """The raw register after `data`: every 256-byte chunk's register (from 0) at once with
    numpy, then chained (CRC is linear: register after a chunk = shift(register) ^ chunk's)."""
    chunks = np.frombuffer(data, np.uint8, len(data) // _CHUNK * _CHUNK).reshape(-1, _CHUNK)
    state = np.zeros(len(chunks), np.uint32)
    for column in chunks.T:
        state = _NP_TABLE[(state ^ column) & 0xFF] ^ (state >> 8)
    t0, t1, t2, t3 = _SHIFT
    for part in state.tolist():
        crc = (t0[crc & 0xFF] ^ t1[(crc >> 8) & 0xFF] ^ t2[(crc >> 16) & 0xFF]
               ^ t3[crc >> 24] ^ part)
    return _crc_loop(memoryview(data)[len(chunks) * _CHUNK:], crc)


def crc32c(data):
    """CRC-32C (Castagnoli) of `data`."""
    if _crc32c_fast is not None:
        return _crc32c_fast(bytes(data))
    if len(data) >= 32 * _CHUNK:
        return _crc_vectorized(data, 0xFFFFFFFF) ^ 0xFFFFFFFF
    return _crc_loop(data, 0xFFFFFFFF) ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


# ---- the protobuf wire format of tf.train.Example ----

def _varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("a varint runs past the end of the message")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a message: an int for varints and fixed-width
    fields, a memoryview for length-delimited ones."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
            if pos + length > end:
                raise ValueError(f"field {number} runs past the end of the message")
            value, pos = buf[pos:pos + length], pos + length
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            value, pos = bytes(buf[pos:pos + width]), pos + width
        else:
            raise ValueError(f"unsupported wire type {wire} (field {number})")
        yield number, wire, value


def _floats(body):
    values = []
    for number, wire, value in _fields(body):
        if number == 1 and wire == 2:  # packed
            values.extend(np.frombuffer(bytes(value), "<f4").tolist())
        elif number == 1 and wire == 5:
            values.append(struct.unpack("<f", value)[0])
    return np.array(values, np.float32)


def _ints(body):
    values = []
    for number, wire, value in _fields(body):
        if number == 1 and wire == 2:  # packed varints
            pos = 0
            while pos < len(value):
                v, pos = _varint(value, pos)
                values.append(v)
        elif number == 1 and wire == 0:
            values.append(value)
    return np.array([v - (1 << 64) if v >= 1 << 63 else v for v in values], np.int64)


_KINDS = {1: "string", 2: "float32", 3: "int64"}


def parse_example(buf):
    """{name: (kind, values)} of a serialized Example: kind "string" (a list of bytes),
    "float32" or "int64" (an array)."""
    features = {}
    for number, wire, value in _fields(memoryview(buf)):
        if number != 1 or wire != 2:
            continue
        for n_entry, w_entry, entry in _fields(value):
            if n_entry != 1 or w_entry != 2:
                continue
            name, feature = "", None
            for n, w, v in _fields(entry):
                if n == 1 and w == 2:
                    name = bytes(v).decode()
                elif n == 2 and w == 2:
                    feature = v
            kind, values = "int64", np.zeros(0, np.int64)  # an empty Feature
            for n, w, body in _fields(feature if feature is not None else b""):
                if n in _KINDS and w == 2:
                    kind = _KINDS[n]
                    values = [bytes(v) for k, _, v in _fields(body) if k == 1] if n == 1 \
                        else (_floats(body) if n == 2 else _ints(body))
            features[name] = (kind, values)
    return features


# ---- the files ----

def _open(path, compression, owner):
    """The records of a file as a buffer: a memory map, or the decompressed bytes."""
    with open(path, "rb") as f:
        if compression in ("GZIP", "ZLIB"):
            raw = f.read()
            try:
                return gzip.decompress(raw) if compression == "GZIP" else zlib.decompress(raw)
            except (OSError, EOFError, zlib.error) as err:
                if compression == "GZIP" and raw[:2] == b"\x1f\x8b" or \
                        compression == "ZLIB" and not _framed(raw):
                    raise data_error(owner, f"cannot decompress the {compression} file {path}: "
                                            f"{err}.") from err
                return raw  # MindSpore reads an uncompressed file given a compression type
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def _framed(buf):
    """Whether `buf` starts with a TFRecord header whose length CRC is right."""
    return len(buf) >= 12 and struct.unpack_from("<I", buf, 8)[0] == masked_crc(buf[:8])


def scan(path, buf, owner):
    """(data offset, length) of every record of a file, checking the headers' CRCs."""
    records, pos, end = [], 0, len(buf)
    if end == 0:
        raise data_error(owner, f"{path} is not a valid TFRecord file: it is empty.")
    while pos < end:
        if pos + 12 > end:
            raise data_error(owner, f"the TFRecord file {path} is truncated: {end - pos} bytes "
                                    f"at offset {pos} are too short for a 12-byte record "
                                    f"header.")
        head = buf[pos:pos + 8]
        if struct.unpack_from("<I", buf, pos + 8)[0] != masked_crc(head):
            raise data_error(owner, f"the TFRecord file {path} is corrupted: the length CRC of "
                                    f"the record at offset {pos} does not match (not a TFRecord "
                                    f"file, or compressed: see compression_type).")
        length = struct.unpack("<Q", head)[0]
        if pos + 12 + length + 4 > end:
            raise data_error(owner, f"the TFRecord file {path} is truncated: the record at "
                                    f"offset {pos} holds {length} bytes and its CRC but the file "
                                    f"ends {end - pos - 12} bytes later.")
        records.append((pos + 12, length))
        pos += 16 + length
    return records


def _record(path, buf, offset, length, owner):
    data = buf[offset:offset + length]
    if struct.unpack_from("<I", buf, offset + length)[0] != masked_crc(data):
        raise data_error(owner, f"the TFRecord file {path} is corrupted: the data CRC of the "
                                f"record at offset {offset - 12} does not match.")
    try:
        return parse_example(data)
    except (ValueError, UnicodeDecodeError) as err:
        raise data_error(owner, f"the record at offset {offset - 12} of {path} is not a "
                                f"tf.train.Example: {err}.") from err


# ---- the schema ----

def _columns(schema):
    """(name, type, shape or None) of the schema's columns; None without a schema."""
    if schema is None:
        return None
    if not isinstance(schema, Schema):
        schema = Schema(schema)
    return [(c["name"], c["type"], c.get("shape")) for c in schema.columns]


def _typed(name, kind, values, spec, path, owner):
    """A feature's values as a column of the schema (or as MindSpore infers it without one:
    int64, float32, or the bytes joined by spaces as uint8)."""
    if spec is None:
        if kind == "string":
            return np.frombuffer(b" ".join(values), np.uint8).copy()
        return values
    _, de_type, shape = spec
    if kind == "string" and de_type in ("string", "bytes"):
        out = np.array([v.decode() for v in values] if de_type == "string" else values)
    elif kind == "string" and de_type == "uint8":
        out = np.frombuffer(b"".join(values), np.uint8).copy()
    elif kind != "string" and de_type not in ("string", "bytes"):
        out = values.astype(de_type)
    else:
        raise data_error(owner, f"the feature {name} of {path} holds {kind} values but the "
                                f"schema's column {name} is of type {de_type}.")
    if shape:
        try:
            out = out.reshape(shape)
        except ValueError:
            raise data_error(owner, f"the feature {name} of {path} holds {out.size} values, "
                                    f"which do not fit the schema's shape {shape} of column "
                                    f"{name}.") from None
    return out


class TFRecordDataset(_LineSource):
    """Mirrors `mindspore.dataset.TFRecordDataset`: `tf.train.Example` rows of TFRecord files.

    Without a `schema`, the columns are the features of the first record (sorted by name):
    int64 lists as int64, float lists as float32, byte lists as uint8 (values joined by a
    space). A schema (`Schema` or a JSON schema file) names the columns, their types (a
    "string" column holds the byte values as text) and shapes; its numRows caps the rows.
    shuffle as `TextFileDataset`'s; with `shard_equal_rows=False` shard k reads the files k,
    k + num_shards, ... (sorted), otherwise an equal part of the rows of all files.
    """

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, shard_equal_rows=False, cache=None, compression_type=None):
        super().__init__()
        if not isinstance(dataset_files, (str, list)):
            raise TypeError("dataset_files should be type str or a list of strings.")
        if not dataset_files:
            raise ValueError(f"Input dataset_files can not be empty, but got "
                             f"'{dataset_files}'.")
        self._workers = self._check_args(num_parallel_workers, columns_list, shard_equal_rows,
                                         compression_type, schema)
        check_cache(cache)
        files = find_files(dataset_files)
        if isinstance(schema, str) and not os.path.isfile(schema):
            raise ValueError(f"The file {schema} does not exist or permission denied!")
        schema = schema if schema is None or isinstance(schema, Schema) else Schema(schema)
        if num_samples is None and schema is not None and schema.num_rows:
            num_samples = schema.num_rows
        self._specs = _columns(schema)
        self._compression = compression_type or ""
        self._equal_rows = shard_equal_rows
        self._names = list(columns_list) if columns_list is not None else \
            (None if self._specs is None else [c[0] for c in self._specs])
        self._columns_list = columns_list
        shuffle = Shuffle.GLOBAL if shuffle is None else shuffle  # as MindSpore
        self._setup(lambda: self._read_all(files), num_samples, shuffle, num_shards, shard_id)

    @staticmethod
    def _check_args(num_parallel_workers, columns_list, shard_equal_rows, compression_type,
                    schema):
        from cellgrad_dataset.readers.common import check_workers

        workers = check_workers(num_parallel_workers) or config.get_num_parallel_workers()
        if columns_list is not None and not isinstance(columns_list, list):
            raise TypeError(f"Argument columns_list with value {columns_list} is not of type "
                            f"[<class 'list'>], but got {type(columns_list)}.")
        if not isinstance(shard_equal_rows, bool):
            raise TypeError(f"Argument shard_equal_rows with value {shard_equal_rows} is not "
                            f"of type [<class 'bool'>], but got {type(shard_equal_rows)}.")
        if compression_type is not None and compression_type not in ("", "ZLIB", "GZIP"):
            raise ValueError(f"Input compression_type can only be either '' (no compression), "
                             f"'ZLIB', or 'GZIP', but got '{compression_type}'.")
        if schema is not None and not isinstance(schema, (str, Schema)):
            raise TypeError(f"path: {schema} is not string")
        return workers

    def _read_all(self, files):
        owner = type(self).__name__
        num_shards, shard_id = self._shards
        if not self._equal_rows and num_shards > 1:
            if len(files) < num_shards:
                raise data_error(owner, f"{len(files)} files cannot be split into {num_shards} "
                                        f"shards: with shard_equal_rows=False every shard reads "
                                        f"whole files (pass shard_equal_rows=True to split "
                                        f"rows).")
            self._shards = (1, 0)
        self._bufs = {path: _open(path, self._compression, owner) for path in files}
        records = {path: scan(path, buf, owner) for path, buf in self._bufs.items()}
        first = next((path for path in files if records[path]), None)
        if first is not None:
            self._fix_columns(first, *records[first][0])
        if not self._equal_rows and num_shards > 1:
            files = files[shard_id::num_shards]
        return files, [[(path, offset, length) for offset, length in records[path]]
                       for path in files]

    def _fix_columns(self, path, offset, length):
        """The column names and specs, from the schema, columns_list and the first record."""
        owner = type(self).__name__
        if self._specs is not None:
            specs = {c[0]: c for c in self._specs}
            for name in self._columns_list or []:
                if name not in specs:
                    raise data_error(owner, f"the column {name} of columns_list is not in the "
                                            f"schema's columns {list(specs)}.")
            self._specs = [specs[name] for name in self._names]
            return
        features = _record(path, self._bufs[path], offset, length, owner)
        for name in self._columns_list or []:
            if name not in features:
                raise data_error(owner, f"the column {name} of columns_list is not a feature "
                                        f"of {path}: its first record holds {sorted(features)}.")
        self._names = self._names or sorted(features)
        self._kinds = {name: features[name][0] for name in self._names}

    def _row(self, i):
        path, offset, length = self._data[i]
        owner = type(self).__name__
        features = _record(path, self._bufs[path], offset, length, owner)
        row = []
        for k, name in enumerate(self._names):
            if name not in features:
                raise data_error(owner, f"the feature {name} is missing from the record at "
                                        f"offset {offset - 12} of {path}.")
            kind, values = features[name]
            spec = None if self._specs is None else self._specs[k]
            if spec is None and kind != self._kinds[name]:
                raise data_error(owner, f"the feature {name} of the record at offset "
                                        f"{offset - 12} of {path} holds {kind} values, but "
                                        f"{self._kinds[name]} in the first record.")
            row.append(_typed(name, kind, values, spec, path, owner))
        return tuple(row)
