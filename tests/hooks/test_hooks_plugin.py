"""cellgrad-hooks as a plugin: what it registers, that it loads lazily, and the runner protocol."""

import os
import subprocess
import sys
import textwrap

import pytest

import cellgrad
from cellgrad import nn, plugins


def run_python(code, **env):
    """Run `code` in a fresh interpreter (plugin state is per process); returns stdout."""
    full_env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full_env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_plugin_provides_the_runner_and_the_ops():
    from cellgrad_hooks.plugin import RUNNER

    info = next(p for p in plugins.get_plugins() if p.distribution == "cellgrad-hooks")
    assert info.status == "loaded" and not info.problems
    assert info.cell_hook_runner
    assert sorted(info.names) == ["ops.HookBackward", "ops.InsertGradientOf"]
    assert plugins.cell_hook_runner() is RUNNER
    assert "HookBackward" in dir(cellgrad.ops)


def test_loading_the_plugin_imports_nothing_until_used():
    out = run_python("""
        import sys
        import cellgrad
        from cellgrad import plugins
        import cellgrad_hooks.plugin as p
        plugins.register(p, name="hooks", distribution="cellgrad-hooks", version="0")
        plugins.get_plugins()
        print(sorted(m for m in sys.modules if m.startswith("cellgrad_hooks.")))
        cellgrad.ops.HookBackward
        print("cellgrad_hooks.grad_ops" in sys.modules, "cellgrad_hooks.runner" in sys.modules)
        cellgrad.nn.Cell().register_forward_hook(print)
        print("cellgrad_hooks.runner" in sys.modules)
    """, CELLGRAD_DISABLE_PLUGIN_AUTOLOAD="1")
    assert out.split("\n")[:3] == ["['cellgrad_hooks.plugin']", "True False", "True"]


def test_without_the_plugin_hook_registration_says_what_to_install():
    out = run_python("""
        import numpy as np
        import cellgrad
        try:
            cellgrad.Tensor(np.ones(2, np.float32)).register_hook(print)
        except ImportError as e:
            print(e)
    """, CELLGRAD_DISABLE_PLUGIN_AUTOLOAD="1")
    assert out.startswith("Tensor.register_hook is provided by cellgrad-hooks")


def test_runner_protocol():
    from cellgrad_hooks.plugin import RUNNER
    from cellgrad_hooks.runner import CellHooks

    class Cell(nn.Cell):
        def construct(self, a):
            return a + 1

    c = Cell()
    with pytest.raises(ValueError, match="unknown Cell hook kind 'sideways'"):
        RUNNER.register(c, "sideways", print)
    h = RUNNER.register(c, "forward", lambda cell, args, out: out * 10)
    assert isinstance(c._hooks, CellHooks)
    assert RUNNER.run(c, (2,), {}) == 30
    h.remove()
    assert c._hooks is None
