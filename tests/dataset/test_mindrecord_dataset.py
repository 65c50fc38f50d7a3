"""dataset.MindDataset (columns, dtypes, shards, padded samples, shuffle modes, samplers) and
Dataset.save, against what MindSpore 2.10 was seen doing on the same fixture files."""

import json
import lzma
import os

import numpy as np
import pytest
from cellgrad.mindrecord import FileReader

import cellgrad as ms
from cellgrad import dataset as ds

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "mindrecord")
with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)


@pytest.fixture
def fixture(tmp_path):
    def unpack(name):
        for f in EXPECTED[name]["files"]:
            with lzma.open(os.path.join(FIXTURES, f + ".xz")) as src:
                (tmp_path / f).write_bytes(src.read())
        return str(tmp_path / EXPECTED[name]["files"][0])
    return unpack


def column(data, name=None):
    rows = data.create_dict_iterator(output_numpy=True, num_epochs=1)
    return [r[name or data.get_col_names()[0]].item() for r in rows]


PAD = {"big": 7, "data": b"PAD", "feat": np.zeros((1, 2), np.float32), "file_name": "pad.jpg",
       "label": -9, "score": 1.5, "weight": 2.0}


def test_columns_dtypes_and_shapes(fixture):
    data = ds.MindDataset(fixture("basic"), shuffle=False)
    assert data.get_col_names() == ["big", "data", "feat", "file_name", "label", "score",
                                    "weight"]
    assert data.get_dataset_size() == 5
    row = next(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    got = {k: (v.dtype.str, v.shape) for k, v in row.items()}
    assert got == {"big": ("<i8", ()), "data": ("|S1", (1,)), "feat": ("<f4", (1, 2)),
                   "file_name": ("<U9", ()), "label": ("<i4", ()), "score": ("<f4", ()),
                   "weight": ("<f8", ())}
    tensor_row = next(data.create_tuple_iterator(num_epochs=1))
    assert tensor_row[4].dtype == ms.int32 and tensor_row[2].shape == (1, 2)


def test_columns_list_num_samples_getitem_sampler_and_a_pipeline(fixture):
    path = fixture("basic")
    data = ds.MindDataset(path, columns_list=["label", "file_name"], shuffle=False)
    assert data.get_col_names() == ["label", "file_name"]
    assert [r[0].tolist() for r in data.batch(2).create_tuple_iterator(output_numpy=True)] \
        == [[-2, -1], [0, 1], [2]]
    assert ds.MindDataset(path, shuffle=False, num_samples=2).get_dataset_size() == 2
    row = ds.MindDataset(path, shuffle=False)[3]  # as MindSpore's d[3]
    assert row[0].item() == -1099511627755 and row[3].item() == "img_3.jpg"
    assert row[5].dtype == np.float32 and row[5].item() == np.float32(1e20)
    assert column(ds.MindDataset(path, sampler=ds.SubsetSampler([3, 1])), "label") == [1, -1]


def test_shuffle_is_a_reproducible_permutation(fixture):
    path = fixture("sharded")
    ms.set_seed(3)
    a = column(ds.MindDataset(path, columns_list=["id"]))
    ms.set_seed(3)
    b = column(ds.MindDataset(path, columns_list=["id"], shuffle=ds.Shuffle.GLOBAL))
    assert a == b and sorted(a) == list(range(12)) and a != column(
        ds.MindDataset(path, columns_list=["id"], shuffle=False))


def test_shuffle_files_and_infile(fixture):
    path = fixture("sharded")
    files = [[r["id"] for r in FileReader([f"{path[:-1]}{k}"]).get_next()] for k in range(3)]
    assert column(ds.MindDataset(path, columns_list=["id"], shuffle=False)) == sum(files, [])
    ms.set_seed(5)
    by_files = ds.MindDataset(path, columns_list=["id"], shuffle=ds.Shuffle.FILES)
    in_files = ds.MindDataset(path, columns_list=["id"], shuffle=ds.Shuffle.INFILE)
    epochs = by_files.create_tuple_iterator(output_numpy=True, num_epochs=6)
    inner_epochs = in_files.create_tuple_iterator(output_numpy=True, num_epochs=6)
    seen = set()
    for _ in range(6):
        order = [r[0].item() for r in epochs]
        pieces, start = [], 0
        while start < 12:  # whole files, each one's rows in order
            f = next(f for f in files if f[0] == order[start])
            assert order[start:start + len(f)] == f
            pieces.append(f[0])
            start += len(f)
        seen.add(tuple(pieces))
        inner = [r[0].item() for r in inner_epochs]
        cuts = np.cumsum([0] + [len(f) for f in files])
        assert [sorted(inner[a:b]) for a, b in zip(cuts, cuts[1:])] == [sorted(f) for f in files]
    assert len(seen) > 1
    shard = column(ds.MindDataset(path, columns_list=["id"], shuffle=ds.Shuffle.FILES,
                                  num_shards=2, shard_id=1))
    assert len(shard) == 6


def test_padded_samples_fill_the_shards_as_mindspore(fixture):
    path = fixture("basic")
    got = []
    for shard in range(2):
        data = ds.MindDataset(path, columns_list=list(PAD), shuffle=False, num_shards=2,
                              shard_id=shard, padded_sample=PAD, num_padded=1)
        assert data.get_dataset_size() == 3
        got.append(list(data.create_dict_iterator(output_numpy=True, num_epochs=1)))
    assert [[r["label"].item() for r in rows] for rows in got] == [[-2, 0, 2], [-1, 1, -9]]
    pad = got[1][2]
    assert pad["data"].tolist() == [b"PAD"] and pad["feat"].shape == (1, 2)
    assert pad["score"].dtype == np.float32 and pad["file_name"].item() == "pad.jpg"
    part = ds.MindDataset(path, columns_list=["label", "file_name"], shuffle=False,
                          num_shards=3, shard_id=2, padded_sample={"label": 5, "file_name": "p"},
                          num_padded=1)
    assert [tuple(v.item() for v in r) for r in part.create_tuple_iterator(output_numpy=True)] \
        == [(0, "img_2.jpg"), (5, "p")]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"padded_sample": PAD, "num_padded": 1}, RuntimeError, "requires columns_list as well"),
    ({"num_padded": 1}, RuntimeError, "num_padded is specified but padded_sample is not."),
    ({"columns_list": list(PAD), "padded_sample": PAD, "num_padded": 2, "num_shards": 2,
      "shard_id": 0}, RuntimeError, "should be divisible by num_shards: 2"),
    ({"columns_list": ["label"], "padded_sample": {"big": 1}, "num_padded": 1}, ValueError,
     "padded_sample cannot match columns_list."),
    ({"shuffle": 3}, TypeError, "shuffle must be of boolean or enum of 'Shuffle'"),
    ({"shuffle": ds.Shuffle.FILES, "num_samples": 2}, ValueError,
     "'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot be"),
    ({"shuffle": False, "sampler": ds.SequentialSampler()}, RuntimeError,
     "sampler and shuffle cannot be specified at the same time."),
    ({"num_shards": 2}, RuntimeError, "num_shards is specified and currently requires"),
    ({"columns_list": ["label", "nope"]}, RuntimeError,
     "column name: nope can not found in schema"),
    ({"num_padded": 1.0}, TypeError, "Argument num_padded with value 1.0 is not of type"),
])
def test_argument_errors(fixture, kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        ds.MindDataset(fixture("basic"), **kwargs)


def test_missing_and_truncated_files(fixture, tmp_path):
    with pytest.raises(ValueError, match="zz.mindrecord does not exist or permission denied"):
        ds.MindDataset(str(tmp_path / "zz.mindrecord"))
    path = fixture("sharded")
    os.remove(str(tmp_path / "sharded.mindrecord2"))
    with pytest.raises(ValueError, match="sharded.mindrecord2 does not exist"):
        ds.MindDataset(path)  # a set misses one of its shards
    path = fixture("basic")
    with open(path, "r+b") as f:
        f.truncate(20000)
    with pytest.raises(RuntimeError, match=f"MindRecord file {path} is truncated"):
        ds.MindDataset(path)


# ---- Dataset.save ---------------------------------------------------------------------------

def test_save_round_trips_a_pipeline(tmp_path):
    images = np.arange(6 * 2 * 3, dtype=np.uint8).reshape(6, 2, 3)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6, dtype=np.int64),
                                  "name": np.array([f"n{i}" for i in range(6)]),
                                  "flag": np.arange(6) % 2 == 0}, shuffle=False)
    data.save(str(tmp_path / "p.mindrecord"), num_files=2)
    assert sorted(os.listdir(tmp_path)) == ["p.mindrecord0", "p.mindrecord0.db",
                                            "p.mindrecord1", "p.mindrecord1.db"]
    back = ds.MindDataset(str(tmp_path / "p.mindrecord0"), shuffle=False)
    rows = list(back.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert sorted(r["label"].item() for r in rows) == list(range(6))
    for r in rows:
        i = r["label"].item()
        assert r["image"].dtype == np.int32 and r["image"].tolist() == images[i].tolist()
        assert r["name"].item() == f"n{i}" and r["flag"].dtype == np.int32
        assert r["flag"].item() == int(i % 2 == 0)
    assert FileReader(str(tmp_path / "p.mindrecord1")).schema()["image"] == \
        {"shape": [-1, 3], "type": "int32"}


def test_save_errors_leave_no_files(tmp_path):
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    with pytest.raises(ValueError, match="num_files should between 0 and 1000."):
        data.save(str(tmp_path / "a.mindrecord"), num_files=0)
    with pytest.raises(ValueError, match="tfrecord dataset format is not supported."):
        data.save(str(tmp_path / "a.mindrecord"), file_type="tfrecord")
    data.save(str(tmp_path / "a.mindrecord"))
    with pytest.raises(RuntimeError, match="mindrecord files already exist"):
        data.save(str(tmp_path / "a.mindrecord"))

    def ragged():
        yield (np.zeros((2, 3), np.float32),)
        yield (np.zeros((2, 4), np.float32),)

    bad = ds.GeneratorDataset(ragged, column_names=["v"])
    with pytest.raises(RuntimeError, match="row 1 of the dataset does not match the schema"):
        bad.save(str(tmp_path / "b.mindrecord"))
    assert sorted(os.listdir(tmp_path)) == ["a.mindrecord", "a.mindrecord.db"]
