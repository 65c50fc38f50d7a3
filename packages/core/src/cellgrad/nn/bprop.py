"""Custom backward for a Cell (`Cell.bprop`), recorded as one tape node.

While a gradient transform records, a cell whose class defines `bprop` runs `construct` with the
tape paused and records one node (an `Op` per Cell class) whose backward calls `bprop` with
Tensors. The node's inputs are the call's bound arguments, flattened in MindSpore's order
(positional, defaults, `*args`, keywords, `**kwargs`), followed by the cell's Parameters
(`internal_params` when set, else all of them), so the engine does the dtype casting, fan-in
and the walk as for any op.

What `bprop` receives depends on its signature:

* Parameters named like construct's inputs, `out` and `dout` are bound by name, so a bprop
  may name fewer inputs, take them keyword-only or leave out `out` (cellgrad extension; for
  MindSpore's usual `bprop(self, x, y, out, dout)` this is the same as by position).
* Other names follow MindSpore's positional form `bprop(self, *inputs, out, dout)`: every
  bound input, then `out` and `dout`; so does `bprop(self, *args)`. A tuple output gives
  tuple `out`/`dout`.

What it returns: one gradient per input it received (a bare Tensor for one); `None` is a zero
gradient; gradients are cast to the input's dtype and must have its shape or one it broadcasts
to (summed back by the engine; MindSpore drops the size-1 axes there). Trailing non-Tensor
inputs may be left out, or the gradients may cover exactly the Tensor inputs (MindSpore wants
one per bound input). `(input_grads, {Parameter_or_name: grad})` gives Parameter gradients,
with or without `internal_params` (MindSpore ignores the dict without it). A Parameter whose
gradient is requested but that `bprop` does not give gets zero, like MindSpore, plus a
`BpropParameterWarning` (MindSpore is silent).

Limits: only the top level of a tuple/list output is differentiable, and a Tensor nested inside
a tuple/list argument gets no gradient through the cell. `bprop_debug` changes nothing: bprop
always runs as Python.
"""

import inspect
import numbers
import warnings

import numpy as np

from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops._registry import Op, apply

