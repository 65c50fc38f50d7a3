"""Sub-packages of cellgrad that plugins provide whole (`cellgrad.dataset` from cellgrad-dataset).

A plugin calls `provide("dataset", "cellgrad_dataset")` in its `cellgrad_provide_modules` hook
(`cellgrad.plugins`). The finder below, first on `sys.meta_path`, answers the imports of
`cellgrad.dataset` and everything under it with the plugin's own modules: the module object is
bound at both names, so `cellgrad.dataset.vision.Resize is cellgrad_dataset.vision.Resize`, and
worker processes unpickle the plugin's classes by their real module. Imports of the core's own
modules pass through after one string test; the plugins load on the first import of a name the
core does not have. A first-party sub-package that is not installed is a ModuleNotFoundError
that says which package to install.
"""

import importlib
import importlib.abc
import importlib.machinery
import os
import sys

_PREFIX = "cellgrad."
_core_children = None  # names directly inside the core's package directory


def is_core_child(name):
    """Whether `cellgrad.<name>` is the core's own module or package."""
    global _core_children
    if _core_children is None:
        root = os.path.dirname(os.path.abspath(__file__))
        _core_children = frozenset(
            entry.split(".")[0] for entry in os.listdir(root) if not entry.startswith("."))
    return name in _core_children


def provided(name):
    """The module that provides the sub-package `cellgrad.<name>`, or None (loads plugins)."""
    plugins = importlib.import_module("cellgrad.plugins")
    if plugins._building:  # plugins importing during the load see only the core
        return None
    return plugins.state().modules.get(name)


def missing_message(name):
    """Why `cellgrad.<name>` cannot be imported, if a first-party package provides it."""
    from cellgrad import _first_party

    plugins = importlib.import_module("cellgrad.plugins")
    distribution = _first_party.MODULES.get(name)
    if distribution is None or plugins._building:
        return None
    return plugins.state().unavailable_message(f"cellgrad.{name}", distribution)


class _Alias(importlib.abc.Loader):
    """Loads `cellgrad.<name>...` as the plugin's module of the same path."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.spec  # the import system set the alias's; the module keeps its own


class PluginModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the sub-packages that plugins provide (see the module docstring)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        head, _, rest = fullname[len(_PREFIX):].partition(".")
        if is_core_child(head):
            return None
        module_name = provided(head)
        if module_name is None:
            message = missing_message(head) if not rest else None
            if message is not None:
                raise ModuleNotFoundError(message, name=fullname)
            return None
        target = f"{module_name}.{rest}" if rest else module_name
        if importlib.util.find_spec(target) is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, _Alias(target))
        return spec


def forget(modules):
    """Unbind the sub-packages `modules` provided from `cellgrad` (plugins reset): their
    `cellgrad.<name>` entries leave `sys.modules` and the top level; the plugins' own stay."""
    top = sys.modules.get("cellgrad")
    for name in modules:
        prefix = f"{_PREFIX}{name}"
        for key in [k for k in sys.modules if k == prefix or k.startswith(prefix + ".")]:
            del sys.modules[key]
        if top is not None:
            top.__dict__.pop(name, None)


_FINDER = PluginModuleFinder()


def install():
    """Put the finder first on `sys.meta_path` (once)."""
    if not any(isinstance(f, PluginModuleFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)
