# An optimizer written against MindSpore's Optimizer internals, the way mindcv's and other
# model zoos' optimizers are (hyper_map over a MultitypeFuncGraph, decay_flags, optim_filter,
# get_lr, global_step, opt_init_args_register).
import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.nn.optim import Optimizer
from mindspore.nn.optim.optimizer import opt_init_args_register

_update = ops.MultitypeFuncGraph("update")


@_update.register("Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Bool", "Bool")
def _step(beta, lr, weight_decay, param, m, gradient, decay_flag, optim_filter):
    if optim_filter:
        next_m = beta * m + (1 - beta) * gradient
        update = next_m
        if decay_flag:
            update = weight_decay * param + update
        ops.assign(param, param - lr * update)
        ops.assign(m, next_m)
    return gradient


class MomentumW(Optimizer):
    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, beta=0.9, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta = Tensor(np.array([beta]).astype(np.float32))
        self.moments = self.parameters.clone(prefix="mom", init="zeros")

    def construct(self, gradients):
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        if self._is_dynamic_lr_or_weight_decay():
            self.assignadd(self.global_step, self.global_step_increase_tensor)
        return self.hyper_map(ops.partial(_update, self.beta, lr, self.weight_decay),
                              self._parameters, self.moments, gradients, self.decay_flags,
                              self.optim_filter)


ps = [Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name=n)
      for n in ["dense.weight", "bn.gamma", "bn.beta"]]
opt = MomentumW(ps, 0.1, 0.8, 0.5, 4.0)
print(opt.init_args, opt.init_learning_rate, [p.name for p in opt.init_params["params"]])
print(opt.decay_flags, opt.optim_filter, opt.weight_decay, opt.reciprocal_scale, opt.need_scale)
for k in range(3):
    opt(tuple(Tensor(np.array([0.4 * (k + 1), -0.8], np.float32)) for _ in ps))
    print([p.asnumpy() for p in ps], [m.asnumpy() for m in opt.moments])
print(opt.global_step)
dyn = MomentumW([Parameter(Tensor(np.ones(2, np.float32)), name="w")], nn.ExponentialDecayLR(0.1, 0.5, 1))
for _ in range(2):
    dyn((Tensor(np.ones(2, np.float32)),))
print(dyn.global_step, dyn.parameters[0].asnumpy())
