"""An optimizer call inside a traced function, replayed as one call on arrays.

cellgrad-ops-nn's optimizers update every parameter in one kernel call (`group_update`); their
`construct` takes the gradients as Tensors or as plain arrays (the kernel and the
per-parameter fallback read either). So where the traced function calls such an optimizer, the
plan calls its `construct` with the replay's gradient arrays: no `Cell.__call__`, no Tensor per
gradient, no per-parameter Python — the same kernel on the same arrays, so the same numbers.
Any other optimizer (a subclass with its own `construct` or `_gradient`) stays an eager
island (`plan.IslandStep`).
"""

from cellgrad_jit.plan import Ref, _refs

__all__ = ["OptimizerStep", "fusable"]

_SAFE = None  # the `construct`s known to take gradient arrays, and Optimizer._gradient


def _known():
    global _SAFE
    if _SAFE is None:
        try:
            from cellgrad_nn.optim.adam import Adam
            from cellgrad_nn.optim.optimizer import Optimizer
        except ImportError:  # no cellgrad-ops-nn: no optimizer to fuse
            _SAFE = (frozenset(), None)
        else:
            _SAFE = (frozenset((Optimizer.construct, Adam.construct)), Optimizer._gradient)
    return _SAFE


def fusable(cell, args, kwargs, out):
    """Whether the island `cell(*args, **kwargs)` (args as `Ref` templates) is an optimizer
    call the plan may replace by `OptimizerStep`."""
    constructs, gradient = _known()
    cls = type(cell)
    if cls.construct not in constructs or getattr(cls, "_gradient", None) is not gradient:
        return False
    if "construct" in vars(cell) or kwargs or len(args) != 1:
        return False  # an instance-level construct, or not `optimizer(gradients)`
    grads = args[0]
    if not isinstance(grads, (tuple, list)) or not all(type(g) is Ref for g in grads):
        return False
    return not _refs(out, [])  # the result (True) holds no Tensor


class OptimizerStep:
    """`optimizer.construct(gradient arrays)`: the optimizer's one-call update."""
    __slots__ = ("cell", "grads", "why")

    def __init__(self, cell, grads, why):
        self.cell, self.grads, self.why = cell, [g.s for g in grads], why

    def slots(self):
        return list(self.grads)

    def run(self, env, saved):
        self.cell.construct(tuple(env[s] for s in self.grads))


class Early:
    """The optimizer's updates run inside the plan's backward, each parameter right after its
    gradient is complete (while the gradient and the weight are in cache), through
    cellgrad-ops-nn's own mechanism (`Optimizer._updates_in_backward`, what eager
    `TrainOneStepCell` uses): entered before the forward (the learning rates and options of
    the step; each parameter's reference count, so an update happens only once no saved value
    holds its array), a parameter's hook called by the plan, left after the backward; the
    optimizer call that follows (`OptimizerStep`) completes the step. `owners`: walk position
    -> [(optimizer parameter index, target index)].

    When nothing but the optimizer reads any of those gradients (`fuse`), a large Dense
    weight under plain SGD may take its step inside its weight-gradient product, as in eager
    (`cellgrad_nn.functional._dense_sgd`): the rule finds the weight's leaf node on its ctx
    (`bind`), where the eager engine's ctx has it."""

    def __init__(self, cell, owners, shared, fuse=False):
        self.cell, self.owners, self.scope = cell, owners, None
        self.shared = shared  # targets whose gradient array is shared by shape
        self.fuse = fuse
        self.edges = []  # (a rule's ctx, its input, optimizer parameter index)

    def bind(self, ctx, j, i):
        """The rule with `ctx` gets parameter `i`'s gradient through its input `j`."""
        self.edges.append((ctx, j, i))

    def begin(self):
        opt = self.cell
        # no network: the plan checked its cells; the gradients are kept unless only the
        # optimizer reads them
        scope = opt._updates_in_backward(None, not self.fuse)
        if scope is not None:
            scope.__enter__()
            if self.fuse:
                params = opt.parameters
                for ctx, j, i in self.edges:
                    nodes = list(ctx.next_nodes)
                    nodes[j] = params[i]._node
                    ctx.next_nodes = tuple(nodes)
        self.scope = scope

    def hook(self, i, t, g):
        """Parameter `i`'s update with gradient `g` (target `t`); the gradient the rest of
        the plan gets (a copy when it sits in a shared array and was not used here)."""
        scope = self.scope
        if scope is not None and g is not None:
            p = self.cell.parameters[i]
            if p._node is not None:
                scope.hooks[i](p._node, (g,))
                if scope.done[i]:
                    return g
        return g.copy() if t in self.shared and g is not None else g

    def end(self, *exc):
        scope, self.scope = self.scope, None
        if scope is not None:
            scope.__exit__(*(exc or (None, None, None)))
            for ctx, _, _ in self.edges:  # no leaf node kept alive between steps
                ctx.next_nodes = (None,) * len(ctx.next_nodes)


