"""`OnRequestExit` and `BackupAndRestore`: a run stopped by SIGTERM saves the state of the steps
it ran and exits cleanly; a run that died and restarts from its backup ends where an
uninterrupted run ends; MindSpore's argument checks."""

import inspect
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import cellgrad as ms
from cellgrad.train import Callback

pytest.importorskip("cellgrad_checkpoint")
pytest.importorskip("cellgrad_dataset")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exit_run_s9 import build, data  # noqa: E402

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "exit_run_s9.py")
STATE = ("weight", "bias", "moments.weight", "moments.bias", "global_step")


def state(model):
    return {p.name: p.asnumpy().copy() for p in model.train_network.get_parameters()
            if p.name in STATE}


def assert_same_state(a, b):
    assert set(a) == set(STATE) and set(b) == set(STATE)
    for k in STATE:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-6, atol=1e-7, err_msg=k)


def trained(epochs, steps=3):
    net, model = build()
    model.train(epochs, data(steps))
    return model


class Crash(Callback):
    """Kills the run (an exception) at the first step of epoch `epoch`."""

    def __init__(self, epoch):
        self.epoch = epoch

    def on_train_step_begin(self, run_context):
        if run_context.original_args().cur_epoch_num == self.epoch:
            raise RuntimeError("power cut")


@pytest.fixture
def usr1():
    """The tests in this process use SIGUSR1 (OnRequestExit installs its handler for good)."""
    old = signal.getsignal(signal.SIGUSR1)
    yield signal.SIGUSR1
    signal.signal(signal.SIGUSR1, old)


def test_signatures_and_names():
    assert ms.OnRequestExit is ms.train.OnRequestExit
    assert ms.BackupAndRestore is ms.train.BackupAndRestore
    assert str(inspect.signature(ms.OnRequestExit)) == (
        "(save_ckpt=True, save_mindir=True, file_name='Net', directory='./', config_file=None, "
        "sig=<Signals.SIGTERM: 15>)")
    assert str(inspect.signature(ms.BackupAndRestore)) == (
        "(backup_dir, save_freq='epoch', delete_checkpoint=True)")


# --- BackupAndRestore ------------------------------------------------------------------------

def test_interrupted_then_restored_equals_uninterrupted(tmp_path):
    backup = str(tmp_path / "bk")
    _, model = build()
    with pytest.raises(RuntimeError, match="power cut"):
        model.train(4, data(3), callbacks=[ms.BackupAndRestore(backup), Crash(3)])
    assert os.path.isfile(os.path.join(backup, "backup.ckpt"))
    assert_same_state(state(model), state(trained(2)))  # the crash came before an update
    assert int(model.train_network.optimizer.global_step.asnumpy()[0]) == 6

    _, fresh = build(seed=7)  # other initial weights and a new optimizer: all from the backup
    assert not np.allclose(state(fresh)["weight"], state(model)["weight"])
    fresh.train(4, data(3), callbacks=[ms.BackupAndRestore(backup)], initial_epoch=2)
    assert_same_state(state(fresh), state(trained(4)))
    assert not os.path.exists(os.path.join(backup, "backup.ckpt"))  # delete_checkpoint


def test_save_freq_and_keep(tmp_path):
    backup = str(tmp_path / "bk")
    _, model = build()
    with pytest.raises(RuntimeError):
        model.train(4, data(3), callbacks=[ms.BackupAndRestore(backup, save_freq=2,
                                                               delete_checkpoint=False),
                                           Crash(4)])
    saved = ms.load_checkpoint(os.path.join(backup, "backup.ckpt"))
    assert int(saved["global_step"].asnumpy()[0]) == 6  # epoch 2's, not epoch 3's
    np.testing.assert_allclose(saved["weight"].asnumpy(), state(trained(2))["weight"],
                               rtol=1e-6)
    _, again = build()
    again.train(1, data(3), callbacks=[ms.BackupAndRestore(backup, delete_checkpoint=False)])
    assert os.path.exists(os.path.join(backup, "backup.ckpt"))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"save_freq": 0}, ValueError,
     "The input value must be int and must > 0, but got '0' with type 'int'."),
    ({"save_freq": "step"}, TypeError, "The input value must be int, but got 'str'"),
    ({"save_freq": True}, TypeError,
     "The input value must be int and must > 0, but got 'True' with type 'bool'."),
    ({"delete_checkpoint": 1}, TypeError, "The input value must be a bool, but got int."),
    ({"backup_dir": 5}, TypeError, "The path is invalid, the type should be string."),
])
def test_backup_errors(tmp_path, kwargs, error, message):
    kwargs = {"backup_dir": str(tmp_path)} | kwargs
    with pytest.raises(error) as info:
        ms.BackupAndRestore(**kwargs)
    assert str(info.value) == message


def test_backup_dir_that_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(NotADirectoryError, match="it should be a directory path"):
        ms.BackupAndRestore(str(tmp_path / "f"))


