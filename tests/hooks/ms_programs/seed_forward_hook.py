# replay needs cellgrad_nn
# The seed's forward hook that doubles the output: gradients (2, 2), then (1, 1) after remove().
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import ops


def forward_hook_fn(cell, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_hook(forward_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x


grad = ops.GradOperation(get_all=True)
net = Net()
x = ms.Tensor(np.ones([1]).astype(np.float32))
y = ms.Tensor(np.ones([1]).astype(np.float32))
print(net(x, y))
gradient = grad(net)(x, y)
print(gradient)
net.handle.remove()
gradient = grad(net)(x, y)
print(gradient)


def fresh_forward_hook_fn(cell, inputs, outputs):
    return ms.Tensor(np.full([1], 5.0, np.float32))


net2 = Net()
net2.relu.register_forward_hook(fresh_forward_hook_fn)
print(net2(x, y))
print(grad(net2)(x, y))
