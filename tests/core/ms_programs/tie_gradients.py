import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import Tensor, ops


def show(name, f, *xs):
    out = ms.grad(f, grad_position=tuple(range(len(xs))))(*xs)
    out = out if isinstance(out, tuple) else (out,)
    print(name, *[np.round(g.asnumpy().astype(np.float64), 6).tolist() for g in out])


# elementwise extremes: a tie gives each input half, a NaN the whole to both
x, y = Tensor(np.array([1., 2., 3.], np.float32)), Tensor(np.array([1., 1., 3.], np.float32))
w3 = Tensor(np.array([1., 10., 100.], np.float32))
for name, fn in [("maximum", ops.maximum), ("minimum", ops.minimum),
                 ("mnp.maximum", mnp.maximum), ("mnp.minimum", mnp.minimum)]:
    show(name, lambda a, b, fn=fn: (fn(a, b) * w3).sum(), x, y)
m = Tensor(np.array([[1., 2.], [2., 2.]], np.float32))
show("maximum broadcast", lambda a, b: ops.maximum(a, b).sum(), m, Tensor([2.]))
show("minimum broadcast", lambda a, b: ops.minimum(a, b).sum(), m, Tensor([2.]))
show("maximum scalar", lambda a: ops.maximum(a, 2.0).sum(), x)
show("Maximum primitive", lambda a: ops.Maximum()(a, Tensor(2.)).sum(), m)
show("second order", lambda a, b: ms.grad(lambda p, q: (ops.maximum(p, q) * p).sum())(a, b).sum(),
     x, y)
xn = Tensor(np.array([np.nan, 1., np.nan, 2., 0.], np.float32))
yn = Tensor(np.array([1., np.nan, np.nan, 2., 1.], np.float32))
for name, fn in [("maximum nan", ops.maximum), ("minimum nan", ops.minimum),
                 ("mnp.maximum nan", mnp.maximum), ("mnp.minimum nan", mnp.minimum)]:
    show(name, lambda a, b, fn=fn: fn(a, b).sum(), xn, yn)
print(mnp.maximum(xn, yn), mnp.minimum(xn, yn))

# reductions: ReduceMax/Min share among all maxima, ArgMaxWithValue (ops.max along an axis)
# gives the first
t = Tensor(np.array([[1., 3., 3.], [2., 2., 2.]], np.float32))
wr = Tensor(np.array([1., 10.], np.float32))
where = Tensor(np.array([[True, True, False], [True, True, True]]))
cases = [
    ("amax", lambda a: (ops.amax(a, 1) * wr).sum()),
    ("amax all", lambda a: ops.amax(a)),
    ("amin", lambda a: ops.amin(a, 1).sum()),
    ("amax initial", lambda a: ops.amax(a, 1, initial=3.).sum()),
    ("amin initial", lambda a: ops.amin(a, 1, initial=2.).sum()),
    ("amax where", lambda a: ops.amax(a, 1, initial=0., where=where).sum()),
    ("ReduceMax", lambda a: ops.ReduceMax()(a, 1).sum()),
    ("max axis", lambda a: (ops.max(a, 1)[0] * wr).sum()),
    ("max axis keepdims", lambda a: ops.max(a, 1, True)[0].sum()),
    ("max axis 0", lambda a: ops.max(a, 0)[0].sum()),
    ("max initial", lambda a: ops.max(a, 1, initial=2.5)[0].sum()),
    ("max all", lambda a: ops.max(a)[0]),
    ("min axis", lambda a: ops.min(a, -1)[0].sum()),
    ("ArgMaxWithValue", lambda a: ops.ArgMaxWithValue(1)(a)[1].sum()),
    ("ArgMinWithValue", lambda a: ops.ArgMinWithValue(1)(a)[1].sum()),
    ("Tensor.max axis", lambda a: a.max(axis=1).sum()),
    ("Tensor.max all", lambda a: a.max()),
    ("Tensor.max tuple initial", lambda a: a.max(axis=(0,), initial=3.0).sum()),
    ("Tensor.min axis", lambda a: a.min(axis=1).sum()),
    ("Tensor.max indices", lambda a: a.max(axis=1, return_indices=True)[0].sum()),
    ("mnp.amax", lambda a: mnp.amax(a, 1).sum()),
    ("mnp.amax initial", lambda a: mnp.amax(a, 1, initial=3.).sum()),
    ("mnp.amin initial", lambda a: mnp.amin(a, 1, initial=1.).sum()),
    ("topk", lambda a: ops.topk(a, 1)[0].sum()),
]
for name, f in cases:
    show(name, f, t)
v, i = ops.max(t, None, True)
print(v, v.shape, i, i.dtype)
v, i = ops.max(t, 1, True, initial=2.5)
print(v, i)
v, i = ops.min(t, 0, initial=1.5, where=Tensor([[True, False, True], [True, True, False]]))
print(v, i)
ti = Tensor(np.array([[1, 3], [2, 2]], np.int32))
print(ops.max(ti, 1, initial=2.7), ops.amax(ti, 1, initial=2.7))
print(t.max(return_indices=True), t.min(axis=0, initial=1.5, where=Tensor([True, False, True])))
print(t.max(axis=1, keepdims=True, initial=3.5), t.max(keepdims=True))

# clamp passes the gradient at a bound; clip_by_value is minimum(maximum(x, lo), hi)
w = Tensor(np.array([[1., 10., 100.], [1., 10., 100.]], np.float32))
lo, hi = Tensor(np.array([2.], np.float32)), Tensor(np.array([3.], np.float32))
show("clamp", lambda a: (ops.clamp(a, 2., 3.) * w).sum(), t)
show("clamp tensors", lambda a, b, c: ops.clamp(a, b, c).sum(), t, lo, hi)
show("Tensor.clip", lambda a: (a.clip(2., 3.) * w).sum(), t)
show("clip_by_value", lambda a: (ops.clip_by_value(a, 2., 3.) * w).sum(), t)
show("clip_by_value tensors", lambda a, b, c: ops.clip_by_value(a, b, c).sum(), t, lo, hi)
show("clip_by_value min", lambda a: ops.clip_by_value(a, 2.).sum(), t)
show("clip_by_value max", lambda a: ops.clip_by_value(a, None, 2.).sum(), t)
show("clip_by_value lo>hi", lambda a: ops.clip_by_value(a, 3., 2.).sum(), t)
show("mnp.clip", lambda a: mnp.clip(a, 2., 3.).sum(), t)
t64 = Tensor(np.array([[1., 3., 3.], [2., 2., 2.]], np.float64))
print(ops.clip_by_value(t64, lo, hi).dtype,
      ops.clip_by_value(Tensor(np.array([1, 5], np.int32)), 2.5, 3.7))
print(ops.clip_by_value([t, Tensor([0.5, 9.])], 1.5, 2.5))
