"""The module paths real MindSpore code imports (`mindspore.ops.operations as P`,
`mindspore.train.callback`, `mindspore.nn.optim.momentum`, ...) hold the same objects as the
canonical names, as recorded from MindSpore 2.10 in module_paths-2.10.json; a missing package
is named at the path written; moved 1.x names warn; names cellgrad deliberately lacks say so.
"""

import importlib
import json
import pathlib
import subprocess
import sys
import warnings
from importlib import metadata

import pytest

import cellgrad
import cellgrad.ops.operations as P
from cellgrad import _first_party, _not_provided, _paths, plugins
from cellgrad._not_provided import NotProvidedAttributeError, NotProvidedImportError
from cellgrad.ops.primitive import Primitive
from cellgrad.plugins import PluginNameAttributeError, PluginNameImportError

RECORDED = json.loads((pathlib.Path(__file__).parent / "module_paths-2.10.json").read_text())
PATHS = RECORDED["paths"]
# Paths whose module is not an alias of this table (common.dtype and common.tensor are the
# core's own modules; log and context are defined here, version holds only __version__).
OWN_MODULES = {"common.dtype", "common.tensor", "common.parameter", "context", "log", "version"}


def _module(namespace):
    return importlib.import_module(f"cellgrad.{namespace}" if namespace else "cellgrad")


def _canonical(namespace, name):
    """cellgrad's object at the canonical path, or None when cellgrad has none there."""
    try:
        return getattr(_module(namespace), name)
    except (AttributeError, ModuleNotFoundError):  # a name, or a namespace, cellgrad lacks
        return None


def _recorded_names():
    for path, names in sorted(PATHS.items()):
        for name, canonical in sorted(names.items()):
            if path in _paths.EVERY_PRIMITIVE and canonical != "ops":
                continue  # modules MindSpore's primitives import from (initializer, amp, ...)
            if canonical is not None and canonical != "log":
                yield path, name, canonical


def _plugins_installed():
    return [d.metadata["Name"] for d in metadata.distributions()
            if any(ep.group == "cellgrad" for ep in d.entry_points)]


@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_recorded_path_is_a_module(path):
    module = importlib.import_module(f"cellgrad.{path}")
    assert module.__name__ == f"cellgrad.{path}" and module.__file__.endswith(".py")
    parent, _, child = path.rpartition(".")
    assert getattr(_module(parent), child) is module  # `ms.nn.optim` without an import


def test_every_name_is_the_canonical_object():
    checked = 0
    for path, name, canonical in _recorded_names():
        expected = _canonical(canonical, name)
        module = importlib.import_module(f"cellgrad.{path}")
        if expected is None:
            if path not in OWN_MODULES:
                assert not hasattr(module, name), f"cellgrad.{path}.{name}"
            continue
        assert getattr(module, name) is expected, f"cellgrad.{path}.{name}"
        scope = {}
        exec(f"from cellgrad.{path} import {name}", scope)
        assert scope[name] is expected
        assert name in dir(module)
        checked += 1
    assert checked > 300, checked  # core alone: over 300 names; with ops-nn, many more


