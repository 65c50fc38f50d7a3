"""Leftover Primitives of `mindspore.ops`: `LogSpace`, `AssignSub`, `InTopK`,
`ConfusionMatrix`, `EditDistance`, `Assert`, `DataFormatVecPermute`, `Coalesce`/`coalesce`,
and the PyNative loops `WhileLoop`, `ForiLoop`, `Scan` (plain Python loops, differentiable
through whatever their bodies compute)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float16, float32, float64, int32, int64, to_dtype
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["LogSpace", "AssignSub", "InTopK", "ConfusionMatrix", "EditDistance", "Assert",
           "DataFormatVecPermute", "Coalesce", "coalesce", "WhileLoop", "ForiLoop", "Scan",
           "NoRepeatNGram", "Morph", "PyFunc", "NonMaxSuppressionWithOverlaps"]


def _array(value):
    return value._data if isinstance(value, TensorBuffer) else np.asarray(value)


def _tensor(op, name, value, dtypes=None):
    if not isinstance(value, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")
    if dtypes is not None and value.dtype not in dtypes:
        allowed = ", ".join(f"Tensor[{d}]" for d in dtypes)
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{{{allowed}}}, but got Tensor[{value.dtype}].")


class LogSpace(Primitive):
    """Mirrors `mindspore.ops.LogSpace(steps=10, base=10, dtype=float32)(start, end)`:
    `base ** linspace(start, end, steps)`."""

    @prim_attr_register
    def __init__(self, steps=10, base=10, dtype=float32):
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"For 'LogSpace', 'steps' must be a non-negative int, but got "
                             f"{steps}.")
        if isinstance(base, bool) or not isinstance(base, int):
            raise TypeError(f"For 'LogSpace', 'base' must be an int, but got "
                            f"{type(base).__name__}.")
        dtype = to_dtype(dtype)
        if dtype not in (float16, float32, float64):
            raise TypeError(f"For 'LogSpace', the 'dtype' should be one of [mindspore.float16, "
                            f"mindspore.float32, mindspore.float64], but got '{dtype!r}'.")
        self.steps, self.base, self.dtype = steps, base, dtype

    def __call__(self, start, end):
        lo, hi = (float(_array(v).reshape(-1)[0]) if np.size(_array(v)) == 1 else None
                  for v in (start, end))
        if lo is None or hi is None:
            raise ValueError("For 'LogSpace', 'start' and 'end' must be scalars (0-D Tensors).")
        out = np.power(float(self.base), np.linspace(lo, hi, self.steps))
        return make_tensor(out.astype(_np(self.dtype)), None, 0, self.dtype)


def _np(dtype):
    from cellgrad.dtype import dtype_to_nptype

    return dtype_to_nptype(dtype)


class AssignSub(Primitive):
    """Mirrors `mindspore.ops.AssignSub()(variable, value)`: `ops.assign_sub`, in place."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, variable, value):
        from cellgrad.ops._fn_leftovers import assign_sub

        return assign_sub(variable, value)


class InTopK(Primitive):
    """Mirrors `mindspore.ops.InTopK(k)(x1, x2)`: whether `x1[i, x2[i]]` is among the `k`
    largest of row `i` (fewer than `k` values are strictly larger; non-finite: False)."""

    @prim_attr_register
    def __init__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For 'InTopK', the type of 'k' should be 'int', but got type "
                            f"'{type(k).__name__}'.")
        self.k = k

    def __call__(self, x1, x2):
        _tensor("InTopK", "x1", x1, (float16, float32))
        _tensor("InTopK", "x2", x2, (int32, int64))
        if x1.ndim != 2 or x2.ndim != 1 or x1.shape[0] != x2.shape[0]:
            raise ValueError(f"For 'InTopK', 'x1' must be 2-D and 'x2' 1-D with x1's first "
                             f"dimension, but got shapes {tuple(x1.shape)} and "
                             f"{tuple(x2.shape)}.")
        a, idx = x1._data, x2._data.astype(np.int64)
        ok = (idx >= 0) & (idx < a.shape[1])
        target = a[np.arange(a.shape[0]), np.where(ok, idx, 0)]
        larger = (a > target[:, None]).sum(axis=1)
        out = ok & np.isfinite(target) & (larger < self.k)
        return make_tensor(out, None, 0, bool_)


