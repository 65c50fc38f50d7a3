"""A process that fails mid-step: the others must fail too, with a clear error, and soon.

    python failure.py raise   # process 1 raises in its forward of step 2
    python failure.py stall   # process 1 stops calling collectives (sleeps) in step 2

The other processes are waiting in the gradient all-reduce of that step meanwhile.
"""

import sys
import time

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.communication import get_rank, init

MODE = sys.argv[1]
init()
RANK = get_rank()
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 2)
        self.calls = 0

    def construct(self, x):
        self.calls += 1
        if RANK == 1 and self.calls == 2:
            if MODE == "raise":
                raise ValueError("boom in the forward of step 2")
            time.sleep(60)
        return self.dense(x)


net = Net()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.zeros((2, 2), np.float32))
for k in range(3):
    step(x, y)
    print(f"process {RANK} finished step {k + 1}", flush=True)