@pytest.mark.parametrize("code, canonical", [
    ("from cellgrad.train.callback import ModelCheckpoint", "train.ModelCheckpoint"),
    ("from cellgrad.train.callback import LossMonitor", "train.LossMonitor"),
    ("from cellgrad.train.callback._callback import Callback", "train.Callback"),
    ("from cellgrad.train.callback._loss_monitor import LossMonitor", "train.LossMonitor"),
    ("from cellgrad.train.callback._time_monitor import TimeMonitor", "train.TimeMonitor"),
    ("from cellgrad.train.callback._checkpoint import ModelCheckpoint", "train.ModelCheckpoint"),
    ("from cellgrad.train.serialization import load_checkpoint", "train.load_checkpoint"),
    ("from cellgrad.train.model import Model", "train.Model"),
    ("from cellgrad.nn.optim.momentum import Momentum", "nn.Momentum"),
    ("from cellgrad.nn.optim.adam import opt_init_args_register",
     "nn.optim.optimizer.opt_init_args_register"),
    ("from cellgrad.nn.loss.loss import LossBase", "nn.LossBase"),
    ("from cellgrad.nn.layer import CellList", "nn.CellList"),
    ("from cellgrad.nn.wrap.loss_scale import DynamicLossScaleUpdateCell",
     "nn.DynamicLossScaleUpdateCell"),
    ("from cellgrad.nn.learning_rate_schedule import CosineDecayLR", "nn.CosineDecayLR"),
    ("from cellgrad.nn.learning_rate_schedule import LearningRateSchedule",
     "nn.LearningRateSchedule"),
    ("from cellgrad.communication.management import GlobalComm", "communication.GlobalComm"),
    ("from cellgrad.nn.metrics import Accuracy", "train.Accuracy"),
    ("from cellgrad.common.tensor import Tensor", "Tensor"),
    ("from cellgrad.common.parameter import Parameter", "Parameter"),
    ("from cellgrad.train.model import ParallelMode", "ParallelMode"),
    ("from cellgrad.context import ParallelMode", "ParallelMode"),
    ("from cellgrad.ops.operations import MatMul", "ops.MatMul"),
    ("from cellgrad.common.seed import set_seed", "set_seed"),
    ("from cellgrad.common.api import jit", "jit"),
    ("from cellgrad.version import __version__", "__version__"),
])
def test_the_most_used_paths(code, canonical):
    namespace, _, name = canonical.rpartition(".")
    expected = _canonical(namespace, name)
    if expected is None:
        provider = _first_party.provider(canonical)
        pytest.skip(f"cellgrad.{canonical} needs {provider}, which is not installed")
    scope = {}
    exec(code, scope)
    assert scope[code.split()[-1]] is expected


def test_the_table_is_mindspores_layout():
    """Each alias path lists the names MindSpore 2.10 has there, in their namespaces."""
    for path, names in PATHS.items():
        if path in OWN_MODULES:
            continue
        expected = {}
        for name, canonical in names.items():
            if canonical is not None and canonical != "log":
                expected.setdefault(canonical, set()).add(name)
        got = {ns: set(listed.split()) for ns, listed in _paths.PATHS[path].items()}
        if path in _paths.EVERY_PRIMITIVE:  # the Primitive classes come from the rule
            assert got["ops"] <= expected["ops"] and set(got) == {"ops"}, path
            continue
        only_here = {n for n, canonical in names.items() if canonical is None}
        for ns in got:  # a class only this path has in MindSpore may be in a namespace here
            got[ns] -= only_here
        assert {ns: n for ns, n in got.items() if n} == expected, path


# ---- ops.operations: every Primitive class of cellgrad.ops, found when looked up ----


def _primitive_classes():
    out = {}
    for name in dir(cellgrad.ops):
        obj = getattr(cellgrad.ops, name, None)
        if isinstance(obj, type) and issubclass(obj, Primitive):
            out[name] = obj
    return out


@pytest.mark.parametrize("path", _paths.EVERY_PRIMITIVE)
def test_operations_hold_every_primitive_class(path):
    module = importlib.import_module(f"cellgrad.{path}")
    classes = _primitive_classes()
    assert {"MatMul", "Cast", "ReduceSum", "Concat"} <= set(classes)
    for name, cls in classes.items():
        assert getattr(module, name) is cls, name
    listed = set(dir(module))
    assert set(classes) <= listed
    assert not {"matmul", "cast", "reduce_sum"} & listed
    with pytest.raises(AttributeError, match=f"module 'cellgrad.{path}' has no attribute "
                                             f"'matmul'$"):
        _ = module.matmul


def test_a_primitive_added_to_ops_later_appears_in_operations(monkeypatch):
    class Frobnicate(Primitive):
        pass

    monkeypatch.setattr(cellgrad.ops, "Frobnicate", Frobnicate, raising=False)
    monkeypatch.delitem(vars(P), "Frobnicate", raising=False)  # undo the cache afterwards
    assert P.Frobnicate is Frobnicate
    assert "Frobnicate" in dir(P)
    from cellgrad.ops.operations.math_ops import Frobnicate as again

    assert again is Frobnicate
    monkeypatch.delitem(vars(cellgrad.ops.operations.math_ops), "Frobnicate", raising=False)


def test_primitives_of_a_plugin_are_there():
    pytest.importorskip("cellgrad_nn", reason="cellgrad-ops-nn provides ops.Conv2D")
    assert P.Conv2D is cellgrad.ops.Conv2D and P.nn_ops.ReLU is cellgrad.ops.ReLU
    conv = P.Conv2D(out_channel=2, kernel_size=1)
    assert isinstance(conv, Primitive)