def plan_early(sequence, kinds, refs, steps, escaping):
    """An `Early` for a `GradStep` directly followed by an `OptimizerStep` whose gradients it
    makes, or None. A parameter is updated early when its gradient arrives through one edge
    of the walk and no other step keeps its array for the backward; its gradient array is
    shared by shape when nothing but the optimizer reads it (not `escaping`)."""
    from cellgrad_jit.plan import GradStep, IslandStep, OpStep, ParamRef

    at = next((j for j, (a, b) in enumerate(zip(sequence, sequence[1:]))
               if type(a) is GradStep and type(b) is OptimizerStep), None)
    if at is None:
        return None, None
    grad, opt = sequence[at], sequence[at + 1]
    if any(type(st) is IslandStep for st in sequence[:at]):
        # the scope is entered at the replay's start: an eager Cell before the backward that
        # runs a gradient transform of its own would fire the updates (and fused steps) there
        return None, None
    if not hasattr(type(opt.cell), "_updates_in_backward"):
        return None, None
    target_of = {s: index for index, s, _, _ in grad.outputs if index is not None}
    edges, owner = {}, {}
    for kind, where, _ in grad.roots:
        if kind == "t":
            edges[where] = 2
    for k, w in grad.walk:
        for dest in w[3]:
            if dest is not None and dest[2] == "t":
                edges[dest[3]] = edges.get(dest[3], 0) + 1
                owner[dest[3]] = k
    slot_of = {id(r): s for s, (kind, r) in enumerate(zip(kinds, refs)) if kind == "param"}
    holders = {}  # slot or id(Parameter) -> the kept steps reading it (their saved may hold it)
    for j, st in enumerate(steps):
        if type(st) is OpStep and st.keep:
            for s in set(st.slots()):
                holders.setdefault(s, []).append(j)
            for _, v in st.dyn:
                if type(v) is ParamRef:
                    holders.setdefault(id(v.param), []).append(j)
    walk = dict(grad.walk)
    owners = {}
    for i, (p, gs) in enumerate(zip(opt.cell.parameters, opt.grads)):
        t = target_of.get(gs)
        if t is None or edges.get(t) != 1:
            continue
        k = owner[t]
        held = set(holders.get(slot_of.get(id(p)), ())) | set(holders.get(id(p), ()))
        if held - {walk[k][0]}:
            continue
        owners.setdefault(k, []).append((i, t))
    if not owners:
        return None, None
    readers = {}
    for st in sequence:
        for s in st.slots():
            readers[s] = readers.get(s, 0) + (st is not opt)
    slot_of_target = {index: s for index, s, _, _ in grad.outputs if index is not None}
    shared = {t for pairs in owners.values() for _, t in pairs
              if slot_of_target[t] not in escaping and not readers.get(slot_of_target[t])}
    fuse = all(t in shared for pairs in owners.values() for _, t in pairs)
    return grad, Early(opt.cell, owners, shared, fuse)
