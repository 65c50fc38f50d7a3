"""mindspore.numpy's reductions and scans: result dtypes per input dtype (Int64 sums,
truncated integer means, Float32 nanmean/nanvar), axis/keepdims/initial/where/dtype, NaNs,
zero-size inputs, and the errors MindSpore raises."""
import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor

ms.set_context(pynative_synchronize=True)
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.float16, np.float32,
          np.float64]
V = {"b": [[True, False, True], [False, False, True]], "i": [[4, -3, 6], [1, 2, 0]],
     "u": [[4, 3, 6], [1, 2, 0]], "f": [[2.5, -1.5, 3.0], [0.5, 1.0, -2.0]]}


def data(d):
    return Tensor(np.array(V[np.dtype(d).kind], d))


def show(label, fn, *args, **kwargs):
    try:
        r = fn(*args, **kwargs)
    except (TypeError, ValueError, RuntimeError) as e:
        print(label, type(e).__name__)
        return
    for t in r if isinstance(r, (tuple, list)) else (r,):
        print(label, t.dtype, t.shape, t)


F = data(np.float32)
NAN = Tensor(np.array([[1.0, float("nan")], [3.0, 4.0]], np.float32))
EMPTY = Tensor(np.zeros((0, 3), np.float32))
NAMES = ["amax", "amin", "max", "min", "mean", "sum", "nansum", "nanmean", "nanvar", "nanstd",
         "nanmax", "nanmin", "std", "var", "ptp", "average", "count_nonzero", "argmax",
         "argmin", "cumsum", "cumprod", "nancumsum"]
for name in NAMES:
    fn = getattr(mnp, name)
    for d in DTYPES:
        if d == np.bool_ and name in ("nanvar", "nanstd", "nanmean", "nansum", "cumprod"):
            continue  # MindSpore 2.10's results for Bool there are artefacts of its kernels
        if d == np.uint8 and name == "cumprod":
            continue  # MindSpore: UInt32, a dtype cellgrad lacks (it gives Int64)
        show(f"{name} {np.dtype(d).name}", fn, data(d))
        show(f"{name} {np.dtype(d).name} axis=1", fn, data(d), axis=1)
    show(f"{name} axis=0", fn, F, 0)
    show(f"{name} axis=-1", fn, F, -1)
    show(f"{name} axis=2", fn, F, 2)
    show(f"{name} 0-d", fn, Tensor(np.float32(3.0)))
    if name not in ("argmax", "argmin", "cumsum", "cumprod", "nancumsum", "average"):
        show(f"{name} axis=(0,1)", fn, F, axis=(0, 1))
        show(f"{name} keepdims", fn, F, axis=-1, keepdims=True)
    if name.startswith("nan") or name in ("mean", "sum", "cumsum", "cumprod"):
        show(f"{name} dtype=float32", fn, data(np.int32), dtype=ms.float32)
        show(f"{name} dtype=int32", fn, F, dtype=ms.int32)
        show(f"{name} float64 dtype=float16", fn, data(np.float64), dtype=ms.float16)
    if name not in ("amax", "amin", "max", "min", "ptp", "argmax", "argmin"):
        show(f"{name} nan", fn, NAN)
    show(f"{name} nan axis=0", fn, NAN, axis=0)
    if name not in ("std", "var", "argmax", "argmin", "cumsum", "nancumsum", "sum", "nanmean"):
        show(f"{name} empty", fn, EMPTY)
        show(f"{name} empty axis=0", fn, EMPTY, axis=0)
        show(f"{name} empty axis=1", fn, EMPTY, axis=1)
for name in ["amax", "amin", "sum", "max", "min"]:
    fn = getattr(mnp, name)
    show(f"{name} initial=5", fn, F, initial=5)
    show(f"{name} int32 initial=5.5", fn, data(np.int32), initial=5.5)
    show(f"{name} initial=1 axis=0", fn, F, axis=0, initial=1)
    show(f"{name} empty initial=7", fn, EMPTY, axis=0, initial=7)
for name in ["amax", "amin", "max", "min"]:
    fn = getattr(mnp, name)
    show(f"{name} where initial", fn, F, initial=0.0, where=Tensor(np.array([True, False, True])))
    show(f"{name} where", fn, F, where=Tensor(np.array([True, False, True])))
for name in ["std", "var", "nanstd", "nanvar"]:
    fn = getattr(mnp, name)
    show(f"{name} ddof=1", fn, F, ddof=1)
    show(f"{name} ddof=1 axis=0", fn, F, axis=0, ddof=1)
W3 = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
show("average weights", mnp.average, F, weights=F)
show("average 1-D weights", mnp.average, F, axis=1, weights=W3)
show("average 1-D weights, no axis", mnp.average, F, weights=W3)
show("average returned", mnp.average, F, axis=0, returned=True)
show("average returned, no axis", mnp.average, F, returned=True)
show("average int32 weights", mnp.average, data(np.int32), axis=1,
     weights=Tensor(np.array([1, 2, 3], np.int32)), returned=True)
show("average negative int32", mnp.average, Tensor(np.array([[-4, -3]], np.int32)), axis=1,
     weights=Tensor(np.array([1, 2], np.int32)))
show("average list", mnp.average, [1, 2])
show("sum list", mnp.sum, [[1, 2], [3, 4]])
show("mean list", mnp.mean, [[1, 2], [3, 4]])
show("var list", mnp.var, [1, 2, 3, 4])
show("nanmax list", mnp.nanmax, [[1, 2], [3, 4]])
show("cumprod list", mnp.cumprod, [1, 2, 3, 4])
show("cumsum list", mnp.cumsum, [1, 2])
show("ptp axis=1 keepdims", mnp.ptp, F, 1, True)
show("count_nonzero axis=(0,1)", mnp.count_nonzero, F, axis=(0, 1))
show("cumsum int32 dtype=float32 axis=1", mnp.cumsum, data(np.int32), 1, ms.float32)
show("argmax axis tuple", mnp.argmax, F, (0, 1))
show("cumprod axis tuple", mnp.cumprod, F, (0, 1))
show("nanmax all nan", mnp.nanmax, Tensor(np.array([float("nan")], np.float32)))
show("mean keepdims, no axis", mnp.mean, F, keepdims=True)
show("sum keepdims, no axis", mnp.sum, F, keepdims=True)
show("sum int8", mnp.sum, data(np.int8))
show("mean duplicate axis", mnp.mean, F, axis=(0, 0))
show("mean float axis", mnp.mean, F, axis=0.5)
show("sum initial list", mnp.sum, F, initial=[1])
