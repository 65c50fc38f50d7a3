# mindrecord.MindPage over files FileWriter wrote (one and two shards): candidate fields, the
# categories of int, float and string index fields (ids, names, counts, order), pages of rows
# by id and by name, and the errors of bad arguments and of pages past the end.
import os
import shutil
import tempfile

import numpy as np
from mindspore.mindrecord import FileWriter, MindPage

TMP = tempfile.mkdtemp()


def attempt(f, *args):
    try:
        out = f(*args)
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        out = f"{type(e).__name__}: " + str(e).split("[ERROR] ")[-1].split("\n")[0].strip()
    print(str(out).replace(TMP, "<tmp>"))


path = os.path.join(TMP, "pg.mindrecord")
w = FileWriter(path, 1)
w.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
              "score": {"type": "float64"}, "data": {"type": "bytes"},
              "vec": {"type": "float32", "shape": [2]}}, "s")
w.add_index(["file_name", "label"])
w.write_raw_data([{"file_name": f"f{i}.jpg", "label": i % 3, "score": i * 0.5,
                   "data": bytes([i, i + 1]), "vec": np.array([i, -i], np.float32)}
                  for i in range(7)])
w.commit()
p = MindPage(path)
print(p.candidate_fields, p.category_field)
attempt(p.read_category_info)
for field in ("score", 3, "label"):
    try:
        p.category_field = field
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__, e)
print(p.category_field, p.read_category_info())
for args in [(1, 0, 2), (1, 1, 2), (0, 1, 2), (0, 5, 2), (9, 0, 2), (3, 0, 1), (-1, 0, 1),
             (0, -1, 1), (0, 0, 0), ("a", 0, 1)]:
    attempt(p.read_at_page_by_id, *args)
for args in [("2", 0, 5), ("7", 0, 1), (3, 0, 1)]:
    attempt(p.read_at_page_by_name, *args)
p.category_field = "file_name"
print(p.read_category_info())
attempt(p.read_at_page_by_name, "f3.jpg", 0, 5)
attempt(MindPage, os.path.join(TMP, "nonexist.mindrecord"))
try:  # the upper bound is the machine's core count in MindSpore
    MindPage(path, 0)
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).split(" should between")[0])
attempt(MindPage, 5)

path = os.path.join(TMP, "f.mindrecord")
w = FileWriter(path, 2)
w.add_schema({"s": {"type": "float64"}, "k": {"type": "int64"}, "t": {"type": "string"}}, "s")
w.add_index(["s", "k", "t"])
w.write_raw_data([{"s": [2.0, 0.5, -1.25, 0.5][i % 4], "k": [10, -3, 7, 2, 10][i % 5],
                   "t": ["b", "a", "B", "10", "9"][i % 5]} for i in range(10)])
w.commit()
p = MindPage(path + "1")
print(p.candidate_fields)
for field in ("s", "k", "t"):
    p.category_field = field
    print(p.read_category_info())
    attempt(p.read_at_page_by_id, 0, 0, 3)
    attempt(p.read_at_page_by_id, 1, 1, 1)
p.category_field = "s"
for name in ("0.5", "2", "2.0", "zz"):
    attempt(p.read_at_page_by_name, name, 0, 5)

path = os.path.join(TMP, "noidx.mindrecord")
w = FileWriter(path, 1)
w.add_schema({"label": {"type": "int32"}, "img": {"type": "bytes"}}, "s")
w.write_raw_data([{"label": 1, "img": b"x"}])
w.commit()
print(MindPage(path).candidate_fields)
shutil.rmtree(TMP)
