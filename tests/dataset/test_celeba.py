"""CelebADataset replayed against rows recorded from MindSpore 2.10 (celeba_record.py)."""

import inspect
import json
import os
import shutil
import sys

import cellgrad.dataset as ds
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import celeba_record as rec  # noqa: E402

with open(os.path.join(rec.HERE, "fixtures", "celeba_recorded.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", sorted(rec.CASES))
def test_rows_as_mindspore(name):
    got, want = rec.run(ds, rec.CASES[name]), RECORDED["cases"][name]
    assert got["names"] == want["names"] == ["image", "attr"]
    assert got["rows"] == want["rows"]
    assert got["size"] == want["size"]  # (MindSpore's size after reading the rows once)


def test_signature_as_mindspore():
    got = [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty else None]
           for p in inspect.signature(ds.CelebADataset).parameters.values()]
    assert got == RECORDED["signature"]


def test_argument_checks(tmp_path):
    with pytest.raises(ValueError, match=r"usage should be 'all', 'train', 'valid' or 'test'\."):
        ds.CelebADataset(rec.FOLDER, usage="bad")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.CelebADataset(str(tmp_path / "none"))
    with pytest.raises(TypeError, match="Argument shuffle with value 1 is not of type"):
        ds.CelebADataset(rec.FOLDER, shuffle=1)
    with pytest.raises(TypeError, match="Argument cache with value 2 is not of type"):
        ds.CelebADataset(rec.FOLDER, cache=2)
    cached = ds.CelebADataset(rec.FOLDER, shuffle=False, cache=ds.DatasetCache(1))
    assert cached.get_dataset_size() == 5


def _copy(tmp_path):
    folder = tmp_path / "celeba"
    shutil.copytree(rec.FOLDER, folder)
    return folder


def test_bad_folders(tmp_path):
    folder = _copy(tmp_path)
    os.remove(folder / "list_eval_partition.txt")
    assert ds.CelebADataset(str(folder)).get_dataset_size() == 5
    with pytest.raises(RuntimeError, match="usage 'train' needs the partition file"):
        ds.CelebADataset(str(folder), usage="train").get_dataset_size()
    os.remove(folder / "000002.jpg")
    with pytest.raises(RuntimeError, match="cannot read the image .*000002.jpg"):
        list(ds.CelebADataset(str(folder), shuffle=False))
    os.remove(folder / "list_attr_celeba.txt")
    with pytest.raises(RuntimeError, match="list_attr_celeba.txt does not exist"):
        ds.CelebADataset(str(folder)).get_dataset_size()


def test_decrypt_reads_through_the_function():
    seen = []

    def decrypt(path):
        seen.append(os.path.basename(path))
        with open(path, "rb") as f:
            return f.read()

    rows = list(ds.CelebADataset(rec.FOLDER, shuffle=False, decrypt=decrypt, decode=True,
                                 usage="valid").create_tuple_iterator(output_numpy=True))
    assert seen == ["000002.jpg"] and rows[0][0].shape == (5, 6, 3)
