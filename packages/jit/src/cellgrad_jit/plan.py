"""A replay plan: the steps one traced call ran, run again on plain arrays.

Slots hold arrays: arguments, Parameters (their live data), constant Tensors (live), and the
results of earlier steps. Steps: `OpStep` (an op's forward on arrays: no Tensor, no tape
node), `GradStep` (the gradient walk over the recorded nodes, in the engine's order, with
the engine's shape reductions, casts and fan-in sums), `IslandStep` (one Cell called
eagerly, e.g. an optimizer). The result is built from the traced call's result template.
"""

import numpy as np
from cellgrad._core._buffer import make_tensor

from cellgrad import _jit_hook, observe
from cellgrad_jit.mutables import ScalarArg

_XP = _jit_hook.rule_namespace()
# Elementwise outputs into arrays allocated once and shared by liveness (`buffer_elementwise`):
# a 10-round tanh/sigmoid/exp chain ran 0.82-0.89x the time of fresh arrays forward and
# 0.88-0.97x with its backward (16x16 to 256x256, 1-thread CPU time, 2026-11-26). One buffer
# per op, without the sharing, had measured slower (numpy's allocator hands back cached memory).
BUFFERS = True
# Weight gradients into arrays allocated once (offered to rules through `ctx.grad_into`).
WEIGHT_BUFFERS = True
GENERATE = True  # replay with a generated function (False: the step interpreter)
# The optimizer updates each parameter inside the backward once its gradient is complete
# (cellgrad-ops-nn's `_updates_in_backward`, as eager TrainOneStepCell), weight gradients in one
# array per shape: the jitted 64-layer chain 0.88x, the MLP step 0.98x the time of updating
# after the backward (1-thread CPU time, interleaved, 2026-11-26).
EARLY_UPDATES = True

__all__ = ["GradStep", "IslandStep", "OpStep", "Plan", "Ref", "RefreshStep"]


_MISSING = object()


class Ref:
    """A Tensor in a template or an argument: slot `s`, cellgrad dtype `dtype`."""
    __slots__ = ("s", "dtype")

    def __init__(self, s, dtype=None):
        self.s, self.dtype = s, dtype


class ParamRef:
    """An attribute that is a Parameter's data: read live at each replay."""
    __slots__ = ("param",)

    def __init__(self, param):
        self.param = param


def _build(template, env):
    """The template with each `Ref` replaced by a Tensor of the slot's array."""
    if type(template) is Ref:
        return make_tensor(env[template.s], None, 0, template.dtype)
    if isinstance(template, tuple) and type(template) is not tuple:
        return type(template)(*(_build(x, env) for x in template))
    if isinstance(template, (tuple, list)):
        return type(template)(_build(x, env) for x in template)
    if isinstance(template, dict):
        return {k: _build(x, env) for k, x in template.items()}
    return template


def _refs(template, out):
    """The slots of `template` (a structure with `Ref`s) in order."""
    if type(template) is Ref:
        out.append(template.s)
    elif isinstance(template, (tuple, list)):
        for x in template:
            _refs(x, out)
    elif isinstance(template, dict):
        for x in template.values():
            _refs(x, out)
    return out


