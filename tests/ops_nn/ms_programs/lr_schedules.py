import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

steps = [0, 1, 2, 5, 9, 10, 15]
schedules = [
    ("ExponentialDecayLR", nn.ExponentialDecayLR(0.1, 0.9, 4)),
    ("ExponentialDecayLR stair", nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True)),
    ("CosineDecayLR", nn.CosineDecayLR(0.01, 0.1, 10)),
    ("PolynomialDecayLR", nn.PolynomialDecayLR(0.1, 0.01, 10, 0.5)),
    ("PolynomialDecayLR update", nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0, update_decay_steps=True)),
    ("WarmUpLR", nn.WarmUpLR(0.1, 5)),
]
for name, s in schedules:
    print(name, [round(float(s(Tensor(np.array(k, np.int32))).asnumpy()), 6) for k in steps])
print(nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]))
print([round(v, 6) for v in nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1)])
print([round(v, 6) for v in nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2, True)])
print([round(v, 6) for v in nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2)])
print([round(v, 6) for v in nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5)])
print([round(v, 6) for v in nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 1.0, True)])
print([round(v, 6) for v in nn.warmup_lr(0.1, 6, 2, 2)])
