"""TFRecordDataset replayed against rows recorded from MindSpore 2.10
(tests/dataset/tfrecord_record.py), plus the checks MindSpore does not make (CRCs)."""

import inspect
import json
import os
import struct
import sys

import cellgrad.dataset as ds
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfrecord_cases as tc  # noqa: E402
import tfrecord_writer as w  # noqa: E402

from cellgrad_dataset.readers import tfrecord as reader  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tfrecord",
                       "recorded.json")) as _f:
    RECORDED = json.load(_f)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("tfrecord")
    tc.make_files(str(path))
    return str(path)


def _same(got, want):
    assert got["names"] == want["names"]
    assert got["size"] == want["size"]
    assert len(got["rows"]) == len(want["rows"])
    for row, want_row in zip(got["rows"], want["rows"]):
        for (dtype, shape, values), (w_dtype, w_shape, w_values) in zip(row, want_row):
            assert (dtype, shape) == (w_dtype, w_shape)
            if dtype.startswith("float"):
                np.testing.assert_allclose(values, w_values, rtol=1e-6)
            else:
                assert values == w_values


@pytest.mark.parametrize("name", sorted(tc.CASES))
def test_rows_as_mindspore(folder, name):
    _same(tc.run(ds, folder, tc.CASES[name]), RECORDED["cases"][name])


@pytest.mark.parametrize("name", sorted(tc.ERROR_CASES))
def test_errors_as_mindspore(folder, name):
    assert RECORDED["errors"][name] == "RuntimeError"
    with pytest.raises(RuntimeError, match="TFRecordDataset"):
        tc.run(ds, folder, tc.ERROR_CASES[name])


def test_signature_as_mindspore():
    got = [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty else None]
           for p in inspect.signature(ds.TFRecordDataset).parameters.values()]
    assert got == RECORDED["signatures"]["TFRecordDataset"]


def test_error_messages_name_file_and_column(folder):
    bad = os.path.join(folder, "bad_length_crc.tfrecord")
    with pytest.raises(RuntimeError, match="bad_length_crc.tfrecord is corrupted: the length CRC"):
        ds.TFRecordDataset(bad).get_dataset_size()
    data = ds.TFRecordDataset(os.path.join(folder, "a.tfrecord"), columns_list=["nope"])
    with pytest.raises(RuntimeError, match="column nope of columns_list is not a feature of "
                                           ".*a.tfrecord"):
        list(data)
    with pytest.raises(RuntimeError, match="truncated.tfrecord is truncated"):
        ds.TFRecordDataset(os.path.join(folder, "truncated.tfrecord")).get_dataset_size()


def test_data_crc_checked_when_read(tmp_path):
    """MindSpore 2.10 skips the data CRC; cellgrad checks it (a flipped bit is an error)."""
    path = w.write(str(tmp_path / "x.tfrecord"), w.sample_rows(2))
    raw = bytearray(open(path, "rb").read())
    raw[-1] ^= 1  # the last record's data CRC
    open(path, "wb").write(bytes(raw))
    data = ds.TFRecordDataset(path, shuffle=False)
    assert data.get_dataset_size() == 2
    with pytest.raises(RuntimeError, match="x.tfrecord is corrupted: the data CRC of the record "
                                           "at offset"):
        list(data)


def test_crc32c_and_wire_format():
    assert reader.crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value
    rng = np.random.default_rng(0)
    for n in (1, 8191, 8192, 9000, 12345):  # the byte loop and the chunked numpy version
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert reader.crc32c(data) == w.crc32c(data)
    row = {"b": [b"", b"\xff"], "f": [0.25, -3.0], "i": [-1, 2**63 - 1, 0]}
    features = reader.parse_example(w.example(row))
    assert features["b"] == ("string", [b"", b"\xff"])
    assert features["f"][0] == "float32" and features["f"][1].tolist() == [0.25, -3.0]
    assert features["i"][1].dtype == np.int64
    assert features["i"][1].tolist() == [-1, 2**63 - 1, 0]


def test_unpacked_repeated_fields():
    """Writers may emit non-packed repeated scalars (wire types 0 and 5)."""
    ints = w.field(3, w.varint(1 << 3 | 0) + w.varint(5) + w.varint(1 << 3 | 0) + w.varint(-2))
    floats = w.field(2, w.varint(1 << 3 | 5) + struct.pack("<f", 1.5))
    entries = w.field(1, w.field(1, b"i") + w.field(2, ints)) + \
        w.field(1, w.field(1, b"f") + w.field(2, floats))
    features = reader.parse_example(w.field(1, entries))
    assert features["i"][1].tolist() == [5, -2]
    assert features["f"][1].tolist() == [1.5]


def test_shuffle_is_a_permutation_and_repeatable(folder):
    files = [os.path.join(folder, f) for f in tc.ABC]
    ds.config.set_seed(5)
    first = [int(r[0][0]) for r in ds.TFRecordDataset(files, columns_list=["label"])
             .create_tuple_iterator(output_numpy=True, num_epochs=1)]
    ds.config.set_seed(5)
    again = [int(r[0][0]) for r in ds.TFRecordDataset(files, columns_list=["label"])
             .create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert first == again
    ds.config.set_seed(5)
    unset = [int(r[0][0]) for r in ds.TFRecordDataset(files, columns_list=["label"], shuffle=None)
             .create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert unset == first  # shuffle=None is MindSpore's global shuffle too
    assert sorted(first) == [0, 1, 2, 100, 101, 102, 103, 200, 201]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"dataset_files": 3}, TypeError, "dataset_files should be type str or a list of strings."),
    ({"dataset_files": []}, ValueError, "Input dataset_files can not be empty, but got '[]'."),
    ({"compression_type": "gz"}, ValueError,
     "Input compression_type can only be either '' (no compression), 'ZLIB', or 'GZIP', but "
     "got 'gz'."),
    ({"columns_list": "l"}, TypeError,
     "Argument columns_list with value l is not of type [<class 'list'>], but got "
     "<class 'str'>."),
    ({"shard_equal_rows": 1}, TypeError,
     "Argument shard_equal_rows with value 1 is not of type [<class 'bool'>], but got "
     "<class 'int'>."),
    ({"schema": 3}, TypeError, "path: 3 is not string"),
    ({"cache": 3}, TypeError, "Argument cache with value 3 is not of type"),
])
def test_argument_checks(folder, kwargs, error, message):
    kwargs = {"dataset_files": os.path.join(folder, "a.tfrecord"), **kwargs}
    with pytest.raises(error) as info:
        ds.TFRecordDataset(**kwargs)
    assert str(info.value).startswith(message)


def test_missing_files(folder):
    with pytest.raises(ValueError, match="The following patterns did not match any files"):
        ds.TFRecordDataset(os.path.join(folder, "none.tfrecord"))
    with pytest.raises(ValueError, match="none.json does not exist or permission denied!"):
        ds.TFRecordDataset(os.path.join(folder, "a.tfrecord"),
                           schema=os.path.join(folder, "none.json"))
