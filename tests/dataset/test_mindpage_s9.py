"""`mindrecord.MindPage`: categories of an index field and pages of their rows, as MindSpore
2.10 gives them for the same files (the expected values were printed by MindSpore), and its
errors."""

import inspect

import numpy as np
import pytest
from cellgrad.mindrecord import FileWriter, MindPage

import cellgrad as ms
from cellgrad_dataset.mindrecord.exceptions import (
    MRMDefineCategoryError,
    ParamTypeError,
    ParamValueError,
)

LABELS = ('{"categories":[{"count":3,"id":0,"name":"0"},{"count":2,"id":1,"name":"1"},'
          '{"count":2,"id":2,"name":"2"}],"key":"label_0"}')


@pytest.fixture
def pages(tmp_path):
    path = str(tmp_path / "pg.mindrecord")
    w = FileWriter(path, 1)
    w.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                  "score": {"type": "float64"}, "data": {"type": "bytes"},
                  "vec": {"type": "float32", "shape": [2]}}, "s")
    w.add_index(["file_name", "label"])
    w.write_raw_data([{"file_name": f"f{i}.jpg", "label": i % 3, "score": i * 0.5,
                       "data": bytes([i, i + 1]), "vec": np.array([i, -i], np.float32)}
                      for i in range(7)])
    w.commit()
    return path


def test_names_and_signature():
    assert ms.MindPage is MindPage is ms.mindrecord.MindPage
    assert str(inspect.signature(MindPage)) == "(file_name, num_consumer=4)"
    assert "MindPage" in ms.mindrecord.__all__


def test_categories_and_pages(pages):
    p = MindPage(pages)
    assert p.candidate_fields == ["file_name", "label"] and p.category_field is None
    p.category_field = "label"
    assert p.category_field == "label"
    assert p.read_category_info() == LABELS
    rows = p.read_at_page_by_id(1, 0, 2)
    assert [r["file_name"] for r in rows] == ["f1.jpg", "f4.jpg"]
    assert list(rows[0]) == ["file_name", "label", "score", "data", "vec"]
    assert rows[1]["score"] == 2 and isinstance(rows[1]["score"], int)  # MindSpore's JSON
    assert rows[0]["data"] == b"\x01\x02"
    np.testing.assert_array_equal(rows[1]["vec"], np.array([4, -4], np.float32))
    assert rows[1]["vec"].dtype == np.float32
    assert [r["file_name"] for r in p.read_at_page_by_id(0, 1, 2)] == ["f6.jpg"]
    assert [r["score"] for r in p.read_at_page_by_name("2", 0, 5)] == [1, 2.5]
    p.category_field = "file_name"
    assert p.read_category_info().startswith(
        '{"categories":[{"count":1,"id":0,"name":"f0.jpg"},{"count":1,"id":1,"name":"f1.jpg"}')
    assert p.read_at_page_by_name("f3.jpg", 0, 5)[0]["label"] == 0


def test_category_order_and_names_across_shards(tmp_path):
    path = str(tmp_path / "f.mindrecord")
    w = FileWriter(path, 2)
    w.add_schema({"s": {"type": "float64"}, "k": {"type": "int64"}, "t": {"type": "string"}},
                 "s")
    w.add_index(["s", "k", "t"])
    w.write_raw_data([{"s": [2.0, 0.5, -1.25, 0.5][i % 4], "k": [10, -3, 7, 2, 10][i % 5],
                       "t": ["b", "a", "B", "10", "9"][i % 5]} for i in range(10)])
    w.commit()
    p = MindPage(path + "0")
    p.category_field = "s"
    assert p.read_category_info() == (
        '{"categories":[{"count":2,"id":0,"name":"-1.25"},{"count":5,"id":1,"name":"0.5"},'
        '{"count":3,"id":2,"name":"2.0"}],"key":"s_0"}')
    assert p.read_at_page_by_id(0, 0, 3) == [{"k": 7, "s": -1.25, "t": "B"},
                                             {"k": -3, "s": -1.25, "t": "a"}]
    assert p.read_at_page_by_name("2.0", 0, 5) == [{"k": 10, "s": 2, "t": "b"},
                                                   {"k": 10, "s": 2, "t": "9"},
                                                   {"k": 2, "s": 2, "t": "10"}]
    with pytest.raises(RuntimeError, match="category_name: 2 could not found."):
        p.read_at_page_by_name("2", 0, 5)
    p.category_field = "k"  # by text, as MindSpore orders them
    assert [c for c in p.read_category_info().split('"name":"')[1:]] == [
        '-3"},{"count":4,"id":1,', '10"},{"count":2,"id":2,', '2"},{"count":2,"id":3,',
        '7"}],"key":"k_0"}']
    assert p.read_at_page_by_id(0, 0, 3) == [{"k": -3, "s": 0.5, "t": "a"},
                                             {"k": -3, "s": -1.25, "t": "a"}]
    p.category_field = "t"
    assert [r["t"] for r in p.read_at_page_by_id(0, 0, 3)] == ["10", "10"]
    assert '"name":"10"},{"count":2,"id":1,"name":"9"},{"count":2,"id":2,"name":"B"}' in \
        p.read_category_info()


def test_default_index_is_every_scalar_field(tmp_path):
    path = str(tmp_path / "noidx.mindrecord")
    w = FileWriter(path, 1)
    w.add_schema({"label": {"type": "int32"}, "img": {"type": "bytes"}}, "s")
    w.write_raw_data([{"label": 1, "img": b"x"}])
    w.commit()
    assert MindPage(path).candidate_fields == ["label"]


def test_errors(pages, tmp_path):
    p = MindPage(pages)
    with pytest.raises(RuntimeError, match="Invalid data, field: is invalid."):
        p.read_category_info()
    with pytest.raises(MRMDefineCategoryError,
                       match="Field 'score' is not a candidate category field."):
        p.category_field = "score"
    with pytest.raises(ParamTypeError, match="'category_fields' expect str type."):
        p.category_field = 3
    p.category_field = "label"
    with pytest.raises(RuntimeError, match="page no: 1or page size: 2 is invalid."):
        p.read_at_page_by_id(1, 1, 2)
    with pytest.raises(RuntimeError, match=r"category_id: 9 must be in the range \[0, 3\]."):
        p.read_at_page_by_id(9, 0, 2)
    for args, message in [((-1, 0, 1), "Category id should be int and greater than or equal "
                                        "to 0."),
                          ((0, -1, 1), "Page should be int and greater than or equal to 0."),
                          ((0, 0, 0), "num_row should be int and greater than 0."),
                          (("a", 0, 1), "Category id should be int")]:
        with pytest.raises(ParamValueError, match=message):
            p.read_at_page_by_id(*args)
    with pytest.raises(ParamValueError, match="Category name should be str."):
        p.read_at_page_by_name(3, 0, 1)
    with pytest.raises(RuntimeError, match="is not exists."):
        MindPage(str(tmp_path / "nonexist.mindrecord"))
    with pytest.raises(ParamValueError, match="Parameter num_consumer: 0 should between 1"):
        MindPage(pages, num_consumer=0)
    with pytest.raises(ParamValueError, match="File path: 5 is not string."):
        MindPage(5)
