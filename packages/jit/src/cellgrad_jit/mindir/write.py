"""The MINDIR back end: a captured `Graph` as the ModelProto MindSpore 2.10's `ms.load`
reads, in the form MindSpore's own export writes (primitive-function nodes taking their
arguments as inputs, Conv2D/MaxPool as primitives with attributes). One rule per cellgrad op;
an op without one raises `UnsupportedOpError` naming the op and its Cell."""

import math

import numpy as np

from cellgrad_jit.errors import UnsupportedOpError
from cellgrad_jit.ir import Value
from cellgrad_jit.mindir.proto import messages
from cellgrad_jit.mindir.read import DATA_TYPE_OF_NP

__all__ = ["to_mindir", "RULES"]

_FN, _PRIM = "PRIMITIVE_FUNCTION", "PRIMITIVE"
_NCHW, _VALID = 0, 2  # MindSpore's enum values for data_format and pad_mode


class _Writer:
    def __init__(self, graph):
        self.M = messages()
        self.graph = graph
        self.model = self.M["ModelProto"]()
        self.g = self.model.graph
        self.g.name = f"cellgrad_{graph.name}"
        self.names = {}  # id(Value) -> proto name
        self.prims = {}  # (op_type, kind, attrs key) -> primitive name
        self.count = 0
        self.node = None
        self.producers = graph.producers()

    # ---- names, constants, nodes ----

    def fresh(self, hint):
        self.count += 1
        return f"{self.g.name}:{hint}:{self.count}"

    def fail(self, what):
        n = self.node
        raise UnsupportedOpError(f"export: op '{n.op}' (in {n.scope}) cannot be written as "
                                 f"MINDIR: {what}.", op=n.op, scope=n.scope)

    def attr(self, a, value):
        """Fill AttributeProto `a` with a Python value (bool, int, float, str, tuple, array)."""
        T = self.M["AttributeProto"].AttributeType
        if isinstance(value, (bool, np.bool_)):
            a.type, a.i = T.BOOL, int(value)
        elif isinstance(value, (int, np.integer)):
            a.type, a.i = T.INT64, int(value)
        elif isinstance(value, (float, np.floating)):
            a.type, a.f = T.FLOAT, float(value)
        elif isinstance(value, str):
            a.type, a.s = T.STRING, value.encode()
        elif isinstance(value, (tuple, list)):
            a.type = T.TUPLE if isinstance(value, tuple) else T.LIST
            for item in value:
                v = a.values.add()
                if isinstance(item, (bool, np.bool_, int, np.integer)) and \
                        not isinstance(item, (bool, np.bool_)):
                    v.type, v.ints[:] = T.INT64, [int(item)]
                elif isinstance(item, (float, np.floating)):
                    v.type, v.floats[:] = T.FLOAT, [float(item)]
                elif isinstance(item, str):
                    v.type, v.strings[:] = T.STRING, [item.encode()]
                else:
                    self.attr(v, item)
            a.seq_info.is_dyn_len = False
        elif isinstance(value, np.ndarray):
            a.type = T.TENSORS
            self.tensor(a.tensors.add(), value, "value0", data=True)
        else:
            raise TypeError(f"MINDIR attribute of type {type(value).__name__}")

    def tensor(self, t, array_or_shape, name=None, dtype=None, data=False):
        if isinstance(array_or_shape, np.ndarray):
            shape, dtype = array_or_shape.shape, array_or_shape.dtype
        else:
            shape = array_or_shape
        code = DATA_TYPE_OF_NP.get(np.dtype(dtype))
        if code is None:
            self.fail(f"the dtype {np.dtype(dtype)}")
        t.dims[:] = [-1 if d is None else int(d) for d in shape]
        t.data_type = code
        if name is not None:
            t.name = name
        if data:
            t.raw_data = np.ascontiguousarray(array_or_shape).tobytes()

    def const(self, value):
        """A Constant node holding `value` (a number, tuple or array); its name."""
        name = f"ValueNode_{self.count + 1}"
        self.count += 1
        n = self.g.node.add(output=[name], name=name, op_type="Constant")
        self.attr(n.attribute.add(name="value"), value)
        return name

    def tensor_const(self, value, dtype):
        return self.const(np.asarray(value, dtype))

    def primitive(self, op_type, kind, attrs=()):
        key = (op_type, kind, repr(attrs))
        name = self.prims.get(key)
        if name is None:
            name = self.prims[key] = f"{op_type}:{len(self.prims) + 1}"
            p = self.model.primitives.add(name=name, op_type=op_type, instance_name="")
            p.prim_type = getattr(type(p).PrimType, kind)
            for k, v in attrs:
                self.attr(p.attribute.add(name=k), v)
        return name

    def emit(self, op_type, inputs, shape, dtype, kind=_FN, attrs=(), out=None):
        """One node; `shape`/`dtype` of its output (a list of them for a tuple output)."""
        prim = self.primitive(op_type, kind, tuple(attrs))
        out = out or self.fresh(f"CNode_{op_type}")
        scope = self.node.scope if self.node is not None else "Default"
        n = self.g.node.add(input=list(inputs), output=[out], name=out, op_type=f"REF::{prim}",
                            domain=f"{scope}/{op_type}-op{self.count}")
        info = n.attribute.add(name="shape")
        T = self.M["AttributeProto"].AttributeType
        if isinstance(shape, list):
            info.type = T.TUPLE
            for s, d in zip(shape, dtype):
                v = info.values.add(type=T.TENSORS)
                self.tensor(v.tensors.add(), s, dtype=d)
            info.seq_info.is_dyn_len = False
        else:
            info.type = T.TENSORS
            self.tensor(info.tensors.add(), shape, dtype=dtype)
        return out

    def value(self, v):
        return self.names[id(v)]

    def source(self, v):
        """`v`, or the Value a reshape of it was made from (BatchNorm's gamma/beta arrive as
        (1, C, 1, 1) reshapes of (C,) Parameters)."""
        n = self.producers.get(id(v))
        if n is not None and n.op == "reshape" and isinstance(n.inputs[0], Value):
            return n.inputs[0]
        return v