# ---- a missing package is named at the path the code wrote ----


def test_a_disabled_package_is_named_at_the_path_written(monkeypatch):
    pytest.importorskip("cellgrad_nn", reason="needs cellgrad-ops-nn installed to disable it")
    monkeypatch.setenv("CELLGRAD_DISABLED_PLUGINS", "cellgrad-ops-nn")
    plugins.reset()
    try:
        for written in ("train.callback.ModelCheckpoint", "nn.optim.momentum.Momentum",
                        "ops.operations.Conv2D", "nn.layer.conv.Conv2d"):
            path, _, name = written.rpartition(".")
            module = importlib.import_module(f"cellgrad.{path}")
            with pytest.raises(PluginNameAttributeError) as info:
                getattr(module, name)
            assert str(info.value).startswith(f"cellgrad.{written} is provided by "
                                              f"cellgrad-ops-nn ")
            assert "disabled by CELLGRAD_DISABLED_PLUGINS='cellgrad-ops-nn'" in str(info.value)
            assert info.value.package == "cellgrad-ops-nn" and not hasattr(module, name)
            assert name not in dir(module)
            with pytest.raises(PluginNameImportError, match=f"^cellgrad.{written} is provided"):
                exec(f"from cellgrad.{path} import {name}", {})
    finally:
        monkeypatch.delenv("CELLGRAD_DISABLED_PLUGINS")
        plugins.reset()


@pytest.mark.skipif(bool(_plugins_installed()), reason="needs cellgrad-core alone")
@pytest.mark.parametrize("code, dist", [
    ("from cellgrad.train.callback import ModelCheckpoint", "cellgrad-ops-nn"),
    ("import cellgrad.ops.operations as P; P.Conv2D", "cellgrad-ops-nn"),
    ("from cellgrad.nn.optim.momentum import Momentum", "cellgrad-ops-nn"),
    ("from cellgrad.train.serialization import load_checkpoint", "cellgrad-checkpoint"),
    ("from cellgrad.communication.management import init", "cellgrad-distributed"),
    ("from cellgrad.nn.optim.sgd import opt_init_args_register", "cellgrad-ops-nn"),
    ("import cellgrad.nn.wrap.grad_reducer as g; g.DistributedGradReducer",
     "cellgrad-distributed"),
])
def test_without_the_package_the_error_says_what_to_install(code, dist):
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = run.stderr.strip().splitlines()[-1]
    kind = "PluginNameImportError" if code.startswith("from") else "PluginNameAttributeError"
    written = code.split()[1] + "." + code.split()[-1] if code.startswith("from") else \
        code.split()[1] + "." + code.split(".")[-1]
    assert last == (f"cellgrad.plugins.{kind}: {written} is provided by the package {dist}, "
                    f"which is not installed: pip install {dist}")


# ---- moved 1.x names ----


def test_a_moved_name_warns_and_resolves():
    with pytest.warns(DeprecationWarning, match=r"^mindspore\.ms_function is MindSpore 1\.x's "
                                                r"name; MindSpore 2\.10 has it as mindspore\.jit: "
                                                r"use cellgrad\.jit$"):
        assert cellgrad.ms_function is cellgrad.jit
    with pytest.warns(DeprecationWarning, match="mindspore.jit"):
        from cellgrad import ms_function  # noqa: F401
    with pytest.warns(DeprecationWarning, match=r"^mindspore\.common\.api\.ms_function is "):
        from cellgrad.common.api import ms_function as again
    assert again is cellgrad.jit
    assert "ms_function" not in dir(cellgrad) and "ms_function" not in vars(cellgrad)


def test_validator_of_mindspore_1_is_the_checkparam_module():
    import cellgrad._checkparam as checkparam

    with pytest.warns(DeprecationWarning, match=r"^mindspore\._checkparam\.Validator is "
                                                r"MindSpore 1\.x's name; MindSpore 2\.10 has it "
                                                r"as mindspore\._checkparam"):
        from cellgrad._checkparam import Validator
    with pytest.warns(DeprecationWarning, match="Rel is MindSpore 1.x's name"):
        from cellgrad._checkparam import Rel
    assert Validator is checkparam and Rel is checkparam
    assert Validator.check_positive_int(3, "n") == 3 and Rel.INC_LEFT == 8
    with pytest.raises(ValueError, match="^For 'LSTM', the 'num_layers' must be int and must > "
                                         "0, but got '0' with type 'int'.$"):
        Validator.check_positive_int(0, "num_layers", "LSTM")


