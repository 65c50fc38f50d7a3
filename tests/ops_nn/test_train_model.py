"""cellgrad.train.Model: fit/train/eval/predict on a toy problem, callbacks seeing the run,
resuming from an epoch, mixed precision, and batches of the wrong shape."""

import numpy as np
import pytest
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import Tensor, nn


def blobs(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x = rng.standard_normal((n, 4)).astype(np.float32) * 0.3 + np.eye(3, 4)[y] * 2
    return x.astype(np.float32), y.astype(np.int32)


def make(lr=0.1, amp_level="O0", metrics=("accuracy", "loss")):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dense(16, 3)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, ms.train.Model(net, loss, opt, metrics=set(metrics), amp_level=amp_level)


def data(batch=16, seed=0):
    x, y = blobs(seed=seed)
    return NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=True).batch(batch)


def test_fit_trains_to_high_accuracy_and_reports_metrics_each_epoch(capsys):
    _, model = make()
    history = ms.train.History()
    model.fit(4, data(), data(seed=1), callbacks=[history, ms.train.LossMonitor(8)])
    result = model.eval(data(seed=2))
    assert result["accuracy"] > 0.95 and result["loss"] < 0.3
    assert history.epoch["epoch"] == [1, 2, 3, 4] and len(history.history["accuracy"]) == 4
    out = capsys.readouterr().out
    assert "epoch: 1 step: 8, loss is" in out and "Eval result: epoch 4, metrics:" in out


def test_callbacks_see_steps_epochs_and_can_stop_training():
    _, model = make()
    seen = []

    class Stopper(ms.train.Callback):
        def on_train_step_end(self, rc):
            cb = rc.original_args()
            seen.append((cb.cur_epoch_num, cb.cur_step_num, cb.batch_num))
            if cb.cur_step_num == 10:
                rc.request_stop()

    model.train(5, data(), callbacks=[Stopper()])
    assert seen[0] == (1, 1, 8) and seen[-1] == (2, 10, 8) and len(seen) == 10


def test_initial_epoch_continues_the_step_count():
    _, model = make()
    steps = []
    model.train(3, data(), callbacks=[ms.train.LambdaCallback(
        on_train_step_end=lambda rc: steps.append(rc.original_args().cur_step_num))],
        initial_epoch=2)
    assert steps == list(range(17, 25))


def test_predict_and_eval_use_predict_mode():
    net, model = make()
    model.train(2, data())
    out = model.predict(Tensor(blobs(8)[0]))
    assert out.shape == (8, 3) and not net.training
    before = net[1].moving_mean.asnumpy().copy()
    model.eval(data())
    np.testing.assert_array_equal(net[1].moving_mean.asnumpy(), before)


def test_amp_o2_runs_in_float16_with_batchnorm_in_float32():
    net, model = make(amp_level="O2")
    # O2 scales the loss with DynamicLossScaleManager() (2**24, as MindSpore): the first
    # steps overflow float16 and are skipped while the scale halves
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    model.train(4, data())
    assert model.train_network.scale_sense.asnumpy() < 2 ** 24
    # as in MindSpore, the BatchNorm now sits in an _OutputTo16 wrapper (float32 inside)
    assert type(net[1]).__name__ == "_OutputTo16"
    assert net[1]._backbone.moving_mean.dtype == ms.float32
    assert model.predict(Tensor(blobs(4)[0])).dtype == ms.float16
    assert model.eval(data())["accuracy"] > 0.8


def test_a_batch_of_the_wrong_shape_names_the_column():
    _, model = make()
    x, y = blobs()
    bad = NumpySlicesDataset((x[:, :3], y), column_names=["features", "label"]).batch(16)
    with pytest.raises(ValueError, match=r"Model.train: the network rejected the batch "
                                         r"\(features: shape \(16, 3\) Float32, label: shape "
                                         r"\(16,\) Int32\): For 'Dense', the last dimension of "
                                         r"the input must be in_channels=4"):
        model.train(1, bad)


def test_columns_must_keep_their_shape_from_batch_to_batch():
    _, model = make()

    def rows():
        for i in range(40):
            yield np.zeros(4 if i < 16 else 5, np.float32), np.int32(0)

    ds = ms.dataset.GeneratorDataset(rows, column_names=["x", "y"]).batch(16)
    with pytest.raises(ValueError, match=r"Column 'x' of this batch has shape \(N, 5\) and dtype "
                                         r"Float32, but the first batch had \(N, 4\)"):
        model.train(1, ds)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"amp_level": "O1"}, ValueError, r"Auto mixed precision will not work because "
                                      r"'optimizer' is None"),
    ({"metrics": 3}, TypeError, "For 'get_metrics', the argument 'metrics' must be None, dict "
                                "or set, but got 3"),
    ({"metrics": ["mse"]}, TypeError, "must be None, dict or set"),  # MindSpore: no lists
    ({"eval_indexes": [0, 1]}, ValueError, "eval_indexes must be a list of 3 ints"),
])
def test_bad_model_arguments(kwargs, error, message):
    net = nn.Dense(4, 3)
    with pytest.raises(error, match=message):
        ms.train.Model(net, nn.MSELoss(), **kwargs)


def test_bad_train_arguments():
    _, model = make()
    with pytest.raises(ValueError, match="The input value must be int and must > 0, but got '0'"):
        model.train(0, data())
    with pytest.raises(TypeError, match="The input value must be int, but got 'str'"):
        model.train(2, data(), initial_epoch="1")
    with pytest.raises(ValueError, match=r"For 'Model.fit', the parameter 'epoch' must bigger than "
                                         r"parameter 'initial_epoch', but got the parameter "
                                         r"'epoch' is 2, 'initial_epoch' is 2\."):
        model.fit(2, data(), initial_epoch=2)
