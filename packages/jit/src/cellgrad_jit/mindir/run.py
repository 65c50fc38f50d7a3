"""Running a loaded MINDIR graph on cellgrad: each MindSpore primitive by name, through an
allow-list (`PRIMITIVES`) of cellgrad's own primitives (`cellgrad.ops.<Name>`, which mirror
MindSpore's) and a few graph-plumbing rules. A name outside the list is an error; nothing from
the file is executed."""

import inspect

import numpy as np

import cellgrad as ms
from cellgrad import ops
from cellgrad_jit.errors import UnsupportedOpError
from cellgrad_jit.ir import Value
from cellgrad_jit.mindir.read import MONAD

__all__ = ["PRIMITIVES", "run_graph"]

# MindSpore's enums, as PRIMITIVE_FUNCTION nodes pass them (mindspore.ops._utils.arg_handler)
_FORMATS = {0: "NCHW", 1: "NHWC", 14: "NCDHW"}
_PAD_MODES = {0: "PAD", 1: "SAME", 2: "VALID"}
_ENUMS = {"data_format": _FORMATS, "pad_mode": _PAD_MODES}


def _tuple_get_item(t, i):
    return t[i]


# MindSpore's TypeId numbers, as Cast and the Ext reductions take a dtype
_TYPE_IDS = {30: "bool_", 32: "int8", 33: "int16", 34: "int32", 35: "int64", 37: "uint8",
             38: "uint16", 39: "uint32", 40: "uint64", 42: "float16", 43: "float32",
             44: "float64", 45: "bfloat16", 51: "complex64", 52: "complex128"}


def _dtype(type_id):
    if type_id is None:
        return None
    name = _TYPE_IDS.get(type_id)
    if name is None:
        raise UnsupportedOpError(f"load: the MindSpore type id {type_id} is not one cellgrad "
                                 f"knows.")
    return getattr(ms, name)


# Graph plumbing: MindSpore's side-effect tokens, tuples and scalar ops the graph compiler adds.
_PLUMBING = {
    "Load": lambda param, *monad: param,
    "UpdateState": lambda *args: MONAD,
    "Depend": lambda value, *deps: value,
    "MakeTuple": lambda *items: tuple(items),
    "TupleGetItem": _tuple_get_item,
    "Muls": lambda x, y: ops.mul(x, y),
    "Adds": lambda x, y: ops.add(x, y),
    "Subs": lambda x, y: ops.sub(x, y),
    "Divs": lambda x, y: ops.div(x, y),
    "Cast": lambda x, type_id: ops.cast(x, _dtype(type_id)),
    # MindSpore 2.x's "Ext" primitives (mint/Tensor methods)
    "MatMulExt": lambda x, y: ops.matmul(x, y),
    "BatchMatMulExt": lambda x, y: ops.bmm(x, y),
    "SumExt": lambda x, dim=None, keepdim=False, type_id=None: ops.sum(
        x, dim, keepdim, dtype=_dtype(type_id)),
    "MeanExt": lambda x, dim=None, keepdim=False, type_id=None: ops.mean(
        x if type_id is None else ops.cast(x, _dtype(type_id)), dim, keepdim),
}

# cellgrad primitives that MINDIR nodes may name (MindSpore's names, MindSpore's semantics):
# those of this list that cellgrad provides
_OPS = tuple(name for name in (
    "Conv2D BiasAdd MatMul BatchMatMul ReLU ReLU6 Sigmoid Tanh Exp Log Sqrt Rsqrt Abs Neg Erf "
    "GeLU FastGeLU Softmax LogSoftmax Add Sub Mul RealDiv Div Maximum Minimum Pow Square "
    "Reshape Flatten Transpose ExpandDims Squeeze Concat Stack Split MaxPool AvgPool BatchNorm "
    "LayerNorm ReduceMean ReduceSum ReduceMax ReduceMin ReduceProd ReduceAll ReduceAny Gather "
    "GatherD Tile BroadcastTo Select Equal NotEqual Less LessEqual Greater GreaterEqual "
    "LogicalAnd LogicalOr LogicalNot HSwish HSigmoid Elu Softplus Softsign Sin Cos Tan Atan2 "
    "Floor Ceil Round Sign Reciprocal Mod FloorDiv AdaptiveAvgPool2D AdaptiveMaxPool2D "
    "StridedSlice Slice ZerosLike OnesLike OneHot ArgMaxWithValue ArgMinWithValue Argmax "
    "Argmin TopK Sort CumSum Pad MirrorPad ResizeNearestNeighbor ResizeBilinear "
    "Conv2DTranspose Conv3D MaxPool3D AvgPool3D SiLU Mish SeLU CeLU Erfc Expm1 Log1p"
).split() if hasattr(ops, name))