class ConfusionMatrix(Primitive):
    """Mirrors `mindspore.ops.ConfusionMatrix(num_classes, dtype='int32')(labels,
    predictions, weights=None)`: `out[labels[i], predictions[i]] += weights[i]` (or 1)."""

    @prim_attr_register
    def __init__(self, num_classes, dtype="int32"):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"For 'ConfusionMatrix', 'num_classes' must be a positive int, but "
                             f"got {num_classes}.")
        if not isinstance(dtype, str):
            raise TypeError(f"For 'ConfusionMatrix', 'dtype' must be a str, but got "
                            f"{type(dtype).__name__}.")
        self.num_classes, self.dtype = num_classes, to_dtype(dtype)

    def __call__(self, labels, predictions, weights=None):
        _tensor("ConfusionMatrix", "labels", labels)
        _tensor("ConfusionMatrix", "predictions", predictions)
        lab, pred = labels._data.reshape(-1), predictions._data.reshape(-1)
        if lab.shape != pred.shape or labels.ndim != 1:
            raise ValueError(f"For 'ConfusionMatrix', 'labels' and 'predictions' must be 1-D of "
                             f"one length, but got shapes {tuple(labels.shape)} and "
                             f"{tuple(predictions.shape)}.")
        n = self.num_classes
        for name, v in (("labels", lab), ("predictions", pred)):
            if v.size and (v.min() < 0 or v.max() >= n):
                raise ValueError(f"For 'ConfusionMatrix', '{name}' must be in [0, {n}), but got "
                                 f"values in [{v.min()}, {v.max()}].")
        w = np.ones(lab.shape) if weights is None else _array(weights).reshape(-1)
        if w.shape != lab.shape:
            raise ValueError(f"For 'ConfusionMatrix', 'weights' must have the shape of 'labels' "
                             f"{tuple(labels.shape)}, but got {tuple(_array(weights).shape)}.")
        out = np.zeros((n, n), _np(self.dtype))
        np.add.at(out, (lab.astype(np.int64), pred.astype(np.int64)), w.astype(out.dtype))
        return make_tensor(out, None, 0, self.dtype)


def _levenshtein(a, b):
    row = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        prev, row = row, np.empty_like(row)
        row[0] = i
        for j, y in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x != y))
    return int(row[-1])


def _sequences(indices, values):
    """Sparse (indices, values, dense shape) -> {leading index: values by last index}."""
    seqs = {}
    for where, v in sorted(zip(map(tuple, indices.tolist()), values.tolist())):
        seqs.setdefault(where[:-1], []).append(v)
    return seqs


class EditDistance(Primitive):
    """Mirrors `mindspore.ops.EditDistance(normalize=True)(hypothesis_indices,
    hypothesis_values, hypothesis_shape, truth_indices, truth_values, truth_shape)`: the
    Levenshtein distance of each pair of sparse sequences (divided by the truth's length when
    `normalize`; an empty truth gives inf, or 0 against an empty hypothesis)."""

    @prim_attr_register
    def __init__(self, normalize=True):
        if not isinstance(normalize, bool):
            raise TypeError(f"For 'EditDistance', 'normalize' must be a bool, but got "
                            f"{type(normalize).__name__}.")
        self.normalize = normalize

    def __call__(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
                 truth_values, truth_shape):
        args = dict(hypothesis_indices=hypothesis_indices, hypothesis_values=hypothesis_values,
                    hypothesis_shape=hypothesis_shape, truth_indices=truth_indices,
                    truth_values=truth_values, truth_shape=truth_shape)
        for name, value in args.items():
            _tensor("EditDistance", name, value)
        hs, ts = hypothesis_shape._data.astype(np.int64), truth_shape._data.astype(np.int64)
        if hs.shape != ts.shape or hs.ndim != 1 or hs.size < 2:
            raise ValueError(f"For 'EditDistance', 'hypothesis_shape' and 'truth_shape' must be "
                             f"1-D of one length >= 2, but got {hs.tolist()} and {ts.tolist()}.")
        hyp = _sequences(hypothesis_indices._data, hypothesis_values._data)
        truth = _sequences(truth_indices._data, truth_values._data)
        out_shape = tuple(int(v) for v in np.maximum(hs, ts)[:-1])
        out = np.zeros(out_shape, np.float32)
        for where in np.ndindex(*out_shape):
            a, b = hyp.get(where, []), truth.get(where, [])
            dist = float(_levenshtein(a, b))
            if self.normalize:
                dist = dist / len(b) if b else (np.inf if a else 0.0)
            out[where] = dist
        return make_tensor(out, None, 0, float32)


