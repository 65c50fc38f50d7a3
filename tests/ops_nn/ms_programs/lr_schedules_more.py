import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

steps = [0, 1, 2, 5, 9, 10, 15]
schedules = [
    ("NaturalExpDecayLR", nn.NaturalExpDecayLR(0.1, 0.9, 4)),
    ("NaturalExpDecayLR stair", nn.NaturalExpDecayLR(0.1, 0.2, 4, is_stair=True)),
    ("InverseDecayLR", nn.InverseDecayLR(0.1, 0.9, 4)),
    ("InverseDecayLR stair", nn.InverseDecayLR(0.1, 0.5, 3, is_stair=True)),
]
for name, s in schedules:
    print(name, [round(float(s(Tensor(np.array(k, np.int32))).asnumpy()), 6) for k in steps])
print([round(v, 6) for v in nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 1)])
print([round(v, 6) for v in nn.natural_exp_decay_lr(0.1, 0.5, 8, 2, 2, True)])
print([round(v, 6) for v in nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1)])
print([round(v, 6) for v in nn.inverse_decay_lr(0.1, 0.5, 8, 2, 2, True)])

w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
opt = nn.SGD([w], nn.InverseDecayLR(0.1, 0.5, 1))
for _ in range(3):
    opt((Tensor(np.ones(2, np.float32)),))
    print(w.asnumpy())
