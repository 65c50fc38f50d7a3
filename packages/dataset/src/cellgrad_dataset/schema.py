"""Mirrors `mindspore.dataset.Schema`: column names, types and shapes of a dataset, as
MindSpore's JSON schema files hold them (used by `GeneratorDataset(schema=...)`)."""

import json

import numpy as np

_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "string", "bytes")


def _type_name(de_type):
    if isinstance(de_type, str):
        name = de_type
    elif isinstance(de_type, (type, np.dtype)):
        name = np.dtype(de_type).name
    else:  # a cellgrad / MindSpore dtype (ms.float32 prints as Float32)
        name = str(de_type).rsplit(".", 1)[-1].lower()
    if name not in _TYPES:
        raise TypeError("Unknown column type.")
    return name


class Schema:
    """Mirrors `mindspore.dataset.Schema`."""

    def __init__(self, schema_file=None):
        self.schema_file = "" if schema_file is None else schema_file
        self.columns = []
        self.num_rows = 0
        self.dataset_type = ""
        if schema_file is not None:
            try:
                with open(schema_file) as f:
                    obj = json.load(f)
            except (OSError, ValueError) as exc:
                raise RuntimeError(f"For 'Schema', cannot read the schema file "
                                   f"{schema_file!r}: {exc}.") from None
            self.from_json(obj)

    def add_column(self, name, de_type, shape=None):
        """Mirrors `Schema.add_column`: a column of type `de_type` (name or dtype)."""
        if not isinstance(name, str):
            raise TypeError(f"Argument name with value {name!r} is not of type "
                            f"[<class 'str'>], but got {type(name)}.")
        if shape is not None and not isinstance(shape, list):
            raise TypeError(f"Argument shape with value {shape!r} is not of type "
                            f"[<class 'list'>], but got {type(shape)}.")
        column = {"name": name, "type": _type_name(de_type), "rank": 1}
        if shape is not None:
            column["rank"], column["shape"] = len(shape), [int(s) for s in shape]
        self.columns.append(column)

    def parse_columns(self, columns):
        """Mirrors `Schema.parse_columns`: replace the columns by those described (a list of
        {name, type, shape} dicts, or {name: {type, shape}})."""
        if isinstance(columns, dict):
            # sorted by name, as MindSpore's C++ JSON object
            columns = [dict(spec, name=name) for name, spec in sorted(columns.items())]
        parsed = []
        for spec in columns:
            if "name" not in spec:
                raise RuntimeError("Column's name is missing")
            if "type" not in spec:
                raise RuntimeError("Column's type is missing")
            shape = [int(s) for s in spec.get("shape", [])]
            parsed.append({"name": spec["name"], "type": _type_name(spec["type"]),
                           "rank": len(shape), "shape": shape})
        self.columns = parsed

    def to_json(self):
        """Mirrors `Schema.to_json`: the schema as MindSpore's JSON text."""
        obj = {"columns": [dict(sorted(c.items())) for c in self.columns]}
        if self.dataset_type:
            obj["datasetType"] = self.dataset_type
        if self.num_rows:
            obj["numRows"] = self.num_rows
        return json.dumps(obj, indent=2)

    def from_json(self, json_obj):
        """Mirrors `Schema.from_json`: columns (and numRows) from a parsed schema file."""
        unknown = set(json_obj) - {"columns", "numRows", "datasetType"}
        if unknown:
            raise RuntimeError(f"Unknown field {sorted(unknown)[0]!r} in the schema.")
        if "columns" not in json_obj:
            raise RuntimeError("Columns are missing in the schema.")
        self.parse_columns(json_obj["columns"])
        self.num_rows = int(json_obj.get("numRows", 0))
        self.dataset_type = json_obj.get("datasetType", "")

    def __str__(self):
        return self.to_json()

    def get_col_names(self):
        return [c["name"] for c in self.columns]

    def _np_types(self):
        return [c["type"] for c in self.columns]

    @staticmethod
    def get_num_rows(schema):
        """Mirrors `Schema.get_num_rows` (a static method in MindSpore: `schema` is a Schema
        or a schema file)."""
        return (schema if isinstance(schema, Schema) else Schema(schema)).num_rows