class Assert(Primitive):
    """Mirrors `mindspore.ops.Assert(summarize=3)(condition, input_data)`: when `condition`
    is False, prints the first `summarize` values of each input and raises RuntimeError."""

    @prim_attr_register
    def __init__(self, summarize=3):
        if isinstance(summarize, bool) or not isinstance(summarize, int) or summarize < 1:
            raise ValueError(f"For 'Assert', 'summarize' must be a positive int, but got "
                             f"{summarize}.")
        self.summarize = summarize

    def __call__(self, condition, input_data):
        cond = _array(condition)
        if cond.size != 1:
            raise ValueError(f"For 'Assert', 'condition' must be a bool scalar, but got shape "
                             f"{cond.shape}.")
        if not isinstance(input_data, (list, tuple)):
            raise TypeError(f"For 'Assert', 'input_data' must be a list or tuple of Tensors, but "
                            f"got {type(input_data).__name__}.")
        if bool(cond.reshape(-1)[0]):
            return None
        print("For 'Assert' condition is false.")
        for value in input_data:
            shown = _array(value).reshape(-1)[:self.summarize]
            print("input data: [" + " ".join(f"{v:g}" if isinstance(v, float) else str(v)
                                              for v in shown.tolist()) + "]")
        raise RuntimeError("assert failed")


class DataFormatVecPermute(Primitive):
    """Mirrors `mindspore.ops.DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(x)`:
    the 4 entries (or rows of a (4, 2) Tensor) of `x` reordered from one layout to the
    other."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        for name, value in (("src_format", src_format), ("dst_format", dst_format)):
            if value not in ("NHWC", "NCHW"):
                raise ValueError(f"For 'DataFormatVecPermute', '{name}' must be 'NHWC' or "
                                 f"'NCHW', but got {value!r}.")
        self.src_format, self.dst_format = src_format, dst_format

    def __call__(self, x):
        _tensor("DataFormatVecPermute", "x", x, (int32, int64))
        if tuple(x.shape) not in ((4,), (4, 2)):
            raise ValueError(f"For 'DataFormatVecPermute', the shape of 'x' must be (4,) or "
                             f"(4, 2), but got {tuple(x.shape)}.")
        order = [self.src_format.index(c) for c in self.dst_format]
        return make_tensor(x._data[order].copy(), None, 0, x.dtype)


def coalesce(x_indices, x_values, x_shape):
    """Mirrors `mindspore.ops.coalesce`: the COO tensor with its indices sorted and the values
    of repeated indices summed; returns `(indices, values, shape)`."""
    for name, value in (("x_indices", x_indices), ("x_values", x_values),
                        ("x_shape", x_shape)):
        _tensor("Coalesce", name, value)
    idx, vals = x_indices._data, x_values._data
    if idx.ndim != 2 or vals.ndim != 1 or idx.shape[1] != vals.shape[0]:
        raise ValueError(f"For 'Coalesce', 'x_indices' must be (ndim, nnz) and 'x_values' "
                         f"(nnz,), but got {idx.shape} and {vals.shape}.")
    flat = np.ravel_multi_index(tuple(idx.astype(np.int64)), tuple(x_shape._data.tolist()))
    keys, where = np.unique(flat, return_inverse=True)
    summed = np.zeros(keys.shape, vals.dtype)
    np.add.at(summed, where.reshape(-1), vals)
    out_idx = np.stack(np.unravel_index(keys, tuple(x_shape._data.tolist()))).astype(idx.dtype)
    return (make_tensor(out_idx, None, 0, x_indices.dtype),
            make_tensor(summed, None, 0, x_values.dtype),
            make_tensor(x_shape._data.copy(), None, 0, x_shape.dtype))


class Coalesce(Primitive):
    """Mirrors `mindspore.ops.Coalesce()(x_indices, x_values, x_shape)`: `ops.coalesce`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x_indices, x_values, x_shape):
        return coalesce(x_indices, x_values, x_shape)


