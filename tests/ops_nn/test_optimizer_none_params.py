"""Optimizers given `parameters=None` raise MindSpore's ValueError (its test_optimizer)."""

import pytest

from cellgrad import nn


@pytest.mark.parametrize("make", [lambda: nn.SGD(None), lambda: nn.AdamWeightDecay(None),
                                  lambda: nn.Momentum(None, 0.1, 0.9)])
def test_none_parameters(make):
    with pytest.raises(ValueError,
                       match=r"^For 'Optimizer', the argument parameters can not be None\.$"):
        make()
