"""`ops.mse_loss_ext` (core name, cellgrad-ops-nn kernel): MindSpore 2.10 CPU has no kernel for
it, so it is checked against its formula and gradchecked."""

import numpy as np

from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck


def test_mse_loss_ext():
    x = np.array([[1., 3., 6.], [2., 7., 1.]], np.float32)
    assert np.isclose(float(ops.mse_loss_ext(Tensor(x), Tensor(2 * x)).asnumpy()),
                      (x * x).mean())
    assert ops.mse_loss_ext(Tensor(x), Tensor(2 * x), "none").asnumpy().tolist() == \
        (x * x).tolist()
    rng = np.random.RandomState(0)
    assert gradcheck(lambda a, b: ops.mse_loss_ext(a, b, "sum"), Tensor(rng.randn(2, 3)),
                     Tensor(rng.randn(2, 3)))
