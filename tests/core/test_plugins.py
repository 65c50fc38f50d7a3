"""The plugin manager: hand-registered modules and fake installed distributions.

Covers ops and names entering the namespaces, lazy loading, conflicts naming both
distributions, broken plugins, the disable variables, install hints, dir() and the Cell hook
runner. Every test starts and ends with no plugin loaded.
"""

import contextlib
import importlib
import io
import os
import subprocess
import sys
import textwrap
import threading
import types
import warnings

import numpy as np
import pytest
from conftest import namespace_module

import cellgrad
import cellgrad.ops
import cellgrad.train
from cellgrad import Tensor, plugins
from cellgrad.__main__ import show_plugins
from cellgrad.ops._registry import OPS
from cellgrad.plugins import (
    PluginNameAttributeError,
    PluginNameError,
    PluginNameImportError,
    PluginWarning,
    hookimpl,
)
from cellgrad.testing import gradcheck

AUTOLOAD = "CELLGRAD_DISABLE_PLUGIN_AUTOLOAD"
DISABLED = "CELLGRAD_DISABLED_PLUGINS"


@pytest.fixture(autouse=True)
def no_plugins(monkeypatch):
    monkeypatch.setenv(AUTOLOAD, "1")  # only what a test registers or installs
    monkeypatch.delenv(DISABLED, raising=False)
    plugins.reset()
    yield
    plugins.reset()


def plugin(name, **hooks):
    """A plugin module whose hooks are the given functions."""
    module = types.ModuleType(name)
    for hook, fn in hooks.items():
        setattr(module, hook, hookimpl(fn))
    return module


def _twice_forward(x, *, scale=2.0):
    """Multiply by `scale` (a test op)."""
    return x * scale, None


def op_plugin(op_name, dist, version="1.0", **extra):
    def cellgrad_register_ops(register):
        register(op_name, _twice_forward, lambda ctx, g: g * 2.0)

    return plugin(f"plug_{dist}", cellgrad_register_ops=cellgrad_register_ops, **extra)


def register(module, dist, version="1.0"):
    plugins.register(module, distribution=dist, version=version)


def export_plugin(name, **exports):
    def cellgrad_export_names(export):
        for qualname, obj in exports.items():
            export(qualname.replace("__", "."), obj)

    return plugin(name, cellgrad_export_names=cellgrad_export_names)


# ---- ops ----


def test_registered_op_is_an_ops_function_in_the_registry_and_differentiable():
    register(op_plugin("twice", "cellgrad-twice"), "cellgrad-twice")
    assert "twice" not in OPS  # nothing loads before the first lookup
    x = Tensor(np.array([1.0, -2.0, 3.0]))
    np.testing.assert_allclose(cellgrad.ops.twice(x).asnumpy(), [2.0, -4.0, 6.0])
    assert OPS["twice"].name == "twice" and OPS["twice"].differentiable
    assert "twice" in dir(cellgrad.ops)
    assert gradcheck(cellgrad.ops.twice, x)
    assert cellgrad.ops.twice.__name__ == "twice"
    assert cellgrad.ops.twice.__doc__ == "Multiply by `scale` (a test op)."
    from cellgrad.ops import twice

    assert twice is cellgrad.ops.twice
    plugins.reset()
    assert "twice" not in OPS
    assert "twice" not in vars(cellgrad.ops)


