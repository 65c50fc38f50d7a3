"""vmap's fast path: the function traced once on the first slice, then replayed on the whole
batch with a batching rule per op (one batched op in place of one op per example).

The trace records the ops the function dispatches (`cellgrad.observe`) and, through the jit
tracer hook, whether Python read a Tensor's values, wrote one in place or drew random
numbers: then what runs may differ between examples and the caller falls back to the loop.
An op without a rule (or with arguments a rule does not cover) does the same.

Batched values carry the batch at axis 0 (logical shape = the traced slice's shape); unbatched
values are the Tensors the trace saw. Rules are written in dispatched ops, so the tape records
the replay and `grad` differentiates it: `vmap(grad(f))` is the gradient of the batch's summed
losses with respect to per-example copies of the unbatched inputs. Those copies are
broadcast views (batch stride 0), and a matrix product with one is a single GEMM forwards and
per-example outer products backwards (`VMAP_MATMUL`).
"""

import gc

import numpy as np

from cellgrad import _jit_hook, observe
from cellgrad._core._buffer import TensorBuffer as _Tensor
from cellgrad._core._buffer import make_tensor
from cellgrad.ops._registry import PROMOTE_NONE, Op, apply

__all__ = ["NoRule", "UNSET", "grad_call", "map_call"]


class NoRule(Exception):
    """The traced function cannot be replayed batched: use the loop."""


# ---- the trace ----


class _Trace(observe.Observer):
    """Records top-level op dispatches; any value read, in-place write, random draw, nested
    gradient or op inside a backward walk marks the trace unusable."""

    def __init__(self):
        self.events, self.depth, self.in_backward = [], 0, 0
        self.bad, self.aliases, self.grads, self.pairs, self.roots = None, {}, 0, [], []
        self.created = set()

    def op_begin(self, op, inputs, attrs):
        if self.in_backward:
            self.bad = f"op '{op.name}' in a backward rule"
        self.depth += 1

    def op_end(self, op, inputs, attrs, result):
        self.depth -= 1
        if self.depth == 0:
            self.events.append((op, inputs, attrs, result))

    def op_abort(self, op):
        self.depth -= 1

    def backward_begin(self, op):
        self.in_backward += 1

    def backward_end(self, op):
        self.in_backward -= 1

    # the jit tracer protocol (cellgrad._jit_hook)
    def value_read(self, tensor, how):
        self.bad = self.bad or f"a value read ({how})"

    def value_write(self, tensor, how):
        self.bad = self.bad or f"an in-place write ({how})"

    def random_draw(self, kernel, seed):
        self.bad = self.bad or "a random draw"

    def grad_begin(self, pairs):
        self.grads += 1
        if self.grads > 1:
            self.bad = self.bad or "a nested gradient"
        self.pairs.extend(pairs)  # keeps the aliases alive: their ids stay theirs
        for alias, given in pairs:
            self.aliases[id(alias)] = given

    def grad_end(self, roots, sens, targets, results, given=()):
        self.roots = list(roots)


UNSET = object()  # no slice-0 result: the trace did not run


def _traced(fn, args):
    """`(trace, result)` of `fn(*args)` run under a _Trace.

    `trace.created` holds the ids of the Tensors made during the call outside dispatch (a
    kernel that computes on arrays and wraps the result): their values may depend on the
    example, so the replay refuses them. The objects that existed before are frozen out of
    the collector's generations for the call, so what the generations hold after it is new.
    """
    trace = _Trace()
    previous = _jit_hook.set_tracer(trace)
    handle = observe.add_observer(trace)
    gc.freeze()
    try:
        result = fn(*args)
        trace.created = {id(o) for o in gc.get_objects() if isinstance(o, _Tensor)}
    finally:
        gc.unfreeze()
        handle.remove()
        _jit_hook.set_tracer(previous)
    return trace, result


