"""The ONNX converters (opset 17): one per cellgrad op, `fn(b, node)` emitting ONNX nodes
through the builder `b` (`cellgrad_jit.onnx_export`). An attribute ONNX cannot express makes
the converter call `b.fail(what)`."""

import math

import numpy as np

from cellgrad_jit.ir import Value

__all__ = ["CONVERTERS", "onnx_type"]


def _first_tensor(node):
    return next((v for v in node.inputs if isinstance(v, Value)), None)


def _args(b, node):
    like = _first_tensor(node)
    return [b.value(v, like) for v in node.inputs]


def _unary(op_type, **attrs):
    def convert(b, node):
        return b.emit(op_type, _args(b, node)[:1], [b.out()], **attrs)
    return convert


def _binary(op_type):
    def convert(b, node):
        dt = node.outputs[0].dtype.np_dtype
        names = []
        for v in node.inputs:
            name = b.value(v, node.outputs[0])
            if isinstance(v, Value) and v.dtype.np_dtype != dt:
                name = b.emit("Cast", [name], to=onnx_type(dt))
            names.append(name)
        return b.emit(op_type, names, [b.out()])
    return convert


def _compare(op_type, negate=False):
    def convert(b, node):
        tensors = [v for v in node.inputs if isinstance(v, Value)]
        dt = np.result_type(*[v.dtype.np_dtype for v in tensors])
        names = []
        for v in node.inputs:
            name = b.value(v, tensors[0])
            if isinstance(v, Value) and v.dtype.np_dtype != dt:
                name = b.emit("Cast", [name], to=onnx_type(dt))
            names.append(name)
        if negate:
            return b.emit("Not", [b.emit(op_type, names)], [b.out()])
        return b.emit(op_type, names, [b.out()])
    return convert


def onnx_type(np_dtype):
    from onnx import helper
    return helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype))


def _scalar(b, node, value):
    return b.const(np.asarray(value, node.outputs[0].dtype.np_dtype))


def _composite(build):
    """A converter from a formula on ONNX names: build(b, node, x, k) where k(value) makes a
    scalar constant of the output's dtype; the last emitted node writes the output."""
    def convert(b, node):
        x = _args(b, node)[0]
        result = build(b, node, x, lambda value: _scalar(b, node, value))
        return b.emit("Identity", [result], [b.out()])
    return convert


def _gelu(b, node, x, k):
    if node.attrs.get("approximate", "none") == "tanh":
        cube = b.emit("Mul", [b.emit("Mul", [x, x]), x])
        inner = b.emit("Mul", [b.emit("Add", [x, b.emit("Mul", [cube, k(0.044715)])]),
                               k(math.sqrt(2 / math.pi))])
        half = b.emit("Add", [b.emit("Tanh", [inner]), k(1.0)])
    else:
        half = b.emit("Add", [b.emit("Erf", [b.emit("Div", [x, k(math.sqrt(2.0))])]), k(1.0)])
    return b.emit("Mul", [b.emit("Mul", [x, half]), k(0.5)])


def _softplus(b, node, x, k):
    beta, threshold = float(node.attrs["beta"]), float(node.attrs["threshold"])
    bx = b.emit("Mul", [x, k(beta)])
    soft = b.emit("Div", [b.emit("Softplus", [bx]), k(beta)])
    return b.emit("Where", [b.emit("Greater", [bx, k(threshold)]), x, soft])


_FORMULAS = {
    "rsqrt": lambda b, n, x, k: b.emit("Reciprocal", [b.emit("Sqrt", [x])]),
    "square": lambda b, n, x, k: b.emit("Mul", [x, x]),
    "silu": lambda b, n, x, k: b.emit("Mul", [x, b.emit("Sigmoid", [x])]),
    "relu6": lambda b, n, x, k: b.emit("Clip", [x, k(0), k(6)]),
    "hardsigmoid": lambda b, n, x, k: b.emit("HardSigmoid", [x], alpha=1 / 6, beta=0.5),
    "log1p": lambda b, n, x, k: b.emit("Log", [b.emit("Add", [x, k(1)])]),
    "expm1": lambda b, n, x, k: b.emit("Sub", [b.emit("Exp", [x]), k(1)]),
    "exp2": lambda b, n, x, k: b.emit("Pow", [k(2), x]),
    "log2": lambda b, n, x, k: b.emit("Div", [b.emit("Log", [x]), k(math.log(2))]),
    "log10": lambda b, n, x, k: b.emit("Div", [b.emit("Log", [x]), k(math.log(10))]),
    "gelu": _gelu,
    "softplus": _softplus,
    "leaky_relu": lambda b, n, x, k: b.emit("LeakyRelu", [x], alpha=float(n.attrs["alpha"])),
    "elu": lambda b, n, x, k: b.emit("Elu", [x], alpha=float(n.attrs["alpha"])),
}