def test_op_function_binds_keywords_as_the_forward_signature_says():
    register(op_plugin("twice", "cellgrad-twice"), "cellgrad-twice")
    x = Tensor(np.array([1.0, 2.0]))
    np.testing.assert_allclose(cellgrad.ops.twice(x, scale=3.0).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(cellgrad.ops.twice(x=x, scale=0.5).asnumpy(), [0.5, 1.0])
    with pytest.raises(TypeError, match="For 'twice', .*unexpected keyword argument 'bogus'"):
        cellgrad.ops.twice(x, bogus=1)


def test_an_op_object_enters_the_registry_and_the_plugin_exports_its_own_function():
    op = plugins.Op("halve_obj", lambda x: (x * 0.5, None), lambda ctx, g: g * 0.5)

    def halve(input):
        """The plugin's own public function, with its own signature."""
        return plugins.apply(op, (input,), None)

    def cellgrad_register_ops(register):
        register(op)

    def cellgrad_export_names(export):
        export("ops.halve_obj", halve)

    register(plugin("plug_obj", cellgrad_register_ops=cellgrad_register_ops,
                    cellgrad_export_names=cellgrad_export_names), "cellgrad-obj")
    x = Tensor(np.array([2.0, -4.0]))
    assert cellgrad.ops.halve_obj is halve and OPS["halve_obj"] is op
    np.testing.assert_allclose(cellgrad.ops.halve_obj(x).asnumpy(), [1.0, -2.0])
    assert gradcheck(cellgrad.ops.halve_obj, x)
    info = next(p for p in plugins.get_plugins() if p.distribution == "cellgrad-obj")
    assert info.ops == ["halve_obj"] and info.names == ["ops.halve_obj"] and not info.problems
    plugins.reset()
    assert "halve_obj" not in OPS


def test_an_op_object_named_like_a_core_op_is_a_conflict():
    op = plugins.Op("add", lambda x: (x, None), lambda ctx, g: g)
    register(plugin("plug_objadd", cellgrad_register_ops=lambda register: register(op)),
             "cellgrad-objadd")
    with pytest.warns(PluginWarning, match="the op 'add' is provided by cellgrad-core"):
        plugins.get_plugins()
    assert OPS["add"] is not op


def test_plugins_load_once_however_many_lookups_and_threads():
    calls = []

    def cellgrad_register_ops(register):
        calls.append(1)
        register("once", _twice_forward, lambda ctx, g: g * 2.0)

    register(plugin("plug_once", cellgrad_register_ops=cellgrad_register_ops), "cellgrad-once")
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(cellgrad.ops.once))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 8 and len({id(f) for f in seen}) == 1
    assert hasattr(cellgrad.ops, "once") and hasattr(cellgrad, "Tensor")
    assert calls == [1]


# ---- names in the namespaces ----


class FakeThing:
    pass


@pytest.mark.parametrize("namespace", ["", "ops", "train", "nn", "common.initializer"])
def test_exported_name_appears_in_its_namespace(namespace):
    module = namespace_module(namespace)
    qualname = f"{namespace}.FakeThing" if namespace else "FakeThing"
    register(export_plugin("plug_ns", **{qualname.replace(".", "__"): FakeThing}), "cellgrad-ns")
    assert module.FakeThing is FakeThing
    assert "FakeThing" in dir(module)
    exec(f"from {module.__name__} import FakeThing as got", namespace_dict := {})
    assert namespace_dict["got"] is FakeThing




