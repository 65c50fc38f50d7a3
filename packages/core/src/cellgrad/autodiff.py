"""Gradient transforms with MindSpore's result structure: `grad`, `value_and_grad`,
`GradOperation` (semantics §9). The forward runs once; the tape it records is walked once."""

import numpy as np

from cellgrad import _jit_hook, grad_mode
from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops.functional import IDENTITY, apply


class GradPositionError(ValueError, RuntimeError):
    """A `grad_position` that does not exist (MindSpore raises RuntimeError; we also are a
    ValueError, the usual Python type for a bad argument value)."""


def _check_positions(grad_position):
    """MindSpore's `_convert_grad_position_type`: an int or a tuple of distinct ints >= 0 (bools
    count as ints, lists are refused); () is refused when the gradient function runs."""
    if grad_position is None:
        return None
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        for p in grad_position:
            if not isinstance(p, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if p < 0:
                raise ValueError("The element in grad_position must be >= 0.")
        return tuple(int(p) for p in grad_position)
    if isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        return (int(grad_position),)
    raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")


def _check_fn(api, fn):
    """MindSpore checks `fn` when the transformed function is called."""
    if not callable(fn):
        raise TypeError(f"For '{api}', the fn should be callable, but got {type(fn).__name__}.")


def _check_weights(weights, api="grad"):
    """MindSpore's weights: a Tensor (usually a Parameter) or a list/tuple of them; a Tensor
    that is not a Parameter gets a zero gradient, as in MindSpore."""
    if weights is None:
        return None, False
    single = isinstance(weights, TensorBuffer)
    if not single and not isinstance(weights, (list, tuple)):
        # MindSpore's exact message (programs print it)
        raise TypeError("The weights you provided is expected to be a tensor, or a list or "
                        f"tuple. but got {weights}")
    ws = (weights,) if single else tuple(weights)
    for i, w in enumerate(ws):
        if not isinstance(w, TensorBuffer):
            # MindSpore: RuntimeError "The pointer[tensor] is null."
            raise RuntimeError(f"For '{api}', every entry of 'weights' must be a Tensor; entry "
                               f"{i} is a {type(w).__name__}.")
    return ws, single


def _targets(inputs, positions, nested):
    """Fresh capture points for the differentiated inputs; the function sees the aliases.

    One Tensor passed at several positions is one capture point, seen at all of them: as in
    MindSpore, its gradient is the total derivative with respect to that Tensor.
    """
    aliases = list(inputs)
    nodes, by_id = {}, {}
    for p in positions or ():
        x = inputs[p]
        if not isinstance(x, TensorBuffer):
            continue
        alias = by_id.get(id(x))
        if alias is None:
            if nested and x._node is not None:
                alias = apply(IDENTITY, (x,))
            else:
                alias = make_tensor(x._data, _tape.leaf_node(), 0, x._dtype)
                if x._node is not None and x._node.hooks:  # Tensor.register_hook on the input
                    alias._node.hooks = x._node.hooks
            by_id[id(x)] = alias
        aliases[p] = alias
        nodes[p] = alias
    if by_id:
        for i, x in enumerate(inputs):
            if id(x) in by_id:
                aliases[i] = by_id[id(x)]
    return aliases, nodes


def _output_pairs(out, sens):
    """(Tensor output, its sensitivity or None) for every Tensor in `out`.

    As MindSpore's PyNative grad: lists, tuples and dict values are walked; Python scalars,
    strings and None in the output are constants (no gradient flows from them), so a function
    returning only constants gives zero gradients. `sens` is the list `_split_sens` makes:
    one entry per element of a tuple/list output, else one for the whole output.
    """
    pairs = []
    if sens is None:
        _walk(out, None, pairs)
    elif isinstance(out, (tuple, list)):
        for o, s in zip(out, sens):
            _walk(o, s, pairs)
    else:
        _walk(out, sens[0] if sens else None, pairs)
    return pairs


def _walk(o, s, pairs):
    if isinstance(o, TensorBuffer):
        pairs.append((o, s))
    elif isinstance(o, (tuple, list)):
        ss = s if isinstance(s, (tuple, list)) and len(s) == len(o) else (None,) * len(o)
        for oi, si in zip(o, ss):
            _walk(oi, si, pairs)
    elif isinstance(o, dict):
        # a dict sensitivity pairs by order: its keys may be other objects (Tensor keys)
        if isinstance(s, dict) and len(s) == len(o):
            ss = list(s.values())
        elif isinstance(s, (tuple, list)) and len(s) == len(o):
            ss = s
        else:
            ss = (None,) * len(o)
        for oi, si in zip(o.values(), ss):
            _walk(oi, si, pairs)


def _sens_like(t, nested):
    ones = np.ones(t.shape, t._data.dtype)
    return make_tensor(ones, None, 0, t._dtype) if nested else ones


def _run(fn, args, kwargs, positions, weights, has_aux, sens=None):
    """Run `fn` recording, walk the tape; returns (output, input grads, weight grads)."""
    nested = _tape.recording_depth() >= 1
    inputs = list(args) + list(kwargs.values())
    if positions == ():
        raise GradPositionError("grad_position should not be empty when grad by position!")
    for p in positions or ():
        if p >= len(inputs):
            raise GradPositionError(
                f"Position index {p} is exceed input size.")
    previous = _tape.set_grad_enabled(True)
    _tape.enter_recording()
    try:
        aliases, alias_of = _targets(inputs, positions, nested)
        new_args = aliases[: len(args)]
        new_kwargs = dict(zip(kwargs.keys(), aliases[len(args):]))
        # The capture points before the call: an in-place write inside `fn` moves a Tensor's
        # node to the write's node, which is not where its gradient arrives.
        in_nodes = {p: alias._node for p, alias in alias_of.items()}
        used = weights if isinstance(weights, _UsedParams) else None
        if used is not None:
            weights = used.cell.trainable_params()
        w_nodes = [w._node for w in weights or ()]
        tracer = _jit_hook.tracer
        if tracer is not None:
            tracer.grad_begin([(a, inputs[p]) for p, a in alias_of.items()] +
                              [(w, w) for w in weights or ()])
        out = fn(*new_args, **new_kwargs)
        # a Parameter frozen during the forward (requires_grad=False) gets zeros, as MindSpore
        w_nodes = [None if getattr(w, "requires_grad", True) is False else node
                   for w, node in zip(weights or (), w_nodes)]
        if has_aux:
            if not isinstance(out, tuple) or len(out) < 2:
                raise TypeError("For 'grad' with has_aux=True, the function must return a tuple "
                                f"of at least two elements, got {type(out).__name__}.")
            pairs = _output_pairs(out[0], sens)
        else:
            pairs = _output_pairs(out, sens)
        if used is not None:
            weights, w_nodes = _used_in_order(weights, w_nodes,
                                              [o._node for o, _ in pairs if o._node is not None])
        targets = {}
        for node in in_nodes.values():
            targets.setdefault(node, len(targets))
        for node in w_nodes:
            if node is not None:
                targets.setdefault(node, len(targets))
        roots, slots, grads, given = [], [], [], []
        for o, s in pairs:
            if o._node is None:
                continue
            roots.append(o._node)
            slots.append(o._slot)
            grads.append(_sens_like(o, nested) if s is None else _sens_value(s, o, nested))
            given.append(s)
        results = _tape.run_backward(roots, slots, grads, targets, nested)
    finally:
        _tape.exit_recording()
        _tape.set_grad_enabled(previous)

    def result_for(node, like, weight=False):
        g = results[targets[node]] if node in targets else None
        if g is None and weight and node is not None and node.hooks:
            g = _hooks_on_zeros(node, like, nested)
        if g is None:
            return make_tensor(np.zeros(like.shape, like._data.dtype), None, 0, like._dtype)
        if isinstance(g, TensorBuffer):
            return _conj_complex(g)
        if g.dtype.kind == "c":  # the tape's complex cotangent -> MindSpore's convention
            g = np.conj(g)
        if g.dtype != like._data.dtype:  # a float rule's gradient of an integer input
            g = g.astype(like._data.dtype)
        elif not g.flags.writeable:
            g = g.copy()
        return make_tensor(g, None, 0, like._dtype)

    in_grads = {}
    for p in positions or ():
        x = inputs[p]
        in_grads[p] = result_for(in_nodes[p], x) if p in alias_of else ()
    w_grads = [result_for(node, w, True) for node, w in zip(w_nodes, weights or ())]
    if tracer is not None:
        tracer.grad_end(list(zip(roots, slots)), grads, targets,
                        [(targets.get(in_nodes[p]), in_grads[p]) for p in alias_of] +
                        [(targets.get(n), g) for n, g in zip(w_nodes, w_grads)], given)
    if not nested:
        out = _detach(out)
    return out, in_grads, w_grads


def _check_not_no_grad():
    if grad_mode.in_no_grad():
        raise RuntimeError("In no_grad context, you can not calculate gradient")


def _hooks_on_zeros(node, like, nested):
    """A requested weight no gradient reached: its hooks still run, on zeros (MindSpore), and
    what they return is its gradient."""
    z = np.zeros(like.shape, like._data.dtype)
    gs = (make_tensor(z, None, 0, like._dtype) if nested else z,)
    for h in tuple(node.hooks):
        if h in node.hooks:
            new = h(node, gs)
            if new is not None:
                gs = tuple(new)
    return gs[0]


class _UsedParams:
    """The weights of `GradOperation(get_by_list=True)` called without any: the Cell's
    trainable Parameters that its forward used, in the order it first used them (MindSpore)."""

    def __init__(self, cell):
        self.cell = cell


def _used_in_order(params, nodes, roots):
    """(params, their nodes) reachable from `roots`, ordered as the forward used them: a
    post-order walk visits an op's inputs left to right before the op."""
    by_node = {}
    for p, n in zip(params, nodes):
        if n is not None:
            by_node.setdefault(n, p)
    order, seen = [], set()
    stack = [(r, False) for r in reversed(roots)]
    while stack:
        node, done = stack.pop()
        if done:
            if node in by_node:
                order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        for child in reversed(node.next_nodes or ()):
            if child is not None and child not in seen:
                stack.append((child, False))
    return [by_node[n] for n in order], order


def _sens_value(s, o, nested):
    if nested and isinstance(s, TensorBuffer) and s.shape == o.shape \
            and s._data.dtype == o._data.dtype and s._data.dtype.kind != "c":
        return s  # kept on the tape: the gradient is differentiable in the sensitivity too
    arr = s._data if isinstance(s, TensorBuffer) else np.asarray(s, dtype=o._data.dtype)
    if arr.ndim == 0 and o.shape != ():  # a scalar sensitivity fills the output's shape
        arr = np.full(o.shape, arr, dtype=o._data.dtype)
    if arr.shape != o.shape:
        raise ValueError(f"For 'GradOperation' with sens_param=True, the sens shape "
                         f"{arr.shape} must equal the output shape {o.shape}.")
    if arr.dtype.kind == "c":  # MindSpore's convention -> the tape's (see ops._complex)
        arr = np.conj(arr)
    return make_tensor(arr, None, 0, o._dtype) if nested else arr


def _conj_complex(g):
    """A complex gradient Tensor (higher orders) conjugated on the tape, as ops._complex
    explains; real ones as they are."""
    if g._data.dtype.kind != "c":
        return g
    from cellgrad.ops._complex import conj

    return conj(g)


def _detach(out):
    if isinstance(out, TensorBuffer):
        return out if out._node is None else make_tensor(out._data, None, 0, out._dtype)
    if isinstance(out, tuple):
        return tuple(_detach(o) for o in out)
    if isinstance(out, list):
        return [_detach(o) for o in out]
    return out


def _structure(positions, int_position, weights, single_weight, in_grads, w_grads,
               return_ids):
    # as MindSpore, an input that is not a Tensor (a Python scalar, a tuple) has no gradient
    # and no place in the result
    tensor_positions = [p for p in positions or () if isinstance(in_grads[p], TensorBuffer)]
    if return_ids:
        ins = tuple((p, in_grads[p]) for p in tensor_positions)
        ws = tuple((w.name, g) for w, g in zip(weights or (), w_grads))
    else:
        ins = tuple(in_grads[p] for p in tensor_positions)
        ws = tuple(w_grads)
    if positions is not None and len(ins) == 1:
        ins = ins[0]
    if single_weight:
        ws = ws[0]
    if positions is None:
        return ws
    if weights is None:
        return ins
    return ins, ws


def _checked(grad_position, weights):
    """Positions are checked when the transform is made, weights when it runs (as MindSpore)."""
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    return _check_positions(grad_position)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
         sens_param=False):
    """Mirrors `mindspore.grad`: a function returning the gradients of `fn`'s output.

    Tuple outputs are summed (sens of ones for each) unless `has_aux`, where only the first
    output is differentiated and the result is `(grads, (aux, ...))`. With `sens_param` the
    last argument is the sensitivity: the gradient of the output (a tuple for tuple outputs).
    """
    positions = _checked(grad_position, weights)
    int_position = isinstance(grad_position, int)

    def grad_fn(*args, **kwargs):
        _check_fn("grad", fn)
        ws, single = _check_weights(weights, "grad")
        args, sens = _split_sens(args, sens_param)
        _check_not_no_grad()
        out, in_grads, w_grads = _run(fn, args, kwargs, positions, ws, has_aux, sens)
        g = _structure(positions, int_position, ws, single, in_grads, w_grads, return_ids)
        if has_aux:
            return g, tuple(out[1:])
        return g

    if weights is None and not (has_aux or return_ids or sens_param):
        grad_fn._cg_vmap_grad = (fn, grad_position)  # vmap batches the gradient (_vmap_batched)
    return grad_fn


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """Mirrors `mindspore.value_and_grad`: `(value, grads)`; with `has_aux` the value is the
    whole output tuple; with `sens_param` the last argument is the output's sensitivity."""
    positions = _checked(grad_position, weights)
    int_position = isinstance(grad_position, int)

    def value_and_grad_fn(*args, **kwargs):
        _check_fn("value_and_grad", fn)
        ws, single = _check_weights(weights, "value_and_grad")
        args, sens = _split_sens(args, sens_param)
        _check_not_no_grad()
        out, in_grads, w_grads = _run(fn, args, kwargs, positions, ws, has_aux, sens)
        return out, _structure(positions, int_position, ws, single, in_grads, w_grads,
                               return_ids)

    return value_and_grad_fn


