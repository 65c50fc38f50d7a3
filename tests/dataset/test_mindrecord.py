"""cellgrad.mindrecord: FileWriter / FileReader behaviour, MindSpore's error classes and
messages, bad files, and files that are never left half-written."""

import gc
import os
import shutil

import numpy as np
import pytest
from cellgrad.mindrecord import (
    FAILED,
    SUCCESS,
    FileReader,
    FileWriter,
    MRMDefineIndexError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cellgrad import mindrecord
from cellgrad_dataset.mindrecord import _format, _msgpack, filewriter

SCHEMA = {"name": {"type": "string"}, "label": {"type": "int32"}, "big": {"type": "int64"},
          "score": {"type": "float32"}, "weight": {"type": "float64"},
          "data": {"type": "bytes"}, "feat": {"type": "float32", "shape": [-1, 2]},
          "ids": {"type": "int64", "shape": [-1]}}


def make_row(i):
    return {"name": f"r{i}", "label": i, "big": 2 ** 40 * i, "score": i / 4, "weight": i / 3,
            "data": bytes(range(i % 7)) * 3,
            "feat": np.arange(2 * (i % 3 + 1), dtype=np.float32).reshape(-1, 2) * i,
            "ids": np.array([i, -i * 1000, 2 ** 35][: i % 3 + 1], np.int64)}


def write(path, rows, shard_num=1, schema=SCHEMA, overwrite=False, small=True, calls=1):
    w = FileWriter(str(path), shard_num, overwrite=overwrite)
    if small:
        w.set_header_size(1 << 14)
        w.set_page_size(1 << 15)
    w.add_schema(schema, "test")
    for part in np.array_split(np.arange(len(rows)), calls):
        w.write_raw_data([rows[i] for i in part])
    w.commit()
    return w


def check_rows(got, rows, schema=SCHEMA):
    assert len(got) == len(rows)
    for g, r in zip(got, rows):
        assert set(g) == set(schema)
        for k, v in r.items():
            if isinstance(v, np.ndarray):
                assert g[k].dtype == v.dtype
                np.testing.assert_array_equal(g[k].reshape(v.shape), v)
            elif isinstance(v, float):  # whole floats come back as ints, as MindSpore's
                assert g[k] == v and type(g[k]) is (int if v == int(v) else float)
            else:
                assert g[k] == v and type(g[k]) is type(v)


def listing(folder):
    return sorted(os.listdir(folder))


# ---- round trips ----------------------------------------------------------------------------

def test_round_trip_of_every_field_kind(tmp_path):
    rows = [make_row(i) for i in range(7)]
    write(tmp_path / "a.mindrecord", rows)
    reader = FileReader(str(tmp_path / "a.mindrecord"))
    got = list(reader.get_next())
    assert reader.len() == 7 and reader.schema() == SCHEMA
    check_rows(got, rows)
    assert list(got[1]) == ["big", "label", "name", "score", "weight", "data", "feat", "ids"]
    assert got[1]["score"] == 0.25 and got[4]["score"] == 1 and type(got[4]["score"]) is int
    reader.close()
    reader.close()  # closing twice is fine


def test_many_pages_shards_and_calls_read_back_shard_by_shard(tmp_path):
    rng = np.random.default_rng(0)
    rows = [{"id": i, "text": "x" * int(rng.integers(0, 3000)),
             "blob": rng.integers(0, 256, int(rng.integers(1, 9000))).astype(np.uint8).tobytes()}
            for i in range(120)]
    schema = {"id": {"type": "int32"}, "text": {"type": "string"}, "blob": {"type": "bytes"}}
    write(tmp_path / "m.mindrecord", rows, shard_num=3, schema=schema, calls=7)
    assert listing(tmp_path) == [f"m.mindrecord{k}{e}" for k in range(3) for e in ("", ".db")]
    got = list(FileReader(str(tmp_path / "m.mindrecord2")).get_next())
    ids = [r["id"] for r in got]
    assert sorted(ids) == list(range(120))
    shard_of = [np.flatnonzero(np.diff(ids) < 0)]
    assert len(shard_of[0]) == 2  # three shards, each in written order
    assert all(got[k]["blob"] == rows[i]["blob"] and got[k]["text"] == rows[i]["text"]
               for k, i in enumerate(ids))
    only_first = FileReader([str(tmp_path / "m.mindrecord0")], columns=["id"])
    assert [r["id"] for r in only_first.get_next()] == ids[:only_first.len()]
    assert list(next(only_first.get_next())) == ["id"]


def test_open_for_append_adds_rows_to_a_file(tmp_path):
    rows = [make_row(i) for i in range(9)]
    write(tmp_path / "a.mindrecord", rows[:4])
    for part in (rows[4:6], rows[6:]):
        w = FileWriter.open_for_append(str(tmp_path / "a.mindrecord"))
        w.write_raw_data(part)
        w.commit()
    check_rows(list(FileReader(str(tmp_path / "a.mindrecord")).get_next()), rows)
    assert listing(tmp_path) == ["a.mindrecord", "a.mindrecord.db"]


def test_commit_without_rows_writes_a_readable_empty_file(tmp_path):
    w = FileWriter(str(tmp_path / "e.mindrecord"))
    w.add_schema({"a": {"type": "int32"}})
    w.commit()
    assert (tmp_path / "e.mindrecord").stat().st_size < 400  # the bare header, as MindSpore
    reader = FileReader(str(tmp_path / "e.mindrecord"))
    assert reader.len() == 0 and list(reader.get_next()) == []


def test_add_index_picks_the_indexed_fields(tmp_path):
    import sqlite3

    w = FileWriter(str(tmp_path / "a.mindrecord"))
    w.add_schema(SCHEMA)
    w.add_index(["label", "name"])
    w.write_raw_data([make_row(i) for i in range(3)])
    w.commit()
    db = sqlite3.connect(str(tmp_path / "a.mindrecord.db"))
    assert db.execute("SELECT label_0, name_0 FROM INDEXES ORDER BY ROW_ID").fetchall() == \
        [(0, "r0"), (1, "r1"), (2, "r2")]
    db.close()


def test_status_and_error_codes_are_mindsporess():
    assert SUCCESS == 0 and FAILED == 1 and repr(SUCCESS) == "<MSRStatus.SUCCESS: 0>"
    e = ParamValueError("x")
    assert e.error_code == 1347686402 and str(e) == "[ParamValueError]: Invalid parameter value. x"
    assert mindrecord.MRMOpenError().error_code == 1347690596
    assert issubclass(mindrecord.MRMCommitError, mindrecord.MindRecordException)


# ---- the writer's argument checks -----------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("",), "File path is not allowed None or empty!"),
    (("dir/",), "File path can not end with '/'"),
    (("a?b",), r"File name should not contains"),
    (("a", 0), "Parameter shard_num's value: 0 should between 1 and 1000."),
    (("a", "2"), "Parameter shard_num's type is not int."),
    (("a", 1, 1), "Parameter overwrite's type is not bool."),
])
def test_writer_arguments(args, message):
    with pytest.raises(ParamValueError, match=message.replace("(", r"\(")):
        FileWriter(*args)


