"""A plan as one generated Python function: straight-line code, one line per op, values in
local variables (no per-op loop, list indexing or step objects), the backward walk inlined
the same way. It calls exactly what the interpreter (`Plan.run`) calls, in the same order;
`Plan.run_interpreted` stays as the reference the tests compare it with."""

import numpy as np

from cellgrad import _jit_hook
from cellgrad_jit import plan as P
from cellgrad_jit.mutables import ScalarArg
from cellgrad_jit.optim_step import OptimizerStep
from cellgrad_jit.trace import _scalar_array

__all__ = ["generate"]


class _Source:
    def __init__(self):
        self.lines, self.names = [], {}

    def name(self, prefix, obj):
        """A global of the generated function bound to `obj`."""
        key = f"{prefix}{len(self.names)}"
        self.names[key] = obj
        return key

    def emit(self, line, depth=1):
        self.lines.append("    " * depth + line)


def _arg(src, s, v):
    if s < 0:
        return src.name("K", v)
    if type(v) is ScalarArg:  # a mutable scalar input, converted as the engine does
        return f"v{s}" if v.dtype is None else f"scalar(v{s}, {src.name('D', v.dtype)})"
    return f"v{s}" if v is None else f"v{s}.astype({src.name('D', v)})"


def _dict_of(slots):
    return "{" + ", ".join(f"{s}: v{s}" for s in sorted(set(slots))) + "}"


def _op(src, step):
    args = ", ".join(_arg(src, s, v) for s, v in step.args)
    if step.buf is not None:
        out = f"v{step.outs[0][0]}"
        src.emit(f"{out} = {src.name('U', step.op.ufunc)}({args}, out={src.name('B', step.buf)})")
        if step.keep:
            src.emit(f"s{step.index} = " + _ufunc_saved(step, args, out))
        return
    if step.op.ufunc is not None and not step.dyn and not step.attrs and not step.multi and \
            step.fresh is None and not step.refreshed:
        out = f"v{step.outs[0][0]}"
        src.emit(f"{out} = {src.name('U', step.op.ufunc)}({args})")
        src.emit(f"if type({out}) is not ndarray: {out} = asarray({out})")
        if step.keep:
            src.emit(f"s{step.index} = " + _ufunc_saved(step, args, out))
        return
    if step.refreshed:
        kw = f"**{src.name('S', step)}.take_fresh()"
    else:
        parts = [f"**{src.name('A', step.attrs)}"] if step.attrs else []
        for k, v in step.dyn:
            parts.append(f"{k}=v{v.s}" if type(v) is P.Ref else
                         f"{k}={src.name('Q', v.param)}._data")
        kw = ", ".join(parts)
    call = f"{src.name('F', step.fwd)}({', '.join(x for x in (args, kw) if x)})"
    src.emit(f"o, sv = {call}")
    if step.multi:
        for j, (s, _) in enumerate(step.outs):
            src.emit(f"v{s} = o[{j}] if type(o[{j}]) is ndarray else asarray(o[{j}])")
    else:
        s = step.outs[0][0]
        src.emit(f"v{s} = o if type(o) is ndarray else asarray(o)")
    if step.keep:
        src.emit(f"s{step.index} = sv if type(sv) is tuple else () if sv is None else (sv,)")


def _ufunc_saved(step, args, out):
    save = step.op.save
    if save == 1:
        return f"({args},)"
    return f"({out},)" if save == 2 else "()"


def _grad(src, step, early=None):
    """The walk of `GradStep.run`, unrolled: accumulators are locals a<k>; with `early`, each
    parameter's in-backward update right after the walk entry that completes its gradient."""
    nt = step.ntargets
    src.emit(f"r = [None] * {nt}")
    for k, _ in step.walk:
        src.emit(f"a{k} = None")
    for (kind, where, slot), (shape, dtype, given) in zip(step.roots, step.sens):
        if given is None:
            ones = f"ones({shape!r}, {src.name('D', dtype)})"
        else:  # a sensitivity the caller passed (`plan._sens_array`)
            value = f"v{given}" if type(given) is int else src.name("K", given)
            ones = f"sens({value}, {shape!r}, {src.name('D', dtype)})"
        if kind == "t":
            src.emit(f"r[{where}] = {ones} if r[{where}] is None else r[{where}] + {ones}")
        elif kind == "n":
            _add(src, step, where, slot, ones)
    for k, (index, op, needs, dests, multi_meta, into) in step.walk:
        src.emit(f"g = a{k}")
        src.emit("if g is not None:")
        src.emit(f"a{k} = None", 2)
        builtin = _BUILTIN.get(op.rule) if multi_meta is None else None
        if builtin is not None:  # the engine's own rules (_tape._builtin_backward), inline
            src.emit(f"sv = s{index}; s{index} = None", 2)
            src.emit("res = " + builtin(needs), 2)
            _dests(src, step, op, dests, multi_meta)
            _early_hooks(src, early, k)
            continue
        ctx_obj = P._Ctx(op, None, needs, into, None)
        ctx = src.name("X", ctx_obj)
        if early is not None:
            for i, t in early.owners.get(k, ()):
                for j, dest in enumerate(dests):
                    if dest is not None and dest[2] == "t" and dest[3] == t:
                        early.bind(ctx_obj, j, i)
        if multi_meta is None and op.passthrough:
            src.emit(f"res = None; s{index} = None", 2)
        else:
            gs = "g"
            if multi_meta is not None:
                src.emit(f"g = fill({src.name('M', multi_meta)}, g)", 2)
                gs = "*g"
            src.emit(f"res = call({src.name('W', op.backward)}, {ctx}, s{index}, r, "
                     f"{gs}); s{index} = None", 2)
        _dests(src, step, op, dests, multi_meta)
        _early_hooks(src, early, k)
    _outputs(src, step)
    if early is not None:
        src.emit(f"{src.early}.end()")