def _shape(w, v):
    """`v`'s shape as the file records it: -1 where it follows a dynamic batch."""
    sizes = w.graph.dynamic.get(id(v), {})
    return tuple(-1 if i in sizes else d for i, d in enumerate(v.shape))


def _out(w, node, i=0):
    v = node.outputs[i]
    return _shape(w, v), v.dtype.np_dtype


def _set(w, node, name, i=0):
    w.names[id(node.outputs[i])] = name
    return name


def _operand(w, node, v, like):
    """A node input: a Value, or a Python number as a 0-d tensor constant of `like`'s dtype."""
    if isinstance(v, Value):
        return w.value(v)
    if isinstance(v, (bool, int, float, np.number)):
        return w.tensor_const(v, like.dtype.np_dtype)
    w.fail(f"an input of type {type(v).__name__}")


def _unary(op_type):
    def rule(w, node):
        return _set(w, node, w.emit(op_type, [w.value(node.inputs[0])], *_out(w, node)))
    return rule


def _binary(op_type):
    def rule(w, node):
        out = node.outputs[0]
        args = []
        for v in node.inputs[:2]:
            if isinstance(v, Value) and v.dtype != out.dtype:
                w.fail(f"inputs of mixed dtypes ({v.dtype} and {out.dtype})")
            args.append(_operand(w, node, v, out))
        return _set(w, node, w.emit(op_type, args, *_out(w, node)))
    return rule


