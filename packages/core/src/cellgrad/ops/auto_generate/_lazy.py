"""Module attributes resolved on first use from a table {module: names}, so the generated-op
modules import with the core alone (a plugin's name then raises its own install hint)."""

import importlib


def lazy_names(module_globals, table):
    """`(__getattr__, __dir__)` for a module whose names live in other modules (`table`);
    a resolved name is cached in `module_globals`."""
    def __getattr__(name):
        for module, names in table.items():
            if name in names:
                value = getattr(importlib.import_module(module), name)
                module_globals[name] = value
                return value
        raise AttributeError(f"module {module_globals['__name__']!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(module_globals) | {n for names in table.values() for n in names})

    return __getattr__, __dir__