class OpStep:
    """One op's forward on arrays. `args`: (slot, cast dtype or None), or (-1, value)."""
    __slots__ = ("op", "args", "attrs", "dyn", "outs", "multi", "keep", "places", "meta",
                 "in_meta", "index", "fwd", "fresh", "buf", "refreshed")

    def __init__(self, op, args, attrs, outs, multi, keep):
        self.op, self.args, self.outs, self.multi, self.keep = op, args, outs, multi, keep
        self.attrs = {k: v for k, v in attrs.items() if type(v) not in (Ref, ParamRef)}
        self.dyn = [(k, v) for k, v in attrs.items() if type(v) in (Ref, ParamRef)]
        self.fwd = op.forward
        self.fresh = None  # the attributes a RefreshStep gave this replay
        self.buf = None  # an elementwise op's output array, allocated once (see Plan)
        self.refreshed = False  # its attributes come from a RefreshStep at each replay

    def take_fresh(self):
        attrs, self.fresh = self.fresh, None
        return attrs

    def slots(self):
        return [s for s, _ in self.args if s >= 0] + [v.s for _, v in self.dyn if type(v) is Ref]

    def run(self, env, saved):
        if self.buf is not None:
            return self.run_into(env, saved)
        args = [_arg(env, s, v) for s, v in self.args]
        attrs = self.attrs
        if self.fresh is not None:
            attrs, self.fresh = self.fresh, None
        elif self.dyn:
            attrs = dict(attrs)
            for k, v in self.dyn:
                attrs[k] = env[v.s] if type(v) is Ref else v.param._data
        out, sv = self.fwd(*args, **attrs) if attrs else self.fwd(*args)
        if self.multi:
            for (s, _), o in zip(self.outs, out):
                env[s] = o if type(o) is np.ndarray else np.asarray(o)
        else:
            env[self.outs[0][0]] = out if type(out) is np.ndarray else np.asarray(out)
        if self.keep:
            saved[self.index] = sv if type(sv) is tuple else () if sv is None else (sv,)


    def run_into(self, env, saved):
        """An elementwise op (a numpy ufunc) computed into its buffer: the same ufunc call,
        no allocation."""
        args = [_arg(env, s, v) for s, v in self.args]
        out = env[self.outs[0][0]] = self.op.ufunc(*args, out=self.buf)
        if self.keep:
            save = self.op.save
            saved[self.index] = tuple(args) if save == 1 else (out,) if save == 2 else ()


def _arg(env, s, v):
    """An op argument: a value (s < 0), a slot's array, cast, or a mutable scalar input."""
    if s < 0:
        return v
    if v is None:
        return env[s]
    if type(v) is ScalarArg:
        return v.value(env[s])
    return env[s].astype(v)


class _Ctx:
    """The `ctx` a backward rule receives (what the engine's tape node offers)."""
    __slots__ = ("saved", "xp", "needs_input_grad", "next_nodes", "op", "into", "results")

    def __init__(self, op, saved, needs, into, results):
        self.op, self.saved, self.needs_input_grad = op, saved, needs
        self.xp, self.next_nodes = _XP, (None,) * len(needs)
        self.into, self.results = into, results

    @property
    def name(self):
        return self.op.name

    def grad_into(self, i):
        """The plan's buffer for input `i`'s gradient: only for a weight whose whole
        gradient comes through this edge and that does not leave the plan."""
        if self.into is None:
            return None
        t = self.into[i]
        if t is None or self.results[t[0]] is not None:
            return None
        return t[1]


def _sum_to(g, shape, opname):
    gshape = tuple(g.shape)
    lead = len(gshape) - len(shape)
    if lead < 0:
        raise ValueError(f"For '{opname}', the backward rule returned a gradient of shape "
                         f"{gshape} for an input of shape {shape}.")
    axes = list(range(lead))
    for i, d in enumerate(shape):
        if d == 1 and gshape[lead + i] != 1:
            axes.append(lead + i)
        elif d != gshape[lead + i]:
            raise ValueError(f"For '{opname}', the backward rule returned a gradient of shape "
                             f"{gshape} for an input of shape {shape}.")
    if axes:
        g = g.sum(axis=tuple(axes))
    return g.reshape(shape)


def _acc(old, g):
    return g if old is None else old + g


