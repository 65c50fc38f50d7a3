# nn.Conv2dBnAct / nn.DenseBnAct: parameter names, reprs, eval and train outputs.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor
c = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation='relu')
print([(p.name, p.shape) for p in c.get_parameters()]); print(c)
d = nn.DenseBnAct(3, 4, has_bn=True, activation='leakyrelu', alpha=0.1)
print([(p.name, p.shape) for p in d.get_parameters()]); print(d)
print(nn.Conv2dBnAct(3, 4, 3, activation='leakyrelu', alpha=0.3))
x = Tensor(np.ones((2, 3, 4, 4), np.float32))
c3 = nn.Conv2dBnAct(3, 2, 1, weight_init='ones', has_bn=True, activation='relu'); c3.set_train(False); print(c3(x)[0, 0])
d3 = nn.DenseBnAct(3, 2, weight_init='ones', bias_init='zeros', has_bn=True, activation='leakyrelu', alpha=0.5); d3.set_train(False)
print(d3(Tensor(np.array([[1., -2., -3.]], np.float32))))
d4 = nn.DenseBnAct(3, 2, weight_init='ones', bias_init='zeros', has_bn=True); d4.set_train(True)
print(d4(Tensor(np.array([[1., -2., -3.], [2., 0.5, 1.]], np.float32))), d4.batchnorm.moving_mean.asnumpy())
