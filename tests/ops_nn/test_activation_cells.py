"""The activation cells built on the functional activations: values, the PReLU slope's
gradient, errors, pickling and `get_activation`. (MindSpore's numbers: ms_programs/
activation_cells.py.)"""

import pickle

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops
from cellgrad.testing import gradcheck

X = np.array([[[-3.5, -0.2, 1.3], [0.4, 2.8, -1.1]]], np.float64)

CELLS = [
    (nn.HSwish, (), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    (nn.HSigmoid, (), lambda x: np.clip(x + 3, 0, 6) / 6),
    (nn.Softsign, (), lambda x: x / (1 + np.abs(x))),
    (nn.Tanhshrink, (), lambda x: x - np.tanh(x)),
    (nn.LogSigmoid, (), lambda x: -np.log1p(np.exp(-x))),
    (nn.HShrink, (0.5,), lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    (nn.SoftShrink, (0.3,), lambda x: np.where(np.abs(x) > 0.3, x - 0.3 * np.sign(x), 0)),
    (nn.Hardtanh, (-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    (nn.Threshold, (0.1, 20.0), lambda x: np.where(x > 0.1, x, 20.0)),
    (nn.Softmax2d, (), lambda x: np.exp(x) / np.exp(x).sum(-3, keepdims=True)),
]


@pytest.mark.parametrize("cls,args,ref", CELLS, ids=[c[0].__name__ for c in CELLS])
def test_cell_values_and_gradients(cls, args, ref):
    cell = cls(*args)
    np.testing.assert_allclose(cell(ms.Tensor(X)).asnumpy(), ref(X), rtol=1e-12, atol=1e-12)
    x = X + 0.013  # off the kinks
    gradcheck(cell, ms.Tensor(x))
    assert repr(cell) == f"{cls.__name__}()"
    assert isinstance(pickle.loads(pickle.dumps(cell)), cls)


def test_prelu_slope_is_a_parameter_named_a_with_a_gradient():
    cell = nn.PReLU(2, [0.1, 0.3])
    assert [(p.name, p.shape) for p in cell.get_parameters()] == [("a", (2,))]
    x = ms.Tensor(np.array([[-1.0, -2.0], [3.0, -4.0]], np.float32))
    np.testing.assert_allclose(cell(x).asnumpy(), [[-0.1, -0.6], [3.0, -1.2]], rtol=1e-6)
    (grad,) = ms.grad(lambda t: cell(t).sum(), None, cell.trainable_params())(x)
    np.testing.assert_allclose(grad.asnumpy(), [-1.0, -6.0])


def test_prelu_against_torch():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal((3, 4, 5))
    slopes = [0.125, 0.25, 0.375, 0.5]  # exact in the Float32 slope parameter
    cell = nn.PReLU(4, slopes)
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(slopes, dtype=torch.float64, requires_grad=True)
    torch.nn.functional.prelu(tx, tw).pow(2).sum().backward()
    gx, (gw,) = ms.value_and_grad(lambda t: ops.square(cell(t)).sum(), 0,
                                  cell.trainable_params())(ms.Tensor(x))[1]
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gw.asnumpy(), tw.grad.numpy(), rtol=1e-6)  # Float32 slope


@pytest.mark.parametrize("make,error,text", [
    (lambda: nn.PReLU(0), ValueError, "'channel' must be int and must > 0"),
    (lambda: nn.PReLU(2.5), TypeError, "'channel' must be int"),
    (lambda: nn.PReLU(2, "x"), TypeError, "'w' only supported float, list and tensor"),
    (lambda: nn.PReLU(3, [0.1, 0.2]), ValueError, "shape (3,)"),
    (lambda: nn.HShrink("a"), TypeError, "'lambd'"),
    (lambda: nn.RReLU(0.5, 0.1), ValueError, "'lower'"),
    (lambda: nn.Softmax2d()(ms.Tensor(np.ones((2, 2), np.float32))), ValueError, "Softmax2d"),
])
def test_bad_arguments(make, error, text):
    with pytest.raises(error, match=None) as info:
        make()
    assert text in str(info.value)


def test_get_activation_knows_the_new_cells():
    for name, cls in [("hswish", nn.HSwish), ("hsigmoid", nn.HSigmoid), ("prelu", nn.PReLU),
                      ("softmin", nn.Softmin), ("softmax2d", nn.Softmax2d)]:
        assert type(nn.get_activation(name)) is cls