__all__ = ["BpropParameterWarning", "call", "make_op"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


class BpropParameterWarning(UserWarning):
    """A Parameter used by a bprop cell gets a zero gradient because bprop gives none."""


class _Call:
    """What one bprop node keeps for its backward (its output arrays live in `saved`)."""

    __slots__ = ("cell", "names", "values", "params", "template", "out_dtypes")

    def __init__(self, cell, names, values, params, template, out_dtypes):
        self.cell = cell
        self.names = names
        self.values = values
        self.params = params
        self.template = template
        self.out_dtypes = out_dtypes


def make_op(cls):
    """The Op whose backward runs `cls.bprop` (not in the op registry: it is per class)."""
    return Op(f"{cls.__name__}.bprop", _forward, _backward)


def _forward(*arrays, call, outs):
    return (outs if call.template[0] is not None else outs[0]), (call, *outs)


def call(cell, args, kwargs):
    """Run `cell.construct` with the tape paused and record the bprop node."""
    csig, bsig = _signatures(cell)
    names, values = _bind(csig, cell, args, kwargs)
    previous = _tape.set_grad_enabled(False)
    try:
        output = cell.construct(*args, **kwargs)
    finally:
        _tape.set_grad_enabled(previous)
    template, tensors = _flatten(output)
    if not tensors:
        return output
    params = _node_params(cell)
    c = _Call(cell, names, values, params, template, tuple(t._dtype for t in tensors))
    outs = tuple(t._data for t in tensors)
    res = apply(type(cell)._bprop_op, tuple(values) + params, {"call": c, "outs": outs})
    res = res if isinstance(res, tuple) else (res,)
    for r, t in zip(res, tensors):
        r._dtype = t._dtype
    return _rebuild(template, res, grads=False)


def _signatures(cell):
    cls = type(cell)
    sigs = cls.__dict__.get("_bprop_signatures")
    if sigs is None:
        sigs = (inspect.signature(cell.construct), inspect.signature(cell.bprop))
        cls._bprop_signatures = sigs
    return sigs


def _bind(sig, cell, args, kwargs):
    """Flatten the call's arguments as MindSpore passes them to bprop: (names, values)."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"For '{type(cell).__name__}.construct': {e}") from None
    bound.apply_defaults()
    names, values = [], []
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            names.extend(f"{name}[{i}]" for i in range(len(value)))
            values.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            names.extend(value)
            values.extend(value.values())
        else:
            names.append(name)
            values.append(value)
    return names, values


def _node_params(cell):
    internal = getattr(cell, "internal_params", None)
    if internal is None:
        return tuple(cell.get_parameters())
    return tuple(internal)


def _flatten(output):
    """(template, Tensors): template is (container type or None, slots); a slot is an int
    (index of a Tensor output) or ('const', value) for a non-Tensor element."""
    if isinstance(output, TensorBuffer):
        return (None, None), [output]
    if isinstance(output, (tuple, list)):
        slots, tensors = [], []
        for o in output:
            if isinstance(o, TensorBuffer):
                slots.append(len(tensors))
                tensors.append(o)
            else:
                slots.append(("const", o))
        return (type(output), slots), tensors
    return (None, None), []


def _rebuild(template, items, grads):
    kind, slots = template
    if kind is None:
        return items[0]
    parts = [items[s] if isinstance(s, int) else (None if grads else s[1]) for s in slots]
    if kind is tuple or kind is list:
        return kind(parts)
    if hasattr(kind, "_fields"):
        return kind(*parts)
    return kind(parts)


def _backward(ctx, *grads):
    c = ctx.saved[0]
    outs = ctx.saved[1:]
    higher = any(isinstance(g, TensorBuffer) for g in grads)
    if higher:
        out_t, dout_t = list(outs), list(grads)
    else:
        out_t = [make_tensor(a, None, 0, d) for a, d in zip(outs, c.out_dtypes)]
        dout_t = [None if g is None else make_tensor(np.asarray(g), None, 0, d)
                  for g, d in zip(grads, c.out_dtypes)]
    if getattr(c.cell, "materialize_grads", True):
        # outputs no gradient reached get zeros (a custom Function may ask for None instead)
        for i, g in enumerate(dout_t):
            if g is None:
                o = out_t[i]
                dout_t[i] = make_tensor(np.zeros(o.shape, o._data.dtype), None, 0, o._dtype)
    out = _rebuild(c.template, out_t, grads=False)
    dout = _rebuild(c.template, dout_t, grads=True)
    pos, kw, received = _bprop_args(c, out, dout)
    # First order: the rule's ops need no tape. Higher order: they are the next graph.
    previous = _tape.set_grad_enabled(higher and _tape.is_grad_enabled())
    try:
        res = c.cell.bprop(*pos, **kw)
    finally:
        _tape.set_grad_enabled(previous)
    return _gradients(ctx, c, res, received, higher)


_backward.raw_grads = True  # the walk leaves missing output gradients None: filled above


def _bprop_args(c, out, dout):
    """(positional, keyword, received input indices) for calling bprop.

    A bprop whose parameters all name construct inputs, 'out' or 'dout' is bound by name;
    otherwise MindSpore's positional form (inputs..., out, dout) is used when the count fits.
    """
    params = [p for p in _signatures(c.cell)[1].parameters.values()
              if p.kind is not inspect.Parameter.VAR_KEYWORD]
    n = len(c.values)
    index = {name: i for i, name in enumerate(c.names)}
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return [*c.values, out, dout], {}, list(range(n))
    bindable = all(p.name in index or p.name in ("out", "dout") or p.default is not p.empty
                   for p in params)
    if not bindable and len(params) == n + 2 and all(p.kind in _POSITIONAL for p in params):
        return [*c.values, out, dout], {}, list(range(n))
    pos, kw, received = [], {}, []
    for p in params:
        if p.name in index:
            value = c.values[index[p.name]]
            received.append(index[p.name])
        elif p.name in ("out", "dout"):
            value = out if p.name == "out" else dout
        elif p.default is not p.empty:
            value = p.default
        else:
            raise TypeError(
                f"For '{_name(c)}.bprop', the parameter '{p.name}' is neither an input of "
                f"construct ({', '.join(c.names)}) nor 'out'/'dout'. Use MindSpore's form "
                f"bprop(self, <{n} inputs>, out, dout) or name a subset of the inputs.")
        if p.kind in _POSITIONAL:
            pos.append(value)
        else:
            kw[p.name] = value
    return pos, kw, received


def _name(c):
    return type(c.cell).__name__


def _describe(c):
    parts = []
    for name, v in zip(c.names, c.values):
        if isinstance(v, TensorBuffer):
            parts.append(f"{name}: Tensor(shape={tuple(v.shape)}, dtype={v.dtype})")
        else:
            parts.append(f"{name}: {type(v).__name__}")
    return ", ".join(parts)


def _split(res):
    if isinstance(res, tuple) and len(res) == 2 and isinstance(res[1], dict):
        ins, wdict = res
        return (tuple(ins) if isinstance(ins, (tuple, list)) else (ins,)), wdict
    if isinstance(res, (tuple, list)):
        return tuple(res), None
    return (res,), None


def _match(c, ins, received):
    """Pairs (input index, gradient) for the gradients bprop returned."""
    k = len(ins)
    if k >= len(received):
        return list(zip(received, ins))  # extra gradients are ignored, as in MindSpore
    values = c.values
    if not any(isinstance(values[i], TensorBuffer) for i in received[k:]):
        return list(zip(received, ins))
    tensors = [i for i in received if isinstance(values[i], TensorBuffer)]
    if k == len(tensors):
        return list(zip(tensors, ins))
    raise ValueError(
        f"For '{_name(c)}.bprop', expected {len(received)} gradients (one per input it "
        f"receives; only non-Tensor inputs may be left out), but got {k}. Inputs: "
        f"{_describe(c)}.")


def _gradients(ctx, c, res, received, higher):
    ins, wdict = _split(res)
    n = len(c.values)
    out = [None] * (n + len(c.params))
    for i, g in _match(c, ins, received):
        x = c.values[i]
        if isinstance(x, TensorBuffer):
            out[i] = _checked(c, g, x, c.names[i], higher)
    for key, g in (wdict or {}).items():
        j = _param_index(c, key)
        out[n + j] = _checked(c, g, c.params[j], c.params[j].name, higher)
    needs = ctx.needs_input_grad or ()
    for j, p in enumerate(c.params):
        if out[n + j] is None and n + j < len(needs) and needs[n + j]:
            warnings.warn(
                f"Cell '{_name(c)}' has a custom bprop that gives no gradient for Parameter "
                f"'{p.name}'; it gets zero. Return (input_grads, {{param: grad}}) from bprop to "
                "give one.", BpropParameterWarning, stacklevel=2)
    return tuple(out)


def _param_index(c, key):
    for j, p in enumerate(c.params):
        if p is key or (isinstance(key, str) and p.name == key):
            return j
    if isinstance(key, str):
        for path, p in c.cell.parameters_and_names():
            if path == key:
                for j, q in enumerate(c.params):
                    if q is p:
                        return j
    shown = key.name if hasattr(key, "name") else repr(key)
    raise ValueError(
        f"For '{_name(c)}.bprop', the gradient dict names {shown}, which is not one of the "
        f"cell's bprop parameters ({', '.join(p.name for p in c.params) or 'none'}).")


def _checked(c, g, x, name, higher):
    """`g` as an array (Tensor for higher order) of `x`'s shape; None stays None."""
    if g is None:
        return None
    if isinstance(g, TensorBuffer):
        arr = g if higher else g._data
    elif isinstance(g, (numbers.Number, np.ndarray, np.generic)):
        arr = np.asarray(g)
        if higher:
            arr = make_tensor(arr)
    else:
        raise TypeError(f"For '{_name(c)}.bprop', the gradient for '{name}' must be a Tensor, a "
                        f"number or None, but got {type(g).__name__}.")
    gshape, xshape = tuple(arr.shape), tuple(x.shape)
    # A broadcast gradient is summed back to the input's shape by the engine, as for any op.
    if gshape != xshape and _broadcast(xshape, gshape) != gshape:
        raise RuntimeError(
            f"For '{_name(c)}.bprop', the gradient for '{name}' has shape {gshape} (dtype "
            f"{_dtype_name(g)}), but the input has shape {xshape} (dtype {x.dtype}); a bprop "
            "gradient must have the input's shape or one that the input broadcasts to.")
    return arr


def _broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


def _dtype_name(g):
    if isinstance(g, TensorBuffer):
        return g.dtype
    return f"numpy {g.dtype}" if isinstance(g, (np.ndarray, np.generic)) else type(g).__name__
