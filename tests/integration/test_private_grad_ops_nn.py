"""`ops.operations._grad_ops` Primitives that need cellgrad-ops-nn (MindSpore's own tests call
them directly; see tests/core/test_private_paths.py for the core ones)."""

import numpy as np
import pytest

pytest.importorskip("cellgrad_nn")

import cellgrad as ms  # noqa: E402
from cellgrad.ops.operations import _grad_ops as G  # noqa: E402


def test_conv2d_backprop_filter_matches_mindspore():
    rng = np.random.RandomState(1)
    out = ms.Tensor(rng.normal(0, 1, (1, 1, 4, 4)).astype(np.float32))
    x = ms.Tensor(rng.normal(0, 2, (1, 1, 6, 6)).astype(np.float32))
    got = G.Conv2DBackpropFilter(1, 3, pad_mode="valid", pad=0, mode=1, stride=(1, 1),
                                 dilation=(1, 1, 1, 1), group=1)(out, x, (1, 1, 3, 3))
    # MindSpore 2.10's output for these inputs
    np.testing.assert_allclose(got.asnumpy()[0, 0], [[-0.7792509, -6.5319366, 7.733781],
                                                     [-11.151592, 4.5475726, 7.0836077],
                                                     [-16.95605, 11.71385, 4.7838774]],
                               rtol=1e-5, atol=1e-5)
    out = ms.Tensor(rng.normal(0, 1, (1, 2, 3, 3)).astype(np.float32))
    got = G.Conv2DBackpropFilter(2, 3, pad_mode="pad", pad_list=(1, 1, 1, 1),
                                 stride=(1, 1, 2, 2))(out, x, (2, 1, 3, 3))
    assert got.shape == (2, 1, 3, 3)
    np.testing.assert_allclose(got.asnumpy().sum(), -6.2604427, rtol=1e-5)
