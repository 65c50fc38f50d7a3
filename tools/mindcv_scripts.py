"""Run mindcv's own `train.py` and `validate.py`, unchanged, on cellgrad (issue 29, item 6).

    python tools/mindcv_scripts.py --source PATH/TO/mindcv [--model resnet18] [--epochs 2]

`--source` is a checkout of mindcv's repository at the release installed here (the entry
scripts are not part of its wheel; nothing is fetched). A tiny ImageNet-style folder dataset
(two classes of generated JPEGs, train/ and val/) is written to a temporary folder; train.py
trains on it with validation after each epoch and saves checkpoints, then validate.py loads
the last checkpoint and evaluates it. Both run as `python script.py args...` with `mindspore`
resolving to cellgrad (`cellgrad.ms_replay.install_alias`). Prints each script's last lines
and the accuracies they report; exits non-zero if either fails.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

RUNNER = """
import os, runpy, sys
from cellgrad.ms_replay import install_alias
install_alias()
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))  # as `python script.py` does
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def make_dataset(root, per_class=(16, 8), size=48, seed=0):
    """train/ and val/ folders of two classes whose mean brightness differs (learnable)."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    for split, count in zip(("train", "val"), per_class):
        for c in range(2):
            folder = pathlib.Path(root) / split / f"class{c}"
            folder.mkdir(parents=True, exist_ok=True)
            for i in range(count):
                img = rng.integers(0, 128, (size, size, 3)) + 96 * c
                Image.fromarray(img.astype(np.uint8)).save(folder / f"{i}.jpg")


def run(source, script, args, cwd):
    cmd = [sys.executable, "-c", RUNNER, str(pathlib.Path(source) / script), *args]
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=1800)
    return done.returncode, done.stdout + done.stderr


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True, help="a checkout of mindcv's repository")
    p.add_argument("--model", default="resnet18")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--mode", type=int, default=0,
                   help="0: GRAPH_MODE (mindcv's default), 1: PyNative")
    args = p.parse_args(argv)
    source = pathlib.Path(args.source).resolve()
    for script in ("train.py", "validate.py", "config.py"):
        if not (source / script).is_file():
            p.error(f"{source} has no {script}: give a checkout of mindcv's repository")
    with tempfile.TemporaryDirectory() as tmp:
        make_dataset(pathlib.Path(tmp) / "data")
        common = ["--mode", str(args.mode), "--model", args.model, "--dataset", "imagenet",
                  "--data_dir", "data", "--num_parallel_workers", "2", "--batch_size", "8",
                  "--image_resize", "32", "--num_classes", "2"]
        code, out = run(source, "train.py", [*common, "--epoch_size", str(args.epochs),
                                             "--warmup_epochs", "0", "--val_while_train", "True",
                                             "--ckpt_save_dir", "ckpt"], tmp)
        print("train.py:", "ok" if code == 0 else f"FAILED (exit {code})")
        print("\n".join(out.strip().splitlines()[-8:]))
        if code != 0:
            return code
        ckpts = sorted((pathlib.Path(tmp) / "ckpt").glob(f"{args.model}-{args.epochs}_*.ckpt"))
        if not ckpts:
            print(f"train.py wrote no checkpoint of epoch {args.epochs}")
            return 1
        code, out = run(source, "validate.py", [*common, "--ckpt_path", str(ckpts[-1])], tmp)
        print("validate.py:", "ok" if code == 0 else f"FAILED (exit {code})")
        print("\n".join(out.strip().splitlines()[-4:]))
        found = re.search(r"Top_1_Accuracy': ([0-9.]+)", out)
        if code == 0 and not found:
            print("validate.py printed no Top_1_Accuracy")
            return 1
        return code


if __name__ == "__main__":
    sys.exit(main())
