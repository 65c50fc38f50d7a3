"""Backward hooks of a Cell call, on two tape nodes at the ends of the call.

While a gradient transform records a call of a cell with backward hooks, the call gets an
input node and an output node (`_tape.pass_node`): each hands gradients through unchanged and
carries a hook. The call's own Tensors are re-pointed at these nodes - the inputs for the
duration of `construct` and the forward hooks, the outputs for good - instead of being wrapped
in new Tensors, so `construct` receives the very objects it was called with (`is` checks and
in-place updates keep working). Only a Tensor passed twice, and an output that is one of the
inputs, a Parameter, a leaf or a constant, are handed on as a new Tensor sharing the data.

In the backward walk the output node runs first: the backward-pre hooks see (and may replace)
`grad_output`. The input node runs after every op of the call: the backward hooks see
`grad_input` - the gradients of the call's Tensor inputs through this call only, None where no
wanted gradient depends on them - and `grad_output`, and may replace `grad_input`. MindSpore
2.10 puts keyword Tensor arguments in neither; here they follow the positional ones.
"""

from cellgrad._core._buffer import TensorBuffer, make_tensor

from cellgrad._core import _tape
from cellgrad.common.tensor import Tensor
from cellgrad.ops._registry import Op, pass_gradient
from cellgrad_hooks.forward import live, run_always_called, run_forward, run_forward_pre
from cellgrad_hooks.invoke import (
    call_in_backward,
    cell_hook,
    check_grad,
    hook_name,
    to_grad,
    to_tensor,
)

__all__ = ["is_boundary_hook", "run_recorded"]


def _unused_forward(*arrays):
    raise RuntimeError("a Cell hook boundary node is recorded by hand, never applied")


def _pass_all(ctx, *grads):
    return grads


_ONE = Op("CellBackwardHook", _unused_forward, pass_gradient)
_MANY = Op("CellBackwardHook", _unused_forward, _pass_all)


class _Call:
    """One recorded call of a hooked cell: what its two boundary nodes' hooks share."""

    __slots__ = ("cell", "backward", "in_meta", "out_meta", "grad_output", "recorded")

    def __init__(self, cell, backward):
        self.cell = cell
        self.backward = backward  # the cell had backward hooks at the call (not just pre ones)
        self.in_meta = ()   # (shape, dtype) per Tensor input
        self.out_meta = ()  # (shape, dtype) per Tensor output
        self.grad_output = None  # set by the output node, consumed by the input node
        self.recorded = False  # the walk records a higher order: hooks run recorded

    def output_hook(self, node, gs):
        """At the output node: backward-pre hooks on grad_output, which is kept for the
        backward hooks (MindSpore passes them the replaced one)."""
        if gs is None:
            return None
        cell = self.cell
        table = cell.__dict__.get("_hooks")
        recorded = self.recorded = isinstance(gs[0], TensorBuffer)
        grad_output = tuple(to_tensor(g, m[1]) for g, m in zip(gs, self.out_meta))
        changed = False
        if table is not None and table.backward_pre:
            for _, e in live(table.backward_pre):
                ret = call_in_backward(cell_hook(cell, "backward pre", e.fn), e.fn, cell,
                                       grad_output, recorded=recorded)
                if ret is not None:
                    grad_output = self._checked(ret, self.out_meta, "backward pre", e.fn,
                                                "output")
                    changed = True
        self.grad_output = grad_output
        if self.backward and not self.in_meta:  # no Tensor input, so no input node: run here
            self._run_backward_hooks(None, recorded)
        if changed:
            return tuple(to_grad(g, recorded) for g in grad_output)
        return None

    def input_hook(self, node, gs):
        """At the input node: backward hooks on (grad_input, grad_output)."""
        if self.grad_output is None:
            return None  # no gradient reached the call's outputs: MindSpore runs none
        if gs is None:
            self._run_backward_hooks(None, self.recorded)
            return None
        recorded = isinstance(gs[0], TensorBuffer)
        needs = node.needs_input_grad
        grad_input = tuple(to_tensor(g, m[1]) if needs[i] else None
                           for i, (g, m) in enumerate(zip(gs, self.in_meta)))
        grad_input = self._run_backward_hooks(grad_input, recorded)
        if grad_input is None:
            return None
        return tuple(to_grad(g, recorded) for g in grad_input)

    def _run_backward_hooks(self, grad_input, recorded):
        """Run the cell's backward hooks; returns the replaced grad_input, or None."""
        cell = self.cell
        grad_output, self.grad_output = self.grad_output, None
        table = cell.__dict__.get("_hooks")
        if table is None or not table.backward:
            return None
        if grad_input is None:
            grad_input = (None,) * len(self.in_meta)
        changed = False
        for _, e in live(table.backward):
            ret = call_in_backward(cell_hook(cell, "backward", e.fn), e.fn, cell, grad_input,
                                   grad_output, recorded=recorded)
            if ret is not None:
                grad_input = self._checked(ret, self.in_meta, "backward", e.fn, "grad input")
                changed = True
        return grad_input if changed else None

    def _checked(self, ret, meta, kind, fn, size_of):
        """A hook's replacement gradients: MindSpore's size rule, then shapes and dtypes."""
        if not isinstance(ret, tuple):  # a bare value counts as one (a list too, as in MindSpore)
            ret = (ret,)
        n = len(ret)
        if n != len(meta):
            expect = "grad input" if size_of == "grad input" else "output"
            raise TypeError(
                f"The {kind} hook return value size is {n} not equal to expect {expect} size "
                f"{len(meta)}. (Cell '{type(self.cell).__name__}', hook '{hook_name(fn)}'; "
                f"return a tuple with one gradient per "
                f"{'Tensor input' if size_of == 'grad input' else 'output'}.)")
        what = f"For '{type(self.cell).__name__}', the {kind} hook '{hook_name(fn)}': gradient"
        return tuple(check_grad(g, shape, dtype, f"{what} {i}")
                     for i, (g, (shape, dtype)) in enumerate(zip(ret, meta)))


