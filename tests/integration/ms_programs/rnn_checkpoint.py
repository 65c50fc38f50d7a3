# Recurrent layers in checkpoints: the names and shapes a saved net holds, and a fresh net that
# loads them computes what the saved one did.
import os
import tempfile

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.encoder = nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
        self.decoder = nn.GRUCell(8, 4)
        self.head = nn.Dense(4, 2)

    def construct(self, x):
        out, (h, c) = self.encoder(x)
        return self.head(self.decoder(out[:, -1], h[-1]))


def fill(net, seed):
    rng = np.random.default_rng(seed)
    for _, p in net.parameters_and_names():
        p.set_data(Tensor(rng.uniform(-0.5, 0.5, p.shape).astype(np.float32)))


net = Net()
fill(net, 1)
for name, p in net.parameters_and_names():
    print(name, p.name, p.shape, p.requires_grad)
path = os.path.join(tempfile.mkdtemp(), "rnn.ckpt")
ms.save_checkpoint(net, path)
params = ms.load_checkpoint(path)
for name in sorted(params):
    print("ckpt", name, params[name].shape, params[name].dtype)
fresh = Net()
fill(fresh, 2)
x = Tensor(np.random.default_rng(3).uniform(-1, 1, (2, 5, 3)).astype(np.float32))
print("before", np.abs(fresh(x).asnumpy() - net(x).asnumpy()).max() > 1e-3)
not_loaded = ms.load_param_into_net(fresh, params)
print("not loaded", not_loaded)
print(fresh(x))
print(np.abs(fresh(x).asnumpy() - net(x).asnumpy()).max() == 0)
