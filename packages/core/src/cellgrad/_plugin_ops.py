"""Ops that plugins register: checking a registration, and the public function
`cellgrad.ops.<name>` that calls the op (no plugin machinery on that path)."""

import inspect

from cellgrad.ops import _registry

PROMOTE = {
    "none": _registry.PROMOTE_NONE,
    "arith": _registry.PROMOTE_ARITH,
    "div": _registry.PROMOTE_DIV,
    "float": _registry.PROMOTE_FLOAT,
    "compare": _registry.PROMOTE_COMPARE,
}


def check_registration(name, forward, backward, differentiable, promote, ops):
    """What is wrong with registering this op (None if nothing); `ops` holds the plugin's
    registrations so far."""
    if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
        return f"op name {name!r} is not a public Python identifier; the op is left out"
    if name in ops:
        return f"op '{name}' is registered twice by this plugin"
    if not callable(forward):
        return f"op '{name}': forward must be callable, got {type(forward).__name__}"
    if backward is not None and not callable(backward):
        return f"op '{name}': backward must be callable or None, got {type(backward).__name__}"
    if differentiable and backward is None:
        return (f"op '{name}' claims to be differentiable but registers no backward; give "
                f"backward=... or pass differentiable=False. The op is left out")
    if not differentiable and backward is not None:
        return (f"op '{name}' has a backward but says differentiable=False; drop one of them. "
                f"The op is left out")
    if promote not in PROMOTE and promote not in PROMOTE.values():
        return (f"op '{name}': promote must be one of {', '.join(map(repr, PROMOTE))}, "
                f"got {promote!r}")
    return None


def check_op_object(op, extra, ops):
    """What is wrong with registering a ready-made Op (None if nothing)."""
    if extra is not None:
        return f"op '{op.name}': register(op) takes the Op alone, not a forward"
    if not op.name.isidentifier() or op.name.startswith("_"):
        return f"op name {op.name!r} is not a public Python identifier; the op is left out"
    if op.name in ops:
        return f"op '{op.name}' is registered twice by this plugin"
    return None


def public_function(op, forward, doc=None):
    """`cellgrad.ops.<name>` for a plugin op: positional arguments are the inputs, keyword
    arguments the attributes (keywords naming inputs are bound as forward's signature says).
    """
    name = op.name
    try:
        signature = inspect.signature(forward)
    except (TypeError, ValueError):
        signature = None
    attr_names = frozenset() if signature is None else frozenset(
        p.name for p in signature.parameters.values()
        if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD))
    apply = _registry.apply

    def fn(*inputs, **attrs):
        if attrs and signature is not None and not attrs.keys() <= attr_names:
            inputs, attrs = _bind(name, signature, inputs, attrs)
        return apply(op, inputs, attrs)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "cellgrad.ops"
    fn.__doc__ = doc or forward.__doc__ or f"The op '{name}' (registered by a plugin)."
    if signature is not None:
        fn.__signature__ = signature
    return fn


def _bind(name, signature, inputs, attrs):
    try:
        bound = signature.bind(*inputs, **attrs)
    except TypeError as exc:
        raise TypeError(f"For '{name}', {exc}") from None
    bound.apply_defaults()
    args, kwargs = [], {}
    for param in signature.parameters.values():
        value = bound.arguments[param.name]
        if param.kind == param.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind == param.VAR_KEYWORD:
            kwargs.update(value)
        elif param.kind == param.KEYWORD_ONLY:
            kwargs[param.name] = value
        else:
            args.append(value)
    return tuple(args), kwargs
