"""Optimizer.target: MindSpore's property that optimizers written for MindSpore (mindcv's Adan)
override with `_set_base_target`; only 'CPU' is possible here."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn


class Moving(nn.SGD):
    @nn.Optimizer.target.setter
    def target(self, value):
        self._set_base_target(value)


def test_target_is_cpu_and_a_subclass_setter_checks_values_as_mindspore():
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p")
    base = nn.SGD([p], 0.1)
    assert base.target == "CPU"
    with pytest.raises(NotImplementedError):
        base.target = "CPU"
    opt = Moving([p], 0.1)
    opt.target = "CPU"
    assert opt.target == "CPU"
    with pytest.raises(ValueError, match="cannot be set to 'GPU' or 'Ascend' in the 'CPU'"):
        opt.target = "GPU"
    with pytest.raises(ValueError, match="must be one of"):
        opt.target = "TPU"
    with pytest.raises(TypeError, match="must be string"):
        opt.target = 1
