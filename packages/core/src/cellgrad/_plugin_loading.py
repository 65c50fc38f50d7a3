"""Loading the plugins once: find them, import them, collect what each registers, settle
conflicts, then commit ops to `OPS` and names to the namespace table (`State`).

Each plugin's hooks are called on their own, so every registration is attributed to a
distribution; a plugin whose import or hook raises contributes nothing, and the rest load.
"""

import importlib
import os
import re
import warnings

import pluggy

import cellgrad
from cellgrad import _first_party, _plugin_modules, plugins
from cellgrad._plugin_ops import PROMOTE, check_op_object, check_registration, public_function
from cellgrad.ops import _registry
from cellgrad.plugins import ENTRY_POINT_GROUP, NAMESPACES, PluginInfo, PluginNameError

_MISSING = object()


def normalize(name):
    """A distribution or plugin name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


class Export:
    """A name a plugin exports: the object, or where to import it from on first access."""

    __slots__ = ("obj", "lazy", "owner")

    def __init__(self, obj, lazy, owner):
        self.obj = obj
        self.lazy = lazy  # "package.module:attr" or None
        self.owner = owner  # the PluginInfo


class State:
    """The result of loading: plugins, the name table, conflicts, the Cell hook runner."""

    def __init__(self, plugins_, autoload):
        self.plugins = plugins_
        self.autoload = autoload
        self.names = {ns: {} for ns in NAMESPACES}  # namespace -> name -> Export
        self.conflicts = {}  # qualname -> message, for names two plugins claim
        self.modules = {}  # "dataset" -> "cellgrad_dataset": sub-packages plugins provide
        self.cell_hook_runner = None
        self.runner_conflict = None
        self._ops = []  # (name, Op) committed to OPS
        self._cached = []  # (module, name, obj) set on a namespace module after a lookup

    def resolve(self, namespace, name, module):
        """`(True, obj)` for an exported name (cached on `module` from then on), else
        `(False, None)`. A lazy export that fails to import raises PluginNameError."""
        export = self.names.get(namespace, {}).get(name)
        if export is None:
            return False, None
        obj = export.obj
        if export.lazy is not None:
            obj = _import_lazy(export, f"{namespace}.{name}".lstrip("."))
        self.remember(module, name, obj)
        return True, obj

    def remember(self, module, name, obj):
        """Cache `obj` as `module.name` until the plugins are reset (`undo`)."""
        module.__dict__[name] = obj
        self._cached.append((module, name, obj))

    def undo(self):
        """Take the committed ops out of `OPS` and the cached names off the modules."""
        for name, op in self._ops:
            if _registry.OPS.get(name) is op:
                del _registry.OPS[name]
        for module, name, obj in self._cached:
            if module.__dict__.get(name) is obj:
                del module.__dict__[name]
        self._ops.clear()
        self._cached.clear()
        _plugin_modules.forget(self.modules)
        self.modules = {}

    def unavailable_message(self, what, distribution):
        """Why `what`, which `distribution` provides, is not there, and what to do."""
        info = next((p for p in self.plugins
                     if normalize(p.distribution) == normalize(distribution)), None)
        if info is None:
            version = _installed_version(distribution)
            if version is None:
                return (f"{what} is provided by the package {distribution}, which is not "
                        f"installed: pip install {distribution}")
            if not self.autoload:
                return (f"{what} is provided by {distribution} {version}, but plugin "
                        f"autoloading is off ({plugins.AUTOLOAD_ENV} is set); unset it or "
                        f"register the plugin with cellgrad.plugins.register()")
            return (f"{what} is provided by {distribution}, but {distribution} {version} is "
                    f"installed without an entry point in the group '{ENTRY_POINT_GROUP}': "
                    f"reinstall it (pip install --force-reinstall {distribution})")
        if info.status == "disabled":
            return (f"{what} is provided by {info.label}, which is disabled by "
                    f"{plugins.DISABLED_ENV}={os.environ.get(plugins.DISABLED_ENV, '')!r}")
        if info.status == "failed":
            return (f"{what} is provided by {info.label}, which failed to load: "
                    f"{info.problems[0]} (see `python -m cellgrad plugins`)")
        return f"{what} is not provided by the installed {info.label}; upgrade it?"


def build(by_hand):
    """Find, load and settle every plugin; returns the committed `State`."""
    autoload = os.environ.get(plugins.AUTOLOAD_ENV, "") in ("", "0")
    disabled = {normalize(n.strip()) for n in os.environ.get(plugins.DISABLED_ENV, "").split(",")
                if n.strip()}
    pm = pluggy.PluginManager("cellgrad")
    pm.add_hookspecs(plugins)
    candidates = list(_entry_points()) if autoload else []
    for obj, name, distribution, version in by_hand:
        info = PluginInfo(name, distribution or f"{name} (registered by hand)", version or "",
                          getattr(obj, "__name__", repr(obj)))
        candidates.append((info, lambda obj=obj: obj))
    loaded = []
    for info, load in candidates:
        if normalize(info.name) in disabled or normalize(info.distribution) in disabled:
            info.status = "disabled"
            continue
        plugin = _load(pm, info, load)
        if plugin is not None:
            loaded.append((info, plugin))
    contributions = []
    for info, plugin in loaded:
        others = [p for _, p in loaded if p is not plugin]
        got = _collect(pm, info, others)
        if got is not None:
            contributions.append((info, *got))
    state = State([info for info, _ in candidates], autoload)
    _commit(state, contributions)
    for info in state.plugins:
        for problem in info.problems:
            warnings.warn(f"cellgrad plugin {info.label} ({info.name} = {info.target}): "
                          f"{problem}", plugins.PluginWarning, stacklevel=2)
    return state


def _entry_points():
    """`(PluginInfo, load)` per entry point in the group; a distribution found twice on
    sys.path counts once (the first, as import would pick)."""
    from importlib import metadata

    seen = set()
    for dist in metadata.distributions():
        try:
            eps = [ep for ep in dist.entry_points if ep.group == ENTRY_POINT_GROUP]
        except Exception:  # unreadable metadata of some distribution: not ours to report
            continue
        if not eps:
            continue
        name = dist.metadata["Name"] or "(unnamed distribution)"
        if normalize(name) in seen:
            continue
        seen.add(normalize(name))
        for ep in eps:
            yield PluginInfo(ep.name, name, dist.version or "", ep.value), ep.load


def _load(pm, info, load):
    try:
        plugin = load()
    except Exception as exc:
        _fail(info, f"import of {info.target} failed: {_describe(exc)}")
        return None
    try:
        pm.register(plugin, name=f"{info.distribution}:{info.name}")
    except Exception as exc:  # pluggy.PluginValidationError, or a plugin registered twice
        _fail(info, f"invalid plugin {info.target}: {exc}")
        return None
    known = ", ".join(n for n in dir(plugins) if n.startswith("cellgrad_"))
    for caller in pm.get_hookcallers(plugin) or ():
        if caller.spec is None:
            info.problems.append(f"implements the unknown hook {caller.name!r} (cellgrad's "
                                 f"hooks: {known})")
    return plugin


def _collect(pm, info, others):
    """Call the plugin's own hooks; returns (ops, exports, runner), or None if one raised."""
    ops, exports = {}, {}
    open_ = [True]

    def register(name, forward=None, backward=None, *, differentiable=True, promote="none",
                 first_order_only=False, doc=None):
        _check_open(open_, "register", info)
        if isinstance(name, _registry.Op):
            problem = check_op_object(name, forward, ops)
            if problem:
                info.problems.append(problem)
            else:
                ops[name.name] = name
            return
        problem = check_registration(name, forward, backward, differentiable, promote, ops)
        if problem:
            info.problems.append(problem)
            return
        code = PROMOTE[promote] if isinstance(promote, str) else promote
        ops[name] = (forward, backward, code, bool(first_order_only), doc)

    def export(qualname, obj=_MISSING, *, lazy=None):
        _check_open(open_, "export", info)
        problem = _check_export(qualname, obj, lazy, exports)
        if problem:
            info.problems.append(problem)
            return
        exports[qualname] = Export(None if lazy else obj, lazy, info)

    def provide(name, module_name):
        _check_open(open_, "provide", info)
        problem = _check_module(name, module_name, exports)
        if problem:
            info.problems.append(problem)
            return
        exports[f"module {name}"] = Export(module_name, None, info)

    hook = "cellgrad_register_ops"
    try:
        pm.subset_hook_caller(hook, others)(register=register)
        hook = "cellgrad_export_names"
        pm.subset_hook_caller(hook, others)(export=export)
        hook = "cellgrad_provide_modules"
        pm.subset_hook_caller(hook, others)(provide=provide)
        hook = "cellgrad_cell_hook_runner"
        runner = pm.subset_hook_caller(hook, others)()
    except Exception as exc:
        _fail(info, f"{hook} raised {_describe(exc)}; nothing of this plugin is used")
        return None
    finally:
        open_[0] = False
    return ops, exports, runner