PRIMITIVES = frozenset(_OPS) | frozenset(_PLUMBING)


def _call_arity(prim_cls):
    """How many inputs the primitive's __call__ takes (None: any number)."""
    params = list(inspect.signature(prim_cls.__call__).parameters.values())[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    return len(params)


def _init_args(prim_cls, values):
    """Init arguments of a PRIMITIVE_FUNCTION node: the inputs after the call inputs, in the
    order of the primitive's __init__ (enums decoded)."""
    names = list(inspect.signature(prim_cls.__init__).parameters)[1:]
    kwargs = {}
    for name, value in zip(names, values):
        table = _ENUMS.get(name)
        if table is not None and isinstance(value, int):
            value = table[value]
        kwargs[name] = value
    return kwargs


def _legacy_init(prim_cls, attrs):
    """Init arguments of a PRIMITIVE node from its stored attributes."""
    sig = inspect.signature(prim_cls.__init__).parameters
    fmt = attrs.get("format", attrs.get("data_format", "NCHW"))
    kwargs = {}
    for name, value in attrs.items():
        name = "data_format" if name == "format" else name
        if name not in sig:
            continue
        if name in ("kernel_size", "strides", "stride", "dilation") and \
                isinstance(value, tuple) and len(value) == 4:
            value = value[2:] if fmt == "NCHW" else value[1:3]
        kwargs[name] = value
    return kwargs


def _make(node):
    """A callable for one node (built once per node and cached)."""
    op = node.op
    if op in _PLUMBING:
        return _PLUMBING[op], None
    if op not in _OPS:
        raise UnsupportedOpError(f"load: the MINDIR primitive '{op}' (node {node.name}) is not "
                                 f"one cellgrad runs.", op=op, scope=node.scope)
    cls = getattr(ops, op)
    if node.meta.get("kind") == "PRIMITIVE_FUNCTION":
        arity = _call_arity(cls)
        tensors = [v for v in node.inputs if v is not MONAD]
        if arity is None or len(tensors) <= arity:
            return cls(), None
        return cls(**_init_args(cls, [_literal(v) for v in tensors[arity:]])), arity
    return cls(**_legacy_init(cls, node.attrs)), None


def _literal(v):
    if isinstance(v, Value):
        raise UnsupportedOpError(f"load: a primitive argument computed in the graph "
                                 f"(%{v.name}) where a constant was expected.", op=None)
    return v


def _value(v, env):
    if isinstance(v, Value):
        return env[id(v)]
    if isinstance(v, tuple):
        return tuple(_value(x, env) for x in v)
    return v


def run_graph(graph, inputs, params, cache):
    """Run a "mindspore" graph on `inputs` (Tensors) with `params` {name: Parameter}."""
    env = {}
    for v, t in zip(graph.inputs, inputs):
        env[id(v)] = t
    for name, v in graph.params.items():
        env[id(v)] = params[name]
    for v in graph.consts:
        env[id(v)] = ms.Tensor(v.data) if isinstance(v.data, np.ndarray) else v.data
    for node in graph.nodes:
        entry = cache.get(id(node))
        if entry is None:
            entry = cache[id(node)] = _make(node)
        fn, arity = entry
        args = [_value(v, env) for v in node.inputs]
        if node.op not in _PLUMBING:
            args = [a for a in args if a is not MONAD]
            if arity is not None:
                args = args[:arity]
        try:
            out = fn(*args)
        except (TypeError, ValueError, RuntimeError) as e:
            e.args = (f"GraphCell: node {node.name} ({node.op}) failed: {e}",) + e.args[1:]
            raise
        env[id(node.outputs[0])] = out
    outs = [env[id(v)] for v in graph.outputs]
    return outs[0] if len(outs) == 1 else tuple(outs)
