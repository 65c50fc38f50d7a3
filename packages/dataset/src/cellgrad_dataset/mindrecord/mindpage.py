"""Mirrors `mindspore.mindrecord.MindPage`: the rows of MindRecord files grouped by the value of
one index field (the category), read a page at a time."""

import json
import sqlite3

from cellgrad_dataset.mindrecord._shards import ShardSet
from cellgrad_dataset.mindrecord.exceptions import (
    MRMDefineCategoryError,
    ParamTypeError,
    ParamValueError,
)
from cellgrad_dataset.mindrecord.filereader import check_reader_args, python_value

__all__ = ["MindPage"]


class MindPage:
    """Mirrors `mindspore.mindrecord.MindPage`: pick `category_field` among
    `candidate_fields` (the index fields), then `read_category_info()` lists its values
    (id, name, count) and `read_at_page_by_id`/`read_at_page_by_name` read `num_row` rows of one
    value, page `page`, in file order."""

    def __init__(self, file_name, num_consumer=4):
        if not isinstance(file_name, (str, list)):
            raise ParamValueError(f"File path: {file_name} is not string.")
        check_reader_args(file_name, num_consumer)
        self._shards = ShardSet(file_name)
        self._candidate_fields = list(self._shards.headers[0]["index_fields"])
        self._category_field = None
        self._categories = None  # [(name, [global row numbers])], by name

    @property
    def candidate_fields(self):
        """The fields a category can be made of (the files' index fields)."""
        return self._candidate_fields

    @property
    def category_field(self):
        """The field rows are grouped by (None until set)."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field):
        if not category_field or not isinstance(category_field, str):
            raise ParamTypeError("category_fields", "str")
        if category_field not in self._candidate_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate category "
                                         f"field.")
        self._category_field = category_field
        self._categories = self._group(category_field)

    def _group(self, field):
        """Each distinct value of `field`, named as MindSpore names it, with its rows."""
        rows, base = {}, 0
        for path in self._shards.paths:
            db = sqlite3.connect(f"file:{path}.db?mode=ro", uri=True)
            try:
                found = db.execute(f'SELECT ROW_ID, "{field}_0" FROM INDEXES '
                                   f"ORDER BY ROW_ID").fetchall()
            finally:
                db.close()
            for row_id, value in found:
                rows.setdefault(value, []).append(base + row_id)
            base += len(found)
        # as MindSpore: each value by its text (SQLite's, "2.0" for a float), in text order
        return sorted(((_name(v), r) for v, r in rows.items()), key=lambda kv: kv[0])

    def _need_field(self):
        if self._category_field is None:
            raise RuntimeError("Invalid data, field: is invalid.")

    def read_category_info(self):
        """A JSON string: `{"categories": [{"count", "id", "name"}, ...], "key": field}`."""
        self._need_field()
        categories = [{"count": len(rows), "id": i, "name": name}
                      for i, (name, rows) in enumerate(self._categories)]
        return json.dumps({"categories": categories, "key": f"{self._category_field}_0"},
                          separators=(",", ":"), sort_keys=True)

    def read_at_page_by_id(self, category_id, page, num_row):
        """Rows `page * num_row` onwards (at most `num_row`) of the category numbered
        `category_id` in `read_category_info()`, as dicts."""
        if not isinstance(category_id, int) or category_id < 0:
            raise ParamValueError("Category id should be int and greater than or equal to 0.")
        _check_page(page, num_row)
        self._need_field()
        if category_id >= len(self._categories):
            raise RuntimeError(f"Invalid data, category_id: {category_id} must be in the range "
                               f"[0, {len(self._categories)}].")
        return self._page(self._categories[category_id][1], page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row):
        """As `read_at_page_by_id`, for the category named `category_name`."""
        if not isinstance(category_name, str):
            raise ParamValueError("Category name should be str.")
        _check_page(page, num_row)
        self._need_field()
        for name, rows in self._categories:
            if name == category_name:
                return self._page(rows, page, num_row)
        raise RuntimeError(f"category_name: {category_name} could not found.")

    def _page(self, rows, page, num_row):
        start = page * num_row
        if start >= len(rows):
            raise RuntimeError(f"Invalid data, page no: {page}or page size: {num_row} is "
                               f"invalid.")
        schema, blob_fields = self._shards.schema, self._shards.blob_fields
        wanted = set(schema)
        out = []
        for i in rows[start:start + num_row]:
            raw, blobs = self._shards.row(i, wanted)
            row = {k: python_value(v) for k, v in raw.items() if k in schema}
            row.update((f, blobs[f]) for f in blob_fields)
            out.append(row)
        return out


def _name(value):
    return value if isinstance(value, str) else repr(value)


def _check_page(page, num_row):
    if not isinstance(page, int) or page < 0:
        raise ParamValueError("Page should be int and greater than or equal to 0.")
    if not isinstance(num_row, int) or num_row <= 0:
        raise ParamValueError("num_row should be int and greater than 0.")