def _check_open(open_, what, info):
    if not open_[0]:
        raise RuntimeError(f"cellgrad plugin {info.label}: {what}() was called after its hook "
                           "returned; call it inside the hook")


def _check_export(qualname, obj, lazy, exports):
    if not isinstance(qualname, str):
        return f"export name must be a string like 'nn.Dense', got {qualname!r}"
    namespace, _, name = qualname.rpartition(".")
    if namespace not in NAMESPACES:
        known = ", ".join(repr(ns) for ns in NAMESPACES)
        return f"cannot export {qualname!r}: unknown namespace {namespace!r} (known: {known})"
    if not name.isidentifier() or name.startswith("_"):
        return f"cannot export {qualname!r}: {name!r} is not a public Python identifier"
    if (obj is _MISSING) == (lazy is None):
        return f"export {qualname!r}: give exactly one of an object or lazy='module:attr'"
    if lazy is not None and (not isinstance(lazy, str) or lazy.count(":") != 1):
        return f"export {qualname!r}: lazy must be 'package.module:attr', got {lazy!r}"
    if qualname in exports:
        return f"{qualname!r} is exported twice by this plugin"
    return None


def _check_module(name, module_name, exports):
    if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
        return f"provide(): the sub-package name must be an identifier like 'dataset', got " \
               f"{name!r}"
    if not isinstance(module_name, str) or not all(
            part.isidentifier() for part in module_name.split(".")):
        return f"provide({name!r}, ...): the module must be a dotted module name, got " \
               f"{module_name!r}"
    if f"module {name}" in exports:
        return f"the sub-package cellgrad.{name} is provided twice by this plugin"
    return None


