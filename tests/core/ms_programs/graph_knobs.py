import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

m = ms.mutable((Tensor(1.0), Tensor(2.0)))
print(isinstance(m, tuple), len(m), m[1])
print(ms.mutable([1, 2], True), ms.mutable(3))
print(ms.JitConfig(jit_level="O1").jit_config_dict)
print(ms.JitConfig().jit_config_dict)


@ms.jit_class
class Scale:
    def __init__(self, k):
        self.k = k


print(Scale(3).k)
print(ms.set_recursion_limit(50), ms.get_current_device())
print(ms.set_device("CPU"), ms.set_deterministic(True))


class Net(nn.Cell):
    @ms.lazy_inline
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


print(Net(2)(Tensor(np.array([1.0, 2.0], np.float32))))
for bad in [lambda: ms.jit_class(3), lambda: ms.set_recursion_limit(0),
            lambda: ms.JitConfig(jit_level="O5"), lambda: ms.mutable(1, True),
            lambda: ms.set_device("GPU")]:
    try:
        bad()
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0][:44])
