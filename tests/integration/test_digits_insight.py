"""`cellgrad-digits --profile --summary`: the profile of training steps 2-4 and the
TensorBoard files (issue 27, item 4)."""

import glob
import json
import os
import re

import pytest

pytest.importorskip("cellgrad_digits")
pytest.importorskip("cellgrad_checkpoint")

from cellgrad_digits import cli  # noqa: E402


def test_profile_writes_the_steps_tables_and_a_trace(tmp_path, capsys):
    out = str(tmp_path / "out")
    code = cli.main(["--epochs", "1", "--limit", "200", "--batch-size", "16", "--out", out,
                     "--no-plots", "--profile"])
    text = capsys.readouterr().out
    assert code == 0, text
    (run,) = glob.glob(os.path.join(out, "profile", "*_ascend_ms"))
    assert re.search(r"^wrote .*_ascend_ms/ASCEND_PROFILER_OUTPUT/trace_view\.json$", text, re.M)
    assert re.search(r"^TrainOneStepCell +3 ", text, re.M)  # three steps recorded
    assert re.search(r"^conv2d +6 ", text, re.M)  # two convolutions a step, forward ...
    assert text.count("\nconv2d ") == 2  # ... and backward
    with open(os.path.join(run, "ASCEND_PROFILER_OUTPUT", "trace_view.json")) as f:
        spans = [e for e in json.load(f)["traceEvents"] if e["ph"] == "X"]
    assert [e["name"] for e in spans if e["cat"] == "step"] == \
        ["ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"]
    assert {e["tid"] for e in spans if e["cat"] == "backward"} == {2}
    for name in ("cpu_op_detail_info_0.csv", "cpu_op_type_info_0.csv"):
        assert os.path.getsize(os.path.join(run, "FRAMEWORK", name)) > 100


def test_summary_writes_tensorboard_files(tmp_path, capsys):
    pytest.importorskip("tensorboardX")
    reader = pytest.importorskip("tbparse").SummaryReader
    out = str(tmp_path / "out")
    code = cli.main(["--epochs", "1", "--limit", "200", "--batch-size", "16", "--out", out,
                     "--no-plots", "--summary"])
    assert code == 0, capsys.readouterr().out
    scalars = reader(os.path.join(out, "summary")).scalars
    losses = scalars[scalars["tag"].str.contains("loss")]
    assert len(losses) >= 10  # one a step: 160 images / 16