# --- OnRequestExit ---------------------------------------------------------------------------

def test_sigterm_saves_the_steps_it_ran_and_exits(tmp_path):
    pytest.importorskip("cellgrad_jit")
    env = dict(os.environ, MS_ENABLE_GRACEFUL_EXIT="1")
    child = subprocess.Popen([sys.executable, RUNNER, str(tmp_path), "100"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in child.stdout:
            if line == "step 2\n":
                child.send_signal(signal.SIGTERM)
                break
        out, err = child.communicate(timeout=240)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    done = int(out.split("done ")[1])
    assert 2 < done < 100  # stopped within a step or two of the request, long before the end
    assert out.split()[-4:-2] == ["step", str(done)]  # each step reported, none after
    saved = ms.load_checkpoint(str(tmp_path / "rank_0" / "Net_train.ckpt"))
    _, ref = build()
    ref.train(1, data(done))  # the same `done` steps, uninterrupted
    assert_same_state({k: saved[k].asnumpy() for k in STATE}, state(ref))
    graph = ms.load(str(tmp_path / "rank_0" / "Net_train.mindir"))
    x, y = next(data(3).create_tuple_iterator())
    loss = ms.nn.GraphCell(graph)(x, y)
    assert loss.shape == () and np.isfinite(loss.asnumpy())


def test_without_graceful_exit_the_signal_saves_at_the_end(tmp_path, usr1, monkeypatch):
    monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT", raising=False)
    steps = []

    class Kill(Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_step_num)
            if steps[-1] == 2:
                os.kill(os.getpid(), usr1)

    _, model = build()
    cb = ms.OnRequestExit(save_mindir=False, directory=str(tmp_path), sig=usr1)
    model.train(2, data(3), callbacks=[Kill(), cb])
    assert steps == [1, 2, 3, 4, 5, 6] and cb.exit  # as MindSpore: the run goes on
    saved = ms.load_checkpoint(str(tmp_path / "rank_0" / "Net_train.ckpt"))
    assert_same_state({k: saved[k].asnumpy() for k in STATE}, state(model))
    assert not os.path.exists(tmp_path / "rank_0" / "Net_train.mindir")


def test_config_file_request_and_resume(tmp_path, usr1, monkeypatch):
    monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    config = tmp_path / "exit.json"
    steps = []

    class Ask(Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_step_num)
            if steps[-1] == 2:
                config.write_text(json.dumps({"GracefulExit": 1}))

    _, model = build()
    cb = ms.OnRequestExit(save_mindir=False, directory=str(tmp_path), config_file=str(config),
                          sig=usr1)
    model.train(3, data(4), callbacks=[Ask(), cb])
    assert steps == [1, 2, 3] and not cb.exit
    saved = ms.load_checkpoint(str(tmp_path / "rank_0" / "Net_train.ckpt"))
    progress = {k: saved[k].asnumpy().item() for k in ("epoch_num", "step_num", "batch_num",
                                                        "global_step")}
    assert progress == {"epoch_num": 1, "step_num": 3, "batch_num": 4, "global_step": 3}
    _, ref = build()
    ref.train(1, data(3))
    assert_same_state({k: saved[k].asnumpy() for k in STATE}, state(ref))

    config.write_text("{not json")  # a bad file is read as no request
    seen = {}

    class Look(Callback):
        def on_train_begin(self, run_context):
            seen.update(state(model2))

    _, model2 = build(seed=3)
    model2.train(1, data(4), callbacks=[ms.OnRequestExit(save_mindir=False,
                                                         directory=str(tmp_path),
                                                         config_file=str(config), sig=usr1),
                                        Look()])
    assert_same_state(seen, {k: saved[k].asnumpy() for k in STATE})  # loaded at train begin


def test_save_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cb = ms.OnRequestExit(directory=None, file_name="LeNet5")
    assert cb.train_name == os.path.join(os.path.realpath(tmp_path), "rank_0", "LeNet5_train")
    assert cb.eval_name == os.path.join(os.path.realpath(tmp_path), "rank_0", "LeNet5_eval")
    assert not hasattr(ms.OnRequestExit(save_ckpt=False, save_mindir=False), "train_name")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"save_ckpt": 1}, ValueError,
     "The parameter 'save_ckpt' must be isinstance of <class 'bool'>, but got 1."),
    ({"save_mindir": "x"}, ValueError,
     "The parameter 'save_mindir' must be isinstance of <class 'bool'>, but got x."),
    ({"sig": "a"}, ValueError,
     "The parameter 'sig' must be isinstance of <class 'int'>, but got a."),
    ({"sig": signal.SIGKILL}, ValueError, "Not support send exit request by signal SIGKILL."),
])
def test_exit_errors(tmp_path, kwargs, error, message):
    with pytest.raises(error) as info:
        ms.OnRequestExit(directory=str(tmp_path), **kwargs)
    assert str(info.value) == message