def _usable():
    """Whether a trace may run now: no jit capture or observer, nothing frozen by the
    program (the trace's gc.freeze/unfreeze would release it)."""
    return _jit_hook.tracer is None and not observe.watching() and gc.get_freeze_count() == 0


# ---- the replay ----


class _Replay:
    def __init__(self, trace, env, size, watched=()):
        self.env, self.size = env, size  # id(traced Tensor) -> (Tensor, batched)
        self.trace = trace
        # ids of the arrays behind batched traced Tensors: an op given one as an attribute
        # (gather's indices) saw example 0's values, so the replay cannot batch it
        self.watched = set(watched)

    def value(self, v):
        """(value, batched) of a traced input."""
        if isinstance(v, _Tensor):
            key = id(v)
            given = self.trace.aliases.get(key)
            if given is not None:
                key = id(given)
            got = self.env.get(key)
            if got is None:
                if key in self.trace.created:
                    raise NoRule("a Tensor made outside dispatch during the call")
                got = (v, False)
            return got
        if isinstance(v, (tuple, list)) and any(isinstance(e, _Tensor) for e in v):
            raise NoRule("a sequence of Tensors as an op input")
        return v, False

    def run(self):
        for op, inputs, attrs, result in self.trace.events:
            if _holds(attrs, self.watched):
                raise NoRule(f"'{op.name}' has a batched Tensor's values as an attribute")
            vals = [self.value(v) for v in inputs]
            if not any(b for _, b in vals):
                out = apply(op, tuple(v for v, _ in vals), attrs)
                batched = False
            else:
                rule = RULES.get(op.name)
                if rule is None:
                    raise NoRule(f"no batching rule for '{op.name}'")
                out = rule(op, inputs, vals, attrs or {}, result)
                batched = True
            if isinstance(result, tuple):
                if not isinstance(out, tuple) or len(out) != len(result):
                    raise NoRule(f"'{op.name}' returned another structure when batched")
                for r, o in zip(result, out):
                    self.env[id(r)] = (o, batched)
            else:
                self.env[id(result)] = (out, batched)
            if batched:
                self.watched.update(id(r._data) for r in (
                    result if isinstance(result, tuple) else (result,)) if isinstance(r, _Tensor))


def _holds(attrs, ids):
    """Whether an attribute value is (a view of) one of the arrays `ids` names."""
    for v in (attrs or {}).values():
        for a in v if isinstance(v, (tuple, list)) else (v,):
            while isinstance(a, np.ndarray):
                if id(a) in ids:
                    return True
                a = a.base
    return False


def _watched(sliced, batched):
    """ids of the arrays behind the traced arguments that carry a batch."""
    return {id(s._data) for s, b in zip(sliced, batched) if b and isinstance(s, _Tensor)}


def _F():
    from cellgrad.ops import functional as F

    return F


def _to_front(t, axis):
    """`t` with axis `axis` moved to 0."""
    axis %= t.ndim
    if axis == 0:
        return t
    perm = (axis,) + tuple(i for i in range(t.ndim) if i != axis)
    return _F().transpose(t, perm)


def _bind(trace, args, axes, batched_args):
    """The replay environment: each traced argument's id -> its batched counterpart."""
    env = {}
    for sliced, axis, full in zip(args, axes, batched_args):
        if isinstance(sliced, (tuple, list)) or isinstance(axis, tuple):
            raise NoRule("a nested argument")
        if isinstance(sliced, _Tensor):
            env[id(sliced)] = (full, axis is not None)
    return env


def _batched_inputs(args, axes, size, broadcast=()):
    """Each argument with its batch at 0; unbatched ones at `broadcast` positions become
    per-example views of themselves (stride 0), the rest stay as they are."""
    out = []
    for i, (v, a) in enumerate(zip(args, axes)):
        if isinstance(v, (tuple, list)) or isinstance(a, tuple):
            raise NoRule("a nested argument")
        if a is not None:
            out.append(_to_front(v, a))
        elif i in broadcast and isinstance(v, _Tensor):
            view = np.broadcast_to(v._data, (size,) + tuple(v.shape))
            out.append(make_tensor(view, None, 0, v._dtype))
        else:
            out.append(v)
    return out


