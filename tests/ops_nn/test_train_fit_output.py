"""Model.fit's printed eval results as MindSpore (numpy 1.x) prints them, and Model training on
any object with MindSpore's dataset protocol (`get_dataset_size`, `create_tuple_iterator`)."""

import numpy as np
import pytest
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.train import MAE, MSE, LossMonitor, Model


def model():
    net = nn.Dense(1, 1, has_bias=False)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return net, Model(net, nn.MSELoss(), opt, metrics={"mse": MSE(), "mae": MAE()})


def constant_data(n, batch):  # x = 0, y = 3: the loss stays 9 whatever the weight
    x = np.zeros((n, 1), np.float32)
    return NumpySlicesDataset((x, x + 3), column_names=["data", "label"],
                              shuffle=False).batch(batch)


def test_fit_prints_metrics_without_numpy2_scalar_types(capsys):
    _, m = model()
    m.fit(1, constant_data(64, 16), constant_data(32, 16), callbacks=[LossMonitor()])
    out = capsys.readouterr().out
    assert "epoch: 1 step: 4, loss is 9.0" in out
    assert "Eval result: epoch 1, metrics: {'mse': 9.0, 'mae': 3.0}" in out
    assert "np.float64" not in out


class RowsOnly:
    """A dataset as MindSpore's tests fake one: size and a tuple iterator, no column names."""

    def __init__(self, rows):
        self.rows = rows

    def get_dataset_size(self):
        return len(self.rows)

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return iter(self.rows * max(num_epochs, 1))


def test_train_and_eval_on_a_dataset_without_column_names():
    net, m = model()
    x = np.ones((4, 1), np.float32)
    rows = [(Tensor(x), Tensor(2 * x))] * 3
    before = net.weight.asnumpy().copy()
    m.train(2, RowsOnly(rows))
    assert not np.allclose(net.weight.asnumpy(), before)
    result = m.eval(RowsOnly(rows))
    w = float(net.weight.asnumpy()[0, 0])
    np.testing.assert_allclose(result["mse"], (w - 2) ** 2, rtol=1e-5)
    np.testing.assert_allclose(result["mae"], abs(w - 2), rtol=1e-5)


class SelfIterating(RowsOnly):
    """MindSpore's tests' `MindData`: the dataset is its own iterator; Model's `reset()` calls
    (after each training epoch and each evaluation) start it again."""

    def __init__(self, rows):
        super().__init__(rows)
        self.i, self.resets = 0, 0

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= len(self.rows):
            raise StopIteration
        self.i += 1
        return self.rows[self.i - 1]

    def reset(self):
        self.i, self.resets = 0, self.resets + 1


def test_model_resets_the_dataset_after_each_epoch_and_evaluation():
    _, m = model()
    x = np.ones((4, 1), np.float32)
    steps = []

    class Count(ms.train.Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_epoch_num)

    train = SelfIterating([(Tensor(x), Tensor(2 * x))] * 3)
    m.train(2, train, callbacks=[Count()])
    assert steps == [1, 1, 1, 2, 2, 2] and train.resets == 2
    valid = SelfIterating([(Tensor(x), Tensor(2 * x))] * 2)
    m.eval(valid)
    m.eval(valid)  # a second evaluation sees the rows again
    assert valid.resets == 2


def test_accuracy_takes_same_shape_labels_only_when_one_hot():
    from cellgrad.train import Accuracy

    acc = Accuracy()
    acc.update(Tensor(np.array([[0.9, 0.1], [0.2, 0.8]], np.float32)),
               Tensor(np.array([[1, 0], [1, 0]], np.float32)))
    assert acc.eval() == 0.5
    with pytest.raises(ValueError):
        acc.update(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32)))
