# A float16 (O3) Dense whose weight gradient 300 * scale overflows float16: amp.all_finite sees
# it, the optimizer is skipped, DynamicLossScaler halves the scale until it fits, then raises it.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, amp

net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
amp_net = amp.auto_mixed_precision(net, "O3")
opt = nn.SGD(net.trainable_params(), 0.01)
scaler = amp.DynamicLossScaler(2 ** 16, 2, 2)
grad_fn = ms.value_and_grad(lambda x: scaler.scale(amp_net(x).sum()), None, opt.parameters)
x = Tensor(np.array([[300.0, 1.0]], np.float32))
for step in range(13):
    loss, grads = grad_fn(x)
    grads = scaler.unscale(grads)
    finite = amp.all_finite(grads)
    if finite:
        opt(grads)
    scaler.adjust(finite)
    print(step, loss, finite, grads[0].dtype, scaler.scale_value.asnumpy(), scaler.counter.asnumpy(),
          net.weight.asnumpy(), net.bias.asnumpy())
