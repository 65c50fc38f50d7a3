"""The autograd tape: nodes recorded by `_buffer.apply` and the iterative backward walk.

Recording happens only while a gradient transform (`cellgrad.grad` & co.) is running on this
thread and grad mode is on; both flags are C thread-locals, so checking them costs nothing.
"""

cimport cython
import numpy as np

from cellgrad._astype import astype as _astype
from cellgrad._core._small cimport G_SIGMOID, G_TANH, K_ADD, K_MUL, small_binary, small_grad, \
    small_neg

cdef extern from *:
    """
    static __thread int cg_grad_disabled = 0;
    static __thread int cg_record_depth = 0;
    """
    int cg_grad_disabled
    int cg_record_depth

cdef object ndarray = np.ndarray
cdef object _numpy = np
cdef long long _walk_counter = 0
cdef object _make_tensor = None     # (array, Node | None, slot) -> Tensor; set by configure()
cdef object _numpy_xp = None        # the array namespace over ndarrays, for first-order rules
cdef object _tensor_xp = None       # the array namespace over Tensors, for higher-order rules
# the running first-order walk's (pending edges, results, targets), for `Node.grad_into`
cdef tuple _into = None
cdef object _observer = None        # sees each backward rule run while set (cellgrad.observe)


def configure(make_tensor, numpy_xp, tensor_xp):
    """Install the Tensor constructor and the two array namespaces rules run with."""
    global _make_tensor, _numpy_xp, _tensor_xp
    _make_tensor = make_tensor
    _numpy_xp = numpy_xp
    _tensor_xp = tensor_xp


cdef bint recording() noexcept nogil:
    return cg_record_depth > 0 and not cg_grad_disabled


cdef int record_depth() noexcept nogil:
    return cg_record_depth if not cg_grad_disabled else 0


def set_backward_observer(observer):
    """Install the object whose `backward_begin(op)`/`backward_end(op)` bracket every backward
    rule the walk runs (or None); returns the previous one."""
    global _observer
    previous = _observer
    _observer = observer
    return previous


def is_grad_enabled():
    """Whether ops record on the tape when a gradient transform runs (thread-local)."""
    return not cg_grad_disabled


def set_grad_enabled(bint mode):
    """Set this thread's grad mode; returns the previous mode."""
    global cg_grad_disabled
    cdef bint previous = not cg_grad_disabled
    cg_grad_disabled = not mode
    return previous


def enter_recording():
    """Start recording for one gradient transform; returns the new nesting depth."""
    global cg_record_depth
    cg_record_depth += 1
    return cg_record_depth


def exit_recording():
    global cg_record_depth
    if cg_record_depth > 0:
        cg_record_depth -= 1


def recording_depth():
    """How many gradient transforms are recording on this thread (0 when grad mode is off)."""
    return record_depth()


@cython.freelist(512)
cdef class Node:
    """One recorded op on the tape; also the `ctx` its backward rule receives."""

    def __repr__(self):
        name = "Leaf" if self.op is None else self.op.name
        return f"<Node {name} inputs={len(self.next_nodes or ())}>"

    @property
    def name(self):
        return "Leaf" if self.op is None else self.op.name

    def grad_into(self, Py_ssize_t i):
        """An array this node's backward rule may compute input `i`'s gradient into (and
        return as that gradient), or None. Only a leaf with a `grad_buffer` whose whole
        gradient comes through this one edge of a first-order walk offers one."""
        if not 0 <= i < len(self.next_nodes):
            raise IndexError(f"For '{self.name}', grad_into({i}): the node has "
                             f"{len(self.next_nodes)} inputs.")
        if _into is None or self.needs_input_grad is None or not self.needs_input_grad[i]:
            return None
        c = self.next_nodes[i]
        pending = <dict>_into[0]
        if c is None or (<Node>c).grad_buffer is None or pending.get(c) != 1:
            return None
        if (<list>_into[1])[(<dict>_into[2])[c]] is not None:
            return None  # part of the gradient arrived already
        buffer = (<Node>c).grad_buffer
        dtype, shape = self.in_dtypes[i], self.in_shapes[i]
        if dtype is None or type(buffer) is not ndarray or buffer.dtype != dtype \
                or buffer.shape != shape:
            return None  # unknown or not this input's: the rule allocates as usual
        return buffer


