"""mindcv's own train.py and validate.py, unchanged, on cellgrad (tools/mindcv_scripts.py).

The entry scripts are not in mindcv's wheel: the test runs when MINDCV_SOURCE names a checkout
of mindcv's repository at the installed release (e.g. `git clone -b v0.3.0
https://github.com/mindspore-lab/mindcv`), and skips otherwise.
"""

import importlib.util
import os
import pathlib
import sys

import pytest

SOURCE = os.environ.get("MINDCV_SOURCE")
if importlib.util.find_spec("mindcv") is None or not SOURCE:
    pytest.skip("needs mindcv installed and MINDCV_SOURCE set to its source checkout",
                allow_module_level=True)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import mindcv_scripts  # noqa: E402


@pytest.mark.slow
def test_train_then_validate_on_a_tiny_dataset(capsys):
    assert mindcv_scripts.main(["--source", SOURCE, "--epochs", "2"]) == 0
    out = capsys.readouterr().out
    assert "train.py: ok" in out and "validate.py: ok" in out
    assert "Saving model to ckpt/resnet18-2_4.ckpt" in out
    accuracy = float(out.split("'Top_1_Accuracy': ")[1].split(",")[0])
    assert accuracy >= 0.75  # two classes of clearly different brightness