def map_call(fn, args, sliced, axes, size):
    """`(batched result or None, slice-0 result)`: fn over the batch, the batch at axis 0 of
    every output; None with the reason when it has to loop."""
    if not _usable():
        return None, UNSET
    trace, first = _traced(fn, sliced)
    if trace.bad or trace.grads:
        return None, first
    try:
        full = _batched_inputs(args, axes, size)
        replay = _Replay(trace, _bind(trace, sliced, axes, full), size,
                         _watched(sliced, [a is not None for a in axes]))
        replay.run()
        return _outputs(replay, first), first
    except NoRule:
        return None, first


def _outputs(replay, first):
    if isinstance(first, (tuple, list)):
        return type(first)(_outputs(replay, f) for f in first)
    if not isinstance(first, _Tensor):
        raise NoRule("a non-Tensor output")
    value, batched = replay.env.get(id(first), (first, False))
    if value is first and id(first) in replay.trace.created:
        raise NoRule("an output made outside dispatch")
    if not batched:
        value = _F().broadcast_to(value, (replay.size,) + tuple(first.shape))
    return value


def grad_call(meta, args, sliced, axes, size):
    """`vmap(grad(f, positions))`: `(per-example gradients or None, slice-0 result)`, each
    gradient with the batch at 0."""
    from cellgrad.autodiff import grad

    f, grad_position, grad_fn = meta
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    if not _usable() or _jit_hook.recording():
        return None, UNSET  # under an outer gradient: VMAP_MATMUL is first-order only
    trace, first = _traced(grad_fn, sliced)
    if trace.bad or trace.grads != 1 or len(trace.roots) != 1:
        return None, first
    try:
        full = _batched_inputs(args, axes, size, broadcast=set(positions))
        env = _bind(trace, sliced, axes, full)
        root = trace.roots[0]
        loss = next((r for *_, r in trace.events if isinstance(r, _Tensor)
                     and r._node is root[0] and r._slot == root[1]), None)
        if loss is None or loss.shape != ():
            raise NoRule("the differentiated output is not a scalar op result")

        def total(*batched):
            env.update({id(s): (b, a is not None or i in positions)
                        for i, (s, a, b) in enumerate(zip(sliced, axes, batched))
                        if isinstance(s, _Tensor)})
            replay = _Replay(trace, env, size, _watched(
                sliced, [a is not None or i in positions for i, a in enumerate(axes)]))
            replay.run()
            value, is_batched = replay.env[id(loss)]
            if not is_batched:
                raise NoRule("the loss does not depend on the batch")
            return _F().sum(value)

        got = grad(total, grad_position)(*full)
        return got, first
    except NoRule:
        return None, first


# ---- batching rules ----


def _align(vals, rank):
    """Batched operands padded with unit axes after the batch to logical rank `rank`, so
    they broadcast against unbatched ones as their slices did."""
    F = _F()
    out = []
    for v, b in vals:
        if b and v.ndim - 1 < rank:
            v = F.reshape(v, (v.shape[0],) + (1,) * (rank - v.ndim + 1) + tuple(v.shape[1:]))
        out.append(v)
    return tuple(out)


def _elementwise(op, inputs, vals, attrs, result):
    return apply(op, _align(vals, result.ndim), attrs or None)


def _shared(t):
    """Whether a batched Tensor is one array seen by every example (batch stride 0)."""
    d = t._data
    return isinstance(d, np.ndarray) and d.ndim > 0 and d.strides[0] == 0 and d.shape[0] > 1


