"""nn layers: MindSpore's names, defaults and reprs; behaviour in train and predict mode;
PyTorch on the same weights; input errors naming the layer."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.testing import gradcheck

REPRS = [
    (lambda: nn.Dense(3, 4), "Dense(input_channels=3, output_channels=4, has_bias=True)"),
    (lambda: nn.Dense(3, 4, has_bias=False, activation="relu"),
     "Dense(\n  input_channels=3, output_channels=4, activation=ReLU()\n"
     "  (activation): ReLU()\n)"),
    (lambda: nn.BatchNorm1d(4),
     "BatchNorm1d(num_features=4, eps=1e-05, momentum=0.9, gamma=Parameter (name=gamma, "
     "shape=(4,), dtype=Float32, requires_grad=True), beta=Parameter (name=beta, shape=(4,), "
     "dtype=Float32, requires_grad=True), moving_mean=Parameter (name=mean, shape=(4,), "
     "dtype=Float32, requires_grad=False), moving_variance=Parameter (name=variance, "
     "shape=(4,), dtype=Float32, requires_grad=False))"),
    (lambda: nn.GroupNorm(2, 4), "GroupNorm(num_groups=2, num_channels=4)"),
    (lambda: nn.Dropout(), "Dropout(keep_prob=0.5)"),
    (lambda: nn.Dropout(p=0.3), "Dropout(p=0.3)"),
    (lambda: nn.Dropout2d(), "Dropout2d(p=0.5)"),
    (lambda: nn.MaxPool2d(2, 2), "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"),
    (lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1),
     "AvgPool2d(kernel_size=3, stride=2, pad_mode=PAD)"),
    (lambda: nn.AdaptiveAvgPool2d(1), "AdaptiveAvgPool2d()"),
    (lambda: nn.ReLU(), "ReLU()"), (lambda: nn.Flatten(), "Flatten()"),
    (lambda: nn.Identity(), "Identity()"), (lambda: nn.ClipByNorm(), "ClipByNorm()"),
]


@pytest.mark.parametrize("make, text", REPRS)
def test_repr_as_mindspore(make, text):
    assert repr(make()) == text


def test_conv_repr_fields_and_weight_shapes():
    conv = nn.Conv2d(2, 4, (3, 2), stride=2, pad_mode="pad", padding=1, has_bias=True)
    text = repr(conv)
    assert text.startswith("Conv2d(input_channels=2, output_channels=4, kernel_size=(3, 2), "
                           "stride=(2, 2), pad_mode=pad, padding=1, dilation=(1, 1), group=1, "
                           "has_bias=True, weight_init=<cellgrad.common.initializer.HeUniform")
    assert "bias_init=<cellgrad.common.initializer.Uniform" in text and text.endswith(
        "format=NCHW)")
    assert conv.weight.shape == (4, 2, 3, 2) and conv.bias.shape == (4,)
    assert nn.Conv1d(2, 3, 3).weight.shape == (3, 2, 1, 3)
    assert nn.Conv2dTranspose(4, 2, 3).weight.shape == (4, 2, 3, 3)


def test_parameter_names_nested_and_top_level_batchnorm():
    bn = nn.BatchNorm2d(3)
    assert [p.name for p in bn.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    net = nn.SequentialCell([nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3)])
    assert [p.name for p in net.get_parameters()] == [
        "0.weight", "1.moving_mean", "1.moving_variance", "1.gamma", "1.beta"]
    assert [p.requires_grad for p in bn.get_parameters()] == [False, False, True, True]


def test_dense_default_init_is_kaiming_uniform_with_a_bias_bound():
    ms.set_seed(3)
    d = nn.Dense(100, 50)
    w, b = d.weight.asnumpy(), d.bias.asnumpy()
    bound = 1 / np.sqrt(100)  # HeUniform(sqrt(5)) gives the same bound as the bias
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(b).max() <= bound and w.dtype == np.float32


def test_dense_matches_torch_linear_values_and_gradients(torch):
    ms.set_seed(0)
    d = nn.Dense(5, 3, activation="tanh")
    x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    lin = torch.nn.Linear(5, 3)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor(d.weight.asnumpy()))
        lin.bias.copy_(torch.tensor(d.bias.asnumpy()))
    ref = torch.tanh(lin(torch.tensor(x)))
    ref.sum().backward()
    grads = ms.grad(lambda a: d(a).sum(), None, d.trainable_params())(Tensor(x))
    np.testing.assert_allclose(d(Tensor(x)).asnumpy(), ref.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(grads[0].asnumpy(), lin.weight.grad.numpy(), atol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), lin.bias.grad.numpy(), atol=1e-5)


def test_layers_gradcheck_in_float64():
    ms.set_seed(1)
    rng = np.random.default_rng(1)
    dense = nn.Dense(4, 3, dtype=ms.float64)
    conv = nn.Conv2d(2, 3, 3, has_bias=True, dtype=ms.float64)
    bn = nn.BatchNorm2d(2, dtype=ms.float64)
    bn.set_train(True)
    x2, x4 = Tensor(rng.standard_normal((2, 4))), Tensor(rng.standard_normal((2, 2, 4, 4)))
    assert gradcheck(dense, x2)
    assert gradcheck(conv, x4)
    assert gradcheck(lambda a: bn(a) * bn(a), x4)
    assert gradcheck(nn.LayerNorm((4,), dtype=ms.float64), x2)


def test_batchnorm_updates_moving_statistics_in_training_only():
    bn = nn.BatchNorm1d(3, momentum=0.9)
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    bn.set_train(True)
    out = bn(x)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [0.45, 0.55, 0.65], rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), [2.4, 2.4, 2.4], rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy()[:, 0], [-1.3416402, -0.4472134, 0.4472134,
                                                     1.3416402], rtol=1e-6)
    bn.set_train(False)
    before = bn.moving_mean.asnumpy().copy()
    np.testing.assert_allclose(bn(x).asnumpy()[0], (x.asnumpy()[0] - before) /
                               np.sqrt(bn.moving_variance.asnumpy() + 1e-5), rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), before)


def test_dropout_is_identity_in_predict_mode_and_seeded_in_training():
    x = Tensor(np.ones((200, 50), np.float32))
    drop = nn.Dropout(p=0.25)
    assert drop(x) is x  # a new cell is in predict mode
    drop.set_train(True)
    ms.set_seed(7)
    a = drop(x).asnumpy()
    ms.set_seed(7)
    np.testing.assert_array_equal(drop(x).asnumpy(), a)
    assert set(np.unique(a)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((a == 0).mean() - 0.25) < 0.02


def test_dropout2d_zeroes_whole_channels():
    d = nn.Dropout2d(0.5)
    d.set_train(True)
    out = d(Tensor(np.ones((4, 8, 3, 3), np.float32))).asnumpy()
    per_channel = out.reshape(4, 8, 9)
    assert all(len(set(c.tolist())) == 1 for row in per_channel for c in row)


def test_embedding_padding_row_and_clip_by_norm():
    e = nn.Embedding(4, 2, embedding_table="ones", padding_idx=1)
    np.testing.assert_array_equal(e(Tensor(np.array([[0, 1]], np.int32))).asnumpy(),
                                  [[[1, 1], [0, 0]]])
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    out = nn.ClipByNorm()(x, Tensor(1.0))
    np.testing.assert_allclose(np.linalg.norm(out.asnumpy()), 1.0, rtol=1e-6)


def test_activation_layers_and_flatten():
    x = Tensor(np.array([[-1.0, 0.5, 2.0]], np.float32))
    np.testing.assert_allclose(nn.LeakyReLU(0.1)(x).asnumpy(), [[-0.1, 0.5, 2.0]])
    np.testing.assert_allclose(nn.ReLU6()(x * 4).asnumpy(), [[0.0, 2.0, 6.0]])
    np.testing.assert_allclose(nn.Softmax()(x).asnumpy().sum(), 1.0, rtol=1e-6)
    assert nn.Flatten()(Tensor(np.zeros((2, 3, 4, 5)))).shape == (2, 60)
    assert nn.Flatten(0, 1)(Tensor(np.zeros((2, 3, 4)))).shape == (6, 4)
    assert isinstance(nn.get_activation("gelu"), nn.GELU)


def test_conv_layers_shapes_by_pad_mode():
    x = Tensor(np.ones((1, 2, 7, 7), np.float32))
    assert nn.Conv2d(2, 3, 3)(x).shape == (1, 3, 7, 7)
    assert nn.Conv2d(2, 3, 3, stride=2)(x).shape == (1, 3, 4, 4)
    assert nn.Conv2d(2, 3, 3, pad_mode="valid")(x).shape == (1, 3, 5, 5)
    assert nn.Conv1d(2, 3, 3)(Tensor(np.ones((1, 2, 9), np.float32))).shape == (1, 3, 9)
    assert nn.MaxPool2d(2, 2)(x).shape == (1, 2, 3, 3)
    assert nn.MaxPool2d(3, 2, pad_mode="same")(x).shape == (1, 2, 4, 4)
    assert nn.AdaptiveMaxPool2d((2, 3))(x).shape == (1, 2, 2, 3)


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.Dense(3, 4)(Tensor(np.zeros((2, 5), np.float32))), ValueError,
     r"For 'Dense', the last dimension of the input must be in_channels=3, but got input "
     r"shape \(2, 5\) Float32"),
    (lambda: nn.Conv2d(3, 4, 3)(Tensor(np.zeros((1, 2, 5, 5), np.float32))), ValueError,
     r"For 'Conv2d', the input's dimension 1 must be in_channels=3, but got input shape "
     r"\(1, 2, 5, 5\)"),
    (lambda: nn.Conv2d(3, 4, 3)(Tensor(np.zeros((3, 5, 5), np.float32))), ValueError,
     r"For 'Conv2d', the input must be 4-D \(N, C, H, W\), but got shape \(3, 5, 5\)"),
    (lambda: nn.BatchNorm2d(3)(Tensor(np.zeros((2, 3), np.float32))), ValueError,
     r"For 'BatchNorm2d', the input must be 4-D \(N, C, H, W\), but got shape \(2, 3\)"),
    (lambda: nn.Dropout(keep_prob=0.0), ValueError,
     r"the 'keep_prob' must be a number in range \(0, 1\], but got 0.0"),
    (lambda: nn.Dropout(p=1.0), ValueError, r"the 'p' must be a number in range \[0, 1\)"),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="full"), ValueError,
     r"For 'Conv2d', 'pad_mode' must be one of \['same', 'valid', 'pad'\], but got 'full'"),
    (lambda: nn.Conv2d(3, 4, 3, padding=1), ValueError,
     "'padding' must be 0 when pad_mode is 'same'"),
    (lambda: nn.Dense(0, 4), ValueError, "'in_channels' must be a positive int, but got 0"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "num_channels=4 must be divisible by num_groups=3"),
])
def test_bad_input_names_the_layer(call, error, message):
    with pytest.raises(error, match=message):
        call()
