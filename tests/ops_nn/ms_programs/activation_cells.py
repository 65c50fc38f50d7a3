import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

x = Tensor(np.array([[[-3.5, -0.2, 1.3], [0.4, 2.8, -1.1]], [[0.9, -2.2, 0.05], [3.3, -0.6, 0.7]]],
                    np.float32))
cells = [nn.HSwish(), nn.HSigmoid(), nn.Mish(), nn.Softsign(), nn.Tanhshrink(), nn.LogSigmoid(),
         nn.SeLU(), nn.FastGelu(), nn.HShrink(), nn.SoftShrink(0.3), nn.Hardtanh(-0.5, 0.5),
         nn.Threshold(0.1, 20.0), nn.CELU(2.0), nn.Softmin(), nn.Softmin(0), nn.Softmax2d(),
         nn.PReLU(), nn.PReLU(2, [0.1, 0.3])]
for cell in cells:
    print(cell, [(p.name, p.shape) for p in cell.get_parameters()])
    print(cell(x))
print(nn.GLU()(Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) - 3)))
print(nn.GLU(0)(Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) - 3)))
for name in ["hswish", "hsigmoid", "mish", "prelu", "softmin", "softshrink"]:
    print(name, nn.get_activation(name))

prelu = nn.PReLU(2, 0.2)
grad = ms.grad(lambda t: prelu(t).sum(), None, prelu.trainable_params())(x)
print(grad)
for bad in [lambda: nn.PReLU(0), lambda: nn.PReLU(2.5), lambda: nn.HShrink("a"),
            lambda: nn.Softmax2d()(Tensor(np.ones((2, 2), np.float32)))]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
