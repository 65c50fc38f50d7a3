import numpy as np
import mindspore as ms
from mindspore import Tensor, boost, nn
from mindspore.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op

net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
acc = boost.GradientAccumulation(3, nn.SGD(net.trainable_params(), 0.5))
print([p.name for p in acc.get_parameters()])
for k in range(7):
    g = (Tensor(np.full((1, 2), k + 1.0, np.float32)), Tensor(np.full((1,), 2.0 * k, np.float32)))
    print(acc(Tensor(np.float32(k)), g), net.weight.asnumpy(), net.bias.asnumpy(),
          acc._grad_accumulation[0].asnumpy(), acc._accumulation_step.asnumpy())
c = ms.Parameter(Tensor(np.ones(2, np.float32)), name="c")
print(gradient_accumulation_op(4, c, Tensor(np.full(2, 2.0, np.float32))), c.asnumpy())
print(gradient_clear_op(c), c.asnumpy())