class GradStep:
    """One gradient transform's walk over the recorded nodes (the engine's order)."""

    def __init__(self):
        self.roots, self.walk, self.outputs, self.ntargets = [], [], [], 0

    @classmethod
    def build(cls, rec, roots, sens, targets, fail):
        """From the recorder's nodes: replicate the engine's discovery (post-order DFS from
        the roots, each node needed when a needed node or a target lies below it)."""
        step = cls()
        step.ntargets = len(targets)
        nodes = rec.nodes
        order, seen, needed = [], set(), {}

        def children(key):
            op_step = rec.steps[nodes[key][0]]
            return [None if p is None else p[0] for p in op_step.places]

        def internal(child):
            """Whether the walk descends into `child` (else a leaf, a target or unknown)."""
            k = id(child)
            if k in targets or _jit_hook.node_op(child) is None:
                return False
            if k not in nodes:
                fail(f"the gradient passes a node the trace did not record "
                     f"('{_jit_hook.node_op(child).name}': a hook or a hand-made node)")
                return False
            return True

        for (rk, _slot) in roots:
            if rk in targets or rk in seen:
                continue
            if rk not in nodes:
                fail("a differentiated output was not made by a traced op")
                return step
            seen.add(rk)
            stack = [(rk, iter(children(rk)))]
            while stack:
                key, it = stack[-1]
                nxt = next(it, StopIteration)
                if nxt is StopIteration:
                    stack.pop()
                    kids = children(key)
                    needed[key] = any(c is not None and ((id(c) in needed and needed[id(c)])
                                                         or id(c) in targets) for c in kids)
                    order.append(key)
                elif nxt is not None and id(nxt) not in seen and internal(nxt):
                    seen.add(id(nxt))
                    stack.append((id(nxt), iter(children(id(nxt)))))
        pos = {k: i for i, k in enumerate(order) if needed[k]}
        for rk, slot in roots:
            if rk in targets:
                step.roots.append(("t", targets[rk], slot))
            elif rk in pos:
                step.roots.append(("n", pos[rk], slot))
            else:
                step.roots.append((None, None, slot))
        step.sens = sens
        walk = [None] * len(order)
        for k in range(len(order)):
            key = order[k]
            if key not in pos:
                continue
            index = nodes[key][0]
            op_step = rec.steps[index]
            kids = children(key)
            needs = tuple(c is not None and (id(c) in targets or pos.get(id(c)) is not None)
                          for c in kids)
            dests = []
            for i, c in enumerate(kids):
                if not needs[i]:
                    dests.append(None)
                    continue
                shape, dtype = op_step.in_meta[i]
                slot = op_step.places[i][1]
                if id(c) in pos:
                    dests.append((shape, dtype, "n", pos[id(c)], slot))
                else:
                    dests.append((shape, dtype, "t", targets[id(c)], slot))
            multi_meta = op_step.meta if op_step.multi else None
            walk[k] = [index, op_step.op, needs, tuple(dests), multi_meta, None]
        step.walk = [(k, w) for k, w in enumerate(walk) if w is not None][::-1]
        step.meta_of = {k: w[4] for k, w in step.walk}
        step.nslots = len(order)
        return step

    def slots(self):
        return [src for _, _, src in self.sens if type(src) is int]

    def buffer(self, escaping, shared=()):
        """Give each weight gradient that arrives through one edge and whose slot is not in
        `escaping` (the plan's result) one array, reused by every replay; the targets in
        `shared` (updated in the backward, read by nothing else) one array per shape, which
        stays in cache (`optim_step.Early` copies a gradient whose update was declined)."""
        edges = {}
        for kind, where, _ in self.roots:
            if kind == "t":
                edges[where] = 2  # a root: never buffered
        for _, w in self.walk:
            for dest in w[3]:
                if dest is not None and dest[2] == "t":
                    edges[dest[3]] = edges.get(dest[3], 0) + 1
        kept = {index for index, s, _, _ in self.outputs if s not in escaping}
        scratch = {}
        for _, w in self.walk:
            into = [None] * len(w[3])
            for i, dest in enumerate(w[3]):
                if dest is not None and dest[2] == "t" and edges[dest[3]] == 1 and \
                        dest[3] in kept and len(dest[0]) == 2:
                    if dest[3] in shared:
                        key = (dest[0], np.dtype(dest[1]).str)
                        buf = scratch.get(key)
                        if buf is None:
                            buf = scratch[key] = np.zeros(dest[0], dest[1])
                    else:
                        buf = np.zeros(dest[0], dest[1])
                    into[i] = (dest[3], buf)
            if any(x is not None for x in into):
                w[5] = tuple(into)

    def run(self, env, saved):
        acc = [None] * self.nslots
        results = [None] * self.ntargets
        for (kind, where, slot), (shape, dtype, src) in zip(self.roots, self.sens):
            g = np.ones(shape, dtype) if src is None else \
                _sens_array(env[src] if type(src) is int else src, shape, dtype)
            if kind == "t":
                results[where] = _acc(results[where], g)
            elif kind == "n":
                _add(acc, where, slot, g, self.walk_meta(where))
        for k, (index, op, needs, dests, multi_meta, into) in self.walk:
            got = acc[k]
            acc[k] = None
            if got is None:
                continue
            ctx = _Ctx(op, saved.pop(index), needs, into, results)
            if multi_meta is None:
                gs = (got,)
            else:
                gs = tuple(np.zeros(m[0], m[1]) if g is None else g
                           for g, m in zip(got, multi_meta))
            if multi_meta is None and op.passthrough:
                res = None
            else:
                res = op.backward(ctx, *gs)
            if res is not None and type(res) is not tuple:
                res = tuple(res) if type(res) is list else (res,)
            if res is not None and len(res) != len(needs):
                raise ValueError(f"For '{op.name}', the backward rule returned {len(res)} "
                                 f"gradients; expected {len(needs)}.")
            for i, dest in enumerate(dests):
                if dest is None:
                    continue
                g = gs[0] if res is None else res[i]
                if g is None:
                    continue
                if type(g) is not np.ndarray:
                    g = np.asarray(g)
                shape, dtype, kind, where, slot = dest
                if g.shape != shape:
                    g = _sum_to(g, shape, op.name)
                if g.dtype != dtype:
                    g = g.astype(dtype)
                if kind == "t":
                    results[where] = _acc(results[where], g)
                else:
                    _add(acc, where, slot, g, self.walk_meta(where))
        for index, s, shape, dtype in self.outputs:
            g = None if index is None else results[index]
            if g is None:
                g = np.zeros(shape, dtype)
            elif g.dtype != dtype:
                g = g.astype(dtype)
            elif not g.flags.writeable:
                g = g.copy()
            env[s] = g

    def walk_meta(self, k):
        return self.meta_of.get(k)


