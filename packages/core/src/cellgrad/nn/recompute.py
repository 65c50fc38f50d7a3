"""`Cell.recompute()`: the cell's forward is run again in the backward walk instead of keeping
its intermediate arrays.

While a gradient transform records (first order), a recomputed cell runs `construct` with the
tape paused, so none of its ops keep saved arrays, and records one node whose inputs are the
call's Tensor arguments and the cell's trainable Parameters. Its backward runs `construct`
again on the same inputs, recording, walks that small tape with the gradients that arrived
and hands the input and Parameter gradients on; the small tape is freed at once. So a chain of
recomputed cells keeps only each cell's inputs alive between forward and backward.

The re-run sees the same random streams as the first run (`cellgrad.seeding`: the draw counts
are rewound), so dropout masks match when a seed is set. Parameters take fresh capture points
during the re-run, so their hooks and gradient buffers fire once, in the outer walk. Inside a
higher-order transform (grad of grad) the cell runs normally.

Limits (as `bprop`): only Tensors at the top level of the arguments and of a tuple/list output
are differentiated through the cell; a Tensor the cell reads from elsewhere that carries a
gradient (not a Parameter) gets none through it.
"""

import numpy as np

from cellgrad import seeding
from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.nn import bprop as _bprop
from cellgrad.ops._registry import Op, apply

__all__ = ["call"]


class _Call:
    """What one recompute node keeps: the call, not the arrays computed inside it."""

    __slots__ = ("cell", "args", "kwargs", "slots", "params", "draws", "template")

    def __init__(self, cell, args, kwargs, slots, params, draws, template):
        self.cell = cell
        self.args = args
        self.kwargs = kwargs
        self.slots = slots  # per Tensor input: ("arg", i) or ("kw", name)
        self.params = params
        self.draws = draws
        self.template = template


def _forward(*arrays, call, outs):
    return (outs if call.template[0] is not None else outs[0]), (call,)


def _draws():
    with seeding._lock:
        return dict(seeding._calls)


def _set_draws(draws):
    with seeding._lock:
        previous = dict(seeding._calls)
        seeding._calls.clear()
        seeding._calls.update(draws)
    return previous


def call(cell, args, kwargs):
    """Run `cell.construct` without saving its intermediates; record the recompute node."""
    slots = [("arg", i) for i, a in enumerate(args) if isinstance(a, TensorBuffer)]
    slots += [("kw", k) for k, v in kwargs.items() if isinstance(v, TensorBuffer)]
    draws = _draws()
    previous = _tape.set_grad_enabled(False)
    try:
        output = cell.construct(*args, **kwargs)
    finally:
        _tape.set_grad_enabled(previous)
    template, tensors = _bprop._flatten(output)
    if not tensors:
        return output
    params = tuple(p for p in cell.get_parameters() if p.requires_grad)
    c = _Call(cell, args, kwargs, slots, params, draws, template)
    inputs = tuple(args[k] if kind == "arg" else kwargs[k] for kind, k in slots)
    res = apply(_OP, inputs + params, {"call": c, "outs": tuple(t._data for t in tensors)})
    res = res if isinstance(res, tuple) else (res,)
    for r, t in zip(res, tensors):
        r._dtype = t._dtype
    return _bprop._rebuild(template, res, grads=False)


def _backward(ctx, *grads):
    c = ctx.saved[0]
    needs = ctx.needs_input_grad
    args, kwargs = list(c.args), dict(c.kwargs)
    capture = []
    for kind, k in c.slots:
        x = args[k] if kind == "arg" else kwargs[k]
        alias = make_tensor(x._data, _tape.leaf_node(), 0, x._dtype)
        if kind == "arg":
            args[k] = alias
        else:
            kwargs[k] = alias
        capture.append(alias._node)
    kept = [p._node for p in c.params]
    for p in c.params:
        p._node = _tape.leaf_node()
    capture += [p._node for p in c.params]
    draws = _set_draws(c.draws)
    d = c.cell.__dict__
    mixed = d.get("_mixed") is not None
    previous = _tape.set_grad_enabled(True)
    _tape.enter_recording()
    try:
        if mixed:  # Parameters read as cast copies, as in the first run (Cell._call_mixed)
            d["_mixed_active"] = d.get("_mixed_active", 0) + 1
        try:
            out = c.cell.construct(*args, **kwargs)
        finally:
            if mixed:
                d["_mixed_active"] -= 1
        _, tensors = _bprop._flatten(out)
        roots, slots, gs = [], [], []
        for t, g in zip(tensors, grads):
            if g is not None and t._node is not None:
                roots.append(t._node)
                slots.append(t._slot)
                gs.append(np.asarray(g, t._data.dtype))
        wanted = [node for i, node in enumerate(capture) if needs is None or needs[i]]
        targets = {node: i for i, node in enumerate(wanted)}
        results = _tape.run_backward(roots, slots, gs, targets, False)
    finally:
        _tape.exit_recording()
        _tape.set_grad_enabled(previous)
        _set_draws(draws)
        for p, node in zip(c.params, kept):
            p._node = node
    return tuple(results[targets[node]] if node in targets else None for node in capture)


# One node per recomputed call; not in the op registry (like a Cell's bprop op).
_OP = Op("Cell.recompute", _forward, _backward, first_order_only=True)
