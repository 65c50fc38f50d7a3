"""Processes that disagree or leave: every process must fail soon, with an error naming why.

    python departures.py shape   # process 1's first weight is (4, 3) where process 0's is (3, 4)
    python departures.py count   # process 1's hidden layer is 6 wide, process 0's 3
    python departures.py layer   # process 1 has an extra Dense layer
    python departures.py exit    # process 1 calls sys.exit(0) before step 2
    python departures.py _exit   # process 1 calls os._exit(3) before step 2

The others are waiting in the gradient all-reduce of step 2 when process 1 leaves.
"""

import os
import sys

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.communication import get_rank, init

MODE = sys.argv[1]
init()
RANK = get_rank()
ODD = RANK == 1  # the process that differs or leaves
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        hidden = 6 if MODE == "count" and ODD else 3
        self.fc1 = nn.Dense(4, hidden)
        if MODE == "shape" and ODD:  # the same 12 elements in another shape
            self.fc1.weight.set_data(Tensor(np.zeros((4, 3), np.float32)), slice_shape=True)
        self.fc2 = nn.Dense(hidden, 2)
        self.extra = nn.Dense(2, 2) if MODE == "layer" and ODD else None

    def construct(self, x):
        x = self.fc2(self.fc1(x))
        return x if self.extra is None else self.extra(x)


net = Net()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.zeros((2, 2), np.float32))
for k in range(3):
    if ODD and k == 1:
        if MODE == "exit":
            sys.exit(0)
        if MODE == "_exit":
            os._exit(3)
    step(x, y)
    print(f"process {RANK} finished step {k + 1}", flush=True)