def _dense(w, node):
    """MatMul(x, w^T) + BiasAdd; an N-D input goes through (-1, in) and back."""
    x, weight = node.inputs[0], node.inputs[1]
    if len(weight.shape) != 2 or len(x.shape) < 2:
        w.fail(f"an input of rank {len(x.shape)} or a weight of rank {len(weight.shape)}")
    f, t = w.const(False), w.const(True)
    shape, dt = _out(w, node)
    flat_in, flat_out = (-1, x.shape[-1]), (-1, weight.shape[0])
    xv = w.value(x)
    if len(x.shape) > 2:
        if shape[:-1].count(-1) > 1:
            w.fail("an N-D input with several dynamic dimensions")
        xv = w.emit("Reshape", [xv, w.const(flat_in)], flat_in, dt)
    y = w.emit("MatMul", [xv, w.value(weight), f, t], flat_out if len(x.shape) > 2 else shape,
               dt)
    if len(node.inputs) > 2 and node.inputs[2] is not None:
        y = w.emit("BiasAdd", [y, w.value(node.inputs[2]), w.const(_NCHW)],
                   flat_out if len(x.shape) > 2 else shape, dt)
    if len(x.shape) > 2:
        y = w.emit("Reshape", [y, w.const(shape)], shape, dt)
    return _set(w, node, y)


def _matmul(w, node):
    a, b = node.inputs[:2]
    f = w.const(False)
    if len(a.shape) == 2 and len(b.shape) == 2:
        op = "MatMul"
    elif len(a.shape) == len(b.shape) and len(a.shape) > 2:
        op = "BatchMatMul"
    else:
        w.fail(f"operands of ranks {len(a.shape)} and {len(b.shape)}")
    return _set(w, node, w.emit(op, [w.value(a), w.value(b), f, f], *_out(w, node)))


def _bias_add(w, node):
    if node.attrs["channel"] % len(node.inputs[0].shape) != 1:
        w.fail("a channel axis other than 1")
    x, b = node.inputs[:2]
    return _set(w, node, w.emit("BiasAdd", [w.value(x), w.value(b), w.const(_NCHW)],
                                *_out(w, node)))


def _conv2d(w, node):
    a = node.attrs
    x, weight = node.inputs[:2]
    out_c, _, kh, kw = weight.shape
    pads = tuple(int(p) for p in a["pads"])
    attrs = (("kernel_size", (kh, kw)), ("mode", 1), ("out_channel", out_c),
             ("input_names", ["x", "w"]), ("pad", pads), ("pad_mode", "pad"),
             ("format", "NCHW"), ("pad_list", pads), ("groups", int(a["groups"])),
             ("stride", (1, 1) + tuple(a["stride"])), ("group", int(a["groups"])),
             ("dilation", (1, 1) + tuple(a["dilation"])), ("output_names", ["output"]))
    shape, dt = _out(w, node)
    y = w.emit("Conv2D", [w.value(x), w.value(weight)], shape, dt, kind=_PRIM, attrs=attrs)
    if len(node.inputs) > 2 and node.inputs[2] is not None:
        y = w.emit("BiasAdd", [y, w.value(node.inputs[2]), w.const(_NCHW)], shape, dt)
    return _set(w, node, y)


def _max_pool(w, node):
    a = node.attrs
    if a.get("indices") is not None or len(node.outputs) != 1:
        w.fail("the indices output (return_indices=True)")
    if any(a["pads"]) or any(d != 1 for d in a.get("dilation") or ()):
        w.fail("padding or dilation (MindSpore's MaxPool has neither)")
    attrs = (("pad_mode", "VALID"), ("output_names", ["output"]),
             ("kernel_size", (1, 1) + tuple(a["kernel"])), ("format", "NCHW"),
             ("strides", (1, 1) + tuple(a["stride"])), ("input_names", ["x"]))
    return _set(w, node, w.emit("MaxPool", [w.value(node.inputs[0])], *_out(w, node),
                                kind=_PRIM, attrs=attrs))


