"""Model with a loss-scale manager: the train step it builds, overflowing steps skipped and the
scale adjusted on MindSpore's schedule (MindSpore's CPU build refuses an update cell here;
cellgrad runs it). The managers' own numbers: ms_programs/loss_scale_managers.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.train import DynamicLossScaleManager, FixedLossScaleManager, Model

X = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
Y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
HUGE = Tensor(np.full((2, 3), 3e38, np.float32))  # overflows float32 in the forward
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning",
                                        "ignore:invalid value encountered:RuntimeWarning")


def _model(manager):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    return net, Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01),
                      loss_scale_manager=manager)


def test_dynamic_manager_skips_overflowing_steps_and_adjusts_the_scale():
    net, model = _model(DynamicLossScaleManager(2 ** 10, 2, 2))
    step = model.train_network
    assert isinstance(step, nn.TrainOneStepWithLossScaleCell)
    scales = []
    for data in (X, HUGE, X, X, X):
        before = net.weight.asnumpy().copy()
        loss, overflow, scale = step(data, Y)
        scales.append(float(scale.asnumpy()))
        moved = not np.array_equal(before, net.weight.asnumpy())
        assert moved == (not bool(overflow.asnumpy())), (data is HUGE, moved)
    # the scale after each step: halved by the overflow, doubled 2 steps after it
    assert scales == [1024.0, 512.0, 512.0, 1024.0, 1024.0]


def test_fixed_manager_with_drop_overflow_update_skips_the_step():
    net, model = _model(FixedLossScaleManager(128.0))
    before = net.weight.asnumpy().copy()
    _, overflow, scale = model.train_network(HUGE, Y)
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 128.0
    np.testing.assert_array_equal(net.weight.asnumpy(), before)


def test_fixed_manager_without_drop_scales_the_sensitivity_for_the_optimizer():
    # As MindSpore: TrainOneStepCell(sens=loss_scale); the optimizer's loss_scale unscales.
    def trained(manager, opt_scale):
        ms.set_seed(0)
        net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        opt = nn.Momentum(net.trainable_params(), 0.01, 0.9, loss_scale=opt_scale)
        model = Model(net, nn.MSELoss(), opt, loss_scale_manager=manager)
        assert type(model.train_network) is nn.TrainOneStepCell
        for _ in range(3):
            model.train_network(X, Y)
        return net.weight.asnumpy()

    np.testing.assert_allclose(trained(FixedLossScaleManager(16.0, False), 16.0),
                               trained(None, 1.0), rtol=1e-6)


def test_model_trains_through_model_train_with_a_manager():
    from cellgrad.dataset import NumpySlicesDataset

    rng = np.random.default_rng(0)
    data = NumpySlicesDataset({"x": rng.standard_normal((32, 3)).astype(np.float32),
                               "y": rng.standard_normal((32, 2)).astype(np.float32)},
                              shuffle=False).batch(8)
    net, model = _model(DynamicLossScaleManager(2 ** 8, 2, 4))
    before = net.weight.asnumpy().copy()
    model.train(2, data)
    assert not np.array_equal(before, net.weight.asnumpy())


@pytest.mark.parametrize("make,text", [
    (lambda: FixedLossScaleManager(0.5), "'loss_scale' must be >= 1"),
    (lambda: DynamicLossScaleManager(0.5), "'init_loss_scale' must be > 1"),
    (lambda: DynamicLossScaleManager(scale_window=0), "'scale_window' must be int and must > 0"),
])
def test_errors(make, text):
    with pytest.raises(ValueError, match=None) as info:
        make()
    assert text in str(info.value)