def _vmm_fwd(a, b):
    """(B, m, k) @ (B, k, n) where at most one side is shared (batch stride 0)."""
    bsz, m, _ = a.shape
    n = b.shape[2]
    if a.strides[0] == 0:  # one GEMM: (B n, k) @ (k, m)
        out = (b.transpose(0, 2, 1).reshape(bsz * n, -1) @ a[0].T).reshape(bsz, n, m)
        out = out.transpose(0, 2, 1)
    elif b.strides[0] == 0:
        out = (a.reshape(bsz * m, -1) @ b[0]).reshape(bsz, m, n)
    else:
        out = np.matmul(a, b)
    return np.ascontiguousarray(out), (a, b)


def _outer(x, y):
    """Per-example x @ y for (B, p, q) @ (B, q, r); q == 1 is a broadcast product."""
    if x.shape[2] == 1:
        return x * y
    return np.matmul(x, y)


def _vmm_bwd(ctx, g):
    a, b = ctx.saved
    bsz, m, _ = a.shape
    n = b.shape[2]
    need_a, need_b = ctx.needs_input_grad
    ga = gb = None
    if need_a:
        if b.strides[0] == 0:
            ga = (g.reshape(bsz * m, n) @ b[0].T).reshape(a.shape)
        else:
            ga = _outer(g, b.transpose(0, 2, 1))
    if need_b:
        if a.strides[0] == 0:
            gb = (g.transpose(0, 2, 1).reshape(bsz * n, m) @ a[0]).reshape(bsz, n, -1)
            gb = gb.transpose(0, 2, 1)
        else:
            gb = _outer(a.transpose(0, 2, 1), g)
    return ga, gb


VMAP_MATMUL = Op("vmap_matmul", _vmm_fwd, _vmm_bwd, PROMOTE_NONE, True)


def _matmul(op, inputs, vals, attrs, result):
    F = _F()
    (a, ba), (b, bb) = vals
    ra, rb = inputs[0].ndim, inputs[1].ndim
    if ra == 0 or rb == 0:
        raise NoRule("matmul of a scalar")
    if ba and bb:
        if ra > 2 or rb > 2:
            return apply(op, _align(vals, max(ra, rb)))
        size = a.shape[0]
        a3 = F.reshape(a, (size, 1, a.shape[1])) if ra == 1 else a
        b3 = F.reshape(b, (size, b.shape[1], 1)) if rb == 1 else b
        if _shared(a3) and _shared(b3):
            out = apply(op, (a3, b3))
        elif _shared(a3) or _shared(b3):
            out = apply(VMAP_MATMUL, (a3, b3))
        else:
            out = apply(op, (a3, b3))
        return F.reshape(out, (size,) + tuple(result.shape))
    if ba:  # a (B, ..., k) against an unbatched b
        if ra >= 2 and rb > ra:
            a = _align(vals[:1], rb)[0]
        return apply(op, (a, b))
    # b batched, a not
    if rb == 1:
        if ra == 1:
            return apply(op, (b, a))
        if ra == 2:  # W @ x per example: x (B, k) @ W.T, one GEMM
            return apply(op, (b, F.transpose(a, (1, 0))))
        raise NoRule("matmul of a stacked matrix and a batched vector")
    if ra > rb:
        b = _align(vals[1:], ra)[0]
    return apply(op, (a, b))


def _dense(op, inputs, vals, attrs, result):
    F = _F()
    (x, bx), (w, bw) = vals[:2]
    if not bw:
        if not bx:
            raise NoRule("dense with only a batched bias")
        out = apply(op, (x, w))
    else:
        wt = F.transpose(w, (0, 2, 1))
        from cellgrad.ops._linalg import MATMUL

        mm = _matmul(MATMUL, (inputs[0], _Shape(inputs[1].shape[::-1])), [(x, bx), (wt, True)],
                     {}, _Shape(result.shape))
        out = mm
    if len(vals) > 2 and vals[2][0] is not None:
        out = out + _align([vals[2]], result.ndim)[0]
    return out