def run_recorded(table, cell, args, kwargs):
    """A hooked call while a gradient transform records: hooks, construct and the boundary."""
    rec = _Call(cell, bool(table.backward))
    called = set()
    output = None
    repointed = ()
    try:
        if table.forward_pre:
            args, kwargs = run_forward_pre(table, cell, args, kwargs)
        if table.backward:
            args, kwargs, repointed = _enter(rec, args, kwargs)
        output = cell._run_construct(args, kwargs)
        if table.forward:
            output = run_forward(table, cell, args, kwargs, output, called)
        return _leave(rec, output, repointed)
    except Exception:
        run_always_called(table, cell, args, kwargs, output, called)
        raise
    finally:
        _restore(repointed)


def _enter(rec, args, kwargs):
    """Re-point the Tensor arguments at a new input node; returns (args, kwargs, repointed)."""
    seen = set()
    tensors = []

    def take(v):
        if not isinstance(v, TensorBuffer):
            return v
        if id(v) in seen:  # the same Tensor twice: each argument gets its own gradient
            v = make_tensor(v._data, v._node, v._slot, v._dtype)
        seen.add(id(v))
        tensors.append(v)
        return v

    args = tuple([take(a) for a in args])
    if kwargs:
        kwargs = {k: take(v) for k, v in kwargs.items()}
    if not tensors:
        return args, kwargs, ()
    rec.in_meta = tuple((t.shape, t._dtype) for t in tensors)
    node = _new_node(tensors, rec.input_hook)
    repointed = []
    for i, t in enumerate(tensors):
        repointed.append((t, t._node, t._slot, node, i))
        t._node = node
        t._slot = i
    return args, kwargs, repointed


def _restore(repointed):
    for t, old_node, old_slot, node, i in repointed:
        if t._node is node and t._slot == i:  # not moved on by an in-place update
            t._node = old_node
            t._slot = old_slot


def _leave(rec, output, repointed):
    """Re-point the Tensor outputs at a new output node; returns the output to hand on."""
    if isinstance(output, TensorBuffer):
        items, container = [output], None
    elif isinstance(output, (tuple, list)):
        items, container = list(output), type(output)
    else:
        return output
    own = {id(r[0]) for r in repointed}
    tensors = []
    for k, o in enumerate(items):
        if not isinstance(o, TensorBuffer):
            continue
        nd = o._node
        if nd is None or nd.op is None or id(o) in own or type(o) is not Tensor:
            # an input, a Parameter, a leaf, a constant or a repeat: hand on a new Tensor, so
            # re-pointing it changes nothing that outlives this call
            o = make_tensor(o._data, nd, o._slot, o._dtype)
            items[k] = o
        own.add(id(o))
        tensors.append(o)
    if not tensors:
        return output
    rec.out_meta = tuple((t.shape, t._dtype) for t in tensors)
    node = _new_node(tensors, rec.output_hook)
    for j, t in enumerate(tensors):
        t._node = node
        t._slot = j
    if container is None:
        return items[0]
    if hasattr(container, "_fields"):
        return container(*items)
    return container(items)


def is_boundary_hook(hook):
    """Whether a tape-node hook is a Cell boundary's (Tensor hooks are put before it)."""
    return getattr(hook, "__func__", None) in (_Call.output_hook, _Call.input_hook)


def _new_node(tensors, hook):
    if len(tensors) == 1:
        return _tape.pass_node(_ONE, tuple(tensors), None, [hook])
    meta = tuple((t.shape, t._data.dtype) for t in tensors)
    return _tape.pass_node(_MANY, tuple(tensors), meta, [hook])