cdef Node new_node(object op, tuple saved, tuple next_nodes, tuple next_slots,
                   tuple in_shapes, tuple in_dtypes, tuple out_meta, tuple saved_map):
    cdef Node n = Node.__new__(Node)
    n.op = op
    n.saved = saved
    n.next_nodes = next_nodes
    n.next_slots = next_slots
    n.in_shapes = in_shapes
    n.in_dtypes = in_dtypes
    n.out_meta = out_meta
    n.saved_map = saved_map
    return n


def leaf_node():
    """A capture point: a gradient transform collects the gradient arriving here."""
    return new_node(None, None, (), (), (), (), None, None)


cdef object _sum_to(object g, tuple shape, str opname):
    """Reduce a broadcast gradient `g` to `shape` (works on ndarrays and Tensors)."""
    cdef tuple gshape = tuple(g.shape)
    cdef Py_ssize_t lead = len(gshape) - len(shape), i
    if lead < 0:
        raise ValueError(
            f"For '{opname}', the backward rule returned a gradient of shape {gshape} for an "
            f"input of shape {shape}; expected a shape that broadcasts to the input's.")
    axes = list(range(lead))
    for i in range(len(shape)):
        if shape[i] == 1 and gshape[lead + i] != 1:
            axes.append(lead + i)
        elif shape[i] != gshape[lead + i]:
            raise ValueError(
                f"For '{opname}', the backward rule returned a gradient of shape {gshape} for "
                f"an input of shape {shape}; expected the input's shape.")
    if axes:
        g = g.sum(axis=tuple(axes))
    return g.reshape(shape)


cdef object _fit_numpy(object g, tuple shape, object dtype, str opname):
    if type(g) is not ndarray:
        g = _numpy.asarray(g)
    if g.shape != shape:
        g = _sum_to(g, shape, opname)
    if g.dtype is not dtype and g.dtype != dtype:
        if g.dtype.kind == "c" and dtype.kind != "c":
            g = g.real  # a real input's part of a complex cotangent (ops/_complex.py)
        g = _astype(g, dtype)  # a plugin's faster float16 loops where registered
    return g


cdef object _fit_tensor(object g, tuple shape, object dtype, str opname):
    if type(g) is ndarray or not hasattr(g, "_node"):
        g = _make_tensor(_numpy.asarray(g), None, 0)
    if shape is None:
        return g
    if tuple(g.shape) != shape:
        g = _sum_to(g, shape, opname)
    if g._data.dtype != dtype:
        g = g.astype(dtype)
    return g


cdef tuple _saved_as_tensors(Node node):
    """The saved values of `node` as Tensors wired into the graph (for create_graph)."""
    cdef list out = []
    cdef Py_ssize_t k
    if node.saved_map is None:
        raise RuntimeError(
            f"For '{node.op.name}', a higher-order gradient was requested through a node "
            f"recorded outside a nested gradient transform.")
    for k in range(len(node.saved)):
        v = node.saved[k]
        m = node.saved_map[k]
        if m is None:
            if type(v) is ndarray:
                v = _make_tensor(v, None, 0)
        elif m >= 0:
            v = _make_tensor(v, node.next_nodes[m], node.next_slots[m])
        else:
            v = _make_tensor(v, node, -1 - m)
        out.append(v)
    return tuple(out)


