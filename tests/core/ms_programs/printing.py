# replay needs: ml_dtypes
import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter

print(Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2)))
print(repr(Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2))))
print(repr(Tensor(np.array([1e-5, 123456.7], np.float32))), Tensor(np.array([1e-5, 123456.7], np.float32)))
print(repr(Tensor(np.array([np.nan, np.inf, -np.inf], np.float32))))
print(repr(Tensor(np.zeros((0, 3), np.float32))), Tensor(np.zeros((0, 3), np.float32)))
print(repr(Tensor(np.array([1, 1000000], np.int64))))
print(repr(Tensor(np.float32(1 / 3))), repr(Tensor(np.float32(123456.7))), repr(Tensor(np.float32(-0.0))))
print(repr(Tensor(np.float32(1e-5))), repr(Tensor(np.float32(16777216.0))), repr(Tensor(np.float64(2.5))))
print(repr(Tensor(np.arange(1001, dtype=np.float32))))
print(Tensor(np.arange(1001, dtype=np.float32)))
print(repr(Tensor(np.arange(12, dtype=np.float32))))
print(repr(Tensor(np.arange(24, dtype=np.int32))))
print(repr(Tensor(np.ones((3, 7), np.float32))))
print(Tensor(np.ones((3, 7), np.float32)))
print((Tensor([1.0]), Tensor([2])))
print([Tensor(1.5)])
print(Parameter(Tensor(np.ones((2, 3), np.float32)), name="w"))
print(repr(Tensor([1.0, 2.0], ms.bfloat16)), Tensor([1.0, 2.0], ms.bfloat16))
print(repr(Tensor(np.array([[True, False], [False, True]]))))
print(repr(Tensor(np.array([0.1, 0.25], np.float16))), Tensor(np.array([0.1, 0.25], np.float16)))
print(Tensor(3.0) * 2, Tensor(7) // 2, Tensor(7) / 2, Tensor(2) ** 3, -Tensor(True).astype(ms.int32))
print(f"{Tensor(2.5)}", "{}".format(Tensor([1, 2])))
print(str(ms.float16), str(ms.uint8), repr(ms.int32), ms.float32 == ms.float32)