def _matmul(b, node):
    a, w = _args(b, node)[:2]
    return b.emit("MatMul", [a, w], [b.out()])


def _dense(b, node):
    args = _args(b, node)
    x, w = node.inputs[0], node.inputs[1]
    if len(w.shape) != 2:
        b.fail(f"a weight of shape {list(w.shape)} (expected (out, in))")
    if len(x.shape) == 2:
        return b.emit("Gemm", args, [b.out()], transB=1)
    y = b.emit("MatMul", [args[0], b.emit("Transpose", [args[1]], perm=[1, 0])])
    if len(args) == 3:
        return b.emit("Add", [y, args[2]], [b.out()])
    return b.emit("Identity", [y], [b.out()])


def _bias_add(b, node):
    x, bias = _args(b, node)[:2]
    ndim, channel = len(node.inputs[0].shape), node.attrs["channel"] % len(node.inputs[0].shape)
    shape = [1] * ndim
    shape[channel] = -1
    return b.emit("Add", [x, b.emit("Reshape", [bias, b.ints(shape)])], [b.out()])


def _pads(pads):
    """cellgrad's (before, after) per spatial axis -> ONNX's all befores, then all afters."""
    return list(pads[0::2]) + list(pads[1::2])


def _conv2d(b, node):
    args = _args(b, node)
    a = node.attrs
    return b.emit("Conv", args, [b.out()], pads=_pads(a["pads"]), strides=list(a["stride"]),
                  dilations=list(a["dilation"]), group=int(a["groups"]))


def _max_pool(b, node):
    a = node.attrs
    if a.get("indices") is not None or len(node.outputs) != 1:
        b.fail("the indices output (return_indices=True)")
    x = _args(b, node)[0]
    expect = _pool_out(node.inputs[0].shape, a, a.get("dilation"))
    if tuple(expect) != tuple(a["out_size"]):
        b.fail("ceil_mode windows")
    return b.emit("MaxPool", [x], [b.out()], kernel_shape=list(a["kernel"]),
                  strides=list(a["stride"]), pads=_pads(a["pads"]),
                  dilations=list(a.get("dilation") or (1,) * len(a["kernel"])))


def _pool_out(shape, a, dilation=None):
    dilation = dilation or (1,) * len(a["kernel"])
    return [(shape[2 + i] + a["pads"][2 * i] + a["pads"][2 * i + 1]
             - dilation[i] * (k - 1) - 1) // s + 1
            for i, (k, s) in enumerate(zip(a["kernel"], a["stride"]))]


def _avg_pool(b, node):
    a = node.attrs
    x = _args(b, node)[0]
    if tuple(_pool_out(node.inputs[0].shape, a)) != tuple(a["out_size"]):
        b.fail("ceil_mode windows")
    divisor = np.asarray(a["divisor"])
    kernel = float(np.prod(a["kernel"]))
    if np.all(divisor == kernel):
        include = 1
    else:
        # the divisor counts the taps inside the input: count_include_pad=False
        include = 0
        inside = _taps_inside(node.inputs[0].shape[2:], a)
        if divisor.shape != inside.shape or not np.all(divisor == inside):
            b.fail("a divisor_override or a divisor ONNX's AveragePool does not compute")
    return b.emit("AveragePool", [x], [b.out()], kernel_shape=list(a["kernel"]),
                  strides=list(a["stride"]), pads=_pads(a["pads"]), count_include_pad=include)


def _taps_inside(sizes, a):
    counts = []
    for i, size in enumerate(sizes):
        n = a["out_size"][i]
        starts = np.arange(n) * a["stride"][i] - a["pads"][2 * i]
        ends = starts + a["kernel"][i]
        counts.append(np.minimum(ends, size) - np.maximum(starts, 0))
    out = counts[0]
    for c in counts[1:]:
        out = np.multiply.outer(out, c)
    return np.maximum(out, 1).astype(np.float64)


