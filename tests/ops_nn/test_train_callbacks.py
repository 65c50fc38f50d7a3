"""cellgrad.train callbacks: the order they run in, what they print, stop requests, rotation."""

import os

import numpy as np
import pytest

import cellgrad
import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_nn.train.callbacks import CallbackList, CallbackParams


def run(callbacks, epochs=2, steps=3, losses=None, stop_at=None):
    """Drive callbacks as Model.train does; returns the RunContext."""
    cb = CallbackParams(mode="train", epoch_num=epochs, batch_num=steps, cur_epoch_num=0,
                        cur_step_num=0, net_outputs=None, metrics=None)
    rc = ms.train.RunContext(cb)
    cl = CallbackList(callbacks)
    cl.on_train_begin(rc)
    for e in range(1, epochs + 1):
        cb.cur_epoch_num = e
        cl.on_train_epoch_begin(rc)
        for _ in range(steps):
            cb.cur_step_num += 1
            cl.on_train_step_begin(rc)
            loss = losses[cb.cur_step_num - 1] if losses else 1.0 / cb.cur_step_num
            cb.net_outputs = Tensor(np.float32(loss))
            cl.on_train_step_end(rc)
            if rc.get_stop_requested():
                break
        cl.on_train_epoch_end(rc)
        if rc.get_stop_requested() or e == stop_at:
            break
    cl.on_train_end(rc)
    return rc


def test_on_methods_call_the_old_names_in_order():
    seen = []

    class Recorder(ms.train.Callback):
        def __getattribute__(self, name):
            if name in ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end"):
                seen.append(name)
            return object.__getattribute__(self, name)

    run([Recorder()], epochs=1, steps=2)
    assert seen == ["begin", "epoch_begin", "step_begin", "step_end", "step_begin", "step_end",
                    "epoch_end", "end"]


def test_loss_monitor_prints_as_mindspore(capsys):
    run([ms.train.LossMonitor(2)], epochs=2, steps=3, losses=[0.5, 0.25, 0.125, 1, 2, 4])
    assert capsys.readouterr().out.splitlines() == [
        "epoch: 1 step: 2, loss is 0.25", "epoch: 2 step: 1, loss is 1.0",
        "epoch: 2 step: 3, loss is 4.0"]


def test_loss_monitor_stops_on_nan():
    with pytest.raises(ValueError, match="In epoch: 1 step: 2, loss is NAN or INF"):
        run([ms.train.LossMonitor()], losses=[1.0, float("nan"), 1, 1, 1, 1])


def test_time_monitor_prints_epoch_and_step_time(capsys):
    run([ms.train.TimeMonitor()], epochs=1)
    out = capsys.readouterr().out
    assert out.startswith("Train epoch time: ") and ", per step time: " in out


def test_history_and_lambda_callback():
    history, ends = ms.train.History(), []
    lam = ms.train.LambdaCallback(on_train_epoch_end=lambda rc: ends.append(
        rc.original_args().cur_epoch_num))
    run([history, lam], epochs=3, steps=2)
    assert history.epoch == {"epoch": [1, 2, 3]} and ends == [1, 2, 3]
    np.testing.assert_allclose(history.history["net_output"], [1 / 2, 1 / 4, 1 / 6], rtol=1e-6)
    with pytest.raises(TypeError, match="on_train_end must be callable"):
        ms.train.LambdaCallback(on_train_end=3)


def test_early_stopping_requests_a_stop_after_patience_epochs(capsys):
    stop = ms.train.EarlyStopping(monitor="loss", patience=1, verbose=True)
    rc = run([stop], epochs=5, steps=1, losses=[1.0, 2.0, 3.0, 0.5, 0.1])
    assert rc.get_stop_requested() and stop.stopped_epoch == 2
    assert "Epoch 00002: early stopping" in capsys.readouterr().out
    with pytest.raises(ValueError, match="'eval_acc' is not available; available: \\['loss'\\]"):
        run([ms.train.EarlyStopping(monitor="eval_acc")], epochs=1)


