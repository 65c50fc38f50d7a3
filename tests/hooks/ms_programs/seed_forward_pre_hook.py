# replay needs cellgrad_nn
# The seeds' forward-pre-hook examples with 2.10's conventions (the hook gets the Cell):
# printing the inputs, with and without remove(); a pre-hook returning a fresh Tensor.
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import ops


def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x


grad = ops.GradOperation(get_all=True)
net = Net()
x = ms.Tensor(np.ones([1]).astype(np.float32))
y = ms.Tensor(np.ones([1]).astype(np.float32))
output = net(x, y)
print(output)
gradient = grad(net)(x, y)
print(gradient)
net.handle.remove()
gradient = grad(net)(x, y)
print(gradient)
net.handle.remove()
print(net(x, y))


def fresh_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    return ms.Tensor(np.ones([1]).astype(np.float32))


class Net2(nn.Cell):
    def __init__(self):
        super(Net2, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(fresh_pre_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x


net2 = Net2()
print(net2(x, y))
print(grad(net2)(x, y))


def scaled_pre_hook_fn(cell, inputs):
    return inputs[0] * 3


net3 = Net()
net3.relu.register_forward_pre_hook(scaled_pre_hook_fn)
print(net3(x, y))
print(grad(net3)(x, y))