@pytest.mark.parametrize("schema, message", [
    ({}, "Schema content is empty."),
    ({"x": {"type": "int8"}}, "Field 'x' contain illegal attribute 'int8'."),
    ({"x-y": {"type": "int32"}}, "Field 'x-y' should be composed of"),
    ({"x": {"type": "bytes", "shape": [2]}}, "Field 'x' contain illegal attribute 'bytes'."),
    ({"x": {"type": "int32", "shape": 2}}, "Field 'x' contain illegal attribute '2'."),
    ({"x": "int32"}, "Field 'x' should be dict."),
])
def test_bad_schemas(schema, message):
    with pytest.raises(MRMInvalidSchemaError, match=message):
        FileWriter("a").add_schema(schema)


def test_index_and_size_checks(tmp_path):
    w = FileWriter(str(tmp_path / "a.mindrecord"))
    w.add_schema(SCHEMA)
    with pytest.raises(MRMDefineIndexError, match="Failed to set field data since it's not"):
        w.add_index(["data"])
    with pytest.raises(ParamTypeError, match="'index_fields' expect list type"):
        w.add_index("label")
    with pytest.raises(RuntimeError, match="'index_fields': zz can not found in schema"):
        w.add_index(["zz"])
    with pytest.raises(RuntimeError, match=r"header size: 100 should be in range \[16384"):
        w.set_header_size(100)
    with pytest.raises(RuntimeError, match=r"page size: 32770 should be divided by four"):
        w.set_page_size(32770)