def test_a_moved_module_warns_on_import(monkeypatch):
    monkeypatch.delitem(sys.modules, "cellgrad.nn.metrics.metric", raising=False)
    with pytest.warns(DeprecationWarning, match=r"^mindspore\.nn\.metrics\.metric is MindSpore "
                                                r"1\.x's module; MindSpore 2\.10 has its names "
                                                r"in mindspore\.train: use cellgrad\.train$") as w:
        from cellgrad.nn.metrics import metric
    assert w[0].filename == __file__  # the warning points at the import
    expected = _canonical("train", "Metric")
    if expected is not None:
        assert metric.Metric is expected


def test_every_moved_target_exists_in_mindspore_2_10():
    for old, new in _paths.MOVED.items():
        assert old not in PATHS, old
        namespace, _, name = new.rpartition(".")
        assert new in PATHS or hasattr(_module(namespace), name) or \
            _first_party.provider(new), new


# ---- names cellgrad deliberately does not provide ----


@pytest.mark.parametrize("qualname", sorted(_not_provided.NOT_PROVIDED))
def test_a_name_not_provided_says_why_and_what_instead(qualname):
    namespace, _, name = qualname.rpartition(".")
    module = _module(namespace)
    assert not hasattr(module, name)
    with pytest.raises(NotProvidedAttributeError) as info:
        getattr(module, name)
    reason = _not_provided.NOT_PROVIDED[qualname]
    assert str(info.value) == f"cellgrad.{qualname} (mindspore.{qualname}) {reason}"
    assert isinstance(info.value, AttributeError) and info.value.qualname == qualname
    with pytest.raises(NotProvidedImportError) as info:
        exec(f"from {module.__name__} import {name}", {})
    assert str(info.value).endswith(reason) and isinstance(info.value, ImportError)
    assert name not in dir(module)


@pytest.mark.parametrize("written, qualname", [
    ("ops.operations.Push", "ops.Push"),
    ("ops.operations.GetNext", "ops.GetNext"),
    ("nn.optim.thor", "nn.thor"),
    ("nn.layer.Conv2dThor", "nn.Conv2dThor"),
])
def test_an_alias_path_gives_the_same_answer(written, qualname):
    path, _, name = written.rpartition(".")
    with pytest.raises(NotProvidedAttributeError) as info:
        getattr(importlib.import_module(f"cellgrad.{path}"), name)
    assert str(info.value).startswith(f"cellgrad.{written} (mindspore.{qualname}) ")
    with pytest.raises(NotProvidedImportError):
        exec(f"from cellgrad.{path} import {name}", {})


def test_an_unknown_name_stays_a_plain_attribute_error():
    for module, name in ((P, "NoSuchPrimitive"), (cellgrad.nn.optim.momentum, "Nope"),
                         (cellgrad.train.callback, "NoSuchCallback")):
        with pytest.raises(AttributeError) as info:
            getattr(module, name)
        assert type(info.value) is AttributeError
        assert str(info.value) == f"module '{module.__name__}' has no attribute '{name}'"


def test_lookups_are_cached_until_the_plugins_reset(monkeypatch):
    plugins.state()
    monkeypatch.delitem(vars(P), "MatMul", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a cached alias never warns
        first = P.MatMul
    assert vars(P)["MatMul"] is first
    plugins.reset()
    assert "MatMul" not in vars(P) and P.MatMul is first


def test_a_core_name_at_an_alias_path_loads_no_plugin():
    code = ("import cellgrad.ops.operations as P, cellgrad.common.api as api\n"
            "from cellgrad import plugins\n"
            "assert P.Cast is P.Cast and api.jit\n"
            "assert plugins._state is None and 'Cast' in vars(P)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_ops_functional_holds_every_ops_name_plugins_included():
    from cellgrad import ops
    from cellgrad.ops import functional as F

    assert F.matmul is ops.matmul and "matmul" in dir(F)
    plugins = pytest.importorskip("cellgrad_nn")  # a plugin's functional op, when installed
    assert plugins and F.relu is ops.relu and "relu" in dir(F)
