"""The summary names import without tensorboardX (mindcv imports SummaryRecord at import time);
only constructing a SummaryRecord needs it, and says how to get it. Runs with or without
tensorboardX installed (the nn-np126 tox env has none)."""

import subprocess
import sys

import pytest

import cellgrad as ms


def test_names_import_and_construct_error_without_tensorboardx(tmp_path):
    # mindcv imports SummaryRecord at import time: only constructing one needs tensorboardX
    code = f"""
import sys
sys.modules['tensorboardX'] = None
from cellgrad.train import Callback, SummaryRecord, SummaryCollector
import cellgrad as ms
from cellgrad.ops import ScalarSummary
print(ms.SummaryRecord is SummaryRecord, ms.train.callback.SummaryCollector is SummaryCollector)
ScalarSummary()('x', ms.Tensor(1.0))
SummaryCollector({str(tmp_path / 'c')!r})
try:
    SummaryRecord({str(tmp_path / 'r')!r})
except ImportError as exc:
    print(exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "True True",
        'SummaryRecord writes TensorBoard event files through tensorboardX, which is not '
        'installed: pip install "cellgrad-ops-nn[summary]"']


def test_construct_without_tensorboardx_raises_and_leaves_no_instance(tmp_path, monkeypatch):
    for name in [n for n in sys.modules if n.split(".")[0] == "tensorboardX"] + ["tensorboardX"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r'pip install "cellgrad-ops-nn\[summary\]"'):
        ms.train.SummaryRecord(str(tmp_path))
    assert ms.train.SummaryRecord.count == 0
