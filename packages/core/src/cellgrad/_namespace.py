"""PEP 562 `__getattr__`/`__dir__` for cellgrad's MindSpore namespaces.

A namespace module ends with
    from cellgrad._namespace import plugin_names as _plugin_names
    __getattr__, __dir__ = _plugin_names(__name__)
so names it does not define are looked up among the names plugins provide. This module is
imported by `import cellgrad` and stays light: pluggy and the plugins load on the first miss.
"""

import importlib
import importlib.util
import sys

# Where plugins may export names, as written after `cellgrad.` ("" is the top level).
NAMESPACES = ("", "nn", "ops", "common.initializer", "train", "dataset", "communication",
              "communication.comm_func")


def plugin_names(module_name):
    """The `__getattr__` and `__dir__` of the namespace module `module_name`."""
    namespace = "" if module_name == "cellgrad" else module_name[len("cellgrad."):]

    def __getattr__(name):
        if name.startswith("_") or not name.isidentifier():  # never a plugin's name
            raise _no_attribute(module_name, name)
        return lookup(module_name, namespace, name, _in_from_import(sys._getframe(1)))

    def __dir__():
        return names(module_name, namespace)

    return __getattr__, __dir__


def lookup(module_name, namespace, name, from_import=False):
    """`module_name.name`: a namespace sub-package, or a name that a plugin provides.

    Raises `PluginNameImportError` (`from m import name`) or `PluginNameAttributeError`
    (attribute access) when a known package provides the name but is missing, and a plain
    AttributeError for an unknown name.
    """
    qualname = f"{namespace}.{name}" if namespace else name
    if _is_namespace_package(qualname):
        return _import_namespace(module_name, name)
    module = sys.modules[module_name]
    if hasattr(module, "__path__") and importlib.util.find_spec(f"{module_name}.{name}"):
        # A submodule not imported yet: plugins are not asked (`from cellgrad import testing`
        # probes with hasattr before importing it).
        raise _no_attribute(module_name, name, f"; it is a submodule: import {module_name}.{name}")

    from cellgrad import _first_party, plugins

    error = plugins.PluginNameImportError if from_import else plugins.PluginNameAttributeError
    state = plugins.state()
    try:
        found, obj = state.resolve(namespace, name, module)
    except plugins.PluginNameError as exc:
        raise error(str(exc), qualname=qualname, package=exc.package) from exc.__cause__
    if found:
        return obj
    package = None
    message = state.conflicts.get(qualname)
    if message is None:
        package = _first_party.provider(qualname)
        if package is None:
            raise _no_attribute(module_name, name)
        message = state.unavailable_message(f"cellgrad.{qualname}", package)
    raise error(message, qualname=qualname, package=package)


def names(module_name, namespace):
    """`dir()` of a namespace module: its own names, sub-namespaces and plugin names."""
    module = sys.modules[module_name]
    result = set(module.__dict__)
    prefix = f"{namespace}." if namespace else ""
    for ns in NAMESPACES:
        if ns.startswith(prefix) and ns != namespace:
            child = ns[len(prefix):].split(".")[0]
            if child in result or importlib.util.find_spec(f"{module_name}.{child}"):
                result.add(child)
    from cellgrad import plugins

    result.update(plugins.state().names.get(namespace, ()))
    return sorted(result)


def _is_namespace_package(qualname):
    return any(ns == qualname or ns.startswith(qualname + ".") for ns in NAMESPACES if ns)


def _import_namespace(module_name, name):
    full = f"{module_name}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name != full:
            raise
        raise _no_attribute(module_name, name) from None


def _no_attribute(module_name, name, note=""):
    message = f"module {module_name!r} has no attribute {name!r}{note}"
    if sys.version_info >= (3, 10):  # name/obj give "Did you mean ...?" suggestions
        return AttributeError(message, name=name, obj=sys.modules.get(module_name))
    return AttributeError(message)


_IMPORT_FROM = None


def _in_from_import(frame):
    """Whether `frame` is executing `from m import x` (IMPORT_FROM) rather than `m.x`.

    The statement turns an AttributeError into its own generic ImportError and drops our
    message, so that form gets an ImportError; attribute access and hasattr() must get an
    AttributeError. No exception class can be both (their layouts conflict).
    """
    global _IMPORT_FROM
    if _IMPORT_FROM is None:
        import opcode

        _IMPORT_FROM = opcode.opmap["IMPORT_FROM"]
    code = frame.f_code.co_code
    i = frame.f_lasti
    return 0 <= i < len(code) and code[i] == _IMPORT_FROM
