"""The walk runs the commonest elementwise rules itself (Op.rule); its results must equal the
Python rules they stand for, bit for bit, on first order."""

from types import SimpleNamespace

import numpy as np
import pytest

import cellgrad as ms
from cellgrad.ops._elementwise import OPS

UNARY = {"neg": ms.ops.neg, "exp": ms.ops.exp, "tanh": ms.ops.tanh, "sigmoid": ms.ops.sigmoid}
BINARY = {"mul": ms.ops.mul, "sub": ms.ops.sub}


def test_the_builtin_rules_are_the_elementwise_ones():
    assert {name for name, op in OPS.items() if op.rule} == set(UNARY) | set(BINARY)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_builtin_rule_equals_python_rule(name):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    sens = rng.standard_normal((3, 4)).astype(np.float32)
    got = ms.grad(UNARY[name], sens_param=True)(ms.Tensor(x), ms.Tensor(sens)).asnumpy()
    out, saved = OPS[name].forward(x)
    ctx = SimpleNamespace(saved=saved or (), needs_input_grad=(True,), xp=np)
    want = OPS[name].backward(ctx, sens)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_builtin_rule_equals_python_rule(name):
    rng = np.random.default_rng(2)
    x, y, sens = (rng.standard_normal((2, 5)).astype(np.float32) for _ in range(3))
    gx, gy = ms.grad(BINARY[name], grad_position=(0, 1), sens_param=True)(
        ms.Tensor(x), ms.Tensor(y), ms.Tensor(sens))
    _, saved = OPS[name].forward(x, y)
    ctx = SimpleNamespace(saved=saved or (), needs_input_grad=(True, True), xp=np)
    want = OPS[name].backward(ctx, sens)
    np.testing.assert_array_equal(gx.asnumpy(), want[0])
    np.testing.assert_array_equal(gy.asnumpy(), want[1])


def test_mul_builtin_rule_skips_inputs_without_grad():
    x, y = ms.Tensor(np.float32([1.0, 2.0])), ms.Tensor(np.float32([3.0, 4.0]))
    np.testing.assert_array_equal(ms.grad(lambda a, b: (a * b).sum())(x, y).asnumpy(), [3, 4])