def test_write_checks(tmp_path):
    w = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(RuntimeError, match="schema is not found in header, please use "
                                           "'add_schema'"):
        w.write_raw_data([{"x": 1}])
    w.add_schema({"x": {"type": "int32"}})
    with pytest.raises(TypeError, match="`parallel_writer` must be bool"):
        w.write_raw_data([{"x": 1}], parallel_writer=1)
    with pytest.raises(ParamTypeError, match="'raw_data' expect list type"):
        w.write_raw_data({"x": 1})
    with pytest.raises(ParamTypeError, match="'raw_data item' expect dict type"):
        w.write_raw_data([[1]])
    with pytest.raises(RuntimeError, match="`parallel_writer` must be consistent"):
        w.write_raw_data([{"x": 1}], parallel_writer=True)
    w.commit()
    with pytest.raises(RuntimeError, match="Not allowed to call `write_raw_data` on flushed"):
        w.write_raw_data([{"x": 1}])


def test_rows_not_matching_the_schema_are_skipped_with_a_warning(tmp_path, monkeypatch):
    warnings = []
    monkeypatch.setattr(filewriter.logger, "warning", warnings.append)
    schema = {"x": {"type": "int32"}, "s": {"type": "string"},
              "a": {"type": "float32", "shape": [2]}}
    ok = np.zeros(2, np.float32)
    rows = [{"x": 1, "s": "a", "a": ok}, {"x": "no", "s": "b", "a": ok}, {"x": 3, "a": ok},
            {"x": 4, "s": "d", "a": np.zeros(3, np.float32)},
            {"x": 5, "s": "e", "a": np.zeros(2)}, {"x": 2 ** 40, "s": "f", "a": ok},
            {"x": 7.0, "s": "g", "a": ok}, {"x": np.int32(8), "s": "h", "a": ok},
            {"x": True, "s": "i", "a": ok}]
    write(tmp_path / "b.mindrecord", rows, schema=schema)
    assert [r["x"] for r in FileReader(str(tmp_path / "b.mindrecord")).get_next()] == [1, 8]
    assert len(warnings) == 7
    assert all(str(tmp_path / "b.mindrecord") in w for w in warnings)
    assert "1 th data is wrong, data type: 'int32' for field: 'x' is not matched." in warnings[0]
    assert "there is not field: 's' in the raw data." in warnings[1]
    assert "data shape: '(3,)' for field: 'a' is not matched" in warnings[2]
    assert "data type: 'float64' for field: 'a' is not matched" in warnings[3]
    assert "value: 1099511627776 is out of range" in warnings[4]
    with pytest.raises(RuntimeError, match="There is no valid data which can be written"):
        FileWriter(str(tmp_path / "c.mindrecord")).add_schema(schema) or None
        w = FileWriter(str(tmp_path / "c.mindrecord"))
        w.add_schema(schema)
        w.write_raw_data([{"x": "bad", "s": "", "a": ok}])


def test_a_row_larger_than_a_page_is_refused(tmp_path):
    w = FileWriter(str(tmp_path / "a.mindrecord"))
    w.set_page_size(1 << 15)
    w.add_schema({"b": {"type": "bytes"}})
    with pytest.raises(RuntimeError, match="does not fit in a page of 32768 bytes"):
        w.write_raw_data([{"b": bytes(40000)}])


