"""bfloat16 tensors as MindSpore 2.10 makes them: creation, repr/str, asnumpy (numpy's
bfloat16 dtype), casts, promotion, the arithmetic its CPU runs, Tensor.bfloat16()."""
import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

x = Tensor([1.5, 2.25, 3.0078125, -0.1], ms.bfloat16)
print(repr(x))
print(x)
a = x.asnumpy()
print(a.dtype, a.dtype.itemsize, a.shape, a.astype(np.float32))
print(x.dtype, x.itemsize, x.nbytes, x.strides, x.is_floating_point(), x.is_signed())
print(repr(Tensor(np.array([[1.0, 2.0], [3.0, 1e10]], np.float32), ms.bfloat16)))
print(repr(Tensor(3.3, ms.bfloat16)))
print(Tensor(a).dtype, Tensor(a[1:]).float())
print(Tensor([1.0, 2.7, -5.5]).bfloat16())
print(repr(Tensor([1.0, 2.7, 1000.0]).astype(ms.bfloat16)))
print(x.float().dtype, x.float(), x.astype(ms.int32), x.astype(ms.float16), x.half().dtype)
print(x.astype(ms.float64))
print(ms.dtype_to_nptype(ms.bfloat16) == a.dtype.type)

# arithmetic stays bfloat16; with float16/float32 it is float32
for label, r in [("add", x + x), ("mul", x * x), ("sub", x - 1), ("scalar", x * 2.5),
                 ("div", x / 3), ("neg", -x)]:
    print(label, r.dtype, r.float())
print((x + Tensor([1.0], ms.float32)).dtype, (x + Tensor([1.0], ms.float16)).dtype,
      (x + Tensor([1], ms.int32)).dtype, (x + Tensor([1.0], ms.float64)).dtype)
print(x.reshape(2, 2).dtype, x[1:3].float(), ops.cat((x, x)).shape)
