import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import hal, ops
from mindspore.common import dtype as mstype
from mindspore.parallel import merge_sliced_parameter
from mindspore.train.serialization import tensor_to_ms_type, tensor_to_np_type


def mul(a, b):
    return a * b


def mul_bprop(a, b, out, dout):
    return dout * b, dout * a


x = ms.Tensor(np.array([1.0, 2.0], np.float32))
y = ms.Tensor(np.array([3.0, 4.0], np.float32))
custom = ops.Custom(mul, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, bprop=mul_bprop)
print(custom(x, y))
print(ms.grad(lambda a, b: custom(a, b).sum(), grad_position=(0, 1))(x, y))
print(ops.Custom(lambda a: (a + 1).astype(np.float64), out_shape=(2,), out_dtype=ms.float64)(x))
print(ops.Custom(lambda a: (a, a * 2), out_shape=((2,), (2,)),
                 out_dtype=(ms.float32, ms.float32))(x))
try:
    ops.Custom(mul, out_shape=(2,), out_dtype=ms.float32, func_type="julia")
except ValueError as e:
    print("ValueError", str(e).split("'func_type' must")[1])

t = ms.Tensor(np.arange(24.0).reshape(2, 3, 4).astype(np.float32))
print(ops.Tensor is ms.Tensor)
print(ops.TransposeView()(t, (2, 0, 1)).shape, ops.TransposeExtView()(t, 0, 2).shape)
print(ops.SelectView()(t, 1, 2))
print(ms.grad(lambda a: (ops.SelectView()(a, 1, 2) * 2).sum())(t)[0])

print(mnp.copy([1, 2, 3]), mnp.copy(x))
print(mnp.round(ms.Tensor([1.25, 2.5, -0.5]), 1), mnp.round(ms.Tensor([1.25, 2.5, -0.5])))
print(mnp.round(ms.Tensor(np.array([1.5, 2.5, -3.55], np.float16)), 1))
print(mnp.round(ms.Tensor(np.array([1, 2], np.int32)), 1).dtype, mnp.round([1, 2], 1).dtype)
print(ms.grad(lambda a: (mnp.copy(a) * 2).sum())(x), ms.grad(lambda a: mnp.round(a, 1).sum())(x))
for bad in [lambda: mnp.round(x, -1), lambda: mnp.round(x, 1.5)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

print(mstype.Float(32), mstype.Float(16) == ms.float16, isinstance(ms.float64, mstype.Float),
      isinstance(ms.int32, mstype.Float), mstype.Float())
print(repr(mstype.Tuple()), mstype.Tuple() == mstype.tuple_,
      isinstance(mstype.tuple_, mstype.Tuple))
print(repr(mstype.tensor_type), mstype.tensor_type,
      isinstance(mstype.tensor_type, mstype.TensorType))
try:
    mstype.Float(8)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])

print(tensor_to_np_type("Float32"), tensor_to_np_type("Int64"), tensor_to_np_type("nope"))
print(tensor_to_ms_type["Float16"], tensor_to_ms_type["UInt8"], tensor_to_ms_type["Bool"])

parts = [ms.Parameter(ms.Tensor(np.arange(4.0).reshape(2, 2)), "net.w"),
         ms.Parameter(ms.Tensor(np.arange(4.0, 6.0).reshape(1, 2)), "net.w")]
print(merge_sliced_parameter(parts), merge_sliced_parameter(parts).asnumpy().tolist())
for bad in [lambda: merge_sliced_parameter(tuple(parts)), lambda: merge_sliced_parameter([]),
            lambda: merge_sliced_parameter([parts[0], ms.Parameter(ms.Tensor([1.0]), "net.w")]),
            lambda: merge_sliced_parameter(parts, strategy=[1])]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

print(hal.is_available("CPU"), hal.is_available("GPU"), hal.device_count(), hal.device_count("CPU"))
for bad in [lambda: hal.is_available("xpu"), lambda: hal.device_count("GPU")]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
print(hal.synchronize(), ms.runtime.synchronize(), ms.runtime.launch_blocking())
for bad in [lambda: ms.runtime.dispatch_threads_num("x"),
            lambda: ms.runtime.dispatch_threads_num(0)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
print(ms.runtime.set_memory(init_size="1GB", max_size="4GB", optimize_level="O1"))
try:
    ms.runtime.set_memory()
except RuntimeError as e:
    print("RuntimeError", e)


class Block(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), "w")

    def construct(self, a):
        return ops.tanh(ops.matmul(a, self.w))


block = Block()
inp = ms.Tensor(np.array([[0.1, 0.2]], np.float32))
print(ms.recompute(block, inp))
print(ms.grad(lambda a: ms.recompute(block, a).sum(), grad_position=0,
              weights=block.trainable_params())(inp))
for bad in [lambda: ms.recompute(lambda a: a, inp),
            lambda: ms.recompute(block, inp, context_fn=lambda: None)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

with ms.DeviceCtx("CPU"):
    print(ms.get_current_device())
print(ms.get_current_device())
for name, device_id in [("xpu", None), ("CPU", -1)]:
    try:
        with ms.DeviceCtx(name, device_id):
            pass
    except ValueError as e:
        print("ValueError", e)