# ---- existing files, atomic commits ---------------------------------------------------------

def test_existing_files_need_overwrite(tmp_path):
    path = tmp_path / "a.mindrecord"
    write(path, [make_row(1)])
    with pytest.raises(RuntimeError, match="mindrecord files already exist. Please check file "
                                           f"path: {path}"):
        write(path, [make_row(2)])
    os.remove(path)  # a leftover index blocks too
    with pytest.raises(RuntimeError, match="mindrecord files already exist"):
        write(path, [make_row(2)])
    write(path, [make_row(3), make_row(4)], overwrite=True)
    assert [r["label"] for r in FileReader(str(path)).get_next()] == [3, 4]
    assert listing(tmp_path) == ["a.mindrecord", "a.mindrecord.db"]


def test_a_failed_commit_leaves_no_file_and_keeps_the_old_one(tmp_path):
    path = tmp_path / "a.mindrecord"
    write(path, [make_row(1)])
    before = path.read_bytes()
    w = FileWriter(str(path), overwrite=True)
    w.set_header_size(1 << 14)
    w.add_schema(SCHEMA, "d" * 20000)  # the header no longer fits in 16 KB
    w.write_raw_data([make_row(2)])
    with pytest.raises(RuntimeError, match="header .* is larger than header_size 16384"):
        w.commit()
    assert listing(tmp_path) == ["a.mindrecord", "a.mindrecord.db"]
    assert path.read_bytes() == before


def test_an_uncommitted_writer_leaves_nothing(tmp_path):
    w = FileWriter(str(tmp_path / "a.mindrecord"), 2)
    w.add_schema(SCHEMA)
    w.write_raw_data([make_row(i) for i in range(4)])
    assert not any(f.startswith("a.mindrecord") for f in listing(tmp_path))
    del w
    gc.collect()
    assert listing(tmp_path) == []


# ---- bad files ------------------------------------------------------------------------------

@pytest.fixture
def good(tmp_path):
    path = tmp_path / "g.mindrecord"
    write(path, [make_row(i) for i in range(5)])
    return path


def test_missing_files(tmp_path, good):
    with pytest.raises(RuntimeError, match="The input: .*zz.mindrecord is not exists."):
        FileReader(str(tmp_path / "zz.mindrecord"))
    os.remove(str(good) + ".db")
    with pytest.raises(RuntimeError, match=r"The input: .*g.mindrecord.db is not exists."):
        FileReader(str(good))


def test_truncated_file(good):
    with open(good, "r+b") as f:
        f.truncate(os.path.getsize(good) - 10)
    with pytest.raises(RuntimeError, match=f"MindRecord file {good} is truncated"):
        FileReader(str(good))
    with open(good, "r+b") as f:
        f.truncate(300)
    with pytest.raises(RuntimeError, match=f"failed to read header content of file: {good}"):
        FileReader(str(good))


def test_corrupt_files(tmp_path, good):
    data = bytearray(good.read_bytes())
    data[8:20] = b"not json!!!!"
    good.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=f"failed to read header content of file: {good}"):
        FileReader(str(good))
    other = tmp_path / "o.mindrecord"
    write(other, [make_row(1)])
    (tmp_path / "o.mindrecord.db").write_bytes(b"x" * 100)
    with pytest.raises(RuntimeError, match=f"failed to read the MindRecord index file: "
                                           f"{other}.db"):
        FileReader(str(other))


def test_corrupt_row_names_the_file_and_row(tmp_path, good):
    header = 1 << 14
    data = bytearray(good.read_bytes())
    page = 1 << 15
    data[header + page + 8] = 0xC1  # the first raw row's MessagePack: a reserved type byte
    good.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=f"failed to read row 0 of MindRecord file {good}"):
        list(FileReader(str(good)).get_next())