def _commit(state, contributions):
    claims = {}  # qualname -> [(info, kind, payload)]
    for info, ops, exports, _runner in contributions:
        for name, decl in ops.items():
            # An Op object claims only its op name: the plugin exports the function itself.
            key = f"op {name}" if isinstance(decl, _registry.Op) else f"ops.{name}"
            claims.setdefault(key, []).append((info, "op", (name, decl)))
        for qualname, export in exports.items():
            claims.setdefault(qualname, []).append((info, "export", export))
    for qualname, owners in claims.items():
        core = _core_provides(qualname, owners)
        if core or len(owners) > 1:
            _conflict(state, qualname, owners, core)
            continue
        info, kind, payload = owners[0]
        if qualname.startswith("module "):
            state.modules[qualname[7:]] = payload.obj
            info.names.append(f"cellgrad.{qualname[7:]} (module)")
            continue
        namespace, _, name = qualname.rpartition(".")
        if kind == "op":
            op_name, decl = payload
            if isinstance(decl, _registry.Op):  # the plugin exports its own function
                _define_object(state, decl)
                info.ops.append(op_name)
                continue
            payload = Export(_define(state, op_name, decl), None, info)
            info.ops.append(name)
        state.names[namespace][name] = payload
        info.names.append(qualname)
    runners = [(info, runner) for info, _, _, runner in contributions if runner is not None]
    if len(runners) == 1:
        state.cell_hook_runner = runners[0][1]
        runners[0][0].cell_hook_runner = True
    elif runners:
        state.runner_conflict = _conflict_message(
            "the Cell hook runner", [info for info, _ in runners], None)
        for info, _ in runners:
            info.problems.append(state.runner_conflict)


def _core_provides(qualname, owners):
    """cellgrad-core's own `qualname` (or op of that name), which a plugin cannot replace."""
    if qualname.startswith("op "):
        return qualname[3:] in _registry.OPS
    if qualname.startswith("module "):
        return _plugin_modules.is_core_child(qualname[7:])
    namespace, _, name = qualname.rpartition(".")
    if any(kind == "op" for _, kind, _ in owners) and name in _registry.OPS:
        return True
    if any(ns == qualname or ns.startswith(qualname + ".") for ns in NAMESPACES if ns):
        return True  # a sub-namespace such as "nn" or "common"
    module_name = f"cellgrad.{namespace}" if namespace else "cellgrad"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return False  # a namespace this core does not have yet: nothing to clash with
    return name in vars(module)


def _conflict(state, qualname, owners, core):
    infos = [info for info, _, _ in owners]
    what = f"the op '{qualname[3:]}'" if qualname.startswith("op ") else \
        f"the sub-package cellgrad.{qualname[7:]}" if qualname.startswith("module ") else \
        f"cellgrad.{qualname}"
    message = _conflict_message(what, infos, core)
    for info in infos:
        info.problems.append(message)
    if not core:
        state.conflicts[qualname] = message


def _conflict_message(what, infos, core):
    labels = [info.label for info in infos]
    if core:
        return (f"name conflict: {what} is provided by cellgrad-core {cellgrad.__version__} and "
                f"registered again by {_and(labels)}; the core's is kept")
    return (f"name conflict: {what} is registered by both {_and(labels)}; neither is used "
            f"(uninstall one, or disable one with {plugins.DISABLED_ENV})")


def _and(labels):
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _define(state, name, decl):
    forward, backward, promote, first_order_only, doc = decl
    op = _registry.define(name, forward, backward, promote, first_order_only)
    state._ops.append((name, op))
    return public_function(op, forward, doc)


def _define_object(state, op):
    if op.name in _registry.OPS:
        raise ValueError(f"op '{op.name}' is already defined")
    _registry.OPS[op.name] = op
    state._ops.append((op.name, op))


def _import_lazy(export, qualname):
    module_name, attr = export.lazy.split(":")
    try:
        obj = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except Exception as exc:
        problem = f"cellgrad.{qualname} failed to import from {export.lazy}: {_describe(exc)}"
        export.owner.problems.append(problem)
        raise PluginNameError(f"{problem} (exported by {export.owner.label})",
                              qualname=qualname) from exc
    export.obj, export.lazy = obj, None
    return obj


def _installed_version(distribution):
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _fail(info, problem):
    info.status = "failed"
    info.problems.append(problem)


def _describe(exc):
    return f"{type(exc).__name__}: {exc}"


def first_party_missing(state):
    """The first-party distributions that are neither installed nor registered."""
    found = {normalize(p.distribution) for p in state.plugins}
    return [d for d in _first_party.PROVIDES
            if normalize(d) not in found and _installed_version(d) is None]