cdef list _discover(list roots, dict targets, long long token):
    """Iterative DFS from the roots: post-order of the nodes, each marked _needed."""
    cdef list order = []
    cdef list stack = []
    cdef Node node, child
    cdef object c
    cdef tuple nexts
    cdef unsigned long long mask
    cdef Py_ssize_t i
    for c in roots:
        node = <Node>c
        if node.op is None or node in targets or node._walk == token:
            continue
        node._walk = token
        node._iter = 0
        node._grad = None
        node._grads = None
        stack.append(node)
        while stack:
            node = <Node>stack[-1]
            nexts = node.next_nodes
            if node._iter < len(nexts):
                c = nexts[node._iter]
                node._iter += 1
                if c is None:
                    continue
                child = <Node>c
                if child.op is None or child._walk == token or child in targets:
                    continue
                child._walk = token
                child._iter = 0
                child._grad = None
                child._grads = None
                stack.append(child)
            else:
                stack.pop()
                mask = 0
                for i in range(len(nexts)):
                    c = nexts[i]
                    if c is None:
                        continue
                    child = <Node>c
                    if (child.op is not None and child._walk == token and child._needed) or \
                            child in targets:
                        mask |= (<unsigned long long>1) << min(i, 63)
                node._need_mask = mask
                node._needed = mask != 0
                order.append(node)
    return order


cdef object _builtin_backward(int rule, tuple saved, object g, tuple needs):
    """First-order rules of `cellgrad.ops._elementwise` (Op.rule), the same arithmetic as the
    Python rule they stand for, without its frame; keep the two in step. Small float arrays go
    through `_small`'s loops (numpy's results bit for bit), the rest through numpy."""
    if rule == 1:       # mul: saved (x, y)
        return (_mul(g, saved[1]) if needs[0] else None), (_mul(g, saved[0]) if needs[1] else None)
    if rule == 2:       # sub
        return g, (_neg(g) if needs[1] else None)
    if rule == 3:       # tanh: saved (out,); 1 - out² without a Python scalar operand
        out = saved[0]
        res = small_grad(G_TANH, g, out)
        return g - g * out * out if res is None else res
    if rule == 4:       # sigmoid: saved (out,)
        out = saved[0]
        res = small_grad(G_SIGMOID, g, out)
        if res is None:
            t = g * out
            res = t - t * out
        return res
    if rule == 5:       # neg
        return _neg(g)
    if rule == 6:       # exp: saved (out,)
        return _mul(g, saved[0])
    raise ValueError(f"unknown builtin rule {rule}")


cdef inline object _mul(object a, object b):
    res = small_binary(K_MUL, a, b)
    return a * b if res is None else res


cdef inline object _neg(object a):
    res = small_neg(a)
    return -a if res is None else res


cdef tuple _NEEDS_1 = ((False,), (True,))
cdef tuple _NEEDS_2 = ((False, False), (True, False), (False, True), (True, True))


cdef tuple _needs_tuple(unsigned long long mask, Py_ssize_t n):
    """`needs_input_grad` from the walk's bitmask (cached tuples for 1 and 2 inputs)."""
    if n == 1:
        return <tuple>_NEEDS_1[mask & 1]
    if n == 2:
        return <tuple>_NEEDS_2[mask & 3]
    return tuple([bool(mask & ((<unsigned long long>1) << min(i, 63))) for i in range(n)])


cdef inline object _accumulate(object old, object g):
    if old is None:
        return g
    res = small_binary(K_ADD, old, g)
    return old + g if res is None else res


cdef inline void _add_grad(Node node, Py_ssize_t slot, object g):
    """Accumulate `g` into output `slot` of `node` (fan-in sums)."""
    if node.out_meta is None:
        node._grad = _accumulate(node._grad, g)
        return
    if node._grads is None:
        node._grads = [None] * len(node.out_meta)
    node._grads[slot] = _accumulate(node._grads[slot], g)


cdef tuple _outputs_grads(Node node, list grads, bint create_graph):
    """Fill missing output grads of a multi-output node with zeros (unless its op takes them
    raw: then None stays None)."""
    cdef Py_ssize_t j
    if getattr(node.op, "raw_grads", False):
        return tuple(grads)
    for j in range(len(grads)):
        if grads[j] is None:
            shape, dtype = node.out_meta[j]
            z = _numpy.zeros(shape, dtype)
            grads[j] = _make_tensor(z, None, 0) if create_graph else z
    return tuple(grads)


