"""Capture: one eval-mode run of `net(*inputs)` under a `cellgrad.observe` observer, recorded
as a `Graph` (cellgrad op names, attributes, shapes, dtypes, Cell scopes)."""

import numpy as np

import cellgrad as ms
from cellgrad import observe
from cellgrad_jit.ir import Graph, Node, Value

__all__ = ["capture"]


class _Recorder(observe.Observer):
    def __init__(self, graph, root, params):
        self.graph, self.root = graph, root
        self.values = {}  # id(Tensor) -> Value
        self.keep = []  # the Tensors seen, so that their ids stay theirs
        self.params = params  # [(name, Parameter)]
        self.scopes, self.counts = [], {}
        self.depth = 0  # > 0 inside an op (its own dispatches are its business)
        self.counter = 0

    # ---- scopes: MindSpore's `Default/fc1-Dense/...` ----

    def cell_begin(self, cell, args, kwargs):
        if not self.scopes:
            self.scopes.append((cell, "Default"))
            return
        parent, path = self.scopes[-1]
        attr = next((k for k, c in parent.name_cells().items() if c is cell), None)
        label = type(cell).__name__ if attr is None else f"{attr}-{type(cell).__name__}"
        self.scopes.append((cell, f"{path}/{label}"))

    def cell_end(self, cell, result):
        self.scopes.pop()

    def cell_abort(self, cell):
        self.scopes.pop()

    # ---- ops ----

    def op_begin(self, op, inputs, attrs):
        self.depth += 1

    def op_abort(self, op):
        self.depth -= 1

    def op_end(self, op, inputs, attrs, result):
        self.depth -= 1
        if self.depth:
            return
        scope = self.scopes[-1][1] if self.scopes else "Default"
        key = (scope, op.name)
        k = self.counts[key] = self.counts.get(key, -1) + 1
        ins = [self.value_of(t) if isinstance(t, ms.Tensor) else t for t in inputs]
        node_attrs = {name: self.attr_value(a) for name, a in (attrs or {}).items()}
        results = result if isinstance(result, tuple) else (result,)
        outs = []
        for r in results:
            if not isinstance(r, ms.Tensor):
                raise TypeError(f"export: op '{op.name}' in {scope} returned "
                                f"{type(r).__name__}; only Tensor results can be captured.")
            self.counter += 1
            v = Value(str(self.counter), "node", r.shape, r.dtype)
            self.values[id(r)] = v
            self.keep.append(r)
            outs.append(v)
        node = Node(op.name, ins, node_attrs, outs, scope, f"{scope}/{op.name}-op{k}")
        for v in outs:
            v.producer = node
        self.graph.nodes.append(node)

    def value_of(self, t):
        v = self.values.get(id(t))
        if v is not None:
            return v
        if isinstance(t, ms.Parameter):
            v = self.graph.params.get(t.name)
            if v is None:
                v = Value(t.name, "param", t.shape, t.dtype, t.asnumpy().copy())
                self.graph.params[t.name] = v
        else:
            v = Value(f"const{len(self.graph.consts)}", "const", t.shape, t.dtype,
                      t.asnumpy().copy())
            self.graph.consts.append(v)
        self.values[id(t)] = v
        self.keep.append(t)
        return v

    def attr_value(self, a):
        """An attribute that is a view of a Parameter's data (BatchNorm's moving statistics) or
        of a Tensor of the graph (an embedding's ids) becomes that Value: back ends keep it a
        named weight or a computed input instead of baking in this run's numbers."""
        if not isinstance(a, np.ndarray) or not a.size:
            return a
        for name, p in self.params:
            data = p.asnumpy()
            if data.size == a.size and np.shares_memory(data, a):
                if name not in self.graph.params:
                    self.graph.params[name] = Value(name, "param", p.shape, p.dtype,
                                                    data.copy())
                return self.graph.params[name]
        for t in self.keep:
            data = t.asnumpy()
            if data.shape == a.shape and np.shares_memory(data, a):
                return self.values[id(t)]
        # A converted copy of an input or op result (gather's indices as intp): the same
        # numbers in the same shape are taken for that value, not for a constant of this run.
        for t in self.keep:
            v = self.values[id(t)]
            if v.kind in ("input", "node") and tuple(t.shape) == a.shape and \
                    a.dtype.kind in "iub" and np.array_equal(t.asnumpy(), a):
                return v
        return a.copy()


def _flatten(out):
    """The Tensors of a (nested) tuple result, in order (LSTM's (output, (h, c)))."""
    if isinstance(out, (tuple, list)):
        return [t for item in out for t in _flatten(item)]
    return [out]


