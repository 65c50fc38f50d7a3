"""Module paths real MindSpore code imports (MindSpore 1.x style), on the core alone:
ops.operations, common.tensor/parameter/dtype, context's parallel and PS contexts."""

import mindspore as ms
import mindspore.common.dtype as mstype
import mindspore.ops.operations as P2
import numpy as np
from mindspore import Tensor, context
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor as T2
from mindspore.context import ParallelMode
from mindspore.log import logging as std_logging
from mindspore.ops import operations as P
from mindspore.ops.operations import array_ops, math_ops
from mindspore.train.model import ParallelMode as PM2

print(P is P2, T2 is Tensor, PM2 is ParallelMode, ParallelMode is ms.ParallelMode)
print(P.MatMul is ms.ops.MatMul, math_ops.ReduceMean is ms.ops.ReduceMean)
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
w = Tensor(np.ones((4, 3), np.float32))
print(P.MatMul(transpose_b=True)(x, w))
print(P.ReduceSum(keep_dims=True)(x, 1))
print(math_ops.ReduceMean()(x))
print(array_ops.Cast()(x, mstype.int32))
print(P.Concat(axis=0)((x, x)).shape, P.Shape()(x))

context.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True)
print(context.get_auto_parallel_context("parallel_mode"),
      context.get_auto_parallel_context("gradients_mean"))
context.reset_auto_parallel_context()
print(context.get_auto_parallel_context("parallel_mode"),
      ms.get_auto_parallel_context("device_num"))
print(ParallelMode.MODE_LIST)
try:
    context.set_auto_parallel_context(nope=1)
except ValueError as e:
    print("ValueError", e)
for key in ("enable_ps", "ms_role", "worker_num", "scheduler_ip", "scheduler_port", "enable_ssl"):
    print(key, repr(ms.get_ps_context(key)))
try:
    ms.get_ps_context("nope")
except ValueError as e:
    print("ValueError", e)
context.set_ps_context(worker_num=2)
ms.reset_ps_context()
print(ms.get_ps_context("worker_num"), ms.get_ps_context("enable_ps"))
print(context.STRICT, context.COMPATIBLE, context.LAX, ms.LAX)

p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
print(p.name, isinstance(p, Tensor), len(ParameterTuple([p])))
print(std_logging.getLevelName(20), ms.log.get_level() in "01234")