def _sens_array(a, shape, dtype):
    """A given sensitivity as the walk takes it (autodiff's `_sens_value`): a number fills
    the output's shape, complex ones in the tape's convention; a fresh array."""
    a = np.asarray(a)
    if a.dtype.kind == "c":
        a = np.conj(a)
    return np.array(np.broadcast_to(a, shape), dtype=dtype)


def _add(acc, k, slot, g, multi_meta):
    if multi_meta is None:
        acc[k] = _acc(acc[k], g)
        return
    if acc[k] is None:
        acc[k] = [None] * len(multi_meta)
    acc[k][slot] = _acc(acc[k][slot], g)


class _AttrCapture(observe.Observer):
    """Collects (op, attrs) of the top-level dispatches of one eager Cell call."""

    def __init__(self):
        self.seen, self.depth = [], 0

    def op_begin(self, op, inputs, attrs):
        self.depth += 1

    def op_abort(self, op):
        self.depth -= 1

    def op_end(self, op, inputs, attrs, result):
        self.depth -= 1
        if not self.depth:
            self.seen.append((op, attrs or {}))


class RefreshStep:
    """A Cell whose Python makes its ops' attributes (batch statistics, dropout masks): it
    runs eagerly (no tape) and its ops' attributes feed the planned steps that follow."""
    __slots__ = ("cell", "args", "kwargs", "steps")

    def __init__(self, cell, args, kwargs, steps):
        self.cell, self.args, self.kwargs, self.steps = cell, args, kwargs, steps

    def slots(self):
        return _refs((self.args, self.kwargs), [])

    def run(self, env, saved):
        cap = _AttrCapture()
        handle = observe.add_observer(cap)
        try:
            self.cell(*_build(self.args, env), **{k: _build(v, env)
                                                  for k, v in self.kwargs.items()})
        finally:
            handle.remove()
        if [op for op, _ in cap.seen] != [st.op for st in self.steps]:
            raise RuntimeError(
                f"jit: Cell '{type(self.cell).__name__}' ran other ops than when it was traced "
                f"({[op.name for op, _ in cap.seen]} instead of "
                f"{[st.op.name for st in self.steps]}); its Python branches on something the "
                f"guards do not cover. Clear the plans (fn.jit_plans.clear()).")
        for st, (_, attrs) in zip(self.steps, cap.seen):
            st.fresh = attrs


