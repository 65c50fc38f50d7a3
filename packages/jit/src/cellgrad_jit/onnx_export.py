"""The ONNX back end: a captured `Graph` as an ONNX model (opset 17), one converter per
cellgrad op. Ops without a converter, or attributes ONNX cannot express, raise
`UnsupportedOpError` naming the op and the Cell it ran in."""

import numpy as np

from cellgrad_jit.errors import UnsupportedOpError
from cellgrad_jit.ir import Value
from cellgrad_jit.onnx_ops import CONVERTERS, onnx_type

__all__ = ["OPSET", "CONVERTERS", "to_onnx"]

OPSET = 17


def _onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError("export: file_format='ONNX' needs the onnx package: "
                          "pip install 'cellgrad-jit[onnx]'.") from None
    return onnx


class _Builder:
    """The ONNX graph under construction: initializers, nodes, fresh names."""

    def __init__(self, graph, onnx):
        self.graph, self.onnx, self.helper = graph, onnx, onnx.helper
        self.nodes, self.inits, self.count = [], [], 0
        self.names = {}  # id(Value) -> ONNX name
        self.node = None  # the IR node being converted (for errors)


    def fresh(self, hint="t"):
        self.count += 1
        return f"{hint}_{self.count}"

    def emit(self, op_type, inputs, outputs=None, **attrs):
        outputs = outputs or [self.fresh(op_type)]
        name = f"{self.node.name}/{op_type}_{self.count}" if self.node else None
        self.count += 1
        self.nodes.append(self.helper.make_node(op_type, list(inputs), list(outputs), name=name,
                                                **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def const(self, array, hint="c"):
        array = np.asarray(array)
        name = self.fresh(hint)
        self.inits.append(self.onnx.numpy_helper.from_array(array, name))
        return name

    def ints(self, values):
        return self.const(np.asarray(values, np.int64), "ints")

    def value(self, v, like=None):
        """The ONNX name of an input: a Value, or a plain number as a constant of `like`'s
        dtype (the dtype of the node's tensor input)."""
        if isinstance(v, Value):
            return self.names[id(v)]
        if isinstance(v, (bool, int, float, np.number)):
            dt = like.dtype.np_dtype if isinstance(like, Value) else np.asarray(v).dtype
            return self.const(np.asarray(v, dt))
        if isinstance(v, np.ndarray):
            return self.const(v)
        self.fail(f"an input of type {type(v).__name__} ({v!r})")

    def fail(self, what):
        n = self.node
        raise UnsupportedOpError(f"export: op '{n.op}' (in {n.scope}) cannot be written as "
                                 f"ONNX: {what}.", op=n.op, scope=n.scope)

    def out(self, i=0):
        return self.names.setdefault(id(self.node.outputs[i]), self.fresh(self.node.op))



def _batch_const(b, v, axis):
    """A constant filled with one value whose `axis` is the batch: its value expanded to a
    shape taken from the first input's batch size at run time."""
    batch = b.emit("Slice", [b.emit("Shape", [b.graph.inputs[0].name]), b.ints([0]),
                             b.ints([1])])
    dims = [b.ints([d]) if i != axis else batch for i, d in enumerate(v.shape)]
    shape = b.emit("Concat", dims, axis=0)
    b.emit("Expand", [b.const(np.asarray(v.data.flat[0], v.data.dtype)), shape], [v.name])


def _value_info(helper, graph, v, name):
    """Shape info: a dimension equal to the batch at both traced sizes is named "batch",
    another that changes with it is left unnamed."""
    sizes = graph.dynamic.get(id(v), {})
    shape = [d if i not in sizes else "batch" if (d, sizes[i]) in ((graph.batch, graph.batch + 1),
                                                                   (None, graph.batch + 1))
             else None for i, d in enumerate(v.shape)]
    return helper.make_tensor_value_info(name, onnx_type(v.dtype.np_dtype), shape)


def to_onnx(graph, producer_version="0.1.0"):
    """The `onnx.ModelProto` of `graph` (checked with `onnx.checker`)."""
    onnx = _onnx()
    helper = onnx.helper
    b = _Builder(graph, onnx)
    inputs = []
    for v in graph.inputs:
        b.names[id(v)] = v.name
        inputs.append(_value_info(helper, graph, v, v.name))
    batch_consts = graph.batch_consts
    for v in list(graph.params.values()) + graph.consts:
        if str(v.dtype) == "BFloat16":
            raise UnsupportedOpError(f"export: {v.name} is bfloat16, which this ONNX writer "
                                     f"does not store.", op=None, scope=None)
        b.names[id(v)] = v.name
        if id(v) in batch_consts:
            _batch_const(b, v, batch_consts[id(v)])
            continue
        b.inits.append(onnx.numpy_helper.from_array(np.ascontiguousarray(v.data), v.name))
    for node in graph.nodes:
        b.node = node
        convert = CONVERTERS.get(node.op)
        if convert is None:
            raise UnsupportedOpError(
                f"export: op '{node.op}' (in {node.scope}) has no ONNX form in cellgrad's "
                f"exporter (opset {OPSET}).", op=node.op, scope=node.scope)
        convert(b, node)
    b.node = None
    outputs = []
    for i, v in enumerate(graph.outputs):
        name = f"output_{i}" if len(graph.outputs) > 1 else "output"
        b.nodes.append(helper.make_node("Identity", [b.names[id(v)]], [name]))
        outputs.append(_value_info(helper, graph, v, name))
    g = helper.make_graph(b.nodes, graph.name, inputs, outputs, b.inits)
    model = helper.make_model(g, producer_name="cellgrad", producer_version=producer_version,
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = min(model.ir_version, 8)  # what onnxruntime >= 1.17 reads
    onnx.checker.check_model(model)
    return model
