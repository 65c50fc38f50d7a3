"""nn.BatchNorm3d and nn.InstanceNorm1d/2d/3d: values against numpy and PyTorch, gradchecks in
float64, MindSpore's parameter names, reprs and errors. (MindSpore runs InstanceNorm on GPU
only; its semantics here follow its GPU kernel: instance statistics in training and in
evaluation, the moving statistics never updated.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.testing import gradcheck
from cellgrad_nn.functional.norm import instance_norm_checked


def arr(rng, *shape):
    return rng.standard_normal(shape)


def reference_instance_norm(x, w, b, eps):
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * w.reshape(shape) + b.reshape(shape)


@pytest.mark.parametrize("cls, shape", [(nn.InstanceNorm1d, (2, 3, 7)),
                                        (nn.InstanceNorm2d, (2, 3, 4, 5)),
                                        (nn.InstanceNorm3d, (2, 3, 2, 3, 4))])
def test_instance_norm_values_in_training_and_evaluation(rng, cls, shape):
    layer = cls(3, eps=1e-3, gamma_init="normal", beta_init="normal")
    x = arr(rng, *shape).astype(np.float32)
    ref = reference_instance_norm(x.astype(np.float64), layer.gamma.asnumpy(),
                                  layer.beta.asnumpy(), 1e-3)
    for training in (True, False):
        layer.set_train(training)
        out = layer(Tensor(x))
        assert out.dtype == ms.float32 and out.shape == shape
        np.testing.assert_allclose(out.asnumpy(), ref, atol=1e-5)
    np.testing.assert_array_equal(layer.moving_mean.asnumpy(), np.zeros(3))
    np.testing.assert_array_equal(layer.moving_variance.asnumpy(), np.ones(3))


@pytest.mark.parametrize("shape", [(2, 3, 5), (3, 2, 3, 4), (1, 2, 2, 3, 2)])
def test_instance_norm_gradchecks(rng, shape):
    x, w, b = arr(rng, *shape), arr(rng, shape[1]), arr(rng, shape[1])
    assert gradcheck(lambda a, c, d: instance_norm_checked("t", a, c, d, 1e-5),
                     Tensor(x), Tensor(w), Tensor(b))


def test_instance_norm_matches_torch(torch):
    from nn_gradcheck import torch_compare

    torch_compare(torch, [(2, 3, 4, 5), (3,), (3,)],
                  lambda x, w, b: instance_norm_checked("t", x, w, b, 1e-5),
                  lambda x, w, b: torch.nn.functional.instance_norm(x, weight=w, bias=b))


def test_instance_norm_parameters_and_repr_as_mindspore():
    layer = nn.InstanceNorm3d(4, affine=False)
    assert [(p.name, p.shape, p.requires_grad) for p in layer.get_parameters()] == [
        ("mean", (4,), False), ("variance", (4,), False), ("gamma", (4,), False),
        ("beta", (4,), False)]
    assert repr(layer).startswith("InstanceNorm3d(num_features=4, eps=1e-05, momentum=0.1, "
                                  "gamma=Parameter (name=gamma, shape=(4,), dtype=Float32, "
                                  "requires_grad=False)")


def test_batch_norm3d_matches_torch_in_training_with_moving_statistics(rng, torch):
    x = arr(rng, 3, 4, 2, 3, 5)
    layer = nn.BatchNorm3d(4, momentum=0.8, gamma_init="normal", beta_init="normal",
                           dtype=ms.float64)
    layer.set_train()
    gamma, beta = layer.bn2d.gamma.asnumpy().copy(), layer.bn2d.beta.asnumpy().copy()
    out = layer(Tensor(x))
    rm, rv = torch.zeros(4, dtype=torch.float64), torch.ones(4, dtype=torch.float64)
    ref = torch.nn.functional.batch_norm(torch.tensor(x), rm, rv, torch.tensor(gamma),
                                         torch.tensor(beta), True, 0.2)
    np.testing.assert_allclose(out.asnumpy(), ref.numpy(), atol=1e-12)
    np.testing.assert_allclose(layer.bn2d.moving_mean.asnumpy(), rm.numpy(), atol=1e-12)
    np.testing.assert_allclose(layer.bn2d.moving_variance.asnumpy(), rv.numpy(), atol=1e-12)


def test_batch_norm3d_gradchecks_through_its_parameters(rng):
    layer = nn.BatchNorm3d(3, gamma_init="normal", beta_init="normal", dtype=ms.float64)
    layer.set_train()
    x = Tensor(arr(rng, 2, 3, 2, 2, 3))
    assert gradcheck(layer, x)
    grads = ms.grad(lambda t: (layer(t) ** 2).sum(), 0, layer.trainable_params())(x)
    assert [g.shape for g in grads[1]] == [(3,), (3,)]


F32 = np.float32


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.BatchNorm3d(4)(Tensor(np.zeros((2, 4, 3, 3), F32))), ValueError,
     r"For 'BatchNorm3d', the input must be 5-D \(N, C, D, H, W\), but got shape \(2, 4, 3, 3\)"),
    (lambda: nn.BatchNorm3d(4)(Tensor(np.zeros((2, 3, 1, 3, 3), F32))), ValueError,
     r"For 'BatchNorm3d', the input's dimension 1 must be num_features=4, but got input shape "
     r"\(2, 3, 1, 3, 3\)"),
    (lambda: nn.InstanceNorm2d(4)(Tensor(np.zeros((2, 4, 3), F32))), ValueError,
     r"For 'InstanceNorm2d', the input must be 4-D \(N, C, H, W\), but got shape \(2, 4, 3\)"),
    (lambda: nn.InstanceNorm1d(4)(Tensor(np.zeros((2, 5, 3), F32))), ValueError,
     r"For 'InstanceNorm1d', the input's dimension 1 must be num_features=4, but got input "
     r"shape \(2, 5, 3\)"),
    (lambda: nn.InstanceNorm3d(4, eps=1), TypeError,
     r"For 'InstanceNorm3d', the 'eps' must be float, but got int 1"),
    (lambda: nn.InstanceNorm3d(4, momentum=1.5), ValueError,
     r"For 'InstanceNorm3d', the 'momentum' must be a number in range \[0, 1\], but got 1.5"),
    (lambda: nn.InstanceNorm1d(0), ValueError,
     r"For 'InstanceNorm1d', the 'num_features' must be at least 1, but got 0"),
])
def test_bad_input_names_the_cell_the_argument_and_what_was_seen(call, error, message):
    with pytest.raises(error, match=message):
        call()
