"""The ops-nn meta-test: every differentiable op ops-nn registers has a gradcheck line.

Each tests/ops_nn/test_*.py file with gradcheck lines defines a module-level `GRADCHECKED`
set of op names; this file collects them all. (Named `test_nn_...` so that it does not clash
with tests/core/test_op_registry.py: test folders have no `__init__.py`.)
"""

import importlib
import pathlib

from cellgrad import plugins
from cellgrad.ops._registry import OPS
from cellgrad.testing import differentiable_ops, ops_without_gradcheck

HERE = pathlib.Path(__file__).parent


def _gradchecked():
    covered = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.stem == pathlib.Path(__file__).stem or "GRADCHECKED" not in path.read_text():
            continue
        module = importlib.import_module(path.stem)
        for name in getattr(module, "GRADCHECKED", ()):
            covered.setdefault(name, []).append(path.name)
    return covered


def _load_plugins():
    plugins.state()
    return differentiable_ops("cellgrad_nn")


def test_ops_nn_registers_ops():
    ours = _load_plugins()
    assert {"relu", "softmax", "dense"} <= ours


def test_every_differentiable_ops_nn_op_has_a_gradcheck_line():
    _load_plugins()
    missing = ops_without_gradcheck(_gradchecked(), package="cellgrad_nn")
    assert not missing, f"ops-nn ops without a gradcheck line (GRADCHECKED sets): {missing}"


def test_gradcheck_lines_name_registered_differentiable_ops():
    ours = _load_plugins()
    unknown = {n: files for n, files in _gradchecked().items() if n not in ours}
    assert not unknown, f"gradcheck lines for ops ops-nn does not register: {unknown}"


def test_ops_nn_ops_are_plugin_ops_not_core_ones():
    ours = _load_plugins()
    for name in ours:
        assert OPS[name].forward.__module__.startswith("cellgrad_nn."), name