def _early_hooks(src, early, k):
    if early is not None:
        for i, t in early.owners.get(k, ()):
            src.emit(f"r[{t}] = {src.early}.hook({i}, {t}, r[{t}])", 2)


def _dests(src, step, op, dests, multi_meta):
    """Hand each input's gradient on: reduce to its shape, cast to its dtype (`_fit`, the
    engine's `_fit_numpy`), add it to the node below or the target (fan-in sums)."""
    first = "g" if multi_meta is None else "g[0]"
    for i, dest in enumerate(dests):
        if dest is None:
            continue
        shape, dtype, kind, where, slot = dest
        src.emit(f"x = fit({first} if res is None else res[{i}], {shape!r}, "
                 f"{src.name('D', dtype)}, {op.name!r})", 2)
        if kind == "t":
            src.emit(f"if x is not None: r[{where}] = x if r[{where}] is None else "
                     f"r[{where}] + x", 2)
        elif step.meta_of.get(where) is None:
            src.emit(f"if x is not None: a{where} = x if a{where} is None else a{where} + x", 2)
        else:
            src.emit("if x is not None:", 2)
            _add(src, step, where, slot, "x", 3)


def _call(rule, ctx, saved, results, *gs):
    """Run a backward rule as the engine does: its gradients as a tuple, one per input."""
    ctx.saved, ctx.results = saved, results
    try:
        res = rule(ctx, *gs)
    finally:
        ctx.saved = None
    if res is not None and type(res) is not tuple:
        res = tuple(res) if type(res) is list else (res,)
    if res is not None and len(res) != len(ctx.needs_input_grad):
        raise ValueError(f"For '{ctx.op.name}', the backward rule returned {len(res)} "
                         f"gradients; expected {len(ctx.needs_input_grad)}.")
    return res


def _fill(metas, grads):
    """A multi-output node's gradients, zeros where none arrived."""
    return tuple(np.zeros(m[0], m[1]) if g is None else g for g, m in zip(grads, metas))


def _fit(x, shape, dtype, name):
    if x is None:
        return None
    if type(x) is not np.ndarray:
        x = np.asarray(x)
    if x.shape != shape:
        x = P._sum_to(x, shape, name)
    if x.dtype != dtype:
        x = x.astype(dtype)
    return x


def _outputs(src, step):
    for index, s, shape, dtype in step.outputs:
        d = src.name("D", dtype)
        if index is None:
            src.emit(f"v{s} = zeros({shape!r}, {d})")
            continue
        src.emit(f"x = r[{index}]")
        src.emit(f"if x is None: x = zeros({shape!r}, {d})")
        src.emit(f"elif x.dtype != {d}: x = x.astype({d})")
        src.emit("elif not x.flags.writeable: x = x.copy()")
        src.emit(f"v{s} = x")


# rule -> the expression of its gradients (a tuple) from g and sv (the saved arrays);
# needs are the walk's needs_input_grad. The same arithmetic as _tape._builtin_backward.
_BUILTIN = {
    1: lambda n: f"({'g * sv[1]' if n[0] else 'None'}, {'g * sv[0]' if n[1] else 'None'})",
    2: lambda n: f"(g, {'-g' if n[1] else 'None'})",
    3: lambda n: "(g - g * sv[0] * sv[0],)",
    4: lambda n: "((t := g * sv[0]) - t * sv[0],)",
    5: lambda n: "(-g,)",
    6: lambda n: "(g * sv[0],)",
}