def test_reduce_lr_on_plateau_scales_the_optimizer_learning_rate():
    class Opt:
        learning_rate = Parameter(Tensor(np.float32(0.1)), name="learning_rate")

    plateau = ms.train.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    cb = CallbackParams(optimizer=Opt(), net_outputs=None, cur_epoch_num=0)
    rc = ms.train.RunContext(cb)
    for loss in (1.0, 1.0, 1.0, 0.5):
        cb.cur_epoch_num += 1
        cb.net_outputs = Tensor(np.float32(loss))
        plateau.on_train_epoch_end(rc)
    assert float(Opt.learning_rate.asnumpy()) == pytest.approx(0.025)


def test_run_context_needs_a_dict():
    with pytest.raises(TypeError, match="should be dict type"):
        ms.train.RunContext([1])


def test_callbacks_must_be_callbacks():
    with pytest.raises(TypeError, match="each callback must be a Callback, but got int"):
        CallbackList([3])


def test_model_checkpoint_names_files_as_mindspore_and_keeps_the_newest(tmp_path, monkeypatch):
    saved = []

    def fake_save(network, path, **kwargs):
        saved.append((os.path.basename(path), kwargs["append_dict"]))
        open(path, "wb").close()

    monkeypatch.setattr(cellgrad, "save_checkpoint", fake_save, raising=False)
    config = ms.train.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2,
                                       append_info=["epoch_num"])
    ckpt = ms.train.ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    (tmp_path / "other-1_1.ckpt").write_bytes(b"")
    cb = CallbackParams(mode="train", train_network=object(), batch_num=3, cur_epoch_num=0,
                        cur_step_num=0, net_outputs=None)
    rc = ms.train.RunContext(cb)
    for step in range(1, 8):
        cb.cur_step_num, cb.cur_epoch_num = step, (step - 1) // 3 + 1
        ckpt.on_train_step_end(rc)
    ckpt.on_train_end(rc)
    assert [name for name, _ in saved] == ["net-1_2.ckpt", "net-2_1.ckpt", "net-2_3.ckpt",
                                           "net-3_1.ckpt"]
    assert saved[-1][1] == {"epoch_num": 3}
    assert sorted(os.listdir(tmp_path)) == ["net-2_3.ckpt", "net-3_1.ckpt", "other-1_1.ckpt"]
    assert ckpt.latest_ckpt_file_name == str(tmp_path / "net-3_1.ckpt")


@pytest.mark.parametrize("kwargs, message", [
    ({"save_checkpoint_steps": 0}, "cannot both be 0"),
    ({"keep_checkpoint_max": -1}, "keep_checkpoint_max must be an int >= 0"),
    ({"append_info": ["nope"]}, "append_info entries must be"),
    ({"format": "pt"}, "format must be 'ckpt' or 'safetensors'"),
])
def test_checkpoint_config_rejects_bad_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ms.train.CheckpointConfig(**kwargs)


def test_progress_bar_is_off_without_a_terminal(capsys):
    bar = ms.train.ProgressBar()
    assert not bar.enabled  # pytest captures stdout: not a terminal
    run([bar], epochs=1)
    assert capsys.readouterr().out == ""


def test_progress_bar_shows_epoch_step_loss_and_speed():
    import io

    pytest.importorskip("tqdm")
    out = io.StringIO()
    bar = ms.train.ProgressBar(enabled=True, file=out)
    run([bar], epochs=1, steps=3)
    text = out.getvalue()
    assert "epoch 1/1" in text and "3/3" in text and "loss=0.3333" in text
    assert "samples/s" in text


def test_model_checkpoint_end_waits_for_the_last_asynchronous_save(tmp_path, monkeypatch):
    """As MindSpore's: on_train_end joins the save thread (named asyn_save_ckpt)."""
    import threading

    finished = []

    def slow_async_save(network, path, **kwargs):
        assert kwargs["async_save"] is True

        def write():
            threading.Event().wait(0.2)
            open(path, "wb").close()
            finished.append(path)

        threading.Thread(target=write, name="asyn_save_ckpt").start()

    monkeypatch.setattr(cellgrad, "save_checkpoint", slow_async_save, raising=False)
    config = ms.train.CheckpointConfig(save_checkpoint_steps=100, async_save=True)
    ckpt = ms.train.ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    cb = CallbackParams(mode="train", train_network=object(), batch_num=3, cur_epoch_num=1,
                        cur_step_num=3, net_outputs=None)
    ckpt.on_train_end(ms.train.RunContext(cb))
    assert finished == [str(tmp_path / "net-1_3.ckpt")]