def _avg_pool(w, node):
    a = node.attrs
    if any(a["pads"]) or not np.all(np.asarray(a["divisor"]) == float(np.prod(a["kernel"]))):
        w.fail("padding or a divisor other than the window size")
    args = [w.value(node.inputs[0]), w.const(tuple(a["kernel"])), w.const(tuple(a["stride"])),
            w.const(_VALID), w.const(_NCHW)]
    return _set(w, node, w.emit("AvgPool", args, *_out(w, node)))


def _layer_norm(w, node, axes=None):
    """Normalisation over the trailing axes with a (trailing-shaped) weight and bias:
    MindSpore's LayerNorm(x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon).
    `axes` None: the node's own (nn_normalize); ops-nn's one-op layer_norm passes the last."""
    a = node.attrs
    x, gamma, beta = node.inputs[:3]
    ndim = len(x.shape)
    axes = sorted(int(i) % ndim for i in (a["axes"] if axes is None else axes))
    k = axes[0]
    if axes != list(range(k, ndim)) or not all(
            isinstance(v, Value) and tuple(v.shape) == tuple(x.shape[k:]) for v in (gamma, beta)):
        w.fail("normalisation over its own statistics that is not a layer norm (trailing "
               "axes, weight and bias of their shape)")
    shape, dt = _out(w, node)
    stat = shape[:k] + (1,) * (ndim - k)
    args = [w.value(x), w.value(gamma), w.value(beta), w.const(k), w.const(k),
            w.const(float(a["eps"]))]
    ln = w.emit("LayerNorm", args, [shape, stat, stat], [dt] * 3)
    return _set(w, node, w.emit("TupleGetItem", [ln, w.const(0)], shape, dt, kind=_PRIM))


def _normalize(w, node):
    a = node.attrs
    x = node.inputs[0]
    if a["training"]:
        return _layer_norm(w, node)
    if tuple(a["axes"]) != (0,) + tuple(range(2, len(x.shape))):
        w.fail("normalisation over axes other than batch norm's")
    c = x.shape[1]
    parts = []
    for v in (node.inputs[1], node.inputs[2], a["mean"], a["var"]):
        v = w.source(v) if isinstance(v, Value) else v
        if isinstance(v, Value) and tuple(v.shape) == (c,):
            parts.append(w.value(v))
        elif isinstance(v, Value):
            parts.append(w.emit("Reshape", [w.value(v), w.const((c,))], (c,),
                                v.dtype.np_dtype))
        else:
            parts.append(w.tensor_const(np.asarray(v).reshape(c), x.dtype.np_dtype))
    shape, dt = _out(w, node)
    args = [w.value(x)] + parts + [w.const(False), w.const(float(a["eps"])), w.const(0.1),
                                   w.const(_NCHW)]
    bn = w.emit("BatchNorm", args, [shape] + [(c,)] * 4, [dt] * 5)
    return _set(w, node, w.emit("TupleGetItem", [bn, w.const(0)], shape, dt, kind=_PRIM))


def _softmax(w, node):
    axis = int(node.attrs["axis"])
    return _set(w, node, w.emit("Softmax", [w.value(node.inputs[0]), w.const((axis,))],
                                *_out(w, node)))


def _log_softmax(w, node):
    axis = int(node.attrs["axis"])
    return _set(w, node, w.emit("LogSoftmax", [w.value(node.inputs[0]), w.const(axis)],
                                *_out(w, node)))


def _reshape(w, node):
    shape = _shape(w, node.outputs[0])
    if shape.count(-1) > 1:
        w.fail(f"a reshape to {list(node.outputs[0].shape)} with {shape.count(-1)} dimensions "
               f"that follow the dynamic batch")
    return _set(w, node, w.emit("Reshape", [w.value(node.inputs[0]), w.const(shape)],
                                *_out(w, node)))


def _transpose(w, node):
    perm = tuple(int(p) for p in node.attrs["perm"])
    return _set(w, node, w.emit("Transpose", [w.value(node.inputs[0]), w.const(perm)],
                                *_out(w, node)))


