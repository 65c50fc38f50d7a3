# replay needs cellgrad_nn
# Three hooks (forward pre, forward, backward) on one ReLU, as in the seeds (2.10 conventions).
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import ops


def forward_pre_hook_fn(cell, inputs):
    print("forward pre hook:", type(cell).__name__, inputs)


def forward_hook_fn(cell, inputs, outputs):
    print("forward hook:", inputs, outputs)


def backward_hook_fn(cell, grad_input, grad_output):
    print("backward hook grad_input:", grad_input)
    print("backward hook grad_output:", grad_output)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.h1 = self.relu.register_forward_pre_hook(forward_pre_hook_fn)
        self.h2 = self.relu.register_forward_hook(forward_hook_fn)
        self.h3 = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x * 3


grad = ops.GradOperation(get_all=True)
net = Net()
x = ms.Tensor(np.array([1.0, -1.0, 2.0], np.float32))
print(net(x))
print(grad(net)(x))
net.h1.remove()
net.h2.remove()
print(grad(net)(x))
net.h3.remove()
print(grad(net)(x))
print(net.h1 is not net.h2, net.h2 is not net.h3)
