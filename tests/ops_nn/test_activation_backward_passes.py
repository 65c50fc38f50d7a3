"""Activation backward rules computed with fewer temporaries (in place on the numpy path):
bit for bit the values of the written-out formulas, in float16, float32 and float64, with
NaN (as NaN), inf and the kinks; higher orders still record."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.functional._math import sigmoid  # the rule's own


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.itemsize}")


def inputs(dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(200) * 4).astype(dtype)
    x[:8] = [0, 6, -3, 3, np.inf, -np.inf, np.nan, -0.0]
    g = rng.standard_normal(200).astype(dtype)
    g[8:11] = [np.inf, np.nan, -np.inf]
    return x, g


FORMULAS = {
    "relu6": (ops.relu6, lambda x, g, y: g * ((x > 0) & (x <= 6))),
    "elu": (ops.elu, lambda x, g, y: np.where(x > 0, g, g * (y + 1.0))),
    "silu": (ops.silu, lambda x, g, y: g * (sigmoid(x) + x * sigmoid(x) * (1 - sigmoid(x)))),
    "hardsigmoid": (ops.hardsigmoid, lambda x, g, y: g * ((x > -3) & (x < 3)) * (1 / 6)),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_backward_is_the_formula_bit_for_bit(name, dtype):
    op, formula = FORMULAS[name]
    x, g = inputs(dtype)
    xt = Tensor(x)
    y = op(xt).asnumpy()
    with np.errstate(all="ignore"):
        got = ms.vjp(op, xt)[1](Tensor(g))[0].asnumpy()
        want = formula(x, g, y).astype(dtype)
    assert got.dtype == dtype
    nan = np.isnan(want)  # (a NaN's sign bit follows the operand order: not a value)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(bits(got[~nan]), bits(want[~nan]))


@pytest.mark.parametrize("name", ["silu", "elu"])
def test_second_order_still_records(name):
    op = FORMULAS[name][0]
    x = Tensor(np.array([-1.5, -0.2, 0.3, 2.0]))
    gradcheck(lambda t: ms.grad(lambda u: op(u).sum())(t).sum(), x)
