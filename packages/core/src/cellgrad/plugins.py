"""cellgrad's plugin system: the pluggy hookspecs, the `hookimpl` marker and the manager.

A plugin is a module of `@hookimpl` functions named by an entry point in the group `cellgrad`;
the first-party packages (`cellgrad-ops-nn`, `cellgrad-hooks`, `cellgrad-checkpoint`) enter
the same way as a third party. Plugins are loaded once, lazily, on the first lookup of a name
the core does not define (`cellgrad.nn.Dense`, `cellgrad.ops.<plugin op>`); `import cellgrad`
loads none. Once loaded, ops live in `cellgrad.ops._registry.OPS` and names in plain dicts:
pluggy is never on the per-op or per-call path.

Environment, read when the plugins load:
    CELLGRAD_DISABLE_PLUGIN_AUTOLOAD=1  load no entry point (tests use `register()` instead)
    CELLGRAD_DISABLED_PLUGINS=a,b       skip these plugins (entry-point or distribution names)

A plugin that fails to import, a name two distributions claim, or an op that claims a backward
it does not have is reported (a `PluginWarning`, and `python -m cellgrad plugins`) with the
distribution's name and version; everything else keeps working.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import List

import pluggy

from cellgrad._namespace import NAMESPACES
from cellgrad.ops._registry import (
    PROMOTE_ARITH,
    PROMOTE_COMPARE,
    PROMOTE_DIV,
    PROMOTE_FLOAT,
    PROMOTE_NONE,
    Op,
    apply,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Op",
    "PROMOTE_ARITH",
    "PROMOTE_COMPARE",
    "PROMOTE_DIV",
    "PROMOTE_FLOAT",
    "PROMOTE_NONE",
    "apply",
    "NAMESPACES",
    "PluginInfo",
    "PluginNameAttributeError",
    "PluginNameError",
    "PluginNameImportError",
    "PluginWarning",
    "cell_hook_runner",
    "get_plugins",
    "hookimpl",
    "hookspec",
    "register",
    "reset",
    "unregister",
]

ENTRY_POINT_GROUP = "cellgrad"
AUTOLOAD_ENV = "CELLGRAD_DISABLE_PLUGIN_AUTOLOAD"
DISABLED_ENV = "CELLGRAD_DISABLED_PLUGINS"

hookspec = pluggy.HookspecMarker("cellgrad")
hookimpl = pluggy.HookimplMarker("cellgrad")


# ---- hookspecs ----


@hookspec
def cellgrad_register_ops(register):
    """Register ops: call `register(name, forward, backward, **options)` once per op.

    `forward(*inputs, **attrs) -> (out, saved)` runs on numpy arrays: its positional
    parameters are the op's inputs (Tensors arrive as arrays, other values as they are), its
    keyword-only parameters are attributes. `backward(ctx, *grads)` returns one gradient (or
    None) per input, reading `ctx.saved`, `ctx.xp` (numpy, or the Tensor namespace for grad of
    grad) and `ctx.needs_input_grad`; the engine reduces broadcast gradients and casts them.
    `ctx.grad_into(i)` is an array of input `i`'s shape and dtype that the rule may compute
    that gradient into (`out=`) and return, or None (the usual case; a gradient bucket of the
    distributed package offers its slots so).

    Each op enters `cellgrad.ops._registry.OPS` and appears as `cellgrad.ops.<name>`.
    Options of `register`:

    - `differentiable=True`: an op without a gradient says `differentiable=False`; a missing
      backward is otherwise reported as an error of the plugin and the op is left out.
    - `promote="none"`: the inputs' dtype rule: "none", "arith", "div", "float", "compare".
    - `first_order_only=False`: the backward only runs on numpy (grad of grad is an error).
    - `doc=None`: the public function's docstring (default: the forward's).

    A plugin that writes its own public functions (argument checking, MindSpore's signature)
    builds its ops itself, `op = cellgrad.plugins.Op(name, forward, backward, promote)`, calls
    `cellgrad.plugins.apply(op, inputs, attrs)` from its functions, and registers the object with
    `register(op)`: the op enters `OPS` (conflicts and reports as above) and no function is
    generated for it; the plugin exports its functions with `cellgrad_export_names`.
    """


@hookspec
def cellgrad_export_names(export):
    """Export names into the MindSpore namespaces: call `export(qualname, obj)`.

    `qualname` is the name as users write it after `cellgrad.`: `"nn.Dense"`,
    `"ops.HookBackward"`, `"save_checkpoint"`, `"common.initializer.MyInit"`,
    `"train.load_checkpoint"`. `export(qualname, lazy="package.module:attr")` imports the
    object on its first access instead, which keeps plugin loading fast. A name that the core
    or another distribution already provides is a conflict, reported with both names.
    """


@hookspec
def cellgrad_provide_modules(provide):
    """Provide whole sub-packages of cellgrad: call `provide(name, module_name)`.

    `provide("dataset", "cellgrad_dataset")` makes `import cellgrad.dataset.vision` import
    `cellgrad_dataset.vision` and bind it at both names (one module object, so classes keep
    one identity), and `cellgrad.dataset` an attribute of the top level, as MindSpore's
    `mindspore.dataset` is. `name` is one identifier that the core does not use itself. The
    modules are imported on first use only.
    """


@hookspec(firstresult=True)
def cellgrad_cell_hook_runner():
    """Return the object that runs Cell hooks (one distribution provides it: cellgrad-hooks).

    `Cell.register_*_hook` get it from `cellgrad.plugins.cell_hook_runner()`. It provides:

    - `register(target, kind, hook, **options) -> handle`, `kind` one of "forward_pre",
      "forward", "backward_pre", "backward" (target a Cell) or "tensor" (target a Tensor, from
      `Tensor.register_hook`); `options` are the registration method's keyword arguments and
      the handle has `remove()` (MindSpore's `HookHandle`). On a cell's first hook the runner
      calls `cell._set_hook_runner(table)` with the cell's hook table, and
      `cell._set_hook_runner(None)` when its last one is removed.
    - `table.run(cell, args, kwargs) -> output`: `Cell.__call__` hands it the call while the
      cell has hooks; it runs them in MindSpore's order around `cell._run_construct(args,
      kwargs)`.
    """


# ---- errors and reports ----


class PluginWarning(UserWarning):
    """A plugin failed to load or registered something invalid; the rest keeps working."""


class PluginNameError(Exception):
    """A name that a plugin provides (or would provide) and that cannot be given.

    Raised as `PluginNameImportError` by `from cellgrad.nn import Dense` and as
    `PluginNameAttributeError` by `cellgrad.nn.Dense`, so `hasattr()` is False. One class
    cannot be both: ImportError and AttributeError have incompatible layouts.
    """

    def __init__(self, message, qualname=None, package=None):
        super().__init__(message)
        self.qualname = qualname  # "nn.Dense"
        self.package = package  # the distribution to install, when one is known


class PluginNameImportError(PluginNameError, ImportError):
    """`from cellgrad.nn import Dense` without the package that provides it."""


class PluginNameAttributeError(PluginNameError, AttributeError):
    """`cellgrad.nn.Dense` without the package that provides it."""


@dataclass
class PluginInfo:
    """One plugin: where it comes from, what it registered and what went wrong."""

    name: str  # the entry-point name, or the name given to `register()`
    distribution: str  # "cellgrad-squareplus"; "(registered by hand)" when unknown
    version: str
    target: str  # the entry point's value, "cellgrad_squareplus.plugin"
    status: str = "loaded"  # "loaded", "failed" (nothing of it is used) or "disabled"
    ops: List[str] = field(default_factory=list)
    names: List[str] = field(default_factory=list)  # qualnames it exports, ops included
    cell_hook_runner: bool = False
    problems: List[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """`distribution version`, as errors name a plugin."""
        return f"{self.distribution} {self.version}".strip()


# ---- the manager: built once, lazily, under a lock ----

_lock = threading.RLock()
_state = None  # the `_plugin_loading.State` once built
_building = False
_by_hand: list = []  # [(plugin, name, distribution, version)]


def state():
    """The loaded plugins (`_plugin_loading.State`), loading them on the first call."""
    global _state, _building
    s = _state
    if s is not None:
        return s
    with _lock:
        if _state is None:
            if _building:
                raise PluginNameAttributeError(
                    "a plugin-provided name was looked up while the plugins are loading: a "
                    "plugin must not use names of other plugins when it is imported")
            from cellgrad import _plugin_loading

            _building = True
            try:
                _state = _plugin_loading.build(list(_by_hand))
            finally:
                _building = False
        return _state


def register(plugin, *, name=None, distribution=None, version=None):
    """Register a plugin module (or object) by hand, as if an entry point named it.

    For tests and for programs run with `CELLGRAD_DISABLE_PLUGIN_AUTOLOAD=1`. Takes effect at
    the next plugin-name lookup (everything loaded so far is reloaded).
    """
    with _lock:
        if any(p is plugin for p, *_ in _by_hand):
            raise ValueError(f"plugin {plugin!r} is already registered")
        label = name or getattr(plugin, "__name__", None) or type(plugin).__name__
        _by_hand.append((plugin, label, distribution, version))
        reset(keep_registered=True)


def unregister(plugin):
    """Remove a plugin registered with `register()`; effective at the next lookup."""
    with _lock:
        kept = [entry for entry in _by_hand if entry[0] is not plugin]
        if len(kept) == len(_by_hand):
            raise ValueError(f"plugin {plugin!r} was not registered by hand")
        _by_hand[:] = kept
        reset(keep_registered=True)


def reset(keep_registered=False):
    """Forget the loaded plugins: their ops leave `OPS`, their names leave the namespaces.

    The next plugin-name lookup loads them again (reading the environment again). Plugins
    registered by hand are forgotten too unless `keep_registered`.
    """
    global _state
    with _lock:
        if _state is not None:
            _state.undo()
            _state = None
        if not keep_registered:
            _by_hand.clear()


def get_plugins() -> List[PluginInfo]:
    """Every plugin found (loaded, failed or disabled), loading them if needed."""
    return list(state().plugins)


def cell_hook_runner(feature="Cell hooks"):
    """The Cell hook runner that a plugin (cellgrad-hooks) provides.

    Raises `PluginNameImportError` naming the package to install when none does; `feature`
    names what needed it in that message ("Cell.register_forward_hook").
    """
    s = state()
    if s.cell_hook_runner is not None:
        return s.cell_hook_runner
    from cellgrad import _first_party

    if s.runner_conflict is not None:
        raise PluginNameImportError(f"{feature}: {s.runner_conflict}")
    raise PluginNameImportError(
        s.unavailable_message(feature, _first_party.CELL_HOOK_RUNNER),
        package=_first_party.CELL_HOOK_RUNNER)
