"""A training run for test_train_exit_backup_s9: `python exit_run_s9.py DIR STEPS` trains a
Dense layer (one step per 0.1 s, STEPS steps an epoch, 5 epochs) with `OnRequestExit`, printing
`step N` after each step and `done N` when Model.train returns."""

import sys
import time

import numpy as np

import cellgrad as ms
from cellgrad import nn
from cellgrad.train import Callback, Model


def build(seed=0):
    ms.set_seed(seed)
    net = nn.Dense(4, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, Model(net, nn.MSELoss(), opt)


def data(steps):
    # a run of fewer steps sees the first batches of a longer one
    x = np.random.RandomState(0).randn(2 * steps, 4).astype(np.float32)
    y = np.random.RandomState(1).randn(2 * steps, 2).astype(np.float32)
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)


class Report(Callback):
    def on_train_step_end(self, run_context):
        print("step", run_context.original_args().cur_step_num, flush=True)
        time.sleep(0.1)


if __name__ == "__main__":
    folder, steps = sys.argv[1], int(sys.argv[2])
    net, model = build()
    exit_cb = ms.OnRequestExit(file_name="Net", directory=folder)
    model.train(5, data(steps), callbacks=[Report(), exit_cb])
    print("done", int(model.train_network.optimizer.global_step.asnumpy()[0]), flush=True)
