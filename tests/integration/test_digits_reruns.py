"""The main job across reruns: a rerun keeps its own checkpoints, a resumed run is exact.

MindSpore's ModelCheckpoint (recorded with MindSpore 2.10: runs of 5, 2, 2 and 1 epochs in one
folder, keep_checkpoint_max=3) gives each new run the next free prefix and rotates only its
own files: digits-3..5, then digits_1-1..2, digits_2-1..2, and after a stray digits_7-1_2.ckpt,
digits_8-1_2.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("cellgrad_digits")
pytest.importorskip("cellgrad_checkpoint")
pytest.importorskip("sklearn")

import cellgrad as ms  # noqa: E402
from cellgrad import nn  # noqa: E402
from cellgrad.train import CheckpointConfig, Model, ModelCheckpoint  # noqa: E402

ARGS = ["--limit", "200", "--no-plots"]  # 160 training images: 5 steps an epoch


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "cellgrad_digits", *ARGS, *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def names(folder):
    return sorted(os.listdir(folder))


def test_model_checkpoint_takes_mindspores_next_prefix_and_rotates_only_its_own(tmp_path):
    folder = str(tmp_path)
    x = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32),
                                       "y": np.ones((4, 1), np.float32)}, shuffle=False)

    def train(epochs):
        net = nn.Dense(2, 1)
        cb = ModelCheckpoint("digits", folder, CheckpointConfig(save_checkpoint_steps=2,
                                                                keep_checkpoint_max=3))
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(epochs, x.batch(2),
                                                                         callbacks=[cb])
        return os.path.basename(cb.latest_ckpt_file_name)

    assert train(5) == "digits-5_2.ckpt"
    assert names(folder) == ["digits-3_2.ckpt", "digits-4_2.ckpt", "digits-5_2.ckpt"]
    assert train(2) == "digits_1-2_2.ckpt"
    assert train(2) == "digits_2-2_2.ckpt"
    open(os.path.join(folder, "digits_7-1_2.ckpt"), "wb").close()
    assert train(1) == "digits_8-1_2.ckpt"
    assert names(folder) == ["digits-3_2.ckpt", "digits-4_2.ckpt", "digits-5_2.ckpt",
                             "digits_1-1_2.ckpt", "digits_1-2_2.ckpt", "digits_2-1_2.ckpt",
                             "digits_2-2_2.ckpt", "digits_7-1_2.ckpt", "digits_8-1_2.ckpt"]


def test_rotation_removes_the_oldest_files_of_its_prefix_first(tmp_path):
    folder = str(tmp_path)
    x = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32),
                                       "y": np.ones((4, 1), np.float32)}, shuffle=False)
    net = nn.Dense(2, 1)
    cb = ModelCheckpoint("run", folder, CheckpointConfig(save_checkpoint_steps=2,
                                                         keep_checkpoint_max=2))
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()))
    model.train(4, x.batch(2), callbacks=[cb])
    assert names(folder) == ["run-3_2.ckpt", "run-4_2.ckpt"]
    model.train(1, x.batch(2), callbacks=[cb])  # the same callback again: epoch 1 is newest
    assert names(folder) == ["run-1_2.ckpt", "run-4_2.ckpt"]


def test_a_shorter_rerun_keeps_its_checkpoints_and_reloads_its_latest(tmp_path):
    out = tmp_path / "out"
    run_cli("--epochs", 4, "--out", out)
    text = run_cli("--epochs", 2, "--out", out)
    assert "reloaded" in text and "digits_1-2_5.ckpt" in text and "(identical)" in text
    assert names(out / "checkpoints") == ["digits-2_5.ckpt", "digits-3_5.ckpt",
                                          "digits-4_5.ckpt", "digits_1-1_5.ckpt",
                                          "digits_1-2_5.ckpt"]


@pytest.mark.stress
def test_resumed_training_equals_uninterrupted_training_bit_for_bit(tmp_path):
    straight, interrupted = tmp_path / "straight", tmp_path / "interrupted"
    run_cli("--epochs", 4, "--out", straight)
    run_cli("--epochs", 2, "--out", interrupted)
    text = run_cli("--epochs", 4, "--out", interrupted, "--resume",
                   interrupted / "checkpoints" / "digits-2_5.ckpt")
    assert "2 epoch(s) from epoch 2" in text
    a = ms.load_checkpoint(str(straight / "checkpoints" / "digits-4_5.ckpt"))
    b = ms.load_checkpoint(str(interrupted / "checkpoints" / "digits_1-4_5.ckpt"))
    assert sorted(a) == sorted(b)
    for name in a:  # weights, BatchNorm statistics, momenta, step count, epoch_num
        assert np.array_equal(a[name].asnumpy(), b[name].asnumpy()), name
    # and the resume is not a no-op: epoch 2's weights differ from epoch 4's
    two = ms.load_checkpoint(str(interrupted / "checkpoints" / "digits-2_5.ckpt"))
    assert not np.array_equal(two["fc1.weight"].asnumpy(), a["fc1.weight"].asnumpy())


@pytest.mark.stress
def test_model_resumed_with_set_init_step_reads_the_uninterrupted_epochs():
    class Batches(ms.train.Callback):
        def __init__(self):
            self.seen = []

        def on_train_step_begin(self, run_context):
            cb = run_context.original_args()
            self.seen.append((cb.cur_epoch_num, cb.train_dataset_element[0].asnumpy()[:, 0]))

    def run(initial_epoch):
        ms.set_seed(3)
        data = ms.dataset.NumpySlicesDataset(
            {"x": np.arange(12, dtype=np.float32)[:, None] * np.ones((1, 2), np.float32),
             "y": np.zeros((12, 1), np.float32)}, shuffle=True).batch(4)
        data.set_init_step(initial_epoch * data.get_dataset_size())
        net = nn.Dense(2, 1)
        seen = Batches()
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(
            4, data, callbacks=[seen], initial_epoch=initial_epoch)
        return seen.seen

    straight, resumed = run(0), run(2)
    assert [e for e, _ in resumed] == [3, 3, 3, 4, 4, 4]
    assert len(straight) == 12
    for (e1, b1), (e2, b2) in zip(straight[6:], resumed):
        assert e1 == e2 and np.array_equal(b1, b2)
    assert not np.array_equal(np.concatenate([b for _, b in straight[:3]]),
                              np.concatenate([b for _, b in straight[6:9]]))  # reshuffled
