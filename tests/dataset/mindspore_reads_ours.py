"""Check by hand that MindSpore reads the MindRecord files cellgrad writes (not collected by
pytest):

    .venv/bin/python tests/dataset/mindspore_reads_ours.py /path/to/mindspore-venv/bin/python

Writes every case of `fixtures/mindrecord/make_fixtures.py` with cellgrad's `FileWriter` (plus a
pipeline saved with `Dataset.save`), has MindSpore's `FileReader` and `MindDataset` read each in
a subprocess, and compares their rows with what cellgrad reads. Records the SHA-256 of every
data file and MindSpore's rows in `fixtures/mindrecord/mindspore_reads_ours.json`, which
test_mindrecord_interop.py checks cellgrad's current files against. Prints one line per case;
exits 1 on any difference.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "mindrecord")
RECORD = os.path.join(FIXTURES, "mindspore_reads_ours.json")

_READ = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from make_fixtures import read_back, save_data
import mindspore.dataset as ds
out = {}
saved = os.path.join(sys.argv[2], "ms_saved.mindrecord")
ds.NumpySlicesDataset(save_data(), shuffle=False).save(saved)
out["mindspore_saved"] = read_back(saved)
for name, path in json.loads(sys.argv[3]).items():
    try:
        out[name] = read_back(os.path.join(sys.argv[2], path))
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
"""


def save_case(path, num_files):
    """A pipeline of every column kind `Dataset.save` stores, saved with cellgrad."""
    from make_fixtures import save_data

    from cellgrad_dataset.mindrecord._save import save
    from cellgrad_dataset.sources import NumpySlicesDataset

    save(NumpySlicesDataset(save_data(), shuffle=False), path, num_files=num_files)


def write_all(directory):
    """Writes every case with cellgrad; returns {case: the file to read it from}."""
    sys.path.insert(0, FIXTURES)
    from cellgrad.mindrecord import FileWriter
    from make_fixtures import CASES

    paths = {}
    for name, make in CASES.items():
        path = os.path.join(directory, name + ".mindrecord")
        make(path, FileWriter)
        paths[name] = name + ".mindrecord" + ("" if os.path.exists(path) else "0")
    save_case(os.path.join(directory, "saved.mindrecord"), 2)
    paths["saved"] = "saved.mindrecord0"
    save_case(os.path.join(directory, "saved1.mindrecord"), 1)
    paths["saved1"] = "saved1.mindrecord"
    return paths


def digests(directory, name):
    """SHA-256 of each data file of a case (the `.db` files are SQLite's, not ours, byte-wise)."""
    return {
        f: hashlib.sha256(open(os.path.join(directory, f), "rb").read()).hexdigest()
        for f in sorted(os.listdir(directory))
        if f.startswith(name + ".mindrecord") and not f.endswith(".db")
    }


def main():
    sys.path.insert(0, FIXTURES)
    from make_fixtures import read_back

    ms_python = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_all(tmp)
        env = dict(os.environ, GLOG_v="3")
        run = subprocess.run(
            [ms_python, "-c", _READ, FIXTURES, tmp, json.dumps(paths)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
            check=True,
        )
        theirs = json.loads(run.stdout.strip().splitlines()[-1])
        record, failed = {}, False
        for name, path in paths.items():
            ours = json.loads(json.dumps(read_back(os.path.join(tmp, path), reader=_ours)))
            same = ours == theirs[name]
            failed |= not same
            print(
                f"{name:12s} {'same rows' if same else 'DIFFERENT'}: MindSpore read "
                f"{theirs[name]['len'] if isinstance(theirs[name], dict) else theirs[name]}"
            )
            record[name] = {"path": path, "sha256": digests(tmp, name), "mindspore": theirs[name]}
        # Dataset.save: the same pipeline saved by MindSpore reads back the same (one file, so
        # the row order is fixed)
        same = theirs["mindspore_saved"] == theirs["saved1"]
        failed |= not same
        print(f"{'save':12s} {'same rows' if same else 'DIFFERENT'} as MindSpore's own save")
        record["mindspore_saved"] = theirs["mindspore_saved"]
    with open(RECORD, "w") as f:
        json.dump(record, f, separators=(",", ":"))
    sys.exit(1 if failed else 0)


def _ours():
    """The FileReader and MindDataset classes `read_back` uses, cellgrad's."""
    import cellgrad.dataset as ds
    from cellgrad.mindrecord import FileReader

    return FileReader, ds.MindDataset


if __name__ == "__main__":
    main()
