import json
import os
import tempfile

import numpy as np
import mindspore as ms
import mindspore.dataset as ds


def err(f):
    try:
        f()
        print("no error")
    except RuntimeError:
        print("RuntimeError")
    except Exception as e:
        print(type(e).__name__, str(e).strip().splitlines()[0][:300])


s = ds.Schema()
s.add_column("image", de_type="uint8", shape=[2])
s.add_column("label", "int32")
s.add_column("f", ms.float32)
print(s)
err(lambda: s.add_column("a", "nope"))
err(lambda: s.add_column(3, "int32"))
err(lambda: s.add_column("b", "int32", shape=3))
d = ds.GeneratorDataset(lambda: iter([(np.zeros(2, np.uint8), np.int32(1), np.float32(2))]), schema=s)
print(d.get_col_names(), [x.dtype for x in next(d.create_tuple_iterator(output_numpy=True))])
s.parse_columns({"d": {"type": "float32", "shape": [-1]}})
print(s.to_json())
s2 = ds.Schema()
s2.parse_columns([{"name": "e", "type": "int8", "shape": [1, 2]}])
print(s2)
err(lambda: s2.parse_columns([{"type": "int8"}]))
err(lambda: s2.parse_columns({"x": {"shape": [1]}}))
path = os.path.join(tempfile.mkdtemp(), "schema.json")
with open(path, "w") as f:
    json.dump({"datasetType": "TF", "numRows": 7, "columns": {"col1": {"type": "int64", "rank": 1, "shape": [1]}}}, f)
s3 = ds.Schema(path)
print(ds.Schema.get_num_rows(s3), ds.Schema.get_num_rows(path))
print(s3)