def _adaptive_pool(b, node):
    a = node.attrs
    if a.get("indices") is not None or len(node.outputs) != 1:
        b.fail("the indices output (return_indices=True)")
    x = _args(b, node)[0]
    mode = a["mode"]
    if mode not in ("avg", "max"):
        b.fail(f"mode {mode!r}")
    sizes, outs = node.inputs[0].shape[2:], a["out_size"]
    if all(o == 1 for o in outs):
        kind = "GlobalAveragePool" if mode == "avg" else "GlobalMaxPool"
        return b.emit(kind, [x], [b.out()])
    if any(s is None or s % o for s, o in zip(sizes, outs)):
        b.fail(f"output size {tuple(outs)} that does not divide the input's {tuple(sizes)}")
    kernel = [s // o for s, o in zip(sizes, outs)]
    kind = "AveragePool" if mode == "avg" else "MaxPool"
    return b.emit(kind, [x], [b.out()], kernel_shape=kernel, strides=kernel)


def _normalize(b, node):
    """(x - mean) / sqrt(var + eps) * w + b: the statistics are the Parameters (or constants)
    of the attributes in eval mode, or computed over `axes` (layer/group norm, training)."""
    x, w, bias = _args(b, node)[:3]
    a = node.attrs
    k = lambda value: _scalar(b, node, value)  # noqa: E731
    shape = node.inputs[0].shape
    stat = [1 if i in a["axes"] else -1 for i in range(len(shape))]  # (1, C, 1, ...) for BN
    if a.get("per_channel"):  # batch norm's (C,) weight and bias, as the statistics' shape
        w = b.emit("Reshape", [w, b.ints(stat)])
        bias = b.emit("Reshape", [bias, b.ints(stat)])
    if a["training"]:
        axes = [int(i) for i in a["axes"]]
        mean = b.emit("ReduceMean", [x], axes=axes, keepdims=1)
        centered = b.emit("Sub", [x, mean])
        var = b.emit("ReduceMean", [b.emit("Mul", [centered, centered])], axes=axes,
                     keepdims=1)
    else:
        mean = b.emit("Reshape", [b.value(a["mean"]), b.ints(stat)])
        var = b.emit("Reshape", [b.value(a["var"]), b.ints(stat)])
        centered = b.emit("Sub", [x, mean])
    y = b.emit("Div", [centered, b.emit("Sqrt", [b.emit("Add", [var, k(float(a["eps"]))])])])
    return b.emit("Add", [b.emit("Mul", [y, w]), bias], [b.out()])


def _softmax(op_type):
    def convert(b, node):
        return b.emit(op_type, _args(b, node)[:1], [b.out()], axis=int(node.attrs["axis"]))
    return convert


def _reshape(b, node):
    """A dimension that follows the batch is 0 in the target (copy the input's) where the
    input has it at the same place, else -1 (once); a target that fixes it is refused."""
    x = _args(b, node)[0]
    target = list(node.attrs["shape"])
    src, out = node.inputs[0], node.outputs[0]
    src_dyn, out_dyn = b.graph.dynamic.get(id(src), {}), b.graph.dynamic.get(id(out), {})
    if out_dyn:  # a -1 of a fixed size is that size: the -1 may be needed below
        target = [out.shape[k] if d == -1 and k not in out_dyn else d
                  for k, d in enumerate(target)]
    for j in out_dyn:
        if target[j] == -1:
            continue
        if j in src_dyn and target[j] == src.shape[j]:
            target[j] = 0
        elif -1 not in target:
            target[j] = -1
        else:
            b.fail(f"reshape of a dynamic batch to {tuple(node.attrs['shape'])}")
    if src_dyn and not out_dyn:
        b.fail(f"reshape of a dynamic batch to {tuple(node.attrs['shape'])}")
    return b.emit("Reshape", [x, b.ints(target)], [b.out()])


def _axes_of(node, ndim):
    axis = node.attrs.get("axis")
    if axis is None:
        return list(range(ndim))
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    return [int(i) % max(ndim, 1) for i in axes]


def _reduce(op_type):
    def convert(b, node):
        x = _args(b, node)[0]
        axes = _axes_of(node, len(node.inputs[0].shape))
        keep = int(bool(node.attrs.get("keepdims", False)))
        if not axes:
            return b.emit("Identity", [x], [b.out()])
        if op_type == "ReduceSum":
            return b.emit(op_type, [x, b.ints(axes)], [b.out()], keepdims=keep)
        return b.emit(op_type, [x], [b.out()], axes=axes, keepdims=keep)
    return convert


def _squeeze(b, node):
    x = _args(b, node)[0]
    shape = node.inputs[0].shape
    axis = node.attrs.get("axis")
    if axis is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = [int(i) % len(shape) for i in ((axis,) if isinstance(axis, int) else axis)]
        axes = [i for i in axes if shape[i] == 1]
    if not axes:
        return b.emit("Identity", [x], [b.out()])
    return b.emit("Squeeze", [x, b.ints(axes)], [b.out()])


def _expand_dims(b, node):
    x = _args(b, node)[0]
    axis = int(node.attrs["axis"]) % (len(node.inputs[0].shape) + 1)
    return b.emit("Unsqueeze", [x, b.ints([axis])], [b.out()])


def _transpose(b, node):
    return b.emit("Transpose", _args(b, node)[:1], [b.out()],
                  perm=[int(p) for p in node.attrs["perm"]])


def _concat(b, node):
    args = [b.value(v) for v in node.inputs if isinstance(v, Value)]
    return b.emit("Concat", args, [b.out()], axis=int(node.attrs["axis"]))


def _stack(b, node):
    axis = int(node.attrs["axis"]) % (len(node.outputs[0].shape))
    axes = b.ints([axis])
    parts = [b.emit("Unsqueeze", [b.value(v), axes]) for v in node.inputs
             if isinstance(v, Value)]
    return b.emit("Concat", parts, [b.out()], axis=axis)


def _split(b, node):
    x = _args(b, node)[0]
    axis = int(node.attrs["axis"]) % len(node.inputs[0].shape)
    sizes = [v.shape[axis] for v in node.outputs]
    outs = [b.out(i) for i in range(len(node.outputs))]
    return b.emit("Split", [x, b.ints(sizes)], outs, axis=axis)


def _getitem(b, node):
    """Basic indexing: ints, slices, None and Ellipsis (Tensor indices are data)."""
    x = _args(b, node)[0]
    shape = list(node.inputs[0].shape)
    index = node.attrs["index"]
    index = index if isinstance(index, tuple) else (index,)
    if any(not (i is None or i is Ellipsis or isinstance(i, (int, np.integer, slice)))
           for i in index):
        b.fail("an index that is not made of ints, slices, None and Ellipsis")
    used = sum(1 for i in index if i is not None and i is not Ellipsis)
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + (slice(None),) * (len(shape) - used) + index[at + 1:]
    else:
        index = index + (slice(None),) * (len(shape) - used)
    starts, ends, axes, steps, drop, insert = [], [], [], [], [], []
    dim = out_dim = 0
    big = np.iinfo(np.int64).max
    for i in index:
        if i is None:
            insert.append(out_dim)
            out_dim += 1
            continue
        if isinstance(i, slice):
            if i != slice(None):
                # Python's slice semantics on the run-time size (a dynamic batch included)
                step = 1 if i.step is None else int(i.step)
                start = (0 if step > 0 else big) if i.start is None else int(i.start)
                stop = (big if step > 0 else -big - 1) if i.stop is None else int(i.stop)
                starts.append(start), ends.append(stop), axes.append(dim), steps.append(step)
            out_dim += 1
        else:
            j = int(i)
            if id(node.inputs[0]) not in b.graph.dynamic or dim not in \
                    b.graph.dynamic[id(node.inputs[0])]:
                j %= shape[dim]
            starts.append(j), ends.append(big if j == -1 else j + 1), axes.append(dim)
            steps.append(1)
            drop.append(dim)
        dim += 1
    y = x
    if axes:
        y = b.emit("Slice", [y, b.ints(starts), b.ints(ends), b.ints(axes), b.ints(steps)])
    if drop:
        y = b.emit("Squeeze", [y, b.ints(drop)])
    if insert:
        y = b.emit("Unsqueeze", [y, b.ints(insert)])
    return b.emit("Identity", [y], [b.out()])


def _cast(b, node):
    if node.attrs.get("bf16"):
        b.fail("bfloat16")
    return b.emit("Cast", _args(b, node)[:1], [b.out()], to=onnx_type(node.attrs["np_dtype"]))


def _shape_op(op_type, attr):
    def convert(b, node):
        x = _args(b, node)[0]
        values = list(node.attrs[attr]) if attr in node.attrs else list(node.inputs[1])
        return b.emit(op_type, [x, b.ints(values)], [b.out()])
    return convert


def _broadcast_to(b, node):
    shape = list(node.outputs[0].shape)
    if id(node.outputs[0]) in b.graph.dynamic:
        b.fail("broadcast_to a shape with the dynamic batch in it")
    return b.emit("Expand", [b.value(node.inputs[0]), b.ints(shape)], [b.out()])


def _clamp(b, node):
    x = b.value(node.inputs[0])
    bounds = []
    for v in node.inputs[1:3]:
        bounds.append("" if v is None else b.value(v, node.inputs[0]))
    return b.emit("Clip", [x] + bounds, [b.out()])


def _where(b, node):
    c, x, y = [b.value(v, node.outputs[0]) for v in node.inputs[:3]]
    return b.emit("Where", [c, x, y], [b.out()])


def _embedding(b, node):
    ids = node.attrs["ids"]
    if not isinstance(ids, Value):
        b.fail("its indices are not a Tensor of the graph")
    w = _args(b, node)[0]
    return b.emit("Gather", [w, b.value(ids)], [b.out()], axis=0)


def _pow(b, node):
    base, exp = node.inputs[:2]
    if not isinstance(base, Value):
        b.fail("a Python number as the base")
    return _binary("Pow")(b, node)


def _attention(b, node):
    """softmax(q @ k^T * scale + mask) @ v, as cellgrad's kernel computes it."""
    a = node.attrs
    if a.get("keep_prob", 1.0) < 1.0:
        b.fail("attention dropout")
    q, k, v, mask = (node.inputs + [None] * 4)[:4]
    rank = len(k.shape)
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    scores = b.emit("MatMul", [b.value(q), b.emit("Transpose", [b.value(k)], perm=perm)])
    scores = b.emit("Mul", [scores, _scalar(b, node, float(a["scale"]))])
    if mask is not None:
        scores = b.emit("Add", [scores, b.value(mask, node.outputs[0])])
    weights = b.emit("Softmax", [scores], axis=-1)
    if a.get("need_weights"):
        b.emit("Identity", [weights], [b.out(1)])
    return b.emit("MatMul", [weights, b.value(v)], [b.out(0)])


def _layer_norm(b, node):
    """cellgrad-ops-nn's one-op layer norm over the last axis: ONNX's LayerNormalization
    (opset 17) with its scale and bias."""
    x, w, bias = (node.inputs + [None] * 3)[:3]
    c = x.shape[-1]
    dt = x.dtype.np_dtype
    w = b.value(w) if w is not None else b.const(np.ones(c, dt))
    bias = b.value(bias) if bias is not None else b.const(np.zeros(c, dt))
    return b.emit("LayerNormalization", [b.value(x), w, bias], [b.out()], axis=-1,
                  epsilon=float(node.attrs["eps"]))


def _packed_attention(b, node):
    """Self-attention on one projection (N, L, 3E) or (L, N, 3E), q, k, v side by side and
    `heads` heads each: split into heads, softmax(q @ k^T * scale + mask) @ v, heads merged
    back to (N, L, E) or (L, N, E); with `need_weights` the probabilities too."""
    a = node.attrs
    if a.get("keep_prob", 1.0) < 1.0:
        b.fail("attention dropout")
    qkv, mask = (node.inputs + [None] * 2)[:2]
    heads, e3 = int(a["heads"]), qkv.shape[-1]
    e = e3 // 3
    x = b.value(qkv)
    if not a["batch_first"]:
        x = b.emit("Transpose", [x], perm=[1, 0, 2])
    x = b.emit("Reshape", [x, b.ints([0, 0, 3, heads, e // heads])])
    x = b.emit("Transpose", [x], perm=[2, 0, 3, 1, 4])  # (3, N, H, L, D)
    q, k, v = (b.emit("Gather", [x, b.const(np.asarray(i, np.int64))], axis=0)
               for i in range(3))
    scores = b.emit("MatMul", [q, b.emit("Transpose", [k], perm=[0, 1, 3, 2])])
    scores = b.emit("Mul", [scores, _scalar(b, node, float(a["scale"]))])
    if mask is not None:
        scores = b.emit("Add", [scores, b.value(mask, node.outputs[0])])
    weights = b.emit("Softmax", [scores], axis=-1)
    out = b.emit("Transpose", [b.emit("MatMul", [weights, v])], perm=[0, 2, 1, 3])
    out = b.emit("Reshape", [out, b.ints([0, 0, e])])  # (N, L, E)
    if a.get("need_weights"):
        b.emit("Identity", [weights], [b.out(1)])
    if not a["batch_first"]:
        return b.emit("Transpose", [out], [b.out(0)], perm=[1, 0, 2])
    return b.emit("Identity", [out], [b.out(0)])


def _recurrent(op_type, order, **extra):
    """One recurrent layer (cellgrad's x (T, B, in), h0[, c0], w_ih, w_hh[, b_ih, b_hh]) as
    ONNX's `op_type`, its gate blocks reordered from cellgrad's to ONNX's by `order`."""
    states = 2 if op_type == "LSTM" else 1

    def convert(b, node):
        a = node.attrs
        if a.get("lengths") is not None:
            b.fail("per-sequence lengths")
        x, *rest = node.inputs
        init, (w_ih, w_hh), biases = rest[:states], rest[states:states + 2], \
            [v for v in rest[states + 2:states + 4] if v is not None]
        zero = b.ints([0])

        def gates(v):
            if len(order) == 1:
                return b.value(v)
            size = int(v.shape[0]) // len(order)
            parts = b.emit("Split", [b.value(v), b.ints([size] * len(order))],
                           [b.fresh("gate") for _ in order], axis=0)
            return b.emit("Concat", [parts[i] for i in order], axis=0)

        inputs = [b.value(x), b.emit("Unsqueeze", [gates(w_ih), zero]),
                  b.emit("Unsqueeze", [gates(w_hh), zero])]
        if biases:
            bias = b.emit("Concat", [gates(v) for v in biases], axis=0)
            inputs.append(b.emit("Unsqueeze", [bias, zero]))
        else:
            inputs.append("")
        inputs.append("")  # sequence_lens
        inputs += [b.emit("Unsqueeze", [b.value(v), zero]) for v in init]
        outs = b.emit(op_type, inputs, [b.fresh("Y") for _ in range(1 + states)],
                      hidden_size=int(w_hh.shape[1]),
                      direction="reverse" if a.get("reverse") else "forward", **extra)
        b.emit("Squeeze", [outs[0], b.ints([1])], [b.out(0)])
        for i in range(states):
            b.emit("Squeeze", [outs[1 + i], zero], [b.out(1 + i)])
    return convert


def _int64(b, v):
    """An index input as int64 (what ONNX's Gather/CumSum take)."""
    if isinstance(v, Value):
        name = b.value(v)
        return name if v.dtype.np_dtype == np.int64 else b.emit("Cast", [name], to=7)
    return b.const(np.asarray(v, np.int64))


def _gather(b, node):
    return b.emit("Gather", [_args(b, node)[0], _int64(b, node.attrs["indices"])], [b.out()],
                  axis=int(node.attrs["axis"]))


def _cumsum(b, node):
    axis = node.attrs["axis"] if "axis" in node.attrs else node.inputs[1]
    return b.emit("CumSum", [b.value(node.inputs[0]), _int64(b, axis)], [b.out()])


def _flip(b, node):
    axis = node.attrs["axis"]
    axes = [int(axis)] if isinstance(axis, (int, np.integer)) else [int(i) for i in axis]
    low = np.iinfo(np.int64).min
    return b.emit("Slice", [b.value(node.inputs[0]), b.ints([-1] * len(axes)),
                            b.ints([low] * len(axes)), b.ints(axes), b.ints([-1] * len(axes))],
                  [b.out()])


def _arg(op_type):
    def convert(b, node):
        x = b.value(node.inputs[0])
        axis, keep = node.attrs.get("axis"), int(bool(node.attrs.get("keepdims", False)))
        if axis is None:
            x, axis = b.emit("Reshape", [x, b.ints([-1])]), 0
        y = b.emit(op_type, [x], axis=int(axis), keepdims=keep if node.attrs.get("axis")
                   is not None else 0)
        if node.attrs.get("axis") is None and keep:
            y = b.emit("Reshape", [y, b.ints([1] * len(node.inputs[0].shape))])
        return b.emit("Cast", [y], [b.out()], to=onnx_type(node.outputs[0].dtype.np_dtype))
    return convert


def _masked_fill(b, node):
    x, mask, value = node.inputs[:3]
    return b.emit("Where", [b.value(mask), b.value(value, x), b.value(x)], [b.out()])


def _pad(b, node):
    a = node.attrs
    modes = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}
    if a["mode"] not in modes:
        b.fail(f"padding mode {a['mode']!r}")
    if any(p < 0 for pair in a["pads"] for p in pair):
        b.fail("negative padding (cropping)")
    pads = [int(p[0]) for p in a["pads"]] + [int(p[1]) for p in a["pads"]]
    inputs = [b.value(node.inputs[0]), b.ints(pads)]
    if a["mode"] == "constant" and a.get("value") is not None:
        inputs.append(b.const(np.asarray(a["value"], node.outputs[0].dtype.np_dtype)))
    return b.emit("Pad", inputs, [b.out()], mode=modes[a["mode"]])


def _topk(b, node):
    a = node.attrs
    values, indices = b.emit("TopK", [b.value(node.inputs[0]), b.ints([int(a["k"])])],
                             [b.out(0), b.fresh("indices")], axis=int(a.get("axis", -1)),
                             largest=int(bool(a.get("largest", True))),
                             sorted=int(bool(a.get("sorted", True))))
    b.emit("Cast", [indices], [b.out(1)], to=onnx_type(node.outputs[1].dtype.np_dtype))
    return values


def _identity(b, node):
    return b.emit("Identity", _args(b, node)[:1], [b.out()])


CONVERTERS = {
    **{name: _unary(t) for name, t in {
        "abs": "Abs", "neg": "Neg", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "sin": "Sin",
        "cos": "Cos", "tanh": "Tanh", "sigmoid": "Sigmoid", "relu": "Relu", "floor": "Floor",
        "ceil": "Ceil", "reciprocal": "Reciprocal", "sign": "Sign", "nn_erf": "Erf",
        "Erf": "Erf", "acos": "Acos", "asin": "Asin", "atan": "Atan", "sinh": "Sinh",
        "cosh": "Cosh", "logical_not": "Not", "isnan": "IsNaN", "isinf": "IsInf",
        "hardswish": "HardSwish", "round": "Round"}.items()},
    **{name: _composite(f) for name, f in _FORMULAS.items()},
    **{name: _binary(t) for name, t in {
        "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "maximum": "Max",
        "minimum": "Min"}.items()},
    **{name: _compare(t) for name, t in {
        "eq": "Equal", "lt": "Less", "gt": "Greater", "le": "LessOrEqual",
        "ge": "GreaterOrEqual", "logical_and": "And", "logical_or": "Or",
        "logical_xor": "Xor"}.items()},
    "ne": _compare("Equal", negate=True),
    "pow": _pow,
    "matmul": _matmul, "dense": _dense, "bias_add": _bias_add,
    "conv2d": _conv2d, "max_pool2d": _max_pool, "avg_pool2d": _avg_pool,
    "adaptive_pool2d": _adaptive_pool, "nn_normalize": _normalize,
    "layer_norm": _layer_norm, "packed_self_attention": _packed_attention,
    "softmax": _softmax("Softmax"), "log_softmax": _softmax("LogSoftmax"),
    "reshape": _reshape, "squeeze": _squeeze, "expand_dims": _expand_dims,
    "transpose": _transpose, "concat": _concat, "stack": _stack, "split": _split,
    "getitem": _getitem, "cast": _cast, "broadcast_to": _broadcast_to,
    "tile": _shape_op("Tile", "multiples"), "clamp": _clamp, "where": _where,
    "embedding": _embedding, "identity": _identity,
    "scaled_dot_product_attention": _attention,
    "gather": _gather, "cumsum": _cumsum, "flip": _flip, "argmax": _arg("ArgMax"),
    "argmin": _arg("ArgMin"), "masked_fill": _masked_fill, "pad": _pad, "topk": _topk,
    # cellgrad's gates: LSTM i, f, g, o; GRU r, z, n (ONNX: i, o, f, c and z, r, h)
    "lstm_layer": _recurrent("LSTM", (0, 3, 1, 2)),
    "gru_layer": _recurrent("GRU", (1, 0, 2), linear_before_reset=1),
    "rnn_tanh_layer": _recurrent("RNN", (0,), activations=["Tanh"]),
    "rnn_relu_layer": _recurrent("RNN", (0,), activations=["Relu"]),
    "sum": _reduce("ReduceSum"), "mean": _reduce("ReduceMean"), "amax": _reduce("ReduceMax"),
    "amin": _reduce("ReduceMin"), "prod": _reduce("ReduceProd"),
}
