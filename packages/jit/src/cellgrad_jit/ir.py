"""The graph IR every back end shares: values (inputs, Parameters, constants, op results) and
nodes (one op, its attributes, the Cell scope it ran in), in the order they ran."""

import numpy as np

__all__ = ["Graph", "Node", "Value"]


class Value:
    """One tensor of the graph: `kind` is "input", "param", "const" or "node" (an op's result).
    `shape` is a tuple (None for a dynamic dimension), `dtype` a cellgrad dtype, `data` the
    array of a Parameter or constant."""

    __slots__ = ("name", "kind", "shape", "dtype", "data", "producer")

    def __init__(self, name, kind, shape, dtype, data=None, producer=None):
        self.name, self.kind, self.shape, self.dtype = name, kind, tuple(shape), dtype
        self.data, self.producer = data, producer

    def type_str(self, dynamic=()):
        """`Float32[?, 16]`: ? for a dimension that is None or in `dynamic` (follows the
        batch)."""
        dims = ", ".join("?" if d is None or i in dynamic else str(d)
                         for i, d in enumerate(self.shape))
        return f"{self.dtype}[{dims}]"

    def __repr__(self):
        return f"%{self.name}"


class Node:
    """One op: `inputs` are Values or plain Python values, `attrs` a dict (a Value where an
    attribute holds a Parameter's data), `outputs` Values, `scope` the Cell path
    (`Default/fc1-Dense`), `name` unique in the graph (`Default/fc1-Dense/dense-op0`)."""

    __slots__ = ("op", "inputs", "attrs", "outputs", "scope", "name", "meta")

    def __init__(self, op, inputs, attrs, outputs, scope, name):
        self.meta = {}  # back-end notes (a MINDIR primitive's kind)
        self.op, self.inputs, self.attrs = op, list(inputs), dict(attrs or {})
        self.outputs, self.scope, self.name = list(outputs), scope, name

    def tensor_inputs(self):
        return [v for v in self.inputs if isinstance(v, Value)]

    def __str__(self, dynamic=None):
        dynamic = dynamic or {}
        outs = ", ".join(f"%{v.name}: {v.type_str(dynamic.get(id(v), ()))}"
                         for v in self.outputs)
        args = ", ".join(_show(v) for v in self.inputs)
        attrs = ", ".join(f"{k}={_show(v)}" for k, v in self.attrs.items())
        return f"{outs} = {self.op}({args}){' {' + attrs + '}' if attrs else ''}"


def _show(v):
    if isinstance(v, Value):
        return f"%{v.name}"
    if isinstance(v, np.ndarray):
        if v.size <= 6:
            return f"array({v.tolist()}, {v.dtype})"
        return f"array(shape={list(v.shape)}, {v.dtype})"
    if isinstance(v, (tuple, list)):
        inner = ", ".join(_show(x) for x in v)
        return f"({inner}{',' if len(v) == 1 else ''})" if isinstance(v, tuple) else f"[{inner}]"
    return repr(v)


class Graph:
    """A captured (or loaded) graph. `dialect` names the op vocabulary: "cellgrad" (cellgrad's
    op names, from a run) or "mindspore" (MindSpore primitives, from a MINDIR file).
    `outputs_tuple` is whether the network returned a tuple."""

    def __init__(self, name, dialect="cellgrad"):
        self.name, self.dialect = name, dialect
        self.inputs, self.outputs, self.nodes = [], [], []
        self.params, self.consts = {}, []
        self.outputs_tuple = False
        # a dynamic batch (capture): the traced batch size, {id(Value): {axis: size at the
        # batch + 1}} of the dimensions that follow it, {id(const): axis} of batch constants
        self.batch, self.dynamic, self.batch_consts = None, {}, {}

    def producers(self):
        return {id(v): n for n in self.nodes for v in n.outputs}

    def __str__(self):
        lines = [f"graph {self.name} ({self.dialect} ops) {{"]
        for v in self.inputs:
            lines.append(f"  input  %{v.name}: {v.type_str()}")
        for v in self.params.values():
            lines.append(f"  param  %{v.name}: {v.type_str()}")
        for v in self.consts:
            lines.append(f"  const  %{v.name}: {v.type_str()} = {_show(v.data)}")
        scope = None
        for n in self.nodes:
            if n.scope != scope:
                scope = n.scope
                lines.append(f"  # {scope}")
            lines.append(f"  {n.__str__(self.dynamic)}")
        outs = ", ".join(f"%{v.name}" for v in self.outputs)
        lines.append(f"  return {'(' + outs + ')' if self.outputs_tuple else outs}")
        lines.append("}")
        return "\n".join(lines)

    __repr__ = __str__
