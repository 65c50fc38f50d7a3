"""The module the `cellgrad` entry point names: registers ops-nn's ops and exports its names.

Each sub-package lists what it provides without importing its modules:
`EXPORTS = {"nn.Dense": "dense:Dense", ...}` maps a MindSpore qualname to `module:attr`
inside the sub-package (exported lazily, imported on first use), and `OP_MODULES` names the
modules whose `OPS` tuple of `cellgrad.plugins.Op` objects is registered here.
"""

import importlib

from cellgrad.plugins import hookimpl

SUBPACKAGES = ("functional", "spatial", "layers", "loss", "optim", "wrap", "train", "rnn", "amp",
               "attention", "mint", "experimental", "probability")


def _subpackages():
    for name in SUBPACKAGES:
        yield importlib.import_module(f"cellgrad_nn.{name}")


@hookimpl
def cellgrad_register_ops(register):
    for package in _subpackages():
        for module_name in getattr(package, "OP_MODULES", ()):
            module = importlib.import_module(f"{package.__name__}.{module_name}")
            for op in module.OPS:
                register(op)


@hookimpl
def cellgrad_export_names(export):
    for package in _subpackages():
        for qualname, target in getattr(package, "EXPORTS", {}).items():
            export(qualname, lazy=f"{package.__name__}.{target}")
