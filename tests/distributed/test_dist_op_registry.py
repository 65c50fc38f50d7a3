"""The distributed package's meta-test: every differentiable op it registers has a gradcheck
line (the `GRADCHECKED` sets of this folder's test files)."""

import importlib
import pathlib

from cellgrad import plugins
from cellgrad.ops._registry import OPS
from cellgrad.testing import differentiable_ops, ops_without_gradcheck

HERE = pathlib.Path(__file__).parent
PACKAGE = "cellgrad_distributed"


def _gradchecked():
    covered = set()
    for path in sorted(HERE.glob("test_*.py")):
        if path.stem != pathlib.Path(__file__).stem and "GRADCHECKED" in path.read_text():
            covered |= set(importlib.import_module(path.stem).GRADCHECKED)
    return covered


def test_the_package_registers_its_ops_through_the_plugin():
    plugins.state()
    ours = differentiable_ops(PACKAGE)
    assert {"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "SyncBatchNorm"} <= ours
    for name in ours:
        assert OPS[name].forward.__module__.startswith(PACKAGE + "."), name


def test_every_differentiable_op_has_a_gradcheck_line():
    plugins.state()
    missing = ops_without_gradcheck(_gradchecked(), package=PACKAGE)
    assert not missing, f"distributed ops without a gradcheck line: {missing}"
    assert _gradchecked() <= differentiable_ops(PACKAGE)
