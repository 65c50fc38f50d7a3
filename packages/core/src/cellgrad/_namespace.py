"""PEP 562 `__getattr__`/`__dir__` for cellgrad's MindSpore namespaces.

A namespace module ends with
    from cellgrad._namespace import plugin_names as _plugin_names
    __getattr__, __dir__ = _plugin_names(__name__)
so a name it does not define is looked up, in order, among the names plugins export there,
in the namespace that `cellgrad._paths` says holds it (the alias module paths such as
`cellgrad.train.callback`), among the 1.x names that moved (a DeprecationWarning) and the names
cellgrad deliberately does not provide (`cellgrad._not_provided`); a missing package is named
in the error. This module is imported by `import cellgrad` and stays light: pluggy and the
plugins load on the first miss.
"""

import importlib
import importlib.util
import sys
import warnings

from cellgrad import _plugin_modules
from cellgrad._paths import EVERY_PRIMITIVE, MOVED, PATHS, WHOLE_OPS

# Where plugins may export names, as written after `cellgrad.` ("" is the top level): the
# MindSpore namespaces and the module paths of `cellgrad._paths`.
NAMESPACES = tuple(dict.fromkeys((
    "", "nn", "ops", "common.initializer", "train", "amp", "communication",
    "communication.comm_func", "mint", "mint.nn", "mint.nn.functional", "mint.optim",
    "mint.special", "mint.distributed",
    "experimental", "experimental.optim", "experimental.optim.lr_scheduler",
    "nn.probability", "nn.probability.distribution", "nn.probability.bijector",
    "nn.probability.distribution.distribution", "nn.probability.bijector.bijector",
    *PATHS, *EVERY_PRIMITIVE, *WHOLE_OPS)))
# Core modules that MindSpore's top level holds as attributes (`ms.log`), imported on first use.
MODULES = ("log", "version", "parallel", "boost", "numpy", "profiler", "runtime", "hal")


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
    """`module_name.name`: a namespace sub-package, or a name found as the module docstring says.

    Raises `PluginNameImportError` (`from m import name`) or `PluginNameAttributeError`
    (attribute access) when a known package provides the name but is missing, a
    `NotProvidedError` for a name cellgrad deliberately lacks, and a plain AttributeError for
    an unknown name.
    """
    qualname = f"{namespace}.{name}" if namespace else name
    if _is_namespace_package(qualname) or qualname in MODULES:
        return _import_namespace(module_name, name)
    if not namespace and not _plugin_modules.is_core_child(name):
        found, obj = _plugin_module(name, from_import)  # `ms.dataset`, as MindSpore's
        if found:
            return obj
    module = sys.modules[module_name]
    if hasattr(module, "__path__") and importlib.util.find_spec(f"{module_name}.{name}"):
        # A submodule not imported yet: plugins are not asked (`from cellgrad import testing`
        # probes with hasattr before importing it).
        raise _no_attribute(module_name, name, f"; it is a submodule: import {module_name}.{name}")

    source = _source(namespace, name)
    if source is not None:  # before the plugins: a core name at an alias path loads none
        found, obj = _from_source(qualname, source, from_import)
        if found:
            loaded = sys.modules.get("cellgrad.plugins")
            if loaded is None or loaded._state is None:  # the core's own object: kept
                module.__dict__[name] = obj
            else:
                loaded.state().remember(module, name, obj)
            return obj
    from cellgrad import _first_party, _not_provided, plugins

    error = plugins.PluginNameImportError if from_import else plugins.PluginNameAttributeError
    state = plugins.state()
    try:
        found, obj = state.resolve(namespace, name, module)
    except plugins.PluginNameError as exc:
        raise error(str(exc), qualname=qualname, package=exc.package) from exc.__cause__
    if found:
        return obj
    if qualname in MOVED:
        return _moved(qualname, MOVED[qualname])
    _not_provided.check(source or qualname, qualname, from_import)
    package = None
    message = state.conflicts.get(qualname)
    if message is None:
        package = _first_party.provider(qualname)
        if package is None:
            raise _no_attribute(module_name, name)
        message = state.unavailable_message(f"cellgrad.{qualname}", package)
    raise error(message, qualname=qualname, package=package)


def names(module_name, namespace):
    """`dir()` of a namespace module: its own names, sub-namespaces, plugin names and the
    names its `cellgrad._paths` entry gives it that are available."""
    module = sys.modules[module_name]
    result = set(module.__dict__)
    prefix = f"{namespace}." if namespace else ""
    for ns in NAMESPACES + MODULES:
        if ns.startswith(prefix) and ns != namespace:
            child = ns[len(prefix):].split(".")[0]
            if child in result or importlib.util.find_spec(f"{module_name}.{child}"):
                result.add(child)
    from cellgrad import plugins

    result.update(plugins.state().names.get(namespace, ()))
    for source_namespace, listed in PATHS.get(namespace, {}).items():
        result.update(set(listed.split()) & set(dir(_source_module(source_namespace) or ())))
    if namespace in EVERY_PRIMITIVE:
        ops = _source_module("ops")
        result.update(n for n in dir(ops) if n[:1].isupper() and _is_primitive(ops, n))
    if namespace in WHOLE_OPS:
        result.update(n for n in dir(_source_module("ops")) if not n.startswith("_"))
    return sorted(result)