class _Shape:
    """Stands for a traced Tensor where only its shape is needed."""

    def __init__(self, shape):
        self.shape, self.ndim = tuple(shape), len(shape)


def _single_batched(vals):
    if not vals[0][1] or any(b for _, b in vals[1:]):
        raise NoRule("a batched argument other than the first")


def _shift_axes(axis, rank):
    """Logical `axis` (an int, a sequence or None: every axis) on the batched value."""
    if axis is None:
        return tuple(range(1, rank + 1))
    if rank == 0:
        raise NoRule("an axis of a scalar")
    if isinstance(axis, (tuple, list)):
        return tuple(_shift_axes(int(a), rank)[0] for a in axis)
    return (int(axis) % rank + 1,)


def _param(inputs, attrs, pos, name, default=None):
    if attrs and name in attrs:
        return attrs[name]
    return inputs[pos] if len(inputs) > pos else default


def _with(vals, attrs, pos, name, value):
    """Call arguments (inputs, attrs) with the batched values and `name` set to `value`."""
    ins = [v for v, _ in vals]
    attrs = dict(attrs) if attrs else {}
    if name in attrs:
        attrs[name] = value
    else:
        if len(ins) < pos:
            raise NoRule(f"'{name}' after arguments not given")
        if len(ins) == pos:
            ins.append(value)
        else:
            ins[pos] = value
    return tuple(ins), attrs or None


def _reduction(op, inputs, vals, attrs, result):
    _single_batched(vals)
    rank = inputs[0].ndim
    axes = _shift_axes(_param(inputs, attrs, 1, "axis"), rank)
    ins, at = _with(vals, attrs, 1, "axis", axes)
    return apply(op, ins, at)


def _axis_op(name, pos):
    def rule(op, inputs, vals, attrs, result):
        _single_batched(vals)
        axis = _param(inputs, attrs, pos, name)
        if axis is None:
            raise NoRule(f"'{op.name}' without an axis")
        rank = result.ndim if op.name == "expand_dims" else inputs[0].ndim
        ins, at = _with(vals, attrs, pos, name, _shift_axes(axis, rank)[0])
        return apply(op, ins, at)

    return rule


def _reshape(op, inputs, vals, attrs, result):
    _single_batched(vals)
    size = vals[0][0].shape[0]
    ins, at = _with(vals, attrs, 1, "shape", (size,) + tuple(result.shape))
    return apply(op, ins, at)


def _transpose(op, inputs, vals, attrs, result):
    _single_batched(vals)
    perm = _param(inputs, attrs, 1, "perm")
    rank = inputs[0].ndim
    perm = tuple(range(rank))[::-1] if perm is None else tuple(int(p) % rank for p in perm)
    ins, at = _with(vals, attrs, 1, "perm", (0,) + tuple(p + 1 for p in perm))
    return apply(op, ins, at)


def _squeeze(op, inputs, vals, attrs, result):
    _single_batched(vals)
    axis = _param(inputs, attrs, 1, "axis")
    rank = inputs[0].ndim
    if axis is None:
        axis = tuple(i for i, d in enumerate(inputs[0].shape) if d == 1)
    axes = _shift_axes(axis, rank) if rank else ()
    ins, at = _with(vals, attrs, 1, "axis", axes)
    return apply(op, ins, at)


def _broadcast_to(op, inputs, vals, attrs, result):
    _single_batched(vals)
    x = _align(vals, result.ndim)[0]
    size = x.shape[0]
    ins, at = _with([(x, True)], attrs, 1, "shape", (size,) + tuple(result.shape))
    return apply(op, ins, at)


def _basic_index(index):
    parts = index if isinstance(index, tuple) else (index,)
    return all(p is None or p is Ellipsis or isinstance(p, (int, slice)) and
               not isinstance(p, bool) for p in parts)


