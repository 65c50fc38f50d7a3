"""`Dataset.save`: one epoch of a pipeline written to MindRecord files, with the schema
MindSpore's saver derives from the first row (checked against MindSpore 2.10):

* a 0-d value is a scalar field: bool and 8/16-bit ints and int32 -> int32; uint32, int64 and
  uint64 -> int64; float16/float32 -> float32; float64 -> float64; str -> string; bytes -> bytes;
* an array is an array field of the same type mapping, shape [-1] + its shape after the first
  axis; every scalar field is indexed; the description is "mindrecord".
"""

import numbers

import numpy as np

from cellgrad_dataset.mindrecord import filewriter
from cellgrad_dataset.mindrecord.filewriter import FileWriter

_ROWS_PER_WRITE = 1000


def _field_type(value, column):
    kind, size = value.dtype.kind, value.dtype.itemsize
    if kind == "U":
        field = "string"
    elif kind == "S":
        field = "bytes"
    elif kind == "b" or (kind == "i" and size <= 4) or (kind == "u" and size <= 2):
        field = "int32"
    elif kind in "iu":
        field = "int64"
    elif kind == "f":
        field = "float64" if size == 8 else "float32"
    else:
        raise RuntimeError(f"For 'save', column '{column}' has dtype {value.dtype}, which "
                           f"MindRecord cannot store (numbers, str and bytes only).")
    if value.ndim == 0:
        return {"type": field}
    if field in ("string", "bytes"):
        raise RuntimeError(f"For 'save', column '{column}' is an array of {field}s, which "
                           f"MindRecord cannot store (only scalar strings and bytes).")
    return {"type": field, "shape": [-1] + list(value.shape[1:])}


def _field_value(value, spec):
    if "shape" in spec:
        return np.ascontiguousarray(value, dtype=spec["type"])
    if spec["type"] in ("string", "bytes"):
        return value.item()
    return value.astype(spec["type"]).item()


def save(dataset, file_name, num_files=1, file_type="mindrecord"):
    """Writes one epoch of `dataset` to `num_files` MindRecord files named after `file_name`."""
    if isinstance(num_files, bool) or not isinstance(num_files, numbers.Integral):
        raise TypeError(f"Argument num_files with value {num_files!r} is not of type "
                        f"[<class 'int'>], but got {type(num_files)}.")
    if not 0 < num_files <= 1000:
        raise ValueError("num_files should between 0 and 1000.")
    for name, value in (("file_name", file_name), ("file_type", file_type)):
        if not isinstance(value, str):
            raise TypeError(f"Argument {name} with value {value!r} is not of type "
                            f"[<class 'str'>], but got {type(value)}.")
    if file_type != "mindrecord":
        raise ValueError(f"{file_type} dataset format is not supported.")
    names = dataset.get_col_names()
    writer = FileWriter(file_name, int(num_files))
    writer._check_targets()
    try:
        _write(dataset, names, writer, file_name)
    except BaseException:
        writer._discard()
        raise


def _write(dataset, names, writer, file_name):
    schema, batch, count = None, [], 0
    for values in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        values = [np.asarray(v) for v in values]
        if schema is None:
            schema = {c: _field_type(v, c) for c, v in zip(names, values)}
            writer.add_schema(schema, "mindrecord")
        row = {c: _field_value(v, schema[c]) for c, v in zip(names, values)}
        error = filewriter._row_error(schema, row, count)
        if error:
            raise RuntimeError(f"For 'save', row {count} of the dataset does not match the "
                               f"schema of its first row {schema}: {error}")
        batch.append(row)
        count += 1
        if len(batch) == _ROWS_PER_WRITE:
            writer.write_raw_data(batch)
            batch = []
    if schema is None:
        raise RuntimeError(f"For 'save', the dataset has no rows to write to {file_name}.")
    if batch:
        writer.write_raw_data(batch)
    writer.commit()