# ---- names of other namespaces (cellgrad._paths) ----


def source_of(qualname):
    """The qualname that the alias `qualname` stands for ("nn.Momentum"), or None."""
    namespace, _, name = qualname.rpartition(".")
    return _source(namespace, name)


def _source(namespace, name):
    """Where `namespace.name` lives according to `cellgrad._paths` ("nn.Momentum"), or None."""
    for source_namespace, listed in PATHS.get(namespace, {}).items():
        if name in listed.split():
            return f"{source_namespace}.{name}" if source_namespace else name
    if (namespace in EVERY_PRIMITIVE and name[:1].isupper()) or namespace in WHOLE_OPS:
        return f"ops.{name}"
    return None


def _source_module(namespace):
    """`cellgrad.<namespace>`, or None while cellgrad has no such namespace (`amp` today)."""
    name = f"cellgrad.{namespace}" if namespace else "cellgrad"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def _from_source(qualname, source, from_import):
    """`(True, obj)` for the object at `source`, `(False, None)` when cellgrad has none there.

    A missing package or a deliberately absent name raises, naming `qualname` as written.
    """
    source_namespace, _, name = source.rpartition(".")
    namespace = qualname.rpartition(".")[0]
    try:
        obj = getattr(_source_module(source_namespace), name)  # None.name: no such namespace
    except AttributeError as exc:  # the plugin-name errors and NotProvidedError are ones too
        failure = exc
    else:
        failure = None
    if failure is not None:  # raised out of the except block: one traceback, not two
        from cellgrad import _not_provided, plugins

        if isinstance(failure, plugins.PluginNameError):
            error = plugins.PluginNameImportError if from_import else \
                plugins.PluginNameAttributeError
            message = str(failure)
            if failure.package is not None:
                message = plugins.state().unavailable_message(f"cellgrad.{qualname}",
                                                              failure.package)
            raise error(message, qualname=qualname, package=failure.package) \
                from failure.__cause__
        if isinstance(failure, _not_provided.NotProvidedError):
            _not_provided.check(source, qualname, from_import)
        return False, None
    listed = PATHS.get(namespace, {}).get(source_namespace, "").split()
    if namespace in EVERY_PRIMITIVE and name not in listed and not _primitive_class(obj):
        return False, None
    return True, obj


def _is_primitive(ops, name):
    try:
        return _primitive_class(getattr(ops, name))
    except AttributeError:
        return False


def _primitive_class(obj):
    from cellgrad.ops.primitive import Primitive

    return isinstance(obj, type) and issubclass(obj, Primitive)


def moved_module(module_name):
    """Warn that the module path `module_name` is MindSpore 1.x's (`cellgrad._paths.MOVED`),
    pointing at the statement that imports it."""
    qualname = module_name[len("cellgrad."):]
    frame = sys._getframe(1)
    while frame.f_back is not None and (
            frame.f_globals.get("__name__") in (module_name, __name__, "importlib")
            or frame.f_code.co_filename.startswith("<frozen importlib")):
        frame = frame.f_back
    warnings.warn_explicit(
        f"mindspore.{qualname} is MindSpore 1.x's module; MindSpore 2.10 has its names in "
        f"mindspore.{MOVED[qualname]}: use cellgrad.{MOVED[qualname]}", DeprecationWarning,
        frame.f_code.co_filename, frame.f_lineno, module=frame.f_globals.get("__name__"),
        registry=frame.f_globals.setdefault("__warningregistry__", {}))


def _moved(qualname, target):
    """The object now at `target`, with a DeprecationWarning naming that path."""
    namespace, _, name = target.rpartition(".")
    warnings.warn(f"mindspore.{qualname} is MindSpore 1.x's name; MindSpore 2.10 has it as "
                  f"mindspore.{target}: use cellgrad.{target}", DeprecationWarning, stacklevel=4)
    return getattr(_source_module(namespace), name)


def _plugin_module(name, from_import):
    """`(True, module)` for a sub-package a plugin provides (`cellgrad._plugin_modules`);
    a first-party one that is missing raises the plugin-name error naming its package."""
    if _plugin_modules.provided(name) is not None:
        return True, importlib.import_module(f"cellgrad.{name}")
    message = _plugin_modules.missing_message(name)
    if message is None:
        return False, None
    from cellgrad import _first_party, plugins

    error = plugins.PluginNameImportError if from_import else plugins.PluginNameAttributeError
    raise error(message, qualname=name, package=_first_party.MODULES[name])


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
