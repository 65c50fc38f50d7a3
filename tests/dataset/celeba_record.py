"""Records CelebADataset's rows on tests/dataset/fixtures/celeba from real MindSpore.

    GLOG_v=3 /work/msvenv/bin/python tests/dataset/celeba_record.py

writes tests/dataset/fixtures/celeba_recorded.json, replayed by test_celeba.py.
"""

import inspect
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "fixtures", "celeba")
CASES = {
    "all": {"shuffle": False},
    "train": {"shuffle": False, "usage": "train"},
    "valid": {"shuffle": False, "usage": "valid"},
    "test": {"shuffle": False, "usage": "test"},
    "decode": {"shuffle": False, "decode": True},
    "shard_1_of_2": {"shuffle": False, "num_shards": 2, "shard_id": 1},
    "num_samples": {"shuffle": False, "num_samples": 2, "usage": "test"},
    "extensions": {"shuffle": False, "extensions": [".png"]},
}


def run(module, case):
    data = module.CelebADataset(FOLDER, **case)
    rows = [[[str(v.dtype), list(v.shape), v.tolist()] for v in row]
            for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    return {"names": data.get_col_names(), "size": data.get_dataset_size(), "rows": rows}


def main():
    import mindspore.dataset as ds

    out = {"signature": [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty
                          else None]
                         for p in inspect.signature(ds.CelebADataset).parameters.values()],
           "cases": {name: run(ds, case) for name, case in CASES.items()}}
    with open(os.path.join(HERE, "fixtures", "celeba_recorded.json"), "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