def capture(net, *inputs, dynamic_batch=False, name=None):
    """Run `net(*inputs)` once in eval mode under an observer and return its `Graph`.

    A Tensor input whose first dimension is unknown (`Tensor(shape=[None, n], ...)`) or 0
    or `dynamic_batch=True` marks the batch dimension (0) of every input dynamic; a 0-sized
    batch is traced at size 2. A dynamic batch is traced twice (batch b and b + 1): the runs
    must dispatch the same ops, and a constant whose shape follows the batch (an RNN's zero
    initial state) must be filled with one value; `graph.batch_consts` {id(Value): axis}
    lists those, and `graph.dynamic` {id(Value): {axis: size at batch b + 1}} the dimensions
    that change with the batch.
    """
    name = name or type(net).__name__
    if not inputs:
        raise ValueError(f"export: '{name}' needs at least one input Tensor to trace.")
    traced = []
    for i, t in enumerate(inputs):
        if not isinstance(t, ms.Tensor):
            raise TypeError(f"export: input {i} must be a Tensor, but got "
                            f"{type(t).__name__}.")
        shape = tuple(t.shape)  # a placeholder's: -1 for None, (-2,) for an unknown rank
        if shape == (-2,):
            raise ValueError(f"export: input {i} is a placeholder of unknown rank "
                             f"(shape=None); give its shape, with None for the batch.")
        if any(d <= 0 for d in shape[1:]):
            raise ValueError(f"export: input {i} has shape {list(shape)}; only the first "
                             f"(batch) dimension may be dynamic (None).")
        if shape and shape[0] <= 0:
            dynamic_batch = True
            t = ms.Tensor(np.ones((2,) + shape[1:], t.dtype.np_dtype), dtype=t.dtype)
        traced.append(t)
    if dynamic_batch:
        for i, t in enumerate(traced):
            if not t.shape:
                raise ValueError(f"export: input {i} is a scalar; 'dynamic_batch' needs every "
                                 f"input to have a batch dimension.")
        if len({t.shape[0] for t in traced}) != 1:
            raise ValueError(f"export: with a dynamic batch every input's first dimension is "
                             f"the batch, but they are {[t.shape[0] for t in traced]}.")
    graph = _trace(net, traced, name, dynamic_batch)
    graph.batch_consts, graph.dynamic = {}, {}
    if dynamic_batch:
        bigger = [ms.Tensor(np.concatenate([t.asnumpy(), t.asnumpy()[:1]]), dtype=t.dtype)
                  for t in traced]
        try:
            other = _trace(net, bigger, name, True)
        except Exception as e:
            raise ValueError(f"export: '{name}' fails at batch size {graph.batch + 1} "
                             f"({type(e).__name__}: {e}), so it cannot be exported with a "
                             f"dynamic batch; export it with a fixed input shape.") from e
        _compare_batches(graph, other)
    return graph


def _trace(net, traced, name, dynamic_batch):
    graph = Graph(name)
    params = list(net.parameters_and_names()) if isinstance(net, ms.nn.Cell) else []
    rec = _Recorder(graph, net, params)
    for i, t in enumerate(traced):
        shape = tuple(t.shape)
        if dynamic_batch:
            shape = (None,) + shape[1:]
        v = Value(f"x{i}" if len(traced) > 1 else "x", "input", shape, t.dtype)
        graph.inputs.append(v)
        rec.values[id(t)] = v
        rec.keep.append(t)
    # each Cell's own phase, restored after (a frozen BatchNorm in a training net stays frozen)
    phases = [(c, c.training) for _, c in net.cells_and_names()] \
        if isinstance(net, ms.nn.Cell) else []
    if phases:
        net.set_train(False)
    try:
        with observe.add_observer(rec):
            out = net(*traced)
    finally:
        for cell, training in phases:  # parents first: a child's own phase wins
            cell.set_train(training)
    graph.outputs_tuple = isinstance(out, (tuple, list))
    for r in _flatten(out):
        if not isinstance(r, ms.Tensor):
            raise TypeError(f"export: '{graph.name}' returned {type(r).__name__}; expected a "
                            f"Tensor or a tuple of Tensors.")
        graph.outputs.append(rec.value_of(r))
    graph.batch = traced[0].shape[0] if dynamic_batch else None
    return graph


def _compare_batches(graph, other):
    """Check the trace at batch b + 1 (`other`) against `graph` (batch b) and note the
    constants that follow the batch."""
    b = graph.batch
    if [n.op for n in graph.nodes] != [n.op for n in other.nodes] or \
            len(graph.consts) != len(other.consts):
        raise ValueError(f"export: '{graph.name}' runs different ops at batch sizes {b} and "
                         f"{b + 1}, so it cannot be exported with a dynamic batch; export it "
                         f"with a fixed input shape.")
    pairs = list(zip(graph.inputs, other.inputs))
    pairs += [(v, w) for n, m in zip(graph.nodes, other.nodes)
              for v, w in zip(n.outputs, m.outputs)]
    pairs += list(zip(graph.consts, other.consts))
    for v, w in pairs:
        sizes = {i: q for i, (p, q) in enumerate(zip(v.shape, w.shape)) if p != q}
        if v.kind == "input":
            sizes = {0: b + 1}
        if sizes:
            graph.dynamic[id(v)] = sizes
    readers = {}
    for n in graph.nodes:
        for v in n.tensor_inputs():
            readers.setdefault(id(v), n)
    for v, w in zip(graph.consts, other.consts):
        if v.shape == w.shape:
            continue
        axes = [i for i, (p, q) in enumerate(zip(v.shape, w.shape)) if p != q]
        reader = readers.get(id(v))
        where = f" that op '{reader.op}' (in {reader.scope}) reads" if reader else ""
        uniform = v.data.size and np.all(v.data == v.data.flat[0]) and \
            np.all(w.data == v.data.flat[0])
        if len(v.shape) != len(w.shape) or len(axes) != 1 or \
                (v.shape[axes[0]], w.shape[axes[0]]) != (b, b + 1) or not uniform:
            raise ValueError(
                f"export: the constant %{v.name}{where} has shape {list(v.shape)} at batch "
                f"{b} and {list(w.shape)} at batch {b + 1}: it is made from the batch size "
                f"with values the export cannot follow; export with a fixed input shape.")
        graph.batch_consts[id(v)] = axes[0]