def test_reader_arguments(good):
    with pytest.raises(ParamValueError, match="Parameter num_consumer: 0 should between 1"):
        FileReader(str(good), num_consumer=0)
    with pytest.raises(ParamValueError, match="Parameter num_consumer is not int."):
        FileReader(str(good), num_consumer="2")
    with pytest.raises(ParamTypeError, match="'columns' expect list type."):
        FileReader(str(good), columns="label")
    with pytest.raises(RuntimeError, match="column name: nope can not found in schema"):
        FileReader(str(good), columns=["label", "nope"])


def test_append_to_a_sharded_set_is_refused(tmp_path):
    write(tmp_path / "s.mindrecord", [make_row(i) for i in range(4)], shard_num=2)
    with pytest.raises(RuntimeError, match="one of 2 shard files"):
        FileWriter.open_for_append(str(tmp_path / "s.mindrecord0"))


def test_files_copied_elsewhere_are_found_by_their_header(tmp_path, good):
    moved = tmp_path / "moved"
    moved.mkdir()
    for f in ("g.mindrecord", "g.mindrecord.db"):
        shutil.copy(tmp_path / f, moved / f)
    assert FileReader(str(moved / "g.mindrecord")).len() == 5


def test_parallel_writer_makes_each_shard_a_set_of_its_own(tmp_path):
    # as MindSpore 2.10: calls go to the shards in turn, each file lists only itself
    w = FileWriter(str(tmp_path / "pw.mindrecord"), 2)
    w.add_schema({"id": {"type": "int32"}})
    for start in range(0, 9, 3):
        w.write_raw_data([{"id": i} for i in range(start, start + 3)], parallel_writer=True)
    w.commit()
    first = FileReader(str(tmp_path / "pw.mindrecord0"))
    assert [r["id"] for r in first.get_next()] == [0, 1, 2, 6, 7, 8]
    both = FileReader([str(tmp_path / "pw.mindrecord0"), str(tmp_path / "pw.mindrecord1")])
    assert [r["id"] for r in both.get_next()] == [0, 1, 2, 6, 7, 8, 3, 4, 5]


# ---- the encodings, on arbitrary values ------------------------------------------------------

_INT64 = st.integers(-(1 << 63), (1 << 63) - 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(_INT64, max_size=40), st.booleans())
def test_integer_compression_round_trips(values, as_int32):
    dtype = np.int32 if as_int32 else np.int64
    if as_int32:
        values = [v % (1 << 32) - (1 << 31) for v in values]
    data = np.array(values, dtype).tobytes()
    packed = _format.compress_ints(data, np.dtype(dtype).name)
    widths = [1 if -128 <= v < 128 else 2 if -32768 <= v < 32768 else
              4 if -(1 << 31) <= v < (1 << 31) else 8 for v in values]
    assert len(packed) == 4 + -(-len(values) // 4) + sum(widths)
    assert _format.uncompress_ints(packed, np.dtype(dtype).name).tolist() == values


_SCALARS = st.one_of(st.integers(-(1 << 63), (1 << 64) - 1),
                     st.floats(allow_nan=False), st.text(max_size=70))


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=40), _SCALARS, max_size=20))
def test_messagepack_round_trips_with_sorted_keys(row):
    packed = _msgpack.pack(row)
    assert _msgpack.unpack(packed) == row
    assert list(_msgpack.unpack(packed)) == sorted(row)


def test_messagepack_formats_are_nlohmanns():
    # the exact bytes MindSpore's JSON library writes (seen in MindSpore-written pages)
    assert _msgpack.pack({"f": 0.5, "i": 200, "n": -33, "s": "x" * 40}) == (
        b"\x84\xa1f\xca\x3f\x00\x00\x00\xa1i\xcc\xc8\xa1n\xd0\xdf\xa1s\xd9\x28" + b"x" * 40)
    assert _msgpack.pack({"d": 0.1}) == b"\x81\xa1d\xcb" + np.float64(0.1).byteswap().tobytes()
    with pytest.raises(ValueError, match="not valid MessagePack"):
        _msgpack.unpack(b"\x81\xa1d\xcb\x00")
