"""A data-parallel step on N processes gives the parameters of one process on the whole batch.

    python data_parallel.py <optimizer: sgd|adam> <network: mlp|syncbn|syncbn2d> [bucket MB]

Each process trains on its slice of a fixed global batch with `TrainOneStepCell` in
DATA_PARALLEL mode (gradients all-reduced, averaged); every process also runs the same steps
alone on the whole batch (BatchNorm in place of SyncBatchNorm) and compares, after each step.
"""

import sys

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.communication import get_group_size, get_rank, init
from cellgrad.communication.comm_func import all_gather_into_tensor

OPTIMIZER, NETWORK = sys.argv[1], sys.argv[2]
BUCKET_MB = float(sys.argv[3]) if len(sys.argv) > 3 else None
STEPS, BATCH = 3, 16

init()
RANK, SIZE = get_rank(), get_group_size()


def network(norm):
    ms.set_seed(5)
    if NETWORK == "mlp":
        return nn.SequentialCell([nn.Dense(12, 16), nn.ReLU(), nn.Dense(16, 16), nn.Tanh(),
                                  nn.Dense(16, 4)])
    if NETWORK == "syncbn2d":
        return nn.SequentialCell([nn.Dense(12, 16), norm(16), nn.ReLU(), nn.Dense(16, 4)])
    return nn.SequentialCell([nn.Conv2d(2, 4, 3, has_bias=True), norm(4), nn.ReLU(),
                              nn.Flatten(), nn.Dense(4 * 7 * 7, 4)])


def optimizer(params):
    if OPTIMIZER == "sgd":
        return nn.SGD(params, 0.05, momentum=0.9)
    return nn.Adam(params, 0.01)


def train_step(norm, data, labels, steps):
    net = network(norm)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer(net.trainable_params()))
    history = []
    for _ in range(steps):
        step(Tensor(data), Tensor(labels))
        history.append({p.name: p.asnumpy().copy() for p in net.get_parameters()})
    return step, history


rng = np.random.default_rng(0)
shape = (BATCH, 12) if NETWORK in ("mlp", "syncbn2d") else (BATCH, 2, 7, 7)
x = rng.standard_normal(shape).astype(np.float32)
y = rng.integers(0, 4, BATCH).astype(np.int32)
mine = slice(RANK * BATCH // SIZE, (RANK + 1) * BATCH // SIZE)

ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
if BUCKET_MB:
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size",
                                                            "config": BUCKET_MB}})
parallel_step, parallel = train_step(nn.SyncBatchNorm, x[mine], y[mine], STEPS)
assert type(parallel_step.grad_reducer).__name__ == "DistributedGradReducer"
ms.reset_auto_parallel_context()
plain = nn.BatchNorm1d if NETWORK == "syncbn2d" else nn.BatchNorm2d
_, alone = train_step(plain, x, y, STEPS)

for k, (got, want) in enumerate(zip(parallel, alone)):
    assert got.keys() == want.keys(), (sorted(got), sorted(want))
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6,
                                   err_msg=f"step {k + 1}, parameter {name}")
# and every process holds exactly the same parameters
for name, value in parallel[-1].items():
    everyone = all_gather_into_tensor(Tensor(value[None]))[0].asnumpy()
    assert (everyone == everyone[0]).all(), f"{name} differs between processes"
print(f"ok {OPTIMIZER} {NETWORK}")