def _concat(w, node):
    parts = [v for v in node.inputs if isinstance(v, Value)]
    tup = w.emit("MakeTuple", [w.value(v) for v in parts], [_shape(w, v) for v in parts],
                 [v.dtype.np_dtype for v in parts], kind=_PRIM)
    return _set(w, node, w.emit("Concat", [tup, w.const(int(node.attrs["axis"]))],
                                *_out(w, node)))


def _getitem(w, node):
    """Ints and slices (Ellipsis expanded) as StridedSlice(x, begin, end, strides, begin_mask,
    end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask); each None an ExpandDims."""
    x = node.inputs[0]
    shape = list(x.shape)
    dyn = w.graph.dynamic.get(id(x), {})
    index = node.attrs["index"]
    index = index if isinstance(index, tuple) else (index,)
    if any(not (i is Ellipsis or i is None or isinstance(i, (int, np.integer, slice))) or
           isinstance(i, (bool, np.bool_)) for i in index):
        w.fail("an index that is not made of ints, slices, None and Ellipsis")
    used = sum(1 for i in index if i is not Ellipsis and i is not None)
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + (slice(None),) * (len(shape) - used) + index[at + 1:]
    else:
        index = index + (slice(None),) * (len(shape) - used)
    begin, end, strides, new_axes = [], [], [], []
    end_mask = shrink = 0
    dim = out_dim = 0
    for i in index:
        if i is None:
            new_axes.append(out_dim)
            out_dim += 1
            continue
        if dim in dyn and i != slice(None):
            w.fail("indexing the dynamic batch dimension")
        if isinstance(i, slice):
            start, stop, step = i.indices(shape[dim])
            if step < 0 and stop == -1:
                end_mask |= 1 << dim
                stop = 0
            begin.append(start), end.append(stop), strides.append(step)
            out_dim += 1
        else:
            j = int(i) % shape[dim]
            begin.append(j), end.append(j + 1), strides.append(1)
            shrink |= 1 << dim
        dim += 1
    dt = node.outputs[0].dtype.np_dtype
    out = list(_shape(w, node.outputs[0]))
    sliced = [d for k, d in enumerate(out) if k not in new_axes]
    args = [w.value(x), w.const(tuple(begin)), w.const(tuple(end)), w.const(tuple(strides)),
            w.const(0), w.const(end_mask), w.const(0), w.const(0), w.const(shrink)]
    y = w.emit("StridedSlice", args, tuple(sliced), dt)
    for axis in new_axes:
        sliced.insert(axis, 1)
        y = w.emit("ExpandDims", [y, w.const(axis)], tuple(sliced), dt)
    return _set(w, node, y)


def _attention(w, node):
    """softmax(q @ k^T * scale + mask) @ v with BatchMatMul, as cellgrad's kernel does."""
    a = node.attrs
    if a.get("keep_prob", 1.0) < 1.0:
        w.fail("attention dropout")
    q, k, v, mask = (node.inputs + [None] * 4)[:4]
    if not len(q.shape) == len(k.shape) == len(v.shape) >= 3:
        w.fail("q, k, v of rank below 3")
    dt = node.outputs[0].dtype.np_dtype
    scores_shape = _shape(w, q)[:-1] + (k.shape[-2],)
    f, t = w.const(False), w.const(True)
    scores = w.emit("BatchMatMul", [w.value(q), w.value(k), f, t], scores_shape, dt)
    scores = w.emit("Mul", [scores, w.tensor_const(float(a["scale"]), dt)], scores_shape, dt)
    if mask is not None:
        scores = w.emit("Add", [scores, _operand(w, node, mask, node.outputs[0])],
                        scores_shape, dt)
    weights = w.emit("Softmax", [scores, w.const((-1,))], scores_shape, dt)
    if len(node.outputs) > 1:
        _set(w, node, weights, 1)
    return _set(w, node, w.emit("BatchMatMul", [weights, w.value(v), f, f], *_out(w, node)))


