"""TFRecordDataset cases shared by the recorder (run on MindSpore) and the replay test.

`make_files(folder)` writes the TFRecord files (with tests/dataset/tfrecord_writer.py);
`CASES` maps a case name to the TFRecordDataset keyword arguments, "files" naming the files
(relative to the folder) and "schema" given as a list of (name, type, shape) columns or a
JSON schema file name.
"""

import json
import os

import tfrecord_writer as w

FILES = {
    "a.tfrecord": (w.sample_rows(3), ""),
    "b.tfrecord": (w.sample_rows(4, 100), ""),
    "c.tfrecord": (w.sample_rows(2, 200), ""),
    "multi.tfrecord": ([{"b": [b"ab", b"cde"], "f": [1.5, 2.5], "i": [3, 4], "e": []},
                        {"b": [b"x"], "f": [-0.5, 7.25], "i": [-9, 2**40], "e": []}], ""),
    "a.gz": (w.sample_rows(3, 50), "GZIP"),
    "a.zlib": (w.sample_rows(3, 60), "ZLIB"),
}
SCHEMA_JSON = {"datasetType": "TF", "numRows": 2,
               "columns": [{"name": "name", "type": "string", "rank": 1, "shape": [1]},
                           {"name": "label", "type": "int64", "rank": 1}]}
# MindSpore's TF schema files often map names to columns: it orders those columns by name
SCHEMA_JSON_DICT = {"columns": {"vec": {"type": "float32", "rank": 1, "shape": [3]},
                                "label": {"type": "int64", "rank": 1, "shape": [1]},
                                "image": {"type": "uint8", "rank": 1}}}
ABC = ["c.tfrecord", "a.tfrecord", "b.tfrecord"]

CASES = {
    "one_file": {"files": "a.tfrecord", "shuffle": False},
    "three_files": {"files": ABC, "shuffle": False},
    "glob": {"files": "[abc].tfrecord", "shuffle": False},
    "one_worker": {"files": ABC, "shuffle": False, "num_parallel_workers": 1},
    "num_samples": {"files": ABC, "shuffle": False, "num_samples": 5},
    "columns_list": {"files": ABC, "shuffle": False, "columns_list": ["label", "image"]},
    "schema": {"files": "a.tfrecord", "shuffle": False,
               "schema": [["image", "uint8", None], ["label", "int64", [1]],
                          ["name", "string", None], ["vec", "float64", [3, 1]]]},
    "schema_columns_list": {"files": "a.tfrecord", "shuffle": False,
                            "schema": [["label", "int32", None], ["name", "string", None]],
                            "columns_list": ["name", "label"]},
    "schema_json": {"files": "a.tfrecord", "shuffle": False, "schema": "schema.json"},
    "schema_json_dict": {"files": "a.tfrecord", "shuffle": False, "schema": "schema_dict.json"},
    "multi_inferred": {"files": "multi.tfrecord", "shuffle": False},
    "multi_cast": {"files": "multi.tfrecord", "shuffle": False,
                   "schema": [["b", "string", None], ["f", "int16", None],
                              ["i", "float32", None], ["e", "float32", [0]]]},
    # (an int64 feature read as float32 with a shape gives its bytes reinterpreted in
    # MindSpore 2.10; cellgrad converts the values, so that combination is not recorded)
    "multi_bytes_uint8": {"files": "multi.tfrecord", "shuffle": False,
                          "schema": [["b", "uint8", None], ["i", "bool", None]]},
    "gzip": {"files": "a.gz", "shuffle": False, "compression_type": "GZIP"},
    "zlib": {"files": "a.zlib", "shuffle": False, "compression_type": "ZLIB"},
}
for _eq in (False, True):
    for _shards in (2, 3):
        for _w in (1, 2):
            for _id in range(_shards):
                CASES[f"shard_eq{int(_eq)}_{_shards}_{_id}_w{_w}"] = {
                    "files": ABC, "shuffle": False, "num_shards": _shards, "shard_id": _id,
                    "shard_equal_rows": _eq, "num_parallel_workers": _w}
CASES["shard_eq1_4_3"] = {"files": ABC, "shuffle": False, "num_shards": 4, "shard_id": 3,
                          "shard_equal_rows": True}

# cases whose rows MindSpore refuses: the error class is recorded
ERROR_CASES = {
    "columns_list_unknown": {"files": "a.tfrecord", "shuffle": False, "columns_list": ["nope"]},
    "schema_unknown_feature": {"files": "a.tfrecord", "shuffle": False,
                               "schema": [["nope", "uint8", None]]},
    "columns_list_not_in_schema": {"files": "a.tfrecord", "shuffle": False,
                                   "schema": [["image", "uint8", None]],
                                   "columns_list": ["label"]},
    "schema_bad_shape": {"files": "multi.tfrecord", "shuffle": False,
                         "schema": [["f", "float32", [3]]]},
    "schema_bytes_as_int": {"files": "multi.tfrecord", "shuffle": False,
                            "schema": [["b", "int64", None]]},
    "schema_int_as_string": {"files": "multi.tfrecord", "shuffle": False,
                             "schema": [["i", "string", None]]},
    "fewer_files_than_shards": {"files": ABC, "shuffle": False, "num_shards": 4,
                                "shard_id": 0},
    "gzip_unflagged": {"files": "a.gz", "shuffle": False},
    "bad_length_crc": {"files": "bad_length_crc.tfrecord", "shuffle": False},
    "empty": {"files": "empty.tfrecord", "shuffle": False},
    "truncated_record": {"files": "truncated.tfrecord", "shuffle": False},
}


def make_files(folder):
    for name, (rows, compression) in FILES.items():
        w.write(os.path.join(folder, name), rows, compression)
    with open(os.path.join(folder, "schema.json"), "w") as f:
        json.dump(SCHEMA_JSON, f)
    with open(os.path.join(folder, "schema_dict.json"), "w") as f:
        json.dump(SCHEMA_JSON_DICT, f)
    with open(os.path.join(folder, "a.tfrecord"), "rb") as f:
        data = f.read()
    broken = bytearray(data)
    broken[8] ^= 1
    for name, content in (("bad_length_crc.tfrecord", bytes(broken)),
                          ("empty.tfrecord", b""), ("truncated.tfrecord", data[:-30])):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(content)


def build(ds, folder, case):
    """The TFRecordDataset of a case, built with the `ds` module (MindSpore's or cellgrad's)."""
    kwargs = dict(case)
    files = kwargs.pop("files")
    files = [os.path.join(folder, f) for f in files] if isinstance(files, list) else \
        os.path.join(folder, files)
    schema = kwargs.get("schema")
    if isinstance(schema, list):
        kwargs["schema"] = ds.Schema()
        for name, de_type, shape in schema:
            kwargs["schema"].add_column(name, de_type, shape)
    elif isinstance(schema, str):
        kwargs["schema"] = os.path.join(folder, schema)
    return ds.TFRecordDataset(files, **kwargs)


def run(ds, folder, case):
    """{"names", "size", "rows"} of a case: each value as [dtype, shape, values]."""
    data = build(ds, folder, case)
    names, size = data.get_col_names(), data.get_dataset_size()
    rows = [[[str(v.dtype), list(v.shape), v.tolist()] for v in row]
            for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    return {"names": names, "size": size, "rows": rows}


def run_error(ds, folder, case):
    try:
        run(ds, folder, case)
    except Exception as err:  # noqa: BLE001 (the class is what is recorded)
        return type(err).__name__
    return None