def _callable(op, name, fn):
    if not callable(fn):
        raise TypeError(f"For '{op}', '{name}' must be callable, but got {type(fn).__name__}.")


class WhileLoop(Primitive):
    """Mirrors `mindspore.ops.WhileLoop()(cond_func, loop_func, init_val)`:
    `while cond_func(val): val = loop_func(val)`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, cond_func, loop_func, init_val):
        _callable("WhileLoop", "cond_func", cond_func)
        _callable("WhileLoop", "loop_func", loop_func)
        val = init_val
        while cond_func(val):
            val = loop_func(val)
        return val


class ForiLoop(Primitive):
    """Mirrors `mindspore.ops.ForiLoop()(lower, upper, loop_func, init_val, unroll=True)`:
    `for i in range(lower, upper): val = loop_func(i, val)`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        _callable("ForiLoop", "loop_func", loop_func)
        val = init_val
        for i in range(int(_array(lower)), int(_array(upper))):
            val = loop_func(i, val)
        return val


class Scan(Primitive):
    """Mirrors `mindspore.ops.Scan()(loop_func, init, xs, length=None, unroll=True)`:
    `carry, y = loop_func(carry, x)` over `xs` (or `length` times with x None); returns
    `(carry, [y, ...])`."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        _callable("Scan", "loop_func", loop_func)
        if xs is None:
            if length is None:
                raise ValueError("For 'Scan', 'length' is needed when 'xs' is None.")
            xs = [None] * length
        carry, ys = init, []
        for x in xs:
            carry, y = loop_func(carry, x)
            ys.append(y)
        return carry, ys


class NoRepeatNGram(Primitive):
    """Mirrors `mindspore.ops.NoRepeatNGram(ngram_size=1)(state_seq, log_probs)`: a token that
    would repeat an n-gram already in `state_seq` gets the dtype's lowest log-probability."""

    @prim_attr_register
    def __init__(self, ngram_size=1):
        if isinstance(ngram_size, bool) or not isinstance(ngram_size, int) or ngram_size < 1:
            raise ValueError(f"For 'NoRepeatNGram', 'ngram_size' must be a positive int, but "
                             f"got {ngram_size}.")
        self.ngram_size = ngram_size

    def __call__(self, state_seq, log_probs):
        _tensor("NoRepeatNGram", "state_seq", state_seq, (int32,))
        _tensor("NoRepeatNGram", "log_probs", log_probs, (float16, float32, float64))
        seqs, probs = state_seq._data, log_probs._data.copy()
        if seqs.shape[:-1] != probs.shape[:-1]:
            raise ValueError(f"For 'NoRepeatNGram', 'state_seq' {seqs.shape} and 'log_probs' "
                             f"{probs.shape} must agree on all but the last dimension.")
        n, low = self.ngram_size, np.finfo(probs.dtype).min
        for where in np.ndindex(*seqs.shape[:-1]):
            seq = seqs[where].tolist()
            tail = seq[len(seq) - n + 1:] if n > 1 else []
            for start in range(len(seq) - n + 1):
                if seq[start:start + n - 1] == tail and 0 <= seq[start + n - 1] < probs.shape[-1]:
                    probs[where + (seq[start + n - 1],)] = low
        return make_tensor(probs, None, 0, log_probs.dtype)


