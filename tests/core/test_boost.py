"""`cellgrad.boost.GradientAccumulation`: the optimizer runs every max_accumulation_step calls
on the mean of the gradients. (MindSpore's numbers: ms_programs/boost_grad_accumulation.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad.boost import GradientAccumulation


class _Plain(nn.Cell):
    """A stand-in optimizer (the core has none): param -= grad, counting its calls."""

    def __init__(self, params):
        super().__init__()
        self.parameters = ms.ParameterTuple(params)
        self.calls = 0

    def construct(self, grads):
        self.calls += 1
        for p, g in zip(self.parameters, grads):
            p.asnumpy()[...] -= g.asnumpy()
        return True


def test_updates_with_the_mean_every_n_steps():
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    opt = _Plain([w])
    acc = GradientAccumulation(2, opt)
    acc(Tensor(1.0), (Tensor(np.array([1.0, 2.0], np.float32)),))
    assert opt.calls == 0 and w.asnumpy().tolist() == [0, 0]
    loss = acc(Tensor(3.0), (Tensor(np.array([3.0, 4.0], np.float32)),))
    assert float(loss.asnumpy()) == 3.0 and opt.calls == 1
    np.testing.assert_allclose(w.asnumpy(), [-2.0, -3.0])  # minus the mean gradient
    np.testing.assert_array_equal(acc._grad_accumulation[0].asnumpy(), [0, 0])  # cleared


def test_is_reachable_as_mindspore_boost():
    assert ms.boost.GradientAccumulation is GradientAccumulation
    from cellgrad.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op

    assert gradient_accumulation_op._name == "gradient_accumulation_op"
    assert gradient_clear_op._name == "gradient_clear_op"


@pytest.mark.parametrize("steps", [0, -1, 1.5, True])
def test_bad_step_count(steps):
    with pytest.raises(ValueError, match="max_accumulation_step"):
        GradientAccumulation(steps, _Plain([Parameter(Tensor(np.zeros(1)), name="w")]))
