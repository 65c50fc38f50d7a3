"""MindRecord files both ways against MindSpore 2.10: cellgrad reads the fixtures MindSpore
wrote (fixtures/mindrecord, made by make_fixtures.py) as MindSpore reads them, writes the same
bytes MindSpore writes, and still writes the files MindSpore was seen reading
(mindspore_reads_ours.py, run by hand, recorded their hashes and MindSpore's rows)."""

import json
import lzma
import os
import sqlite3
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "mindrecord")
sys.path.insert(0, FIXTURES)
sys.path.insert(0, HERE)

from cellgrad.mindrecord import FileWriter  # noqa: E402
from make_fixtures import CASES, read_back  # noqa: E402
from mindspore_reads_ours import _ours, digests, write_all  # noqa: E402

with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)
with open(os.path.join(FIXTURES, "mindspore_reads_ours.json")) as _f:
    MS_READS_OURS = json.load(_f)


def unpack(name, folder):
    """Writes the decompressed files of fixture `name` to `folder`; returns the file to read."""
    for f in EXPECTED[name]["files"]:
        with lzma.open(os.path.join(FIXTURES, f + ".xz")) as src, \
                open(os.path.join(folder, f), "wb") as dst:
            dst.write(src.read())
    return os.path.join(folder, EXPECTED[name]["files"][0])


def as_json(value):
    return json.loads(json.dumps(value))


def index_content(path):
    db = sqlite3.connect(path)
    try:
        return (sorted(db.execute("SELECT type, name, sql FROM sqlite_master")),
                db.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                db.execute("SELECT * FROM SHARD_NAME").fetchall())
    finally:
        db.close()


def test_the_fixtures_cover_what_they_claim():
    assert set(EXPECTED) == set(CASES)
    assert EXPECTED["sharded"]["files"][::2] == ["sharded.mindrecord0", "sharded.mindrecord1",
                                                 "sharded.mindrecord2"]
    assert EXPECTED["arrays"]["schema"]["ids"] == {"shape": [2, 3], "type": "int32"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cellgrad_reads_what_mindspore_wrote(name, tmp_path):
    got = as_json(read_back(unpack(name, str(tmp_path)), reader=_ours))
    want = {k: v for k, v in EXPECTED[name].items() if k != "files"}
    for key in ("schema", "len", "reader", "columns", "dataset", "shards"):
        assert got[key] == want[key], key


@pytest.mark.parametrize("name", sorted(set(CASES) - {"sharded"}))
def test_cellgrad_writes_the_bytes_mindspore_writes(name, tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    CASES[name](str(ours / (name + ".mindrecord")), FileWriter)
    unpack(name, str(theirs))
    assert sorted(os.listdir(ours)) == EXPECTED[name]["files"]
    for f in EXPECTED[name]["files"]:
        if f.endswith(".db"):
            assert index_content(ours / f) == index_content(theirs / f)
        else:
            assert (ours / f).read_bytes() == (theirs / f).read_bytes(), f


def test_sharded_writes_spread_rows_evenly_and_read_back_in_shard_order(tmp_path):
    # MindSpore gives a call's leftover rows to random shards; cellgrad takes turns.
    CASES["sharded"](str(tmp_path / "sharded.mindrecord"), FileWriter)
    got = as_json(read_back(str(tmp_path / "sharded.mindrecord1"), reader=_ours))
    ids = [dict(row)["id"]["int"] for row in got["reader"]]
    assert ids == [0, 1, 4, 8, 2, 5, 6, 9, 3, 7, 10, 11]  # call k gives shard k its extra row
    assert sorted(os.listdir(tmp_path)) == EXPECTED["sharded"]["files"]


@pytest.fixture(scope="module")
def ours_written(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("ours"))
    return folder, write_all(folder)


@pytest.mark.parametrize("name", sorted(set(MS_READS_OURS) - {"mindspore_saved"}))
def test_cellgrad_writes_the_files_mindspore_was_seen_reading(name, ours_written):
    folder, paths = ours_written
    record = MS_READS_OURS[name]
    assert paths[name] == record["path"]
    assert digests(folder, name) == record["sha256"]
    assert as_json(read_back(os.path.join(folder, paths[name]), reader=_ours)) \
        == record["mindspore"]


def test_save_reads_back_as_mindspores_own_save(ours_written):
    folder, paths = ours_written
    got = as_json(read_back(os.path.join(folder, paths["saved1"]), reader=_ours))
    assert got == MS_READS_OURS["mindspore_saved"]
    assert got["schema"]["image"] == {"shape": [-1, 3], "type": "int32"}
    assert got["schema"]["flag"] == {"type": "int32"}