class Morph(Primitive):
    """Mirrors `mindspore.ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)(*args)`:
    runs `fn(*args)` (MindSpore 2.10 runs it only in GRAPH_MODE; eager here). Its gradient is
    `bprop_fn(*args, out, dout)` when given, else `fn`'s own; `infer_shape`/`infer_dtype`
    are what a graph compiler would use and are only kept."""

    @prim_attr_register
    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        for name, value in (("fn", fn), ("infer_shape", infer_shape),
                            ("infer_dtype", infer_dtype)):
            _callable("Morph", name, value)
        if bprop_fn is not None:
            _callable("Morph", "bprop_fn", bprop_fn)
        self.fn, self.infer_shape, self.infer_dtype = fn, infer_shape, infer_dtype
        self.bprop_fn, self._cell = bprop_fn, None

    def __call__(self, *args):
        if self.bprop_fn is None:
            return self.fn(*args)
        if self._cell is None:
            self._cell = _morph_cell(self.fn, self.bprop_fn)
        return self._cell(*args)


def _morph_cell(fn, bprop_fn):
    """A Cell running `fn` with `bprop_fn` as its bprop (how cellgrad gives a custom
    gradient)."""
    from cellgrad.nn import Cell

    class _Morph(Cell):
        def construct(self, *args):
            return fn(*args)

        def bprop(self, *args):
            return bprop_fn(*args)

    return _Morph()


class PyFunc(Primitive):
    """Mirrors `mindspore.ops.PyFunc(fn, in_types, in_shapes, out_types, out_shapes,
    stateful=True)(*args)`: `fn` called on the inputs as numpy arrays; its numpy results come
    back as a tuple of Tensors of `out_types` (no gradient flows through it, as in
    MindSpore)."""

    @prim_attr_register
    def __init__(self, fn, in_types, in_shapes, out_types, out_shapes, stateful=True):
        _callable("PyFunc", "fn", fn)
        if len(out_types) != len(out_shapes) or len(in_types) != len(in_shapes):
            raise ValueError("For 'PyFunc', the types and shapes must have one length each for "
                             "the inputs and for the outputs.")
        self.fn, self.out_types = fn, [to_dtype(t) for t in out_types]
        self.out_shapes = [tuple(s) for s in out_shapes]

    def __call__(self, *args):
        results = self.fn(*(_array(a).copy() for a in args))
        results = results if isinstance(results, tuple) else (results,)
        if len(results) != len(self.out_types):
            raise RuntimeError(f"For 'PyFunc', 'fn' returned {len(results)} outputs, but "
                               f"'out_types' names {len(self.out_types)}.")
        outs = []
        for value, dtype, shape in zip(results, self.out_types, self.out_shapes):
            arr = np.asarray(value).astype(_np(dtype))
            if arr.shape != shape:
                raise RuntimeError(f"For 'PyFunc', an output of 'fn' has shape {arr.shape}, "
                                   f"but 'out_shapes' says {shape}.")
            outs.append(make_tensor(arr, None, 0, dtype))
        return tuple(outs)


class NonMaxSuppressionWithOverlaps(Primitive):
    """Mirrors `mindspore.ops.NonMaxSuppressionWithOverlaps()(overlaps, scores,
    max_output_size, overlap_threshold, score_threshold)`: greedy selection by descending
    score of boxes scoring above `score_threshold`, skipping a box whose overlap with one
    already selected (`overlaps[box, selected]`) exceeds `overlap_threshold`; int32 indices."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        op = "NonMaxSuppressionWithOverlaps"
        _tensor(op, "overlaps", overlaps, (float16, float32, float64))
        _tensor(op, "scores", scores, (float16, float32, float64))
        ov, sc = overlaps._data, scores._data
        if ov.ndim != 2 or ov.shape[0] != ov.shape[1] or sc.shape != (ov.shape[0],):
            raise ValueError(f"For '{op}', 'overlaps' must be (N, N) and 'scores' (N,), but got "
                             f"{ov.shape} and {sc.shape}.")
        limit = int(_array(max_output_size))
        if limit < 0:
            raise ValueError(f"For '{op}', 'max_output_size' must be >= 0, but got {limit}.")
        o_thr, s_thr = float(_array(overlap_threshold)), float(_array(score_threshold))
        chosen = []
        for box in np.argsort(-sc, kind="stable"):
            if len(chosen) >= limit or sc[box] <= s_thr:
                break
            if all(ov[box, kept] <= o_thr for kept in chosen):
                chosen.append(int(box))
        return make_tensor(np.asarray(chosen, np.int32), None, 0, int32)
