import os
import tempfile

import mindspore as ms
import numpy as np

x = ms.Tensor(np.array([[1.5, -2.0, 3.25]], np.float32))
print(x.get_bytes())
for dtype in (ms.float32, ms.int16, ms.float64):
    t = ms.Tensor(np.arange(6).reshape(2, 3), dtype)
    back = ms.Tensor.convert_bytes_to_tensor(t.get_bytes(), t.shape, t.dtype)
    print(back.dtype, tuple(back.shape), back.asnumpy())
print(x.is_init())
x.set_init_flag(True)
print(x.is_init())
print(x.data_sync(True), x.wait_pipeline(), x.flush_from_cache())
print(x.set_const_arg() is x, x.const_arg)
print(x.set_const_arg(False) is x, x.const_arg)
try:
    x.set_const_arg(1)
except TypeError as e:
    print("TypeError", e)
path = os.path.join(tempfile.mkdtemp(), "x.data")
print(repr(x.offload_file_path()))
print(x.offload(path), x.offload_file_path() == path, os.path.getsize(path))
with open(path, "rb") as f:
    print(f.read() == np.array([[1.5, -2.0, 3.25]], np.float32).tobytes())
p = ms.Parameter(ms.Tensor([1.0]), name="p")
print(p.requires_grad_(False), p.requires_grad)
print(p.requires_grad_(), p.requires_grad)


def square(v):
    return (v * v).sum()


print(ms.Tensor.remove_hook(12345))


def f(v):
    return v


print(ms.no_inline(f) is f, f.no_inline)
print(ms.no_inline()(square) is square, square.no_inline)
dyn = ms.Tensor(shape=[None, 3], dtype=ms.float32)
g = ms.enable_dynamic(v=dyn)(f)
print(g is f, f(p))
for kwargs in ({}, {"v": ms.Tensor([1.0])}, {"v": 1}, {"w": dyn},
               {"v": ms.Tensor(shape=None, dtype=ms.float32)}, {"v": [dyn, ms.Tensor([1.0])]}):
    try:
        print(ms.enable_dynamic(**kwargs)(f) is f)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    ms.enable_dynamic(v=dyn)(len)
except ValueError as e:
    print("ValueError", str(e)[:60])
try:
    ms.enable_dynamic(v=dyn, w=dyn)(f)
except ValueError as e:
    print("ValueError", e)
