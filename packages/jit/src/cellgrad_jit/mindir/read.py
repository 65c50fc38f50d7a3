"""Reading a MINDIR file into a `Graph` of MindSpore primitives (dialect "mindspore").

Only data is read: values, shapes, primitive names and their attributes. What a node does is
looked up in `cellgrad_jit.mindir.run.PRIMITIVES` by name; nothing in the file is executed."""

import os

import numpy as np

from cellgrad_jit.errors import MindIRFormatError, UnsupportedOpError
from cellgrad_jit.ir import Graph, Node, Value
from cellgrad_jit.mindir.proto import messages

__all__ = ["read_mindir", "MONAD", "NP_OF_DATA_TYPE", "DATA_TYPE_OF_NP"]

# TensorProto.DataType -> numpy
NP_OF_DATA_TYPE = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
                   6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64,
                   12: np.uint32, 13: np.uint64, 14: np.complex64, 15: np.complex128,
                   17: np.float64}
DATA_TYPE_OF_NP = {np.dtype(v): k for k, v in NP_OF_DATA_TYPE.items() if k != 17}


class _Monad:
    """MindSpore's side-effect token (UMONAD/IOMONAD): carries no data."""

    def __repr__(self):
        return "U"


MONAD = _Monad()


def _fail(file_name, what):
    raise MindIRFormatError(f"For 'load', the MindIR file '{file_name}' cannot be read: {what}.")


def tensor_array(t, file_name, where):
    """The numpy array of a TensorProto (raw_data, or the typed repeated fields)."""
    dt = NP_OF_DATA_TYPE.get(t.data_type)
    if dt is None:
        if t.data_type == 16:
            import cellgrad as ms
            raw = np.frombuffer(t.raw_data, np.uint16).astype(np.uint32) << 16
            return ms.Tensor(raw.view(np.float32).reshape(tuple(t.dims)), ms.bfloat16)
        _fail(file_name, f"{where} has the unsupported data type {t.data_type}")
    if t.HasField("external_data"):
        _fail(file_name, f"{where} keeps its data in the external file "
                         f"'{t.external_data.location}' (not supported)")
    shape = tuple(int(d) for d in t.dims)
    count = int(np.prod(shape, dtype=np.int64))
    if t.raw_data:
        need = count * np.dtype(dt).itemsize
        if len(t.raw_data) != need:
            _fail(file_name, f"{where} holds {len(t.raw_data)} bytes of data for shape "
                             f"{list(shape)} ({need} expected: truncated or corrupt)")
        return np.frombuffer(t.raw_data, dt).reshape(shape).copy()
    for field in ("float_data", "double_data", "int32_data", "int64_data", "uint64_data"):
        data = getattr(t, field)
        if len(data):
            if len(data) != count:
                _fail(file_name, f"{where} holds {len(data)} values for shape {list(shape)}")
            return np.asarray(data).astype(dt).reshape(shape)
    if count == 0:
        return np.zeros(shape, dt)
    return None  # shape information only


def attr_value(a, file_name, where):
    """The Python value of an AttributeProto: numbers, strings, tuples, arrays, None, MONAD."""
    T = type(a).AttributeType
    kind = a.type
    if kind == T.BOOL:
        return bool(a.i if a.HasField("i") else (a.ints[0] if a.ints else 0))
    if kind in (T.INT8, T.INT16, T.INT32, T.INT64, T.UINT8, T.UINT16, T.UINT32, T.UINT64):
        return int(a.i if a.HasField("i") else (a.ints[0] if a.ints else 0))
    if kind in (T.FLOAT, T.FLOAT16, T.BFLOAT16):
        return float(a.f if a.HasField("f") else (a.floats[0] if a.floats else 0.0))
    if kind == T.DOUBLE:
        return float(a.d if a.HasField("d") else (a.doubles[0] if a.doubles else 0.0))
    if kind == T.STRING:
        return (a.s if a.HasField("s") else (a.strings[0] if a.strings else b"")).decode()
    if kind in (T.TUPLE, T.LIST):
        items = [attr_value(v, file_name, where) for v in a.values]
        return tuple(items) if kind == T.TUPLE else items
    if kind == T.TENSORS:
        if len(a.tensors) != 1:
            _fail(file_name, f"{where} has {len(a.tensors)} tensors in one value")
        return tensor_array(a.tensors[0], file_name, where)
    if kind == T.TENSOR:
        return tensor_array(a.t, file_name, where)
    if kind in (T.UMONAD, T.IOMONAD):
        return MONAD
    if kind in (T.NONE, T.TYPE_NULL):
        return None
    raise UnsupportedOpError(f"load: {where} of '{file_name}' has a value of type "
                             f"{T.Name(kind)}, which cellgrad does not read.", op=where)


def _shape_dtype(node, file_name):
    """The output shape and dtype a node records in its "shape" attribute."""
    for a in node.attribute:
        if a.name == "shape" and len(a.tensors) == 1:
            t = a.tensors[0]
            return tuple(int(d) if d >= 0 else None for d in t.dims), \
                NP_OF_DATA_TYPE.get(t.data_type)
    return (), None


