"""DatasetCache: MindSpore's arguments and checks (recorded by tfrecord_record.py), and its
use as `cache=` (no server: the rows are those read without it)."""

import copy
import inspect
import json
import os

import cellgrad.dataset as ds
import numpy as np
import pytest

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tfrecord",
                       "recorded.json")) as _f:
    RECORDED = json.load(_f)


def _signature(obj):
    return [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty else None]
            for p in inspect.signature(obj).parameters.values()]


def test_signature_as_mindspore():
    assert _signature(ds.DatasetCache) == RECORDED["signatures"]["DatasetCache"]
    assert _signature(ds.DatasetCache.get_stat) == RECORDED["signatures"]["DatasetCache.get_stat"]


@pytest.mark.parametrize("args, kwargs, want", RECORDED["cache"],
                         ids=[str(i) for i in range(len(RECORDED["cache"]))])
def test_arguments_as_mindspore(args, kwargs, want):
    try:
        c = ds.DatasetCache(*args, **kwargs)
    except (TypeError, ValueError) as err:
        assert [type(err).__name__, str(err)] == want
    else:
        assert want == ["ok", [c.session_id, c.size, c.spilling, c.hostname, c.port,
                               c.num_connections, c.prefetch_size]]


def test_get_stat_says_no_rows_are_cached():
    with pytest.raises(RuntimeError, match="cellgrad has no dataset cache server"):
        ds.DatasetCache(1).get_stat()


def test_deepcopy_keeps_the_arguments():
    c = ds.DatasetCache(3, size=8, spilling=True)
    d = copy.deepcopy(c)
    assert d is not c and (d.session_id, d.size, d.spilling) == (3, 8, True)


def _length(text):
    return np.array(len(str(text)), np.int64)


def test_cache_argument_reads_the_same_rows(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("a\nbb\nccc\n")
    cache = ds.DatasetCache(session_id=1, size=0)
    plain = ds.TextFileDataset(str(path), shuffle=False).map(_length, ["text"])
    cached = ds.TextFileDataset(str(path), shuffle=False, cache=cache).map(_length, ["text"],
                                                                               cache=cache)
    rows = [r[0].tolist() for r in cached.create_tuple_iterator(output_numpy=True)]
    assert rows == [r[0].tolist() for r in plain.create_tuple_iterator(output_numpy=True)]
    assert rows == [1, 2, 3]
    data = ds.NumpySlicesDataset(np.arange(3), shuffle=False)
    assert ds.CSVDataset(str(path), column_names=["c"], shuffle=False,
                         cache=cache).get_dataset_size() == data.get_dataset_size()