def test_lazy_export_imports_on_first_access(tmp_path, monkeypatch):
    (tmp_path / "lazy_fake_mod.py").write_text("VALUE = object()\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def cellgrad_export_names(export):
        export("ops.lazy_value", lazy="lazy_fake_mod:VALUE")
        export("ops.lazy_broken", lazy="lazy_fake_mod:MISSING")

    register(plugin("plug_lazy", cellgrad_export_names=cellgrad_export_names), "cellgrad-lazy")
    assert "lazy_value" in dir(cellgrad.ops)
    assert "lazy_fake_mod" not in sys.modules
    assert cellgrad.ops.lazy_value is sys.modules["lazy_fake_mod"].VALUE
    with pytest.raises(PluginNameAttributeError,
                       match=r"cellgrad.ops.lazy_broken failed to import from "
                             r"lazy_fake_mod:MISSING: AttributeError.*cellgrad-lazy 1.0"):
        _ = cellgrad.ops.lazy_broken
    sys.modules.pop("lazy_fake_mod", None)


def test_dir_lists_plugin_names_and_namespaces_but_not_hints():
    register(export_plugin("plug_dir", nn__PlugLayer=FakeThing, save_fake=FakeThing),
             "cellgrad-dir")
    top = dir(cellgrad)
    assert {"Tensor", "ops", "train", "save_fake"} <= set(top)
    assert "save_checkpoint" not in top  # a hint, not a name
    assert top == sorted(top)
    assert "HookBackward" not in dir(cellgrad.ops)


def test_unknown_and_private_names_are_plain_attribute_errors():
    with pytest.raises(AttributeError, match="module 'cellgrad.ops' has no attribute 'nope'") as e:
        _ = cellgrad.ops.nope
    assert not isinstance(e.value, PluginNameError)
    assert not hasattr(cellgrad, "nope")
    plugins.reset()
    assert not hasattr(cellgrad, "__wrapped__")
    assert not hasattr(cellgrad.ops, "_private")
    assert plugins._state is None  # private and dunder names never load plugins


def test_unimported_submodule_does_not_load_plugins():
    code = textwrap.dedent("""
        import sys, cellgrad
        try:
            cellgrad.testing
        except AttributeError as e:
            print(e)
        from cellgrad import testing
        print(testing.__name__, "cellgrad.plugins" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["module 'cellgrad' has no attribute 'testing'; it is a submodule: import "
                   "cellgrad.testing", "cellgrad.testing False"]


# ---- conflicts ----


def test_name_claimed_by_two_distributions_is_an_error_naming_both():
    a = op_plugin("clash", "cellgrad-a", cellgrad_export_names=lambda export: export(
        "ops.only_a", FakeThing))
    register(a, "cellgrad-a", "1.0")
    register(op_plugin("clash", "cellgrad-b"), "cellgrad-b", "2.5")
    both = "cellgrad.ops.clash is registered by both cellgrad-a 1.0 and cellgrad-b 2.5"
    with pytest.warns(PluginWarning, match=both):
        assert cellgrad.ops.only_a is FakeThing  # the rest of cellgrad-a works
    with pytest.raises(PluginNameAttributeError, match=both):
        _ = cellgrad.ops.clash
    with pytest.raises(PluginNameImportError, match=both):
        from cellgrad.ops import clash  # noqa: F401
    assert "clash" not in OPS and not hasattr(cellgrad.ops, "clash")
    for info in plugins.get_plugins():
        assert info.status == "loaded" and any(both in p for p in info.problems)


def test_plugin_cannot_replace_a_core_name():
    core_add = cellgrad.ops.add
    register(op_plugin("add", "cellgrad-shadow", cellgrad_export_names=lambda export: export(
        "Tensor", FakeThing)), "cellgrad-shadow")
    with pytest.warns(PluginWarning) as record:
        plugins.get_plugins()
    messages = "\n".join(str(w.message) for w in record)
    assert ("cellgrad.ops.add is provided by cellgrad-core "
            f"{cellgrad.__version__} and registered again by cellgrad-shadow 1.0") in messages
    assert "cellgrad.Tensor is provided by cellgrad-core" in messages
    assert cellgrad.ops.add is core_add and OPS["add"].name == "add"


def test_two_cell_hook_runners_conflict():
    runner_a, runner_b = object(), object()
    register(plugin("plug_ra", cellgrad_cell_hook_runner=lambda: runner_a), "cellgrad-hooks")
    register(plugin("plug_rb", cellgrad_cell_hook_runner=lambda: runner_b), "other-hooks", "3")
    with pytest.warns(PluginWarning, match="the Cell hook runner is registered by both "
                                           "cellgrad-hooks 1.0 and other-hooks 3"):
        with pytest.raises(PluginNameImportError, match="registered by both"):
            plugins.cell_hook_runner("Cell.register_forward_hook")


def test_cell_hook_runner_comes_from_the_plugin():
    runner = object()
    register(plugin("plug_runner", cellgrad_cell_hook_runner=lambda: runner), "cellgrad-hooks")
    assert plugins.cell_hook_runner() is runner
    assert [p.cell_hook_runner for p in plugins.get_plugins()] == [True]


# ---- broken plugins ----


def test_op_claiming_a_backward_it_lacks_is_reported_and_the_rest_works():
    def cellgrad_register_ops(register):
        register("no_rule", _twice_forward)
        register("constant", _twice_forward, differentiable=False)
        register("good", _twice_forward, lambda ctx, g: g * 2.0)

    register(plugin("plug_half", cellgrad_register_ops=cellgrad_register_ops),
             "cellgrad-half", "0.3")
    with pytest.warns(PluginWarning, match=r"cellgrad plugin cellgrad-half 0.3 .*op 'no_rule' "
                                           r"claims to be differentiable but registers no "
                                           r"backward"):
        assert not hasattr(cellgrad.ops, "no_rule")
    x = Tensor(np.array([1.0, 2.0]))
    assert gradcheck(cellgrad.ops.good, x)
    assert not OPS["constant"].differentiable
    np.testing.assert_allclose(cellgrad.ops.constant(x).asnumpy(), [2.0, 4.0])
    out = show_plugins(buf := io.StringIO())
    assert out == 1
    assert "cellgrad-half 0.3" in buf.getvalue() and "ops: constant, good" in buf.getvalue()
    assert "problem: op 'no_rule' claims to be differentiable" in buf.getvalue()


@pytest.mark.parametrize("call, problem", [
    (lambda r, e: r("bad", _twice_forward, lambda c, g: g, promote="sideways"),
     "op 'bad': promote must be one of 'none', 'arith', 'div', 'float', 'compare'"),
    (lambda r, e: r("1bad", _twice_forward, None, differentiable=False),
     "op name '1bad' is not a public Python identifier"),
    (lambda r, e: r("bad", _twice_forward, lambda c, g: g, differentiable=False),
     "op 'bad' has a backward but says differentiable=False"),
    (lambda r, e: r("bad", 42, None, differentiable=False),
     "op 'bad': forward must be callable, got int"),
    (lambda r, e: e("optim.SGD", FakeThing), "unknown namespace 'optim'"),
    (lambda r, e: e("nn.Dense", FakeThing, lazy="m:a"), "give exactly one of an object"),
    (lambda r, e: e("nn.Dense", lazy="no_colon"), "lazy must be 'package.module:attr'"),
])
def test_invalid_registrations_are_reported(call, problem):
    box = {}

    def cellgrad_register_ops(register):
        box["register"] = register

    def cellgrad_export_names(export):
        call(box["register"], export)

    register(plugin("plug_invalid", cellgrad_register_ops=cellgrad_register_ops,
                    cellgrad_export_names=cellgrad_export_names), "cellgrad-invalid")
    with pytest.warns(PluginWarning, match="cellgrad plugin cellgrad-invalid 1.0"):
        (info,) = plugins.get_plugins()
    assert info.status == "loaded" and problem in info.problems[0]
    assert "bad" not in OPS


def test_register_after_the_hook_returned_is_an_error():
    box = {}
    register(plugin("plug_late", cellgrad_register_ops=lambda register: box.update(r=register)),
             "cellgrad-late")
    plugins.get_plugins()
    with pytest.raises(RuntimeError, match="register\\(\\) was called after its hook returned"):
        box["r"]("late", _twice_forward, None, differentiable=False)


def test_hook_that_raises_drops_the_whole_plugin():
    def cellgrad_export_names(export):
        export("ops.early", FakeThing)
        raise KeyError("kaboom")

    register(op_plugin("from_raising", "cellgrad-raising",
                       cellgrad_export_names=cellgrad_export_names), "cellgrad-raising")
    register(op_plugin("survivor", "cellgrad-ok"), "cellgrad-ok")
    with pytest.warns(PluginWarning, match="cellgrad_export_names raised KeyError: 'kaboom'"):
        assert callable(cellgrad.ops.survivor)
    assert not hasattr(cellgrad.ops, "from_raising") and not hasattr(cellgrad.ops, "early")
    statuses = {p.distribution: p.status for p in plugins.get_plugins()}
    assert statuses == {"cellgrad-raising": "failed", "cellgrad-ok": "loaded"}


def test_unknown_hook_is_reported():
    register(plugin("plug_typo", cellgrad_register_op=lambda register: None), "cellgrad-typo")
    with pytest.warns(PluginWarning, match="implements the unknown hook "
                                           "'cellgrad_register_op'.*cellgrad_register_ops"):
        plugins.get_plugins()


def test_plugin_looking_up_plugin_names_while_loading_fails_alone(tmp_path, monkeypatch):
    install(tmp_path, "cellgrad-eager", "0.1", "eager_fake_plugin",
            "import cellgrad.ops\nX = cellgrad.ops.other_plugin_op\n")
    install(tmp_path, "cellgrad-calm", "0.2", "calm_fake_plugin", OP_SOURCE.format(op="calm"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(AUTOLOAD)
    with pytest.warns(PluginWarning, match="cellgrad-eager 0.1 .*while the plugins are loading"):
        assert callable(cellgrad.ops.calm)


# ---- installed (fake) distributions ----

OP_SOURCE = """\
from cellgrad.plugins import hookimpl

def _forward(x):
    return x * 3.0, None

@hookimpl
def cellgrad_register_ops(register):
    register("{op}", _forward, lambda ctx, g: g * 3.0)
"""


def install(root, dist, version, module, source, entry_point=None):
    """A distribution on `root` (a sys.path entry) with an entry point in group cellgrad."""
    (root / f"{module}.py").write_text(source)
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[cellgrad]\n{entry_point or dist} = {module}\n")


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """Three fake distributions: two working, one that raises on import."""
    install(tmp_path, "cellgrad-fake-a", "1.2", "fake_plugin_a", OP_SOURCE.format(op="fake_a"),
            entry_point="fa")
    install(tmp_path, "cellgrad-fake-b", "0.9", "fake_plugin_b", OP_SOURCE.format(op="fake_b"))
    install(tmp_path, "cellgrad-broken", "6.6", "fake_plugin_broken",
            "raise RuntimeError('broken at import')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(AUTOLOAD)
    yield tmp_path
    for name in ("fake_plugin_a", "fake_plugin_b", "fake_plugin_broken"):
        sys.modules.pop(name, None)


def test_entry_points_load_and_a_broken_plugin_is_isolated(installed):
    with pytest.warns(PluginWarning, match=r"cellgrad plugin cellgrad-broken 6.6 "
                                           r"\(cellgrad-broken = fake_plugin_broken\): import of "
                                           r"fake_plugin_broken failed: RuntimeError: broken"):
        x = Tensor(np.array([1.0, 2.0]))
        np.testing.assert_allclose(cellgrad.ops.fake_a(x).asnumpy(), [3.0, 6.0])
    assert gradcheck(cellgrad.ops.fake_b, x)
    infos = {p.distribution: p for p in plugins.get_plugins()}
    assert infos["cellgrad-fake-a"].version == "1.2" and infos["cellgrad-fake-a"].name == "fa"
    assert infos["cellgrad-fake-a"].ops == ["fake_a"]
    assert infos["cellgrad-broken"].status == "failed"
    assert show_plugins(buf := io.StringIO()) == 1
    text = buf.getvalue()
    assert "cellgrad-fake-b 0.9  [cellgrad-fake-b = fake_plugin_b]  loaded" in text
    assert "cellgrad-broken 6.6  [cellgrad-broken = fake_plugin_broken]  failed" in text
    assert "problem: import of fake_plugin_broken failed: RuntimeError: broken at import" in text


def test_a_distribution_found_twice_on_sys_path_loads_once(installed, tmp_path_factory,
                                                           monkeypatch):
    second = tmp_path_factory.mktemp("shadowed")
    install(second, "cellgrad-fake-a", "0.1", "fake_plugin_a", OP_SOURCE.format(op="fake_a"))
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.setenv(DISABLED, "cellgrad-broken")
    assert callable(cellgrad.ops.fake_a)
    versions = [p.version for p in plugins.get_plugins() if p.distribution == "cellgrad-fake-a"]
    assert versions == ["0.1"]  # the first on sys.path, as import picks it


@pytest.mark.parametrize("names", ["cellgrad-fake-a,cellgrad-broken", "FA , cellgrad_broken"])
def test_disabled_plugins_are_not_imported(installed, monkeypatch, names):
    monkeypatch.setenv(DISABLED, names)
    assert callable(cellgrad.ops.fake_b)
    assert not hasattr(cellgrad.ops, "fake_a")
    assert "fake_plugin_a" not in sys.modules and "fake_plugin_broken" not in sys.modules
    statuses = {p.distribution: p.status for p in plugins.get_plugins()
                if p.target.startswith("fake_plugin_")}
    assert statuses == {"cellgrad-fake-a": "disabled", "cellgrad-fake-b": "loaded",
                        "cellgrad-broken": "disabled"}


def test_autoload_off_loads_no_entry_point_but_hand_registered_ones(installed, monkeypatch):
    monkeypatch.setenv(AUTOLOAD, "1")
    register(op_plugin("by_hand", "cellgrad-hand"), "cellgrad-hand")
    assert callable(cellgrad.ops.by_hand)
    assert not hasattr(cellgrad.ops, "fake_a")
    assert "fake_plugin_a" not in sys.modules
    assert [p.distribution for p in plugins.get_plugins()] == ["cellgrad-hand"]


def test_import_cellgrad_loads_no_plugin(installed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), *sys.path]))
    env.pop(DISABLED, None)
    code = textwrap.dedent("""
        import sys
        import cellgrad, cellgrad.ops, cellgrad.train
        loaded = ("pluggy", "cellgrad.plugins", "fake_plugin_a")
        print(sorted(m for m in loaded if m in sys.modules))
        cellgrad.ops.fake_a
        print("fake_plugin_a" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["[]", "True"]
    timing = subprocess.run([sys.executable, "-X", "importtime", "-c", "import cellgrad"],
                            env=env, capture_output=True, text=True, check=True).stderr
    assert " cellgrad.plugins" not in timing and " pluggy" not in timing
    assert " fake_plugin_a" not in timing and " cellgrad._namespace" in timing


# ---- install hints of first-party names ----


@pytest.mark.parametrize("status, expected", [
    ("failed", "cellgrad.ops.relu is provided by cellgrad-ops-nn 0.5, which failed to load: "
               "cellgrad_register_ops raised ValueError: nope"),
    ("disabled", "cellgrad.ops.relu is provided by cellgrad-ops-nn 0.5, which is disabled by "
                 "CELLGRAD_DISABLED_PLUGINS='cellgrad-ops-nn'"),
    ("partial", "cellgrad.ops.relu is not provided by the installed cellgrad-ops-nn 0.5"),
])
def test_hint_says_why_an_installed_first_party_package_gives_no_name(monkeypatch, status,
                                                                      expected):
    def cellgrad_register_ops(register):
        if status == "failed":
            raise ValueError("nope")

    register(plugin("plug_nn", cellgrad_register_ops=cellgrad_register_ops),
             "cellgrad-ops-nn", "0.5")
    if status == "disabled":
        monkeypatch.setenv(DISABLED, "cellgrad-ops-nn")
    with pytest.warns(PluginWarning) if status == "failed" else _no_warning():
        with pytest.raises(PluginNameAttributeError) as e:
            _ = cellgrad.ops.relu
    assert str(e.value).startswith(expected) and e.value.package == "cellgrad-ops-nn"
    assert e.value.qualname == "ops.relu"
    with pytest.raises(PluginNameImportError) as e:
        from cellgrad.ops import relu  # noqa: F401
    assert str(e.value).startswith(expected)


@contextlib.contextmanager
def _no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", PluginWarning)
        yield


def test_hint_when_autoload_is_off_and_the_package_is_installed(tmp_path, monkeypatch):
    install(tmp_path, "cellgrad-hooks", "0.7", "fake_hooks_plugin", "")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginNameAttributeError,
                       match=r"cellgrad.ops.HookBackward is provided by cellgrad-hooks 0.7, but "
                             r"plugin autoloading is off \(CELLGRAD_DISABLE_PLUGIN_AUTOLOAD is "
                             r"set\)"):
        _ = cellgrad.ops.HookBackward
    monkeypatch.delenv(AUTOLOAD)
    plugins.reset()
    with pytest.raises(PluginNameImportError, match="Cell.register_forward_hook is not provided "
                                                    "by the installed cellgrad-hooks 0.7"):
        plugins.cell_hook_runner("Cell.register_forward_hook")
    sys.modules.pop("fake_hooks_plugin", None)


def test_exported_first_party_name_wins_over_its_hint():
    register(export_plugin("plug_ckpt", save_checkpoint=FakeThing,
                           train__save_checkpoint=FakeThing), "cellgrad-checkpoint")
    assert cellgrad.save_checkpoint is FakeThing
    assert cellgrad.train.save_checkpoint is FakeThing
    with pytest.raises(PluginNameAttributeError, match="not provided by the installed "
                                                       "cellgrad-checkpoint 1.0"):
        _ = cellgrad.load_checkpoint


def test_unregister_forgets_a_plugin():
    module = op_plugin("temp_op", "cellgrad-temp")
    register(module, "cellgrad-temp")
    assert callable(cellgrad.ops.temp_op)
    plugins.unregister(module)
    assert not hasattr(cellgrad.ops, "temp_op") and "temp_op" not in OPS
    with pytest.raises(ValueError, match="was not registered by hand"):
        plugins.unregister(module)
    register(module, "cellgrad-temp")
    with pytest.raises(ValueError, match="is already registered"):
        register(module, "cellgrad-temp")


# ---- whole sub-packages (cellgrad_provide_modules) ----


def _module_plugin(name, provides):
    def cellgrad_provide_modules(provide):
        for sub, module_name in provides.items():
            provide(sub, module_name)

    return plugin(name, cellgrad_provide_modules=cellgrad_provide_modules)


def test_a_provided_sub_package_is_the_plugins_module_at_both_names(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_subpkg"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("class Thing:\n    pass\n")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "deep.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register(_module_plugin("plug_mod", {"fakesub": "fake_subpkg"}), "cellgrad-fakesub")
    deep = importlib.import_module("cellgrad.fakesub.inner.deep")
    import fake_subpkg.inner.deep

    assert deep is fake_subpkg.inner.deep and deep.VALUE == 42
    assert cellgrad.fakesub is sys.modules["fake_subpkg"]
    assert cellgrad.fakesub.Thing.__module__ == "fake_subpkg"  # pickles by its real module
    assert sys.modules["fake_subpkg"].__spec__.name == "fake_subpkg"
    assert "cellgrad.fakesub" in sys.modules
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("cellgrad.fakesub.missing")
    plugins.reset()  # the alias goes with the plugins; the plugin's module stays
    assert "cellgrad.fakesub" not in sys.modules and "fakesub" not in vars(cellgrad)
    assert "fake_subpkg" in sys.modules
    for key in [k for k in sys.modules if k.startswith("fake_subpkg")]:
        del sys.modules[key]


def test_a_missing_first_party_sub_package_names_the_package_to_install():
    with pytest.raises(ModuleNotFoundError, match=r"cellgrad.dataset is provided by the package "
                                                  r"cellgrad-dataset.*pip install cellgrad-dataset"
                       r"|cellgrad.dataset is provided by cellgrad-dataset .*autoloading is off"):
        importlib.import_module("cellgrad.dataset")
    with pytest.raises(PluginNameAttributeError, match="cellgrad-dataset"):
        _ = cellgrad.dataset
    assert not hasattr(cellgrad, "mindrecord")


def test_a_core_module_cannot_be_provided_and_two_providers_conflict(tmp_path, monkeypatch):
    register(_module_plugin("plug_core", {"nn": "json"}), "cellgrad-nnmod")
    register(_module_plugin("plug_a", {"twice_sub": "json"}), "cellgrad-a")
    register(_module_plugin("plug_b", {"twice_sub": "csv"}), "cellgrad-b")
    with pytest.warns(PluginWarning) as caught:
        info = {p.distribution: p for p in plugins.get_plugins()}
    messages = " ".join(str(w.message) for w in caught)
    assert "sub-package cellgrad.nn is provided by cellgrad-core" in messages
    assert "cellgrad.twice_sub is registered by both cellgrad-a 1.0 and cellgrad-b 1.0" in messages
    assert info["cellgrad-a"].problems and not hasattr(cellgrad, "twice_sub")
    assert importlib.import_module("cellgrad.nn").__name__ == "cellgrad.nn"


def test_provide_checks_its_arguments():
    register(_module_plugin("plug_bad", {"not a name": "json", "ok": "not a module!"}),
             "cellgrad-bad")
    with pytest.warns(PluginWarning) as caught:
        plugins.get_plugins()
    messages = " ".join(str(w.message) for w in caught)
    assert "must be an identifier like 'dataset', got 'not a name'" in messages
    assert "must be a dotted module name, got 'not a module!'" in messages
