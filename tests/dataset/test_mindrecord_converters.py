"""mindrecord.Cifar10ToMR / Cifar100ToMR (and the top-level names of the converters): tiny
CIFAR batches in the Python release's format, converted and read back. MnistToMR, CsvToMR and
ImageNetToMR are replayed from MindSpore (ms_programs/mindrecord_converters.py); MindSpore's
CIFAR converters check the official files' MD5, so they cannot convert generated batches."""

import os
import pickle

import numpy as np
import pytest
from cellgrad.mindrecord import Cifar10ToMR, Cifar100ToMR, FileReader

import cellgrad as ms

cv2 = pytest.importorskip("cv2")
rng = np.random.default_rng(0)


def _rows(path):
    reader = FileReader(path)
    try:
        return list(reader.get_next())
    finally:
        reader.close()


def _batch(path, n, labels):
    # smooth images (a colour plus a ramp): JPEG keeps them close, unlike noise
    ramp = np.linspace(0, 60, 32)[None, None, None, :]
    images = (rng.integers(0, 190, (n, 3, 1, 1)) + ramp + np.zeros((1, 1, 32, 1)))
    images = images.astype(np.uint8)
    with open(path, "wb") as f:
        pickle.dump({b"data": images.reshape(n, -1), **labels}, f, protocol=2)
    return images.transpose(0, 2, 3, 1)


def _close(jpeg, rgb):
    decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)[..., ::-1]
    return np.abs(decoded.astype(int) - rgb.astype(int)).mean() < 4


def test_cifar10_to_mindrecord(tmp_path):
    src = tmp_path / "cifar-10-batches-py"
    src.mkdir()
    first = _batch(src / "data_batch_1", 3, {b"labels": [3, 1, 4]})
    second = _batch(src / "data_batch_2", 2, {b"labels": [1, 5]})
    test = _batch(src / "test_batch", 2, {b"labels": [9, 2]})
    dest = str(tmp_path / "cifar10.mindrecord")
    assert ms.Cifar10ToMR is Cifar10ToMR
    assert Cifar10ToMR(str(src), dest).transform(["label"]) is None
    train = _rows(dest)
    assert [int(r["id"]) for r in train] == [0, 1, 2, 3, 4]
    assert [int(r["label"]) for r in train] == [3, 1, 4, 1, 5]
    assert all(_close(r["data"], img) for r, img in zip(train, np.concatenate([first, second])))
    rows = _rows(dest + "_test")
    assert [int(r["label"]) for r in rows] == [9, 2] and _close(rows[1]["data"], test[1])


def test_cifar100_to_mindrecord(tmp_path):
    src = tmp_path / "cifar-100-python"
    src.mkdir()
    train = _batch(src / "train", 2, {b"fine_labels": [7, 99], b"coarse_labels": [1, 19]})
    _batch(src / "test", 1, {b"fine_labels": [0], b"coarse_labels": [5]})
    dest = str(tmp_path / "c100.mindrecord")
    Cifar100ToMR(str(src), dest).transform()
    rows = _rows(dest)
    assert sorted(rows[0]) == ["coarse_label", "data", "fine_label", "id"]
    assert [(int(r["fine_label"]), int(r["coarse_label"])) for r in rows] == [(7, 1), (99, 19)]
    assert _close(rows[1]["data"], train[1])
    assert [int(r["coarse_label"]) for r in _rows(dest + "_test")] == [5]


def test_converters_check_their_sources(tmp_path):
    from cellgrad.mindrecord import MnistToMR

    from cellgrad_dataset.mindrecord.exceptions import PathNotExistsError

    (tmp_path / "test_batch").write_bytes(b"")
    with pytest.raises(PathNotExistsError, match=r"data_batch_\*"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out"))
    with pytest.raises(ValueError, match="fields should be None or list"):
        (tmp_path / "data_batch_1").write_bytes(b"")
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out")).transform("label")
    with pytest.raises(ValueError, match="partition_number must be int"):
        MnistToMR(str(tmp_path), str(tmp_path / "m"), partition_number="2")


def test_a_pickle_with_other_globals_is_refused(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    _batch(src / "test_batch", 1, {b"labels": [0]})
    with open(src / "data_batch_1", "wb") as f:
        pickle.dump({b"data": os.system, b"labels": [0]}, f)
    with pytest.raises(pickle.UnpicklingError, match="forbidden"):
        Cifar10ToMR(str(src), str(tmp_path / "out")).transform()
