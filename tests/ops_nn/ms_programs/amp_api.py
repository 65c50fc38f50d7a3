# mindspore.amp: the lists, the loss scalers, all_finite, build_train_network and Model's amp
# settings, and the errors for bad arguments.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, amp


def tr(f):
    try:
        r = f()
        print("ok", type(r).__name__)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0].split(" <class")[0])


print([c.__name__ for c in amp.get_white_list()][:10], "MatMul" in [c.__name__ for c in amp.get_white_list()])
print([c.__name__ for c in amp.get_black_list()], amp.get_black_list() is amp.get_black_list())
print(amp.FixedLossScaleManager is ms.train.FixedLossScaleManager, amp.build_train_network is ms.build_train_network)

net = nn.Dense(2, 2)
opt = nn.SGD(net.trainable_params())
tr(lambda: ms.train.Model(net, nn.MSELoss(), opt, amp_level="O5"))
tr(lambda: ms.train.Model(net, nn.MSELoss(), None, amp_level="O2"))
tr(lambda: ms.train.Model(net, nn.MSELoss(), opt, amp_level="O1"))
tr(lambda: ms.train.Model(net, nn.MSELoss(), opt, amp_level="O3", keep_batchnorm_fp32=3))
tr(lambda: ms.train.Model(net, nn.MSELoss(), opt, amp_level="O2", loss_scale_manager=None).train_network)
tr(lambda: amp.auto_mixed_precision(net, "O4"))
tr(lambda: amp.auto_mixed_precision(net, "O2", ms.float32))
tr(lambda: amp.auto_mixed_precision(net, "O2", ms.int8))
tr(lambda: amp.auto_mixed_precision(lambda x: x, "O2"))
tr(lambda: amp.auto_mixed_precision(3, "auto"))
tr(lambda: amp.auto_mixed_precision(net, 3))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), "O4"))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), 4))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), "O0", "O3"))
tr(lambda: amp.build_train_network(net, 3, nn.MSELoss()))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), foo=1))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), cast_model_type=ms.int32))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), keep_batchnorm_fp32=1))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), loss_scale_manager=3))
tr(lambda: amp.build_train_network(net, opt, 3))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), "O2", loss_scale_manager=amp.FixedLossScaleManager(8., False)))
tr(lambda: amp.build_train_network(net, opt, nn.MSELoss(), "O3"))
tr(lambda: amp.build_train_network(net, opt, None, "O1"))
tr(lambda: amp.custom_mixed_precision(net))
tr(lambda: amp.custom_mixed_precision(net, white_list=[], black_list=[]))
tr(lambda: amp.custom_mixed_precision(net, white_list=[nn.Dense], dtype=ms.float32))
tr(lambda: amp.custom_mixed_precision(net, white_list=(nn.Dense,)))
tr(lambda: amp.custom_mixed_precision(net, white_list=[3]))
tr(lambda: amp.custom_mixed_precision(net, white_list=[int]))
tr(lambda: amp.custom_mixed_precision(net, black_list=[ops.ReLU]))
tr(lambda: amp.custom_mixed_precision(3, black_list=[]))
for v in [0, 0.5, 1, -2, "a", True]:
    tr(lambda: amp.StaticLossScaler(v))
    tr(lambda: amp.DynamicLossScaler(v, 2, 10))
tr(lambda: amp.DynamicLossScaler(8, 0, 10))
tr(lambda: amp.DynamicLossScaler(8, 2.0, 10))
tr(lambda: amp.DynamicLossScaler(8, 2, 0))
tr(lambda: amp.DynamicLossScaler(8, 2, -1))
tr(lambda: amp.DynamicLossScaler(8, 2, True))
tr(lambda: amp.LossScaler())

s = amp.StaticLossScaler(1024)
print(s.scale_value, s.scale(Tensor([1.], ms.float32)))
print(s.unscale((Tensor(np.array([1.5, 1.0]), ms.float16), Tensor(np.array([1.2]), ms.float16))))
print(s.scale([Tensor([1.], ms.float32), Tensor([2], ms.int32)]))
print(s.scale(Tensor([3], ms.int32)), s.adjust(Tensor(True)), isinstance(s, amp.LossScaler))
d = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=3)
print(d.scale_value, d.counter, d.scale_factor, d.scale_window)
for fin in [True, True, True, False, True, False, False, True, True, True, True]:
    r = d.adjust(Tensor(fin))
    print(fin, r, d.scale_value.asnumpy(), d.counter.asnumpy())
d = amp.DynamicLossScaler(1, 2, 1)
print(d.adjust(Tensor(False)), d.scale_value.asnumpy())
d = amp.DynamicLossScaler(2.0**127, 2, 1)
print(d.adjust(Tensor(True)), d.scale_value.asnumpy())
print(amp.DynamicLossScaler(4, 2, 2).unscale(Tensor(np.array([1., 2.], np.float32))))
x = (Tensor(np.array([np.nan, 1, -np.inf])), Tensor(np.array([1.0])))
print(amp.all_finite(x), amp.all_finite(x).dtype, amp.all_finite(x).shape)
print(amp.all_finite((Tensor(np.array([1.0, 2.0], np.float16)), Tensor([3], ms.int32))))
print(amp.all_finite([Tensor(np.array([np.inf], np.float32))]))
print(amp.all_finite([Tensor(np.array([65504], np.float16))]))