cdef object _run_hooks(Node node, object gs):
    """Run `node.hooks` on its output gradients `gs`; each may return a replacement tuple.

    A hook removed by an earlier one during this walk is not run. `gs` is None for a node the
    walk reached without running it (no wanted gradient passes it, or none arrived): hooks
    are told so, and what they return is ignored.
    """
    for h in tuple(node.hooks):
        if h not in node.hooks:
            continue
        new = h(node, gs)
        if new is not None and gs is not None:
            gs = tuple(new)
    return gs


def pass_node(op, tuple inputs, tuple out_meta, list hooks):
    """A node recorded by hand whose output `i` hands its gradient to input `i`, with `hooks`.

    `inputs` are Tensors: their current place on the tape (`_node`, `_slot`) becomes the
    node's edges (none for a Tensor without one). `out_meta` is None for one output (then `op`
    must be a passthrough op), else `(shape, numpy dtype)` per output. Gradients are handed on
    unchanged (no broadcast reduction or cast). Recorded even when no input has an edge, so the
    hooks run wherever the walk reaches it. The cellgrad-hooks package uses it for the two ends
    of a Cell call: it re-points the call's own Tensors at the node instead of wrapping them.
    """
    cdef Py_ssize_t n = len(inputs), i
    cdef list nexts = [None] * n
    cdef list slots = [0] * n
    for i in range(n):
        nd = inputs[i]._node
        if nd is not None:
            nexts[i] = nd
            slots[i] = inputs[i]._slot
    cdef tuple unshaped = (None,) * n
    cdef Node node = new_node(op, (), tuple(nexts), tuple(slots), unshaped, unshaped, out_meta,
                              ())
    node.hooks = hooks
    return node


def run_backward(list roots, list root_slots, list root_grads, dict targets,
                 bint create_graph=False):
    """Walk the tape from `roots` back to `targets` (a dict Node -> result index).

    Returns a list with the gradient accumulated at each target (None where none arrived).
    Saved arrays are freed as each node's backward runs, unless `create_graph`, where rules
    run on Tensors (recorded) and the graph is kept for the next order.
    """
    global _into
    cdef tuple outer = _into  # a hook may run a walk of its own
    try:
        return _run_backward(roots, root_slots, root_grads, targets, create_graph)
    finally:
        _into = outer


