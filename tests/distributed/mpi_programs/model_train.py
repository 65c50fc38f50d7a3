"""`Model.train` in data-parallel mode on a sharded dataset; logs and checkpoints.

    python model_train.py <directory>

- N processes, each on its shard (`num_shards=get_group_size(), shard_id=get_rank()`) with
  batch B/N, end with the parameters of one process training on the whole data with batch B;
- `LossMonitor` prints on rank 0 only; `ModelCheckpoint` writes one file per save, from rank 0,
  unless `CheckpointConfig(all_ranks=True)` (then `<directory>/rank_<r>/`);
- after a barrier every process loads rank 0's checkpoint and holds identical parameters;
- with `parameter_broadcast`, parameters that differ between processes start equal.
"""

import os
import sys

import numpy as np
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.communication import get_group_size, get_rank, init
from cellgrad.communication.comm_func import all_gather_into_tensor, barrier
from cellgrad.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint

DIRECTORY = sys.argv[1]
init()
RANK, SIZE = get_rank(), get_group_size()
N, BATCH, EPOCHS = 32, 8, 2

rng = np.random.default_rng(0)
x = rng.standard_normal((N, 6)).astype(np.float32)
y = rng.integers(0, 3, N).astype(np.int32)


def model():
    ms.set_seed(11)
    net = nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))


def data(**shard):
    ms.dataset.config.set_seed(4)
    ds = NumpySlicesDataset({"x": x, "y": y}, shuffle=True, **shard)
    return ds.batch(BATCH // (SIZE if shard else 1))


def gathered(value):
    return all_gather_into_tensor(Tensor(np.ascontiguousarray(value)[None]))[0].asnumpy()


ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
net, m = model()
ckpt = ModelCheckpoint("dp", DIRECTORY, CheckpointConfig(save_checkpoint_steps=4,
                                                         keep_checkpoint_max=10))
ranked = ModelCheckpoint("all", DIRECTORY, CheckpointConfig(save_checkpoint_steps=8,
                                                            all_ranks=True))
m.train(EPOCHS, data(num_shards=SIZE, shard_id=RANK), callbacks=[LossMonitor(2), ckpt, ranked])
parallel = {p.name: p.asnumpy().copy() for p in net.trainable_params()}

ms.reset_auto_parallel_context()
alone_net, alone = model()
alone.train(EPOCHS, data(), callbacks=[])
for p in alone_net.trainable_params():
    np.testing.assert_allclose(parallel[p.name], p.asnumpy(), rtol=2e-5, atol=2e-6,
                               err_msg=p.name)
print(f"ok process {RANK} trained like one process")

barrier()  # rank 0 has written its checkpoints
files = sorted(f for f in os.listdir(DIRECTORY) if f.endswith(".ckpt"))
assert files == ["dp-1_4.ckpt", "dp-2_4.ckpt"], files
for r in range(SIZE):
    assert os.listdir(os.path.join(DIRECTORY, f"rank_{r}")) == ["all-2_4.ckpt"]
assert ckpt.latest_ckpt_file_name == os.path.join(DIRECTORY, "dp-2_4.ckpt")

fresh, _ = model()
ms.load_param_into_net(fresh, ms.load_checkpoint(ckpt.latest_ckpt_file_name))
for p in fresh.trainable_params():
    everyone = gathered(p.asnumpy())
    assert (everyone == everyone[0]).all() and (everyone[0] == parallel[p.name]).all(), p.name
print(f"ok process {RANK} loaded identical parameters")

# parameter_broadcast: rank 0's values reach everyone when the train cell is built.
ms.set_auto_parallel_context(parallel_mode="data_parallel", parameter_broadcast=True)
net, _ = model()
for p in net.trainable_params():
    p.asnumpy()[...] += RANK
nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
for p in net.trainable_params():
    everyone = gathered(p.asnumpy())
    assert (everyone == everyone[0]).all(), p.name
print(f"ok process {RANK} parameter_broadcast")
