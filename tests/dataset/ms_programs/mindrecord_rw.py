"""MindRecord through the public API: FileWriter (schema, index, shards, append, bad rows and
arguments), FileReader (values and their Python types), MindDataset (Tensors, columns,
shards, padded samples) and Dataset.save, as MindSpore prints them."""

import os
import shutil
import tempfile

import mindspore.dataset as ds
import numpy as np
from mindspore.mindrecord import (
    SUCCESS,
    FileReader,
    FileWriter,
    MRMDefineIndexError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)


def attempt(label, fn):
    try:
        fn()
        print(label, "no error")
    except (RuntimeError, ValueError, TypeError, MRMInvalidSchemaError, MRMDefineIndexError,
            ParamTypeError, ParamValueError) as err:
        mindrecord_error = not isinstance(err, (RuntimeError, ValueError, TypeError))
        print(label, type(err).__name__, str(err) if mindrecord_error else "")


root = tempfile.mkdtemp()
try:
    path = os.path.join(root, "data.mindrecord")
    print(repr(SUCCESS), int(SUCCESS))
    writer = FileWriter(path, shard_num=2)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    schema = {"name": {"type": "string"}, "label": {"type": "int32"},
              "weight": {"type": "float64"}, "image": {"type": "bytes"},
              "box": {"type": "float32", "shape": [-1, 4]},
              "tokens": {"type": "int64", "shape": [-1]}}
    writer.add_schema(schema, "rw")
    writer.add_index(["name", "label"])
    attempt("index on bytes", lambda: writer.add_index(["image"]))
    rows = [{"name": f"img{i}", "label": i * 7 - 10, "weight": i / 4,
             "image": bytes([i]) * (i + 2),
             "box": np.arange(4 * (i % 2 + 1), dtype=np.float32).reshape(-1, 4) / 8,
             "tokens": np.array([i, -i, 300, 2 ** 33][: i + 1], np.int64)} for i in range(4)]
    writer.write_raw_data(rows[:2])  # even calls: each shard takes one row of each
    writer.write_raw_data(rows[2:])
    writer.commit()
    print(sorted(f for f in os.listdir(root)))

    reader = FileReader(path + "0")
    print("len", reader.len())
    for row in reader.get_next():
        print({k: (type(v).__name__, v.tolist() if isinstance(v, np.ndarray) else v)
               for k, v in row.items()})
    reader.close()

    data = ds.MindDataset(path + "1", shuffle=False)
    print(data.get_col_names(), data.get_dataset_size())
    for row in data.create_dict_iterator(num_epochs=1):
        print(row["label"], row["weight"], row["box"].shape, row["tokens"].dtype, row["name"])
    part = ds.MindDataset(path + "0", columns_list=["label", "name"], shuffle=False,
                          num_shards=3, shard_id=1,
                          padded_sample={"label": -1, "name": "pad"}, num_padded=2)
    print([[v.item() for v in r] for r in part.create_tuple_iterator(output_numpy=True)])
    print([r[0].item() for r in ds.MindDataset(path + "0", columns_list=["label"],
                                               shuffle=False, num_samples=3)
           .create_tuple_iterator(output_numpy=True)])

    single = os.path.join(root, "one.mindrecord")
    w = FileWriter(single)
    w.add_schema({"x": {"type": "int32"}, "v": {"type": "float32", "shape": [2]}})
    w.write_raw_data([{"x": 1, "v": np.ones(2, np.float32)},
                      {"x": "bad", "v": np.ones(2, np.float32)},
                      {"x": 3, "v": np.ones(3, np.float32)}])
    w.commit()
    w = FileWriter.open_for_append(single)
    w.write_raw_data([{"x": 4, "v": np.full(2, 4, np.float32)}])
    w.commit()
    print([(r["x"], r["v"].tolist()) for r in FileReader(single).get_next()])

    attempt("exists", lambda: FileWriter(single).write_raw_data([{"x": 1}]))
    attempt("shard_num", lambda: FileWriter(single, 0))
    attempt("schema", lambda: FileWriter(single).add_schema({"x": {"type": "uint8"}}))
    attempt("columns", lambda: FileReader(single, columns="x"))
    attempt("missing", lambda: FileReader(os.path.join(root, "none.mindrecord")))
    attempt("dataset missing", lambda: ds.MindDataset(os.path.join(root, "none.mindrecord")))
    attempt("padded", lambda: ds.MindDataset(single, padded_sample={"x": 1}, num_padded=1))

    saved = os.path.join(root, "saved.mindrecord")
    ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.int16).reshape(3, 2),
                           "b": np.array([0.5, 1.5, 2.5])}, shuffle=False).save(saved)
    print(FileReader(saved).schema())
    for row in ds.MindDataset(saved, shuffle=False).create_tuple_iterator(num_epochs=1):
        print(row)
    attempt("save again", lambda: ds.NumpySlicesDataset([1, 2], shuffle=False).save(saved))
finally:
    shutil.rmtree(root)