def _packed_attention(w, node):
    """Self-attention on one projection (N, L, 3E) or (L, N, 3E): q, k, v sliced from its
    last axis (StridedSlice), split into heads (Reshape, Transpose), the attention of
    `_attention`, the heads merged back."""
    a = node.attrs
    if a.get("keep_prob", 1.0) < 1.0:
        w.fail("attention dropout")
    qkv, mask = (node.inputs + [None] * 2)[:2]
    if w.graph.dynamic.get(id(qkv)):
        w.fail("a dynamic batch")
    first = bool(a["batch_first"])
    dt = node.outputs[0].dtype.np_dtype
    heads = int(a["heads"])
    n, length, e3 = qkv.shape if first else (qkv.shape[1], qkv.shape[0], qkv.shape[2])
    e = e3 // 3
    d = e // heads
    x = w.value(qkv)
    if not first:
        x = w.emit("Transpose", [x, w.const((1, 0, 2))], (n, length, e3), dt)
    parts = []
    for i in range(3):
        args = [x, w.const((0, 0, i * e)), w.const((n, length, (i + 1) * e)),
                w.const((1, 1, 1)), w.const(0), w.const(0), w.const(0), w.const(0),
                w.const(0)]
        part = w.emit("StridedSlice", args, (n, length, e), dt)
        part = w.emit("Reshape", [part, w.const((n, length, heads, d))], (n, length, heads, d),
                      dt)
        parts.append(w.emit("Transpose", [part, w.const((0, 2, 1, 3))], (n, heads, length, d),
                            dt))
    q, k, v = parts
    f, t = w.const(False), w.const(True)
    scores_shape = (n, heads, length, length)
    scores = w.emit("BatchMatMul", [q, k, f, t], scores_shape, dt)
    scores = w.emit("Mul", [scores, w.tensor_const(float(a["scale"]), dt)], scores_shape, dt)
    if mask is not None:
        scores = w.emit("Add", [scores, _operand(w, node, mask, node.outputs[0])],
                        scores_shape, dt)
    weights = w.emit("Softmax", [scores, w.const((-1,))], scores_shape, dt)
    if len(node.outputs) > 1:
        _set(w, node, weights, 1)
    out = w.emit("BatchMatMul", [weights, v, f, f], (n, heads, length, d), dt)
    out = w.emit("Transpose", [out, w.const((0, 2, 1, 3))], (n, length, heads, d), dt)
    out = w.emit("Reshape", [out, w.const((n, length, e))], (n, length, e), dt)
    if not first:
        out = w.emit("Transpose", [out, w.const((1, 0, 2))], (length, n, e), dt)
    return _set(w, node, out)


def _expand_dims(w, node):
    axis = int(node.attrs["axis"]) % (len(node.inputs[0].shape) + 1)
    return _set(w, node, w.emit("ExpandDims", [w.value(node.inputs[0]), w.const(axis)],
                                *_out(w, node)))


def _squeeze(w, node):
    shape = node.inputs[0].shape
    axis = node.attrs.get("axis")
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        axes = tuple(int(i) % len(shape) for i in ((axis,) if isinstance(axis, int) else axis)
                     if shape[int(i) % len(shape)] == 1)
    return _set(w, node, w.emit("Squeeze", [w.value(node.inputs[0]), w.const(axes)],
                                *_out(w, node)))


# MindSpore's TypeId numbers (Cast's dtype input)
_TYPE_IDS = {"bool": 30, "int8": 32, "int16": 33, "int32": 34, "int64": 35, "uint8": 37,
             "uint16": 38, "uint32": 39, "uint64": 40, "float16": 42, "float32": 43,
             "float64": 44}


def _cast(w, node):
    if node.attrs.get("bf16"):
        w.fail("bfloat16")
    type_id = _TYPE_IDS.get(np.dtype(node.attrs["np_dtype"]).name)
    if type_id is None:
        w.fail(f"the dtype {np.dtype(node.attrs['np_dtype'])}")
    return _set(w, node, w.emit("Cast", [w.value(node.inputs[0]), w.const(type_id)],
                                *_out(w, node)))