cdef list _run_backward(list roots, list root_slots, list root_grads, dict targets,
                        bint create_graph):
    global _walk_counter, _into
    _walk_counter += 1
    cdef long long token = _walk_counter
    cdef list results = [None] * len(targets)
    cdef list order = _discover(roots, targets, token)
    # hooked or buffered targets -> edges still to deliver: hooks run once the last arrives
    cdef dict pending = _pending_edges(order, targets)
    _into = None if pending is None or create_graph else (pending, results, targets)
    cdef Node node, child
    cdef Py_ssize_t i, k, n_in
    cdef object g, g0 = None, res, op
    cdef list grads = None
    cdef bint single
    cdef int rule
    cdef tuple nexts, needs

    for k in range(len(roots)):
        node = <Node>roots[k]
        g = root_grads[k]
        if node in targets:
            i = targets[node]
            results[i] = _accumulate(results[i], g)
        elif node.op is not None and node._walk == token and node._needed:
            _add_grad(node, root_slots[k], g)

    for k in range(len(order) - 1, -1, -1):
        node = <Node>order[k]
        single = node.out_meta is None
        if single:
            g0 = node._grad
            node._grad = None
            if not node._needed or g0 is None:
                if node.hooks:
                    _run_hooks(node, None)
                continue
        else:
            grads = node._grads
            node._grads = None
            if not node._needed or grads is None:
                if node.hooks:
                    _run_hooks(node, None)
                continue
        op = node.op
        nexts = node.next_nodes
        n_in = len(nexts)
        needs = _needs_tuple(node._need_mask, n_in)
        node.needs_input_grad = needs
        if single:
            gs = (g0,) if node.hooks or create_graph else None
        else:
            gs = _outputs_grads(node, grads, create_graph)
        if node.hooks:
            gs = _run_hooks(node, gs)
            if single:
                g0 = gs[0]
        if _observer is not None:
            _observer.backward_begin(op)
        if create_graph:
            if op.first_order_only:
                raise RuntimeError(
                    f"For '{op.name}', the backward rule is first-order only: a higher-order "
                    f"gradient (grad of grad) through this op is not supported.")
            kept = node.saved
            node.saved = _saved_as_tensors(node)
            node.xp = _tensor_xp
            try:
                res = op.backward(node, *gs)
            finally:
                node.saved = kept
                node.xp = None
        elif single and op.passthrough:
            res = None
            node.saved = None
        else:
            rule = op.rule if single else 0
            if rule:
                res = _builtin_backward(rule, node.saved, g0, needs)
            else:
                node.xp = _numpy_xp
                res = op.backward(node, g0) if single else op.backward(node, *gs)
                node.xp = None
            node.saved = None
        if _observer is not None:
            _observer.backward_end(op)
        if res is None:
            pass        # passthrough: every input gets g0
        elif type(res) is not tuple:
            if type(res) is list:
                res = tuple(res)
            elif n_in == 1:
                res = (res,)
        if res is not None and len(res) != n_in:
            raise ValueError(
                f"For '{op.name}', the backward rule returned {len(res)} gradients; "
                f"expected {n_in} (one per input, None for no gradient).")
        for i in range(n_in):
            if not needs[i]:
                continue
            g = g0 if res is None else res[i]
            if g is None:
                continue
            shape = node.in_shapes[i]
            if create_graph:
                g = _fit_tensor(g, shape, node.in_dtypes[i], op.name)
            elif shape is None:
                if type(g) is not ndarray:
                    g = _numpy.asarray(g)
            else:
                g = _fit_numpy(g, shape, node.in_dtypes[i], op.name)
            child = <Node>nexts[i]
            # Nodes of this walk's graph were marked by _discover; anything else that is
            # needed is a target (a leaf or, in nested transforms, an alias node).
            if child._walk != token or child.op is None:
                k2 = targets[child]
                results[k2] = _accumulate(results[k2], g)
                if pending is not None and child in pending:
                    pending[child] -= 1
                    if pending[child] == 0:
                        del pending[child]
                        if child.hooks:
                            results[k2] = _run_hooks(child, (results[k2],))[0]
            else:
                _add_grad(child, node.next_slots[i], g)
    for c, i in targets.items():
        if (<Node>c).hooks and results[i] is not None and (pending is None or c in pending):
            results[i] = _run_hooks(<Node>c, (results[i],))[0]
    return results


cdef dict _pending_edges(list order, dict targets):
    """Per target with hooks or a `grad_buffer`, how many edges of this walk lead to it (None:
    no such target).

    A target's hooks run as soon as its gradient is complete, while the walk goes on (the
    distributed package starts a gradient's all-reduce there); one whose edges do not all
    deliver (a node no gradient reached) runs them at the end, as before. A buffer is offered
    (`Node.grad_into`) to an edge that is the only one left with nothing collected yet.
    """
    cdef dict pending = None
    cdef Node node
    for c in targets:
        if (<Node>c).hooks or (<Node>c).grad_buffer is not None:
            if pending is None:
                pending = {}
            pending[c] = 0
    if pending is None:
        return None
    for node in order:
        for c in node.next_nodes:
            if c is not None and c in pending:
                pending[c] += 1
    return pending


def is_debug_build():
    """Whether this core was compiled with CELLGRAD_CYTHON_DEBUG=1."""
    return DEBUG
