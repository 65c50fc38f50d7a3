"""tools/mindcv_registry.py's yardsticks: the relative difference it reports, and the float32
noise it measures for a model over the tolerance (how far the model's own output moves when its
input moves by a relative 1e-6) — small for a well-conditioned network, large for one whose
attention logits are in the hundreds."""

import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent.parent / "tools"))
import mindcv_registry  # noqa: E402

ms = pytest.importorskip("cellgrad")
nn = pytest.importorskip("cellgrad.nn")


def test_rel_diff_floors_small_entries_at_1e_3_of_the_largest():
    expected = np.array([1000.0, 1e-6, -2.0])
    assert mindcv_registry._rel_diff(expected, expected) == 0.0
    # 1e-6 is measured against 1e-3 * 1000 = 1, -2 against its own size
    assert mindcv_registry._rel_diff(np.array([1000.0, 0.5, -2.0]), expected) == \
        pytest.approx(0.5 - 1e-6)
    assert mindcv_registry._rel_diff(np.array([1000.0, 1e-6, -2.2]), expected) == \
        pytest.approx(0.1)


def test_allclose_tol_is_the_smallest_tolerance_assert_allclose_accepts():
    expected = np.array([1000.0, 1e-6, -2.0])
    y = np.array([1000.05, 0.05, -2.0])
    tol = mindcv_registry._allclose_tol(y, expected)
    assert tol == pytest.approx((0.05 - 1e-6) / (1e-6 + 1000.0))
    np.testing.assert_allclose(y, expected, rtol=tol * 1.001, atol=tol * 1.001 * 1000)
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(y, expected, rtol=tol * 0.99, atol=tol * 0.99 * 1000)
    # the elementwise yardstick sees the near-zero entry 1000 times larger
    assert mindcv_registry._rel_diff(y, expected) == pytest.approx(0.05, rel=1e-4)


class _Difference(nn.Cell):
    """a(x) - b(x) + bias with b's weights (1 + eps) times a's: the smaller `eps`, the more the
    difference cancels and the more float32 rounding moves it relatively."""

    def __init__(self, eps, bias):
        super().__init__()
        self.a, self.b = nn.Dense(16, 8), nn.Dense(16, 8, has_bias=False)
        self.a.bias.set_data(ms.ops.full((8,), bias, dtype=ms.float32))
        self.b.weight.set_data(self.a.weight * (1 + eps))

    def construct(self, x):
        return self.a(x) - self.b(x)


# Outputs near 0 are measured against 1e-3 of the largest: the well-conditioned net's bias
# keeps its outputs away from 0.
@pytest.mark.parametrize("eps, bias, low, high", [(1.0, 10.0, 0, 1e-5), (1e-4, 0, 1e-3, np.inf)])
def test_noise_is_small_for_a_well_conditioned_net_and_large_for_an_ill_conditioned_one(
        eps, bias, low, high):
    ms.set_seed(0)
    net = _Difference(eps, bias)
    x = np.random.default_rng(0).standard_normal((2, 16)).astype(np.float32)
    y = net(ms.Tensor(x)).asnumpy()
    noise = mindcv_registry._noise(ms, net, x, y)
    assert low < noise < high


def test_summary_counts():
    rtol = 1e-4
    assert mindcv_registry._allclose({"rel_diff": 5e-5}, rtol)  # older rows: rel diff only
    assert mindcv_registry._allclose({"rel_diff": 3e-4, "allclose": 2e-6}, rtol)
    assert not mindcv_registry._allclose({"rel_diff": 3e-4, "allclose": 2e-4}, rtol)
    assert not mindcv_registry._allclose({"model": "x", "error": "forward: ..."}, rtol)


def test_rounding_only_needs_a_difference_over_the_tolerance_within_the_noise():
    within = {"rel_diff": 3e-4, "noise": 6e-4}
    assert mindcv_registry._rounding_only(within, 1e-4)
    assert not mindcv_registry._rounding_only({"rel_diff": 3e-4, "noise": 1e-4}, 1e-4)
    assert not mindcv_registry._rounding_only({"rel_diff": 3e-4}, 1e-4)
    assert not mindcv_registry._rounding_only({"rel_diff": 5e-5}, 1e-4)