class IslandStep:
    """One Cell called eagerly with Tensors of the replay's arrays (an optimizer)."""
    __slots__ = ("cell", "args", "kwargs", "out", "why")

    def __init__(self, cell, args, kwargs, out, why):
        self.cell, self.args, self.kwargs, self.out, self.why = cell, args, kwargs, out, why

    def slots(self):
        return _refs((self.args, self.kwargs), [])

    def run(self, env, saved):
        args = _build(self.args, env)
        kwargs = {k: _build(v, env) for k, v in self.kwargs.items()}
        result = self.cell(*args, **kwargs)
        _store(self.out, result, env)


def _store(template, result, env):
    if type(template) is Ref:
        env[template.s] = result._data
    elif isinstance(template, (tuple, list)):
        for t, r in zip(template, result):
            _store(t, r, env)
    elif isinstance(template, dict):
        for k, t in template.items():
            _store(t, result[k], env)


def _plain_ufunc(step):
    """An op run as one numpy ufunc call (no attributes): what it keeps for the backward is
    its inputs or its output (`op.save`), nothing else."""
    return type(step) is OpStep and isinstance(step.op.ufunc, np.ufunc) and not (
        step.multi or step.refreshed or step.dyn or step.attrs)


class Plan:
    """The steps of one traced call and the guards it was traced under."""

    def __init__(self, name, kinds, refs, steps, template, cells, refreshes=()):
        self.name, self.steps, self.template = name, steps, template
        self.generated = None
        self.guard_fn = None
        self.scalars = []  # Python values the trace read from closures, globals, Cells
        self.guards = None  # `guards.Guards`: what the user functions the call ran read
        starts = {start: RefreshStep(cell, args, kwargs, steps[start:end])
                  for start, end, cell, args, kwargs in refreshes}
        for refresh in starts.values():
            for st in refresh.steps:
                st.refreshed = True
        self.sequence = []
        for i, step in enumerate(steps):
            if i in starts:
                self.sequence.append(starts[i])
            self.sequence.append(step)
        self.n = len(kinds)
        self.kinds, self.refs = kinds, refs
        self.early_grad = self.early = None  # the optimizer's in-backward updates
        self.inputs = [(s, r) for s, (k, r) in enumerate(zip(kinds, refs)) if k == "input"]
        self.scalar_inputs = [(s, r) for s, (k, r) in enumerate(zip(kinds, refs))
                              if k == "scalar"]
        self.live = [(s, r) for s, (k, r) in enumerate(zip(kinds, refs))
                     if k in ("param", "const")]
        self.params = [r for k, r in zip(kinds, refs) if k == "param"]
        self.param_meta = [(p, p._data.shape, p._data.dtype) for p in self.params]
        self.cells = cells
        self.attr_params = []
        for i, step in enumerate(steps):
            if type(step) is OpStep:
                step.index = i
                self.attr_params += [(v.param, v.param._data) for _, v in step.dyn
                                     if type(v) is ParamRef]
        if BUFFERS:
            self.buffer_elementwise()

    def buffer_elementwise(self):
        """Give elementwise ops (numpy ufuncs) output arrays allocated once, shared by
        liveness: a value only ufunc ops read (no view of it can outlive the replay), not in
        the result, is written into a buffer that returns to its (shape, dtype) pool after
        its last reader; one saved for the backward keeps its buffer for the whole replay."""
        readers = {}
        for pos, step in enumerate(self.sequence):
            for s in step.slots():
                readers.setdefault(s, []).append((pos, step))
        out = set(_refs(self.template, []))
        pools, release = {}, {}
        self.buffers = 0  # arrays allocated (the elementwise outputs share them)
        for pos, step in enumerate(self.sequence):
            for key, arr in release.pop(pos, ()):
                pools[key].append(arr)
            if not _plain_ufunc(step):
                continue
            s = step.outs[0][0]
            reads = readers.get(s, ())
            if s in out or not all(_plain_ufunc(r) for _, r in reads):
                continue
            shape, dtype = step.meta[0]
            if not shape:
                continue
            key = (shape, dtype.str)
            pool = pools.setdefault(key, [])
            if pool:
                step.buf = pool.pop()
            else:
                step.buf = np.empty(shape, dtype)
                self.buffers += 1
            saved = (step.keep and step.op.save == 2) or any(
                r.keep and r.op.save == 1 for _, r in reads)
            if not saved and reads:
                release.setdefault(max(p for p, _ in reads) + 1, []).append((key, step.buf))

    def check_slots(self):
        from cellgrad_jit.trace import Unsafe

        written = {s for s, k in enumerate(self.kinds) if k != "result"}
        escaping = set(_refs(self.template, []))
        if EARLY_UPDATES and GENERATE:
            from cellgrad_jit.optim_step import plan_early

            self.early_grad, self.early = plan_early(self.sequence, self.kinds, self.refs,
                                                     self.steps, escaping)
        for step in self.steps:
            if type(step) is GradStep and WEIGHT_BUFFERS:
                step.buffer(escaping, self.early.shared if step is self.early_grad else ())
        for step in self.sequence:
            for s in step.slots():
                if s not in written:
                    raise Unsafe("a Tensor made inside an eagerly called Cell is used after it")
            if type(step) is OpStep:
                written.update(s for s, _ in step.outs)
            elif type(step) is GradStep:
                written.update(s for _, s, _, _ in step.outputs)
            elif type(step) is IslandStep:
                written.update(_refs(step.out, []))
        for s in _refs(self.template, []):
            if s not in written:
                raise Unsafe("the result holds a Tensor made inside an eagerly called Cell")

    def guards_hold(self):
        """The guards not in the cache key: phases, hooks, Parameters' arrays, Python values
        (one generated function, `codegen.generate_guards`, made on the first check)."""
        fn = self.guard_fn
        if fn is None:
            from cellgrad_jit.codegen import generate_guards

            fn = self.guard_fn = generate_guards(self)
        return fn()

    def guards_hold_interpreted(self):
        """The reference for the generated guards."""
        for cell, training in self.cells:
            if cell.training != training or _jit_hook.cell_hooked(cell):
                return False
        for p, shape, dtype in self.param_meta:
            if _jit_hook.has_grad_hooks(p) or p._data.shape != shape or p._data.dtype != dtype:
                return False
        for p, arr in self.attr_params:
            if p._data is not arr:
                return False
        for where, key, value in self.scalars:
            now = key.cell_contents if where is None else where.get(key, _MISSING)
            if now is not value and (type(now) is not type(value) or now != value):
                return False
        return self.guards is None or self.guards.hold()

    def run(self, tensors):
        """Replay with the generated function (`codegen`), made on the first replay."""
        fn = self.generated
        if fn is None:
            from cellgrad_jit.codegen import generate

            fn = self.generated = generate(self) if GENERATE else self.run_interpreted
        try:
            return fn(tensors)
        except Exception as e:
            if self.early is not None:
                self.early.end(type(e), e, e.__traceback__)
            e.add_note(f"(raised while replaying the ms.jit plan of '{self.name}')")
            raise

    def run_interpreted(self, tensors):
        """Replay step by step (the reference for the generated function)."""
        env = [None] * self.n
        for s, i in self.inputs:
            env[s] = tensors[i]._data
        for s, i in self.scalar_inputs:
            env[s] = tensors[i]
        for s, t in self.live:
            env[s] = t._data
        saved = {}
        for step in self.sequence:
            step.run(env, saved)
        return _build(self.template, env)
