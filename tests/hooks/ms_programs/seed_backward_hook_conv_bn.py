# replay needs cellgrad_nn
# The seed's backward hook on a BatchNorm2d between a Conv2d and a ReLU (2.10 conventions).
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import ops


def backward_hook_function(cell, grad_input, grad_output):
    print(grad_input)
    print(grad_output)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                              pad_mode="valid")
        self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
        self.handle = self.bn.register_backward_hook(backward_hook_function)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        return x


net = Net()
grad_net = ops.GradOperation(get_all=True, get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))
output = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)

net.set_train()
x = ms.Tensor(np.arange(18).reshape(2, 1, 3, 3).astype(np.float32) / 10)
output = grad_net(x)
print(output)
net.handle.remove()
print(grad_net(x)[0])


def double_grad_input(cell, grad_input, grad_output):
    return (grad_input[0] * 2,)


net.conv.register_backward_hook(double_grad_input)
print(grad_net(x)[0])