def _ms_dtype(np_dtype):
    import cellgrad as ms

    if np_dtype is None:
        return None
    return ms.Tensor(np.zeros((), np_dtype)).dtype


def parse_model(file_name):
    """The ModelProto of `file_name`, with MindSpore's checks on the name."""
    if not isinstance(file_name, str):
        raise TypeError(f"For 'load', the argument 'file_name' must be a str, but got "
                        f"{type(file_name).__name__}.")
    if not file_name.endswith(".mindir"):
        raise ValueError(f"For 'load', the argument 'file_name'(MindIR file) should end with "
                         f"'.mindir', please input the correct 'file_name', but got "
                         f"'{file_name}'.")
    if not os.path.exists(file_name):
        raise ValueError(f"For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         f"please check whether the 'file_name' is correct: '{file_name}'.")
    with open(file_name, "rb") as f:
        data = f.read()
    model = messages()["ModelProto"]()
    try:
        model.ParseFromString(data)
    except Exception as e:  # google.protobuf.message.DecodeError and friends
        _fail(file_name, f"it is not a MINDIR protobuf message ({type(e).__name__}: {e}); "
                         f"the file is truncated or corrupt")
    if not model.HasField("graph") or not model.graph.node or not model.graph.output:
        _fail(file_name, "it holds no graph (truncated, corrupt, or not a MINDIR file)")
    return model


def read_mindir(file_name):
    """The `Graph` (MindSpore primitives) of a MINDIR file."""
    model = parse_model(file_name)
    g = model.graph
    prims = {p.name: p for p in model.primitives}
    graph = Graph(g.name or os.path.basename(file_name), dialect="mindspore")
    env = {}  # proto name -> Value or literal

    for vi in g.input:
        t = vi.tensor[0] if vi.tensor else None
        shape = tuple(int(d) if d >= 0 else None for d in t.dims) if t is not None else ()
        dt = NP_OF_DATA_TYPE.get(t.data_type) if t is not None else None
        v = Value(vi.name.split(":")[-1], "input", shape, _ms_dtype(dt))
        graph.inputs.append(v)
        env[vi.name] = v
    for t in g.parameter:
        where = f"parameter '{t.name}'"
        data = tensor_array(t, file_name, where)
        if data is None:
            _fail(file_name, f"{where} has no data")
        name = t.ref_key or t.name.split(":")[-1]
        if isinstance(data, np.ndarray):
            v = Value(name, "param", data.shape, _ms_dtype(data.dtype), data)
        else:  # bfloat16, as a Tensor
            v = Value(name, "param", data.shape, data.dtype, data)
        graph.params[name] = v
        env[t.name] = v

    counts = {}
    for node in g.node:
        where = f"node '{node.name}'"
        if node.op_type == "Constant":
            value = attr_value(node.attribute[0], file_name, where) if node.attribute else None
            if isinstance(value, np.ndarray):
                v = Value(f"const{len(graph.consts)}", "const", value.shape,
                          _ms_dtype(value.dtype), value)
                graph.consts.append(v)
                value = v
            env[node.output[0]] = value
            continue
        op_type = node.op_type
        attrs, prim_kind = {}, None
        if op_type.startswith("REF::"):
            key = op_type[5:]
            prim = prims.get(key)
            if prim is None:
                if any(f.name == key for f in model.functions):
                    raise UnsupportedOpError(
                        f"load: '{file_name}' calls the sub-graph '{key}' ({where}); cellgrad "
                        f"reads single-graph MINDIR files.", op=key, scope=node.domain)
                _fail(file_name, f"{where} refers to the unknown primitive '{key}'")
            op_type = prim.op_type
            prim_kind = prim.PrimType.Name(prim.prim_type) if prim.HasField("prim_type") \
                else "PRIMITIVE"
            for a in prim.attribute:
                if a.name not in ("input_names", "output_names"):
                    attrs[a.name] = attr_value(a, file_name, f"{where} attribute '{a.name}'")
        ins = []
        for name in node.input:
            if name not in env:
                _fail(file_name, f"{where} reads '{name}', which nothing defines before it")
            ins.append(env[name])
        shape, dt = _shape_dtype(node, file_name)
        out = Value(node.output[0].split(":", 1)[-1], "node", shape, _ms_dtype(dt))
        scope = node.domain.rsplit("/", 1)[0] if "/" in node.domain else "Default"
        k = counts[(scope, op_type)] = counts.get((scope, op_type), -1) + 1
        n = Node(op_type, ins, attrs, [out], scope, node.domain or f"{scope}/{op_type}-op{k}")
        n.meta["kind"] = prim_kind
        out.producer = n
        graph.nodes.append(n)
        env[node.output[0]] = out
    for o in g.output:
        if o.name not in env:
            _fail(file_name, f"the output '{o.name}' is never computed")
        graph.outputs.append(env[o.name])
    graph.batch = None
    return graph