def _getitem(op, inputs, vals, attrs, result):
    _single_batched(vals)
    index = _param(inputs, attrs, 1, "index")
    if not _basic_index(index):
        raise NoRule("an advanced index")
    parts = index if isinstance(index, tuple) else (index,)
    ins, at = _with(vals, attrs, 1, "index", (slice(None),) + parts)
    return apply(op, ins, at)


def _cross_entropy(op, inputs, vals, attrs, result):
    """Per example: the loss with reduction 'none' over (B, ...), reduced per example."""
    F = _F()
    (x, bx), (t, bt) = vals
    if attrs.get("weight") is not None or attrs.get("cd") is None:
        raise NoRule("cross_entropy with class weights")
    rank = inputs[0].ndim
    size = (x if bx else t).shape[0]
    if not bx:
        x = F.broadcast_to(x, (size,) + tuple(x.shape))
    if not bt:
        t = F.broadcast_to(t, (size,) + tuple(t.shape))
    cd = attrs["cd"] % rank + 1
    reduction = attrs["reduction"]
    loss = apply(op, (x, t), {**attrs, "cd": cd, "reduction": "none"})
    if reduction == "none":
        return loss
    axes = tuple(range(1, loss.ndim))
    total = F.sum(loss, axes) if axes else loss
    if reduction == "sum":
        return total
    if attrs.get("probs"):
        count = max(1, int(np.prod(inputs[0].shape)) // inputs[0].shape[attrs["cd"] % rank])
        return total / count
    keep = F.cast(F.ne(t, attrs["ignore_index"]), x.dtype)
    return total / (F.sum(keep, axes) if axes else keep)


def _softmax_like(op, inputs, vals, attrs, result):
    _single_batched(vals)
    rank = inputs[0].ndim
    axis = attrs.get("axis")
    if isinstance(axis, (tuple, list)):
        axis = tuple(_shift_axes(axis, rank))
    else:
        axis = _shift_axes(axis, rank)[0]
    return apply(op, (vals[0][0],), {**attrs, "axis": axis})


def _joined(op, inputs, vals, attrs, result):
    """stack/concat: unbatched pieces broadcast over the batch, the axis shifted past it."""
    F = _F()
    size = next(v.shape[0] for v, b in vals if b)
    pieces = tuple(v if b else F.broadcast_to(v, (size,) + tuple(v.shape)) for v, b in vals)
    rank = result.ndim if op.name == "stack" else inputs[0].ndim
    axis = _shift_axes(attrs.get("axis", 0), rank)[0]
    return apply(op, pieces, {**attrs, "axis": axis})


_UNARY = ("abs acos acosh asin asinh atan atanh ceil cos cosh exp exp2 expm1 floor identity "
          "isfinite isinf isnan log log10 log1p log2 logical_not neg reciprocal rint round "
          "rsqrt sigmoid sign sin sinh sqrt square tan tanh trunc cast relu relu6 gelu silu "
          "softplus leaky_relu Erf special_erfc")
_BINARY = ("add sub mul div maximum minimum pow atan2 eq ne lt le gt ge logical_and logical_or "
           "logical_xor xdivy xlogy squared_difference fmax fmin hypot floor_div floor_mod mod "
           "logaddexp div_no_nan mul_no_nan copysign where clamp")

RULES = {name: _elementwise for name in (_UNARY + " " + _BINARY).split()}
RULES.update({
    "matmul": _matmul, "dense": _dense,
    "sum": _reduction, "mean": _reduction, "prod": _reduction, "amax": _reduction,
    "amin": _reduction,
    "softmax": _softmax_like, "log_softmax": _softmax_like,
    "cumsum": _axis_op("axis", 1), "expand_dims": _axis_op("axis", 1),
    "reshape": _reshape, "transpose": _transpose, "squeeze": _squeeze,
    "broadcast_to": _broadcast_to, "stack": _joined, "concat": _joined, "getitem": _getitem,
    "cross_entropy": _cross_entropy,
})