def _silu(w, node):
    x = w.value(node.inputs[0])
    shape, dt = _out(w, node)
    return _set(w, node, w.emit("Mul", [x, w.emit("Sigmoid", [x], shape, dt)], shape, dt))


def _leaky_relu(w, node):
    alpha = float(node.attrs["alpha"])
    if not 0.0 <= alpha <= 1.0:
        w.fail(f"alpha {alpha} outside [0, 1]")
    x = w.value(node.inputs[0])
    shape, dt = _out(w, node)
    scaled = w.emit("Mul", [x, w.tensor_const(alpha, dt)], shape, dt)
    return _set(w, node, w.emit("Maximum", [x, scaled], shape, dt))


def _split(w, node):
    x = node.inputs[0]
    axis = int(node.attrs["axis"]) % len(x.shape)
    sizes = {v.shape[axis] for v in node.outputs}
    if len(sizes) != 1:
        w.fail("sections of different sizes")
    n = len(node.outputs)
    shapes = [_shape(w, v) for v in node.outputs]
    dts = [v.dtype.np_dtype for v in node.outputs]
    parts = w.emit("Split", [w.value(x), w.const(axis), w.const(n)], shapes, dts)
    for i in range(n):
        _set(w, node, w.emit("TupleGetItem", [parts, w.const(i)], shapes[i], dts[i],
                             kind=_PRIM), i)


def _stack(w, node):
    parts = [v for v in node.inputs if isinstance(v, Value)]
    axis = int(node.attrs["axis"]) % len(node.outputs[0].shape)
    tup = w.emit("MakeTuple", [w.value(v) for v in parts], [_shape(w, v) for v in parts],
                 [v.dtype.np_dtype for v in parts], kind=_PRIM)
    attrs = (("num", len(parts)), ("axis", axis), ("N", len(parts)))
    return _set(w, node, w.emit("Stack", [tup], *_out(w, node), kind=_PRIM, attrs=attrs))


def _tile(w, node):
    reps = node.attrs["multiples"] if "multiples" in node.attrs else node.inputs[1]
    reps = tuple(int(r) for r in reps)
    return _set(w, node, w.emit("Tile", [w.value(node.inputs[0]), w.const(reps)],
                                *_out(w, node)))


def _gelu(w, node):
    if node.attrs.get("approximate", "none") == "tanh":
        return _unary("GeLU")(w, node)
    # 0.5 * x * (1 + erf(x / sqrt(2))), as cellgrad computes the exact GELU
    x = node.inputs[0]
    shape, dt = _out(w, node)
    k = lambda value: w.tensor_const(value, dt)  # noqa: E731
    e = w.emit("Erf", [w.emit("Mul", [w.value(x), k(1 / math.sqrt(2))], shape, dt)], shape, dt)
    y = w.emit("Mul", [w.value(x), w.emit("Add", [e, k(1.0)], shape, dt)], shape, dt)
    return _set(w, node, w.emit("Mul", [y, k(0.5)], shape, dt))


def _reduce(op_type):
    def rule(w, node):
        x = node.inputs[0]
        axis = node.attrs.get("axis")
        axes = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        keep = bool(node.attrs.get("keepdims", False))
        args = [w.value(x), w.const(tuple(int(i) for i in axes)), w.const(keep)]
        if op_type == "ReduceSum":  # its skip_mode: False reduces every axis for ()
            args.append(w.const(False))
        return _set(w, node, w.emit(op_type, args, *_out(w, node)))
    return rule


