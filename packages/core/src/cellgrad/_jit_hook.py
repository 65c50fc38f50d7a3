"""What a tracing compiler behind `ms.jit` needs from the core (cellgrad-jit uses it).

`ms.jit` runs functions eagerly unless a compiler registered itself here. The compiler traces
a call under a `cellgrad.observe` observer and, while it does, is also the *tracer*: the core
tells it what an observer cannot see.

    register_compiler(target)   target: `make(function, options) -> callable`, or the string
                                "module:attr" naming it (imported on first use). A plugin
                                registers when the plugins load; `compiler()` returns it.
    set_tracer(obj) -> previous obj (or None) receives, while set:
        value_read(tensor, how)     Python read a Tensor's values (`asnumpy`, `__array__`,
                                    `bool`, `float`, `int`, `item`, `tolist`): what follows
                                    may depend on the data.
        value_write(tensor, how)    Python wrote into a Tensor in place outside an op
                                    (`ops.assign`, `assign_add`, `t[i] = v`, `fill_`).
        random_draw(kernel, seed)   a random stream was drawn from (`cellgrad.seeding`).
        grad_begin(pairs)           a gradient transform starts; pairs are (Tensor the
                                    function sees, Tensor passed) for the differentiated
                                    inputs (alias, input) and the weights (w, w).
        grad_end(roots, sens, targets, results, given)
                                    the walk ran: `roots` [(node, slot)] of the outputs,
                                    `sens` their arrays, `targets` {node: index}, `results`
                                    [(index or None, returned Tensor)], `given` what the
                                    caller passed as each output's sensitivity (None: ones;
                                    a Tensor or number from `vjp`, `sens_param`, `sens=`).
Helpers for the tracer (read-only views of tape state): `tape_place`, `node_op`,
`has_grad_hooks`, `cell_hooked`, `recording`, `rule_namespace`.
"""

from cellgrad._core import _tape

__all__ = ["cell_hooked", "compiler", "has_grad_hooks", "node_op", "recording",
           "register_compiler", "rule_namespace", "set_tracer", "wrote", "tape_place", "tracer"]

tracer = None  # the object watching a trace; None almost always (one test per read)
_compiler = None


def register_compiler(target):
    """Make `target` (a callable or "module:attr") the compiler behind `ms.jit`."""
    global _compiler
    if not callable(target) and not (isinstance(target, str) and ":" in target):
        raise TypeError(f"register_compiler: 'target' must be a callable or 'module:attr', "
                        f"but got {target!r}.")
    _compiler = target


def compiler():
    """The registered compiler (loading the plugins first), or None: jit then runs eagerly."""
    global _compiler
    if _compiler is None:
        from cellgrad import plugins

        try:
            plugins.state()
        except Exception:  # a broken plugin set leaves jit eager, as without a compiler
            return None
    if isinstance(_compiler, str):
        import importlib

        module, attr = _compiler.split(":")
        _compiler = getattr(importlib.import_module(module), attr)
    return _compiler


def wrote(t, how):
    """Tell the tracer (if any) that `t` was written in place outside an op."""
    if tracer is not None:
        tracer.value_write(t, how)


def set_tracer(obj):
    """Install the tracer (or None); returns the previous one."""
    global tracer
    previous, tracer = tracer, obj
    return previous


def tape_place(t):
    """`(node, slot)`: where Tensor `t` sits on the tape now, or None (no gradient edge)."""
    node = t._node
    return None if node is None else (node, t._slot)


def node_op(node):
    """The Op a tape node runs backward, or None for a leaf (a capture point)."""
    return node.op


def has_grad_hooks(t):
    """Whether Tensor `t`'s tape node has gradient hooks (`Tensor.register_hook`)."""
    node = t._node
    return node is not None and bool(node.hooks)


def cell_hooked(cell):
    """Whether `cell` has Cell hooks or a custom `bprop` (its call is not plain construct)."""
    return cell._hooks is not None or getattr(cell, "_bprop_op", None) is not None


def rule_namespace():
    """The array namespace first-order backward rules receive as `ctx.xp`."""
    from cellgrad.ops import _xp_numpy

    return _xp_numpy


def recording():
    """Whether a gradient transform records right now (ops would get tape nodes)."""
    return _tape.recording_depth() >= 1 and _tape.is_grad_enabled()