def _split_sens(args, sens_param):
    """(args, sens list or None): with `sens_param` the last argument is the sensitivity."""
    if not sens_param:
        return args, None
    if not args:
        raise TypeError("With sens_param=True the last argument must be the sensitivity, but no "
                        "arguments were given.")
    *args, s = args
    return tuple(args), list(s) if isinstance(s, (tuple, list)) else [s]


class GradOperation:
    """Mirrors `mindspore.ops.GradOperation(get_all, get_by_list, sens_param)`."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list),
                            ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' should be bool, but got "
                                f"{type(value).__name__}")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list:
            _check_weights(weights, "GradOperation")

        def after_grad(*args, **kwargs):
            _check_grad_fn(fn)
            ws = None
            if self.get_by_list:
                # no weights: the Parameters the Cell's forward used (first use first), none
                # for a function (MindSpore)
                if weights is None:
                    ws = _UsedParams(fn) if _is_cell(fn) else ()
                else:
                    ws, _ = _check_weights(weights, "GradOperation")
            sens = None
            if self.sens_param:
                if "sens" in kwargs:
                    s = kwargs.pop("sens")
                elif args:
                    *args, s = args
                else:
                    raise TypeError("GradOperation(sens_param=True): the last argument must "
                                    "be the sensitivity, but no arguments were given.")
                sens = list(s) if isinstance(s, (tuple, list)) else [s]
            n = len(args) + len(kwargs)
            positions = tuple(range(n)) if self.get_all else (0,) if args else ()
            # no inputs is no input gradients here (`grad_position=()` is refused by `grad`)
            _check_not_no_grad()
            out, in_grads, w_grads = _run(fn, tuple(args), kwargs, positions or None, ws, False,
                                          sens)
            ins = tuple(in_grads[p] for p in positions if isinstance(in_grads[p], TensorBuffer))
            if self.get_by_list and self.get_all:
                return ins, tuple(w_grads)
            if self.get_by_list:
                return tuple(w_grads)
            if self.get_all:
                return ins
            return ins[0] if ins else ()

        return after_grad


def _is_cell(fn):
    from cellgrad.nn.cell import Cell

    return isinstance(fn, Cell)


def _check_grad_fn(fn):
    """MindSpore checks the function when the gradient function runs; its graph compiler says
    it differently from PyNative."""
    if callable(fn):
        return
    from cellgrad import context

    if context.get_context("mode") == context.GRAPH_MODE:
        raise RuntimeError("For 'GradOperation', the first argument must be a 'Function' or "
                           f"'Cell', but got {type(fn).__name__}")
    raise TypeError(f"The fn should be callable, but got {type(fn).__name__}")
