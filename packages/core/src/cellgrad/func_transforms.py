"""Functional transforms beyond `grad`: `vmap`, `vjp`, `jvp`, `jacrev`, `jacfwd`.

Mirrors MindSpore 2.10's (also under `ops`). All are built on the tape's reverse mode:
- `vmap` traces the function on the first slice and replays it on the whole batch with a
  batching rule per op (`_vmap_batched`; `vmap(grad(f))` gives per-example gradients that
  way); a function that reads values, draws random numbers or runs an op without a rule runs
  once per slice instead, the results stacked;
- `vjp` differentiates with the cotangent as sensitivity;
- `jvp` uses the double-vjp identity `J v = d/du <J^T u, v>` (exact: `J^T u` is linear in u),
  so it needs the ops' backward rules to be differentiable, as higher-order `grad` does;
- `jacrev` stacks one vjp per output element; `jacfwd` gives the same Jacobian (MindSpore's
  forward mode and reverse mode agree in value; here both walk the tape backwards).
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer as _TensorBase
from cellgrad._core._buffer import make_tensor
from cellgrad.autodiff import _check_fn, _check_positions, _run, grad

__all__ = ["vmap", "vjp", "jvp", "jacrev", "jacfwd"]


# ---- vmap ----


def vmap(fn, in_axes=0, out_axes=0):
    """Mirrors `mindspore.vmap`: `fn` mapped over an axis of its inputs (`in_axes`: an int,
    None or a structure matching the arguments), results stacked at `out_axes`."""

    def mapped(*args):
        from cellgrad import _vmap_batched

        if _is_cell_list(fn):
            return _vmap_ensemble(fn, args, in_axes, out_axes)
        axes = _broadcast_axes(in_axes, args, "in_axes")
        size = _mapped_size(args, axes)
        first = _vmap_batched.UNSET
        if size > 1:
            meta = getattr(fn, "_cg_vmap_grad", None)
            call = _vmap_batched.map_call if meta is None else _vmap_batched.grad_call
            target = fn if meta is None else (*meta, fn)
            batched, first = call(target, args, _slice_args(args, axes, 0), axes, size)
            if batched is not None:
                return _place_results(batched, out_axes, first)
        if first is _vmap_batched.UNSET:
            first = fn(*_slice_args(args, axes, 0))
        results = [first] + [fn(*_slice_args(args, axes, i)) for i in range(1, size)]
        return _stack_results(results, out_axes)

    return mapped


def _is_cell_list(fn):
    from cellgrad.nn.container import CellList

    return isinstance(fn, CellList)


def _vmap_ensemble(cells, args, in_axes, out_axes):
    """MindSpore's model ensembling: cell i of a CellList runs on slice i of the mapped
    arguments (every in_axes may be None: each cell then sees the same arguments)."""
    axes = _broadcast_axes(in_axes, args, "in_axes")
    n = len(cells)
    if any(a is not None for _, a in _leaves(args, axes)):
        size = _mapped_size(args, axes)
        if size != n:
            raise ValueError("If you want to execute the model ensembling parallel training, "
                             "please make sure the 'axis_size' in the scope of vmap consistent "
                             "with the cell size of the input 'CellList', otherwise, please do "
                             "not enter 'CellList' as the first argument, but we get axis_size: "
                             f"{size} and the cell size: {n}.")
    results = [cell(*_slice_args(args, axes, i)) for i, cell in enumerate(cells)]
    return _stack_results(results, out_axes)


def _place_results(batched, out_axes, first):
    """Batched results (batch at 0) with each batch moved to its `out_axes` entry; the
    checks and errors of `_stack_results`."""
    from cellgrad.ops import functional as F

    if isinstance(first, (tuple, list)):
        axes = _broadcast_axes(out_axes, tuple(first), "out_axes") \
            if not isinstance(out_axes, int) else (out_axes,) * len(first)
        return type(first)(_place_results(b, a, f) for b, a, f in zip(batched, axes, first))
    axis = _check_out_axis(out_axes, batched.ndim)
    if axis == 0:
        return batched
    perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, batched.ndim))
    return F.transpose(batched, perm)


def _check_out_axis(out_axes, ndim):
    """`out_axes` for one mapped output of rank `ndim` (batch included), made non-negative."""
    if out_axes is None:
        raise RuntimeError("For 'vmap', out_axes None cannot be given for a mapped output: "
                           "it is invalid that source is not None and dst is None.")
    if isinstance(out_axes, (tuple, list)) and len(out_axes) != 1:
        raise RuntimeError(f"The size of vmap's 'out_axes' should be equal to the result size: "
                           f"1, but got size: {len(out_axes)}.")
    if isinstance(out_axes, (tuple, list)) and isinstance(out_axes[0], int):
        out_axes = out_axes[0]  # MindSpore takes (axis,) for a single output too
    if isinstance(out_axes, (tuple, list)):
        raise RuntimeError(f"For 'vmap', out_axes {out_axes!r} does not match an output that "
                           "is a single Tensor.")
    if not -ndim <= out_axes < ndim:
        raise RuntimeError(f"For 'vmap', out_axes {out_axes} is out of range for an output of "
                           f"rank {ndim}.")
    return out_axes % ndim


def _broadcast_axes(axes, values, what):
    """`axes` expanded to the structure of `values` (a tuple of arguments)."""
    if axes is None or isinstance(axes, int):
        return tuple(_leaf_axes(axes, v) for v in values)
    if not isinstance(axes, (tuple, list)) or len(axes) != len(values):
        raise RuntimeError(f"For 'vmap', {what} {axes!r} must be an int, None or a tuple with "
                           f"one entry per argument ({len(values)}).")
    return tuple(_leaf_axes(a, v) if a is None or isinstance(a, int) else
                 _broadcast_axes(a, tuple(v), what) for a, v in zip(axes, values))


def _leaf_axes(axis, value):
    if isinstance(value, (tuple, list)):
        return tuple(_leaf_axes(axis, v) for v in value)
    return axis


def _mapped_size(args, axes):
    sizes = set()
    for value, axis in _leaves(args, axes):
        if axis is None:
            continue
        if not isinstance(value, _TensorBase):
            raise RuntimeError(f"For 'vmap', an argument mapped over axis {axis} must be a "
                               f"Tensor, but got {type(value).__name__}.")
        ndim = value.ndim
        if not -ndim <= axis < ndim:
            raise RuntimeError(f"For 'vmap', in_axes {axis} is out of range for an argument of "
                               f"shape {value.shape} (rank {ndim}).")
        sizes.add(value.shape[axis])
    if not sizes:
        raise RuntimeError("For 'vmap', in_axes must map at least one argument, but every "
                           "axis is None.")
    if len(sizes) > 1:
        raise RuntimeError(f"For 'vmap', the mapped axes of the arguments must have one size, "
                           f"but got sizes {sorted(sizes)}.")
    return sizes.pop()


def _leaves(values, axes):
    for v, a in zip(values, axes):
        if isinstance(v, (tuple, list)):
            yield from _leaves(v, a)
        else:
            yield v, a


def _slice_args(values, axes, i):
    out = []
    for v, a in zip(values, axes):
        if isinstance(v, (tuple, list)):
            out.append(type(v)(_slice_args(v, a, i)))
        elif a is None:
            out.append(v)
        else:
            index = (slice(None),) * (a % v.ndim) + (i,)
            out.append(v[index])
    return tuple(out)


def _stack_results(results, out_axes):
    from cellgrad.ops import functional as F

    first = results[0]
    if isinstance(first, (tuple, list)):
        axes = _broadcast_axes(out_axes, tuple(first), "out_axes") \
            if not isinstance(out_axes, int) else (out_axes,) * len(first)
        return type(first)(_stack_results([r[k] for r in results], axes[k])
                           for k in range(len(first)))
    if not isinstance(first, _TensorBase) and out_axes is not None \
            and not isinstance(out_axes, (tuple, list)):
        results = [make_tensor(np.asarray(r)) for r in results]
    ndim = results[0].ndim + 1 if isinstance(results[0], _TensorBase) else 1
    return F.stack(results, _check_out_axis(out_axes, ndim))


# ---- vjp / jvp ----


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def vjp(fn, *inputs, weights=None, has_aux=False):
    """Mirrors `mindspore.vjp`: `(outputs, vjp_fn)` (`(outputs, vjp_fn, aux)` with `has_aux`);
    `vjp_fn(v)` gives the gradients of `<outputs, v>` for every input (a tuple), then for the
    weights when given."""
    _check_fn("vjp", fn)
    _check_tensors(inputs)
    positions = tuple(range(len(inputs)))
    first = fn(*inputs)
    if has_aux:
        if not isinstance(first, tuple) or len(first) < 2:
            raise TypeError("For 'vjp' with has_aux=True, the function must return a tuple of "
                            f"at least two elements, got {type(first).__name__}.")
        outputs, aux = first[0], first[1] if len(first) == 2 else first[1:]
    else:
        outputs = first

    def vjp_fn(*v):
        sens = list(v[0]) if len(v) == 1 and isinstance(v[0], (tuple, list)) else list(v)
        _check_tensors(sens)
        ws = None if weights is None else list(_as_tuple(weights))
        _, in_grads, w_grads = _run(fn, inputs, {}, positions, ws, has_aux, sens)
        grads = tuple(in_grads[p] for p in positions)
        if weights is None:
            return grads
        return grads, tuple(w_grads)

    return (outputs, vjp_fn, aux) if has_aux else (outputs, vjp_fn)


def _check_tensors(values):
    if not all(isinstance(t, _TensorBase) for t in values):
        raise TypeError("The inputs type must be Tensor.")


def jvp(fn, inputs, v, has_aux=False):
    """Mirrors `mindspore.jvp`: `(outputs, J v)` (`(outputs, J v, aux)` with `has_aux`)."""
    _check_fn("jvp", fn)
    xs, vs = _as_tuple(inputs), _as_tuple(v)
    if len(xs) != len(vs):
        raise ValueError(f"For 'jvp', v must have one tangent per input ({len(xs)}), but got "
                         f"{len(vs)}.")
    for x, t in zip(xs, vs):
        if not isinstance(x, _TensorBase) or not isinstance(t, _TensorBase):
            raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
        if x.shape != t.shape:
            raise ValueError(f"For 'jvp', each input and its tangent must be Tensors of one "
                             f"shape, but got {_describe(x)} and {_describe(t)}.")
    xs = _distinct(xs)
    first = fn(*xs)
    outputs, aux = (first[0], first[1]) if has_aux else (first, None)
    outs = _as_tuple(outputs)
    positions = tuple(range(len(xs)))

    def linear(*us):  # <J^T u, v>, linear in u: its gradient in u is J v
        def pairing(*ins):  # <fn(ins), u>: its gradient in ins is J^T u, a function of u
            got = fn(*ins)
            total = None
            for o, u in zip(_as_tuple(got[0] if has_aux else got), us):
                term = (o * u).sum()
                total = term if total is None else total + term
            return total

        total = None
        for g, t in zip(_as_tuple(grad(pairing, positions)(*xs)), vs):
            term = (g * t).sum()
            total = term if total is None else total + term
        return total

    us = tuple(_zeros_like(o) for o in outs)
    tangents = grad(linear, tuple(range(len(us))))(*us)
    tangents = _as_tuple(tangents)
    result = tangents if isinstance(outputs, (tuple, list)) else tangents[0]
    return (outputs, result, aux) if has_aux else (outputs, result)


def _distinct(xs):
    """One Tensor at two positions is one variable to `grad`; jvp's inputs are separate
    variables (each has its own tangent), so repeats pass through an identity op."""
    from cellgrad.ops.functional import IDENTITY, apply

    seen, out = set(), []
    for x in xs:
        out.append(apply(IDENTITY, (x,)) if id(x) in seen else x)
        seen.add(id(x))
    return tuple(out)


def _describe(x):
    return f"Tensor of shape {x.shape}" if isinstance(x, _TensorBase) else type(x).__name__


# ---- Jacobians ----


def jacrev(fn, grad_position=0, has_aux=False):
    """Mirrors `mindspore.jacrev`: the Jacobian of `fn` in the inputs at `grad_position`
    (shape: output shape + input shape), by reverse mode."""
    return _jacobian(fn, grad_position, has_aux, "jacrev")


def jacfwd(fn, grad_position=0, has_aux=False):
    """Mirrors `mindspore.jacfwd`: the same Jacobian as `jacrev` (see the module docstring)."""
    return _jacobian(fn, grad_position, has_aux, "jacfwd")


def _jacobian(fn, grad_position, has_aux, name):
    positions = _check_positions(grad_position)
    single_position = isinstance(grad_position, int)

    def jac_fn(*args):
        args = _distinct(args)
        for p in positions:
            if p >= len(args):
                raise ValueError(f"For '{name}', grad_position {p} is out of range for "
                                 f"{len(args)} inputs.")
        first = fn(*args)
        outputs, aux = (first[0], first[1]) if has_aux else (first, None)
        outs = _as_tuple(outputs)
        per_output = []
        for k, out in enumerate(outs):
            rows = {p: [] for p in positions}
            for i in range(max(out.size, 1)):
                sens = [_zeros_like(o) for o in outs]
                flat = np.zeros(out.size, out.asnumpy().dtype)
                flat[i] = 1
                sens[k] = make_tensor(flat.reshape(out.shape), None, 0, out.dtype)
                _, in_grads, _ = _run(fn, args, {}, positions, None, has_aux, sens)
                for p in positions:
                    rows[p].append(in_grads[p].asnumpy())
            jac = tuple(make_tensor(np.stack(rows[p]).reshape(out.shape + args[p].shape))
                        for p in positions)
            per_output.append(jac[0] if single_position else jac)
        result = tuple(per_output) if isinstance(outputs, (tuple, list)) else per_output[0]
        return (result, aux) if has_aux else result

    return jac_fn


def _zeros_like(t):
    return make_tensor(np.zeros(t.shape, t.asnumpy().dtype), None, 0, t.dtype)
