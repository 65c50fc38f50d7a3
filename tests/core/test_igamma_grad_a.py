"""`_grad_ops.IgammaGradA`: d igamma(a, x) / da, against MindSpore 2.10's numbers and a
central difference of `ops.igamma`."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.ops.operations._grad_ops import IgammaGradA


def test_values_as_mindspore():
    a = ms.Tensor(np.array([1.1, 2.2, 8.1, 2.1], np.float32))
    x = ms.Tensor(np.array([0.2, 1.2, 2.1, 3.4], np.float32))
    got = IgammaGradA()(a, x)
    assert got.dtype == ms.float32 and repr(IgammaGradA()) == "Prim[IgammaGradA]"
    # recorded from MindSpore 2.10 CPU
    np.testing.assert_allclose(got.asnumpy(), [-0.31416357, -0.2662845, -0.00185446,
                                               -0.16714886], rtol=2e-6)


def test_equals_a_central_difference_of_igamma():
    a = np.array([0.7, 1.5, 3.0, 6.5])
    x = np.array([0.3, 0.5, 4.0, 5.0])
    h = 1e-6
    numeric = (ops.igamma(ms.Tensor(a + h), ms.Tensor(x)).asnumpy()
               - ops.igamma(ms.Tensor(a - h), ms.Tensor(x)).asnumpy()) / (2 * h)
    got = IgammaGradA()(ms.Tensor(a), ms.Tensor(x))
    assert got.dtype == ms.float64
    np.testing.assert_allclose(got.asnumpy(), numeric, rtol=1e-6)


def test_mixed_dtypes_are_refused():
    with pytest.raises(TypeError, match="IgammaGradA"):
        IgammaGradA()(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2)))
