"""Tensor layout and dtype attributes (itemsize, nbytes, strides, stride(), storage_offset(),
is_floating_point, is_signed, byte, short) and common.dtype's helpers, as MindSpore 2.10."""
import mindspore as ms
import numpy as np
from mindspore import Tensor
from mindspore.common import dtype as mstype

x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(x.itemsize, x.nbytes, x.strides, x.stride(), x.stride(0), x.stride(1), x.storage_offset())
print(x.T.strides, x.T.stride(), x.T.storage_offset())
print(x[1:].storage_offset(), x[1:].strides, x[1:].stride())
print(Tensor(1.5).strides, Tensor(1.5).stride(), Tensor(1.5).nbytes, Tensor(1.5).itemsize)
print(isinstance(x.data_ptr(), int), x.data_ptr() == x.data_ptr())
try:
    x.stride(2)
except IndexError as e:
    print("IndexError", e)
for d in [ms.float32, ms.float64, ms.int32, ms.int64, ms.uint8, ms.uint16, ms.uint64, ms.bool_,
          ms.float16, ms.int8, ms.int16, ms.complex64, ms.complex128]:
    y = Tensor([1, 2], d)
    print(d, y.is_floating_point(), y.is_signed(), y.byte().dtype, y.short().dtype, y.itemsize,
          y.nbytes, y.is_complex())
y = Tensor([-1.7, 300.2, 70000.9])
print(y.byte(), y.short())
print(Tensor([-3, 260], ms.int32).byte(), Tensor([True, False]).short())

# dtype objects
for d in [ms.float32, ms.int8, ms.bool_, ms.complex64, ms.complex128, ms.float16, ms.bfloat16,
          ms.uint16, ms.float64]:
    print(d, d.is_complex, d.is_floating_point, d.is_signed, d.itemsize, d.to_real())
for d in [ms.float32, ms.float64, ms.bfloat16, ms.complex64]:
    print(d, d.to_complex())
try:
    ms.int8.to_complex()
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])

# common.dtype helpers
print(isinstance(ms.float32, mstype.Type), isinstance(ms.int32, mstype.Int),
      isinstance(ms.uint8, mstype.Int), isinstance(ms.float32, mstype.Int))
print(mstype.Int(32), mstype.Int(8), mstype.Int(64) == ms.int64)
t = mstype.TensorType(ms.float32)
print(repr(t), t, t.element_type(), t == mstype.TensorType(ms.float32))
print(list(mstype.QuantDtype)[:3], mstype.QuantDtype.INT8, mstype.QuantDtype.UINT16.value())
for d in [ms.float32, ms.int8, ms.bool_, ms.complex64, ms.float16, ms.uint16]:
    print(d, ms.dtype_to_pytype(d), np.dtype(ms.dtype_to_nptype(d)).name)  # numpy 2 renamed bool_
for o in [1, 1.0, True, Tensor([1]), np.float32(1), [1], (1,), None, 1j, "a"]:
    print(type(o).__name__, ms.get_py_obj_dtype(o))
for o in [int, float, bool, complex, np.float32, np.uint16, list, str]:
    print(o, ms.pytype_to_dtype(o))
try:
    ms.get_py_obj_dtype({})
except NotImplementedError as e:
    print("NotImplementedError", e)
print(mstype.complex_type, ms.complex64 in mstype.number_type, ms.complex128 in mstype.signed_type)
print(mstype.cfloat, mstype.cdouble, ms.complex64, ms.complex128)
