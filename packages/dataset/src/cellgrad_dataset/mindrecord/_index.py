"""The SQLite index file (`<shard>.db`) next to each MindRecord shard."""

import os
import sqlite3

import numpy as np

_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL",
              "float64": "REAL", "string": "TEXT"}
_LOCATION = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END", "ROW_GROUP_ID",
             "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def write_index(path, shard_name, schema, index_fields, rows):
    """Writes the index `path` (replacing any file there).

    `rows`: (row_id, raw_page, raw_start, raw_end, row_group, blob_page, blob_start, blob_end,
    {index field: value}) for each row of the shard."""
    if os.path.exists(path):
        os.remove(path)
    columns = "".join(f",INC_{i} INT, {f}_0 {_SQL_TYPES[schema[f]['type']]}"
                      for i, f in enumerate(index_fields))
    keys = "".join(f",INC_{i}" for i in range(len(index_fields)))
    db = sqlite3.connect(path)
    try:
        db.execute(
            "CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          "
            "INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT "
            "NULL, ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
            "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL"
            f"{columns}, PRIMARY KEY(ROW_ID{keys}))")
        db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
        names = ",".join(_LOCATION) + "".join(f",INC_{i},{f}_0"
                                              for i, f in enumerate(index_fields))
        marks = ",".join("?" * (len(_LOCATION) + 2 * len(index_fields)))
        db.executemany(f"INSERT INTO INDEXES ({names}) VALUES ({marks})",
                       (row[:8] + tuple(v for f in index_fields for v in (0, row[8][f]))
                        for row in rows))
        db.commit()
    finally:
        db.close()


def read_locations(path):
    """(n, 7) int64 array: raw page, raw start, raw end, row group, blob page, blob start,
    blob end of each row of the shard whose index is `path`, by row id."""
    if not os.path.isfile(path):
        raise RuntimeError(f"The input: {path} is not exists.")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT " + ",".join(_LOCATION) +
                               " FROM INDEXES ORDER BY ROW_ID").fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:
        raise RuntimeError(f"Invalid file, failed to read the MindRecord index file: {path} "
                           f"({e}). Please use 'FileWriter' to generate valid mindrecord "
                           f"files.") from None
    table = np.array(found, dtype=np.int64).reshape(-1, len(_LOCATION))
    if len(table) and not np.array_equal(table[:, 0], np.arange(len(table))):
        raise RuntimeError(f"Invalid file, the row ids of the MindRecord index file {path} "
                           f"are not 0..{len(table) - 1}.")
    return table[:, 1:]
