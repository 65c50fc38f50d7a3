# replay needs: cellgrad_checkpoint, cellgrad_dataset
# BackupAndRestore: a run that crashes in epoch 3 and is restarted from its backup
# (initial_epoch=2) ends with the weights of an uninterrupted run. OnRequestExit: a signal
# without MS_ENABLE_GRACEFUL_EXIT lets the run finish and saves at its end; with it, a request
# file stops the run after the next step and the checkpoint holds that step's weights and
# progress. (Only chosen keys are printed: MindSpore's graceful TrainOneStepCell adds
# graceful_exit/graceful_init Parameters, and it appends global_step as a scalar.)
import json
import os
import shutil
import signal
import tempfile

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn
from mindspore.train import Callback, Model

rng = np.random.RandomState(5)
W = rng.uniform(-0.5, 0.5, (2, 4)).astype(np.float32)
X = rng.randn(12, 4).astype(np.float32)
Y = rng.randn(12, 2).astype(np.float32)
TMP = tempfile.mkdtemp()


def make():
    net = nn.Dense(4, 2, weight_init=Tensor(W), bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, opt, Model(net, nn.MSELoss(), opt)


def data(rows=12):
    return ms.dataset.NumpySlicesDataset({"x": X[:rows], "y": Y[:rows]}, shuffle=False).batch(4)


def r(t):
    return np.round(np.asarray(t.asnumpy(), np.float64).reshape(-1), 4).tolist()


class Crash(Callback):
    def on_train_step_begin(self, run_context):
        if run_context.original_args().cur_epoch_num == 3:
            raise RuntimeError("power cut")


print("== uninterrupted")
net, opt, model = make()
model.train(4, data())
print(r(net.weight), r(net.bias), r(opt.moments[0]), r(opt.global_step))

print("== crash in epoch 3")
backup = os.path.join(TMP, "bk")
net, opt, model = make()
try:
    model.train(4, data(), callbacks=[ms.BackupAndRestore(backup), Crash()])
except RuntimeError as e:
    print("RuntimeError", e)
print(sorted(os.listdir(backup)), r(opt.global_step))
saved = ms.load_checkpoint(os.path.join(backup, "backup.ckpt"))
print(r(saved["weight"]), r(saved["global_step"]))

print("== restored")
net, opt, model = make()
model.train(4, data(), callbacks=[ms.BackupAndRestore(backup, save_freq=2)], initial_epoch=2)
print(r(net.weight), r(net.bias), r(opt.moments[0]), r(opt.global_step))
print(os.path.exists(os.path.join(backup, "backup.ckpt")))

print("== signal without MS_ENABLE_GRACEFUL_EXIT")
steps = []


class Kill(Callback):
    def on_train_step_end(self, run_context):
        steps.append(run_context.original_args().cur_step_num)
        if steps[-1] == 2:
            os.kill(os.getpid(), signal.SIGUSR1)


net, opt, model = make()
cb = ms.OnRequestExit(save_mindir=False, directory=os.path.join(TMP, "a"), sig=signal.SIGUSR1)
model.train(2, data(), callbacks=[Kill(), cb])
print(steps, cb.exit, sorted(os.listdir(os.path.join(TMP, "a", "rank_0"))))
saved = ms.load_checkpoint(os.path.join(TMP, "a", "rank_0", "Net_train.ckpt"))
print(r(saved["weight"]), r(net.weight), r(saved["global_step"]))

print("== request file with MS_ENABLE_GRACEFUL_EXIT=1")
os.environ["MS_ENABLE_GRACEFUL_EXIT"] = "1"
config = os.path.join(TMP, "exit.json")
steps = []


class Ask(Callback):
    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        steps.append((cb_params.cur_epoch_num, cb_params.cur_step_num))
        if len(steps) == 4:
            with open(config, "w") as f:
                json.dump({"GracefulExit": 1}, f)


net, opt, model = make()
cb = ms.OnRequestExit(save_mindir=False, directory=os.path.join(TMP, "b"), config_file=config,
                      sig=signal.SIGUSR1)
model.train(3, data(), callbacks=[Ask(), cb])
print(steps, cb.exit, cb.stop_train)
saved = ms.load_checkpoint(os.path.join(TMP, "b", "rank_0", "Net_train.ckpt"))
print({k: r(saved[k]) for k in ("epoch_num", "step_num", "batch_num", "global_step")})
print(r(saved["weight"]), r(net.weight), r(saved["moments.weight"]))
shutil.rmtree(TMP)
