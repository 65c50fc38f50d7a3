"""Records TFRecordDataset's rows and DatasetCache's checks from real MindSpore.

    GLOG_v=3 /work/msvenv/bin/python tests/dataset/tfrecord_record.py

writes tests/dataset/fixtures/tfrecord/recorded.json, replayed by test_tfrecord.py and
test_dataset_cache.py.
"""

import inspect
import json
import os
import sys
import tempfile

import mindspore.dataset as ds

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfrecord_cases as tc  # noqa: E402

CACHE_ARGS = [[[1], {}], [[0], {}], [[-1], {}], [[2**32], {}], [[1.5], {}], [["1"], {}],
              [[True], {}], [[1], {"size": -1}], [[1], {"size": 1.0}], [[1], {"size": 2**64}],
              [[1], {"spilling": 1}], [[1], {"hostname": 3}], [[1], {"port": 80}],
              [[1], {"port": "a"}], [[1], {"port": 65536}], [[1], {"num_connections": 0}],
              [[1], {"prefetch_size": 0}], [[1], {"prefetch_size": 2**31}],
              [[7], {"size": 64, "spilling": True, "hostname": "127.0.0.1", "port": 50052,
                     "num_connections": 3, "prefetch_size": 4}]]


def signature(obj):
    return [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty else None]
            for p in inspect.signature(obj).parameters.values()]


def cache_result(args, kwargs):
    try:
        c = ds.DatasetCache(*args, **kwargs)
    except Exception as err:  # noqa: BLE001
        return [type(err).__name__, str(err)]
    return ["ok", [c.session_id, c.size, c.spilling, c.hostname, c.port, c.num_connections,
                   c.prefetch_size]]


def main():
    out = {"signatures": {"TFRecordDataset": signature(ds.TFRecordDataset),
                          "DatasetCache": signature(ds.DatasetCache),
                          "DatasetCache.get_stat": signature(ds.DatasetCache.get_stat)},
           "cases": {}, "errors": {},
           "cache": [[a, k, cache_result(a, k)] for a, k in CACHE_ARGS]}
    with tempfile.TemporaryDirectory() as folder:
        tc.make_files(folder)
        for name, case in tc.CASES.items():
            out["cases"][name] = tc.run(ds, folder, case)
        for name, case in tc.ERROR_CASES.items():
            out["errors"][name] = tc.run_error(ds, folder, case)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tfrecord",
                        "recorded.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
