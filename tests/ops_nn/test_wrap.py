"""Training wrappers: one step per call, sens, loss scaling and skipped overflow steps."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.5], [-0.5]], np.float32)), name="w")

    def construct(self, x):
        return ms.ops.matmul(x, self.w)


def data():
    x = Tensor(np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32))
    return x, Tensor(np.array([[1.0], [2.0], [0.0]], np.float32))


def test_train_one_step_decreases_the_loss_and_returns_it():
    net = Linear()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(),
                                                                         0.05))
    losses = [float(step(*data()).asnumpy()) for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0] and all(b <= a for a, b in zip(losses, losses[1:]))


def test_sens_scales_the_update_and_return_grad():
    nets = [Linear(), Linear()]
    plain = nn.TrainOneStepCell(nn.WithLossCell(nets[0], nn.MSELoss()),
                                nn.SGD(nets[0].trainable_params(), 0.1), return_grad=True)
    doubled = nn.TrainOneStepCell(nn.WithLossCell(nets[1], nn.MSELoss()),
                                  nn.SGD(nets[1].trainable_params(), 0.05), sens=2.0)
    loss, grads = plain(*data())
    doubled(*data())
    np.testing.assert_allclose(nets[0].w.asnumpy(), nets[1].w.asnumpy(), rtol=1e-6)
    assert len(grads) == 1 and grads[0].shape == (2, 1)


def test_with_eval_cell_returns_loss_outputs_label():
    loss, out, label = nn.WithEvalCell(Linear(), nn.MSELoss(), add_cast_fp32=True)(*data())
    assert out.shape == (3, 1) and label.dtype == ms.float32 and loss.shape == ()


class Exploding(Linear):
    def construct(self, x):
        return ms.ops.matmul(x, self.w) * Tensor(np.float32(1e38))


def test_overflow_skips_the_step_and_the_dynamic_scale_halves():
    net = Exploding()
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0**10, scale_factor=2,
                                            scale_window=2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.SGD(net.trainable_params(), 0.1), manager)
    before = net.w.asnumpy().copy()
    with np.errstate(over="ignore", invalid="ignore"):
        loss, overflow, scale = step(*data())
    # The returned scale is the updated one, as MindSpore returns its scale Parameter.
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 512.0
    np.testing.assert_array_equal(net.w.asnumpy(), before)
    assert float(step.scale_sense.asnumpy()) == 512.0


def test_scale_grows_after_a_window_without_overflow():
    net = Linear()
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=4.0, scale_factor=2, scale_window=2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.SGD(net.trainable_params(), 0.01), manager)
    scales = []
    for _ in range(4):
        _, overflow, _ = step(*data())
        assert not bool(overflow.asnumpy())
        scales.append(float(step.scale_sense.asnumpy()))
    assert scales == [4.0, 8.0, 8.0, 16.0]


def test_fixed_scale_matches_the_unscaled_step():
    nets = [Linear(), Linear()]
    nn.TrainOneStepCell(nn.WithLossCell(nets[0], nn.MSELoss()),
                        nn.SGD(nets[0].trainable_params(), 0.1))(*data())
    fixed = nn.TrainOneStepWithLossScaleCell(
        nn.WithLossCell(nets[1], nn.MSELoss()), nn.SGD(nets[1].trainable_params(), 0.1),
        nn.FixedLossScaleUpdateCell(128.0))
    fixed(*data())
    np.testing.assert_allclose(nets[0].w.asnumpy(), nets[1].w.asnumpy(), rtol=1e-6)


def test_wrappers_reject_non_cells():
    with pytest.raises(TypeError, match="For 'WithLossCell', 'backbone' must be a Cell"):
        nn.WithLossCell(lambda x: x, nn.MSELoss())
    with pytest.raises(TypeError, match="'optimizer' must be an nn.Optimizer, but got str"):
        nn.TrainOneStepCell(Linear(), "sgd")
