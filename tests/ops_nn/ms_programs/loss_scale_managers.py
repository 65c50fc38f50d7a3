import numpy as np
import mindspore as ms
from mindspore import Tensor, nn
from mindspore.train import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager, Model

m = DynamicLossScaleManager(2 ** 10, 2, 3)
seq = []
for overflow in [False, False, True, False, False, False, True, True, False]:
    m.update_loss_scale(overflow)
    seq.append((m.get_loss_scale(), m.cur_iter, m.last_overflow_iter))
print(seq, m.get_drop_overflow_update())
cell = m.get_update_cell()
print(type(cell).__name__, cell.get_loss_scale(), cell.scale_window)
f = FixedLossScaleManager(64.0)
print(f.get_loss_scale(), f.get_drop_overflow_update(), type(f.get_update_cell()).__name__,
      FixedLossScaleManager(32.0, False).get_update_cell())
print(isinstance(f, LossScaleManager), LossScaleManager().get_loss_scale())
for bad in [lambda: FixedLossScaleManager(0.5), lambda: DynamicLossScaleManager(0.5),
            lambda: DynamicLossScaleManager(scale_window=0), lambda: DynamicLossScaleManager(scale_factor=0)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)

ms.set_seed(0)
net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
opt = nn.Momentum(net.trainable_params(), 0.01, 0.9, loss_scale=16.0)
model = Model(net, nn.MSELoss(), opt, loss_scale_manager=FixedLossScaleManager(16.0, False))
print(type(model.train_network).__name__)
for _ in range(3):
    print(model.train_network(x, y))
print(net.weight.asnumpy())
