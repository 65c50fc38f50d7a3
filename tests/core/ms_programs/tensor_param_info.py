"""Tensor.set_param_info / param_info, and the argument checks of Tensor.delete_."""
import numpy as np
from mindspore import Parameter, Tensor

x = Tensor(np.arange(4, dtype=np.float32))
w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
q = Parameter(Tensor(np.ones(2, np.float32)), name="q")
print(x.param_info is None)
print(Tensor.set_param_info(x, w.param_info))
print(x.param_info.name, x.param_info.requires_grad)
Tensor.set_param_info(q, w.param_info)
print(q.name, q.param_info.name)
try:
    x.delete_(non_blocking=1)
except ValueError as e:
    print("ValueError", e)
print(x)