RULES = {
    **{name: _unary(t) for name, t in {
        "relu": "ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh", "exp": "Exp", "log": "Log",
        "sqrt": "Sqrt", "rsqrt": "Rsqrt", "abs": "Abs", "neg": "Neg", "square": "Square",
        "relu6": "ReLU6", "hardswish": "HSwish", "sin": "Sin", "cos": "Cos",
        "floor": "Floor"}.items()},
    **{name: _binary(t) for name, t in {
        "add": "Add", "sub": "Sub", "mul": "Mul", "div": "RealDiv", "maximum": "Maximum",
        "minimum": "Minimum"}.items()},
    "dense": _dense, "matmul": _matmul, "bias_add": _bias_add, "conv2d": _conv2d,
    "max_pool2d": _max_pool, "avg_pool2d": _avg_pool, "nn_normalize": _normalize,
    "softmax": _softmax, "log_softmax": _log_softmax, "reshape": _reshape,
    "transpose": _transpose, "concat": _concat, "gelu": _gelu, "getitem": _getitem,
    "scaled_dot_product_attention": _attention, "expand_dims": _expand_dims,
    "packed_self_attention": _packed_attention,
    "layer_norm": lambda w, node: _layer_norm(w, node, [len(node.inputs[0].shape) - 1]),
    "squeeze": _squeeze, "cast": _cast, "pow": _binary("Pow"), "silu": _silu,
    "leaky_relu": _leaky_relu, "split": _split, "stack": _stack, "tile": _tile,
    "hardsigmoid": _unary("HSigmoid"),
    "mean": _reduce("ReduceMean"), "sum": _reduce("ReduceSum"), "amax": _reduce("ReduceMax"),
}


def to_mindir(graph):
    """The mind_ir.ModelProto of a captured graph."""
    if graph.batch_consts:
        raise UnsupportedOpError("export: a constant whose size follows the dynamic batch (an "
                                 "RNN's initial state) cannot be written as MINDIR; export "
                                 "with a fixed input shape.")
    w = _Writer(graph)
    m = w.model
    m.ir_version, m.producer_name, m.model_version = "1.1", "MindSpore", "2.10.0"
    m.little_endian, m.mind_ir_version = True, 3
    for v in graph.inputs:
        name = f"{w.g.name}:{v.name}"
        vi = w.g.input.add(name=name)
        w.tensor(vi.tensor.add(), _shape(w, v), dtype=v.dtype.np_dtype)
        w.names[id(v)] = name
    for v in graph.params.values():
        name = f"{w.g.name}:{v.name}"
        w.tensor(w.g.parameter.add(), np.ascontiguousarray(v.data), name, data=True)
        w.g.parameter[-1].ref_key = v.name
        w.names[id(v)] = name
    for v in graph.consts:
        w.names[id(v)] = w.const(np.ascontiguousarray(v.data))
    # reshapes of a Parameter that only feed BatchNorm (which takes the (C,) Parameter)
    folded = {id(n) for n in graph.nodes if n.op == "reshape"
              and all(c.op == "nn_normalize" for c in graph.nodes
                      if any(i is n.outputs[0] for i in c.tensor_inputs()))
              and isinstance(n.inputs[0], Value) and n.inputs[0].kind == "param"}
    for node in graph.nodes:
        w.node = node
        if id(node) in folded:
            continue
        rule = RULES.get(node.op)
        if rule is None:
            raise UnsupportedOpError(f"export: op '{node.op}' (in {node.scope}) has no MINDIR "
                                     f"form in cellgrad's exporter.", op=node.op,
                                     scope=node.scope)
        rule(w, node)
    w.node = None
    if graph.outputs_tuple or len(graph.outputs) != 1:
        raise UnsupportedOpError("export: MINDIR export of a network returning a tuple is not "
                                 "supported; return one Tensor.")
    out = graph.outputs[0]
    if out.kind != "node":
        raise UnsupportedOpError("export: the network returns an input, Parameter or constant "
                                 "unchanged; MINDIR needs an op to produce the output.")
    name = w.value(out)
    vi = w.g.output.add(name=name)
    w.tensor(vi.tensor.add(), _shape(w, out), dtype=out.dtype.np_dtype)
    return m