def _add(src, step, k, slot, value, depth=1):
    meta = step.meta_of.get(k)
    if meta is None:
        src.emit(f"a{k} = {value} if a{k} is None else a{k} + {value}", depth)
        return
    src.emit(f"if a{k} is None: a{k} = [None] * {len(meta)}", depth)
    src.emit(f"a{k}[{slot}] = {value} if a{k}[{slot}] is None else a{k}[{slot}] + {value}",
             depth)


def generate(plan):
    """The replay of `plan` as one function `replay(tensors) -> result`."""
    src = _Source()
    src.lines.append("def replay(tensors):")
    for s, i in plan.inputs:
        src.emit(f"v{s} = tensors[{i}]._data")
    for s, i in plan.scalar_inputs:
        src.emit(f"v{s} = tensors[{i}]")
    for s, t in plan.live:
        src.emit(f"v{s} = {src.name('L', t)}._data")
    early = plan.early
    if early is not None:  # the optimizer's in-backward updates (`optim_step.Early`)
        src.early = src.name("Y", early)
        src.emit(f"{src.early}.begin()")
    for step in plan.sequence:
        kind = type(step)
        if kind is P.OpStep:
            _op(src, step)
        elif kind is P.GradStep:
            _grad(src, step, early if step is plan.early_grad else None)
        elif kind is OptimizerStep:  # the optimizer's one-call update on the gradient arrays
            grads = "".join(f"v{s}, " for s in step.grads)
            src.emit(f"{src.name('O', step.cell)}.construct(({grads}))")
        else:  # an eager Cell: RefreshStep or IslandStep, with the values it reads
            env = src.name("E", None)
            src.emit(f"{env} = {_dict_of(step.slots())}")
            src.emit(f"{src.name('R', step)}.run({env}, None)")
            if kind is P.IslandStep:
                for s in P._refs(step.out, []):
                    src.emit(f"v{s} = {env}[{s}]")
    result = _dict_of(P._refs(plan.template, []))
    src.emit(f"return build({src.name('T', plan.template)}, {result})")
    namespace = dict(src.names, ndarray=np.ndarray, asarray=np.asarray, ones=np.ones,
                     zeros=np.zeros, sum_to=P._sum_to, build=P._build, fit=_fit,
                     call=_call, fill=_fill, scalar=_scalar_array,
                     sens=P._sens_array)
    code = "\n".join(src.lines)
    exec(compile(code, f"<jit replay of {plan.name}>", "exec"), namespace)  # noqa: S102
    fn = namespace["replay"]
    fn.source = code
    return fn


def generate_guards(plan):
    """`Plan.guards_hold` as one generated function: the Cells' phases and hooks, the
    Parameters' hooks, shapes and dtypes, the attribute arrays, then every guarded Python
    value read at once into a tuple compared with the traced values and their types."""
    src = _Source()
    src.lines.append("def guards_hold():")
    for cell, training in plan.cells:
        c = src.name("C", cell)
        src.emit(f"if {c}.training != {bool(training)!r} or hooked({c}): return False")
    for p, shape, dtype in plan.param_meta:
        q = src.name("P", p)
        src.emit(f"if grad_hooks({q}) or {q}._data.shape != {shape!r} or "
                 f"{q}._data.dtype != {src.name('D', dtype)}: return False")
    for p, arr in plan.attr_params:
        src.emit(f"if {src.name('P', p)}._data is not {src.name('A', arr)}: return False")
    values = [(w, k, v) for w, k, v in plan.scalars]
    identities = []
    if plan.guards is not None:
        values += plan.guards.values
        identities = plan.guards.identities
    reads = []
    for where, key, _ in values + identities:
        reads.append(f"{src.name('Z', key)}.cell_contents" if where is None else
                     f"{src.name('G', where)}.get({src.name('K', key)}, missing)")
    if reads:
        n = len(values)
        src.emit(f"now = ({', '.join(reads)},)")
        src.emit(f"if now[:{n}] != {src.name('V', tuple(v for _, _, v in values))}: "
                 f"return False")
        src.emit(f"if tuple(map(type, now[:{n}])) != "
                 f"{src.name('T', tuple(type(v) for _, _, v in values))}: return False")
        for i, (_, _, obj) in enumerate(identities):
            src.emit(f"if now[{n + i}] is not {src.name('O', obj)}: return False")
    src.emit("return True")
    namespace = dict(src.names, hooked=_jit_hook.cell_hooked,
                     grad_hooks=_jit_hook.has_grad_hooks, missing=P._MISSING)
    code = "\n".join(src.lines)
    exec(compile(code, f"<jit guards of {plan.name}>", "exec"), namespace)  # noqa: S102
    fn = namespace["guards_hold"]
    fn.source = code
    return fn
