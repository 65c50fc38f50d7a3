"""Rearranging and math cells: float64 gradchecks, PyTorch's numbers where it has the op, and
nn.Roll / nn.Unfold, which MindSpore 2.10's CPU build cannot run (its documentation is the
reference: TensorFlow's extract_image_patches layout). MindSpore's numbers for the others:
ms_programs/layers_misc.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(5)
X4 = RNG.standard_normal((2, 8, 4, 6))
X2 = RNG.standard_normal((3, 4))


@pytest.mark.parametrize("cell,x", [
    (nn.PixelShuffle(2), X4),
    (nn.PixelUnshuffle(2), X4),
    (nn.ChannelShuffle(4), X4),
    (nn.Unflatten(1, (2, -1)), X4),
    (nn.CentralCrop(0.5), X4),
    (nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "same"), X4),
    (nn.Unfold([1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1]), X4),
    (nn.Roll((1, -2), (0, 1)), X2),
    (nn.Norm(1), X2),
    (nn.ReduceLogSumExp(0, True), X2),
    (nn.L1Regularizer(0.5), X2 + 0.01),
    (nn.MatMul(True, False), X2),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else "")
def test_gradcheck(cell, x):
    if isinstance(cell, nn.MatMul):
        gradcheck(lambda a: cell(a, a), Tensor(x))
    else:
        gradcheck(cell, Tensor(x))


def test_moments_and_bidense_gradients():
    gradcheck(lambda a: nn.Moments(1)(a)[0] * 2 + nn.Moments(1)(a)[1], Tensor(X2))
    net = nn.BiDense(4, 3, 5, dtype=ms.float64)
    gradcheck(lambda a, b: net(a, b), Tensor(X2), Tensor(X2[:, :3]))


TORCH = [
    ("pixel_shuffle", lambda x: nn.PixelShuffle(2)(x),
     lambda t, x: t.nn.functional.pixel_shuffle(x, 2)),
    ("pixel_unshuffle", lambda x: nn.PixelUnshuffle(2)(x),
     lambda t, x: t.nn.functional.pixel_unshuffle(x, 2)),
    ("channel_shuffle", lambda x: nn.ChannelShuffle(4)(x),
     lambda t, x: t.nn.functional.channel_shuffle(x, 4)),
    ("roll", lambda x: nn.Roll((3, -1), (2, 3))(x), lambda t, x: t.roll(x, (3, -1), (2, 3))),
    ("unflatten", lambda x: nn.Unflatten(1, (2, 4))(x), lambda t, x: t.unflatten(x, 1, (2, 4))),
]


@pytest.mark.parametrize("name,ours,theirs", TORCH, ids=[c[0] for c in TORCH])
def test_against_pytorch(name, ours, theirs):
    torch = pytest.importorskip("torch")
    expected = theirs(torch, torch.tensor(X4)).numpy()
    np.testing.assert_array_equal(ours(Tensor(X4)).asnumpy(), expected)


def _patches(x, k, s, r, padding):
    """extract_image_patches, written out: patch values ordered row, column, channel."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (rh, rw) = k, s, r
    eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "same":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
    out = np.zeros((n, kh * kw * c, oh, ow))
    for y in range(oh):
        for z in range(ow):
            depth = 0
            for i in range(kh):
                for j in range(kw):
                    for ch in range(c):
                        out[:, depth, y, z] = x[:, ch, y * sh + i * rh, z * sw + j * rw]
                        depth += 1
    return out


@pytest.mark.parametrize("k,s,r,padding", [((2, 2), (1, 1), (1, 1), "valid"),
                                           ((3, 2), (2, 1), (1, 2), "same"),
                                           ((2, 3), (2, 2), (2, 1), "valid")])
def test_unfold_is_extract_image_patches(k, s, r, padding):
    cell = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
    np.testing.assert_array_equal(cell(Tensor(X4)).asnumpy(), _patches(X4, k, s, r, padding))


def test_range_one_hot_and_embedding_lookup():
    assert nn.Range(1, 8, 2)().asnumpy().tolist() == [1, 3, 5, 7]
    assert str(nn.Range(0.5, 2.0, 0.5)().dtype) == "Float32"
    hot = nn.OneHot(0, 3, 5.0, -1.0)(Tensor(np.array([2, 0], np.int32))).asnumpy()
    np.testing.assert_array_equal(hot, [[-1, 5], [-1, -1], [5, -1]])
    lookup = nn.EmbeddingLookup(4, 2, param_init="ones")
    out = lookup(Tensor(np.array([[0, 3], [7, -1]], np.int32))).asnumpy()
    np.testing.assert_array_equal(out, [[[1, 1], [1, 1]], [[0, 0], [0, 0]]])  # out of range: 0
    (g,) = ms.grad(lambda i: lookup(i).sum(), None, lookup.trainable_params())(
        Tensor(np.array([0, 0, 3], np.int32)))
    np.testing.assert_array_equal(g.asnumpy(), [[2, 2], [0, 0], [0, 0], [1, 1]])


def test_linear_is_dense_with_pytorch_names():
    lin = nn.Linear(3, 2, bias=False)
    assert [p.name for p in lin.get_parameters()] == ["weight"]
    assert repr(lin) == "Linear(input_features=3, output_features=2)"


def test_dropout_1d_3d_zero_whole_channels():
    ms.set_seed(3)
    x = Tensor(np.ones((4, 16, 5), np.float32))
    drop = nn.Dropout1d(0.5)
    drop.set_train(True)
    out = drop(x).asnumpy()
    per_channel = out.reshape(4, 16, 5)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(-1) == per_channel.max(-1)).all()  # a channel is kept or dropped
    d3 = nn.Dropout3d(0.5)
    d3.set_train(False)
    assert d3(Tensor(np.ones((1, 2, 2, 2, 2)))).asnumpy().sum() == 16


@pytest.mark.parametrize("make,error,text", [
    (lambda: nn.PixelShuffle(3)(Tensor(X4)), ValueError, "divisible by upscale_factor^2=9"),
    (lambda: nn.ChannelShuffle(0), ValueError, "'groups' must be int and must > 0"),
    (lambda: nn.Unflatten(1, (3, 3))(Tensor(X4)), ValueError, "does not split dimension 1"),
    (lambda: nn.CentralCrop(1.5), ValueError, "'central_fraction' must be in range"),
    (lambda: nn.Unfold([1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1]), ValueError, "'ksizes'"),
    (lambda: nn.Unfold([1, 5, 5, 1], [1, 1, 1, 1], [1, 1, 1, 1])(Tensor(X4)), ValueError,
     "larger than the input"),
    (lambda: nn.L1Regularizer(-1.0), ValueError, "'scale' must be greater than 0"),
    (lambda: nn.Range(1, 5, 0), ValueError, "'delta' cannot be 0"),
    (lambda: nn.BiDense(3, 2, 4)(Tensor(X2), Tensor(X2)), ValueError, "'input1' must be 3"),
    (lambda: nn.Linear(3, 2, bias=1), TypeError, "'has_bias' should be 'bool'"),
])
def test_errors(make, error, text):
    with pytest.raises(error) as info:
        make()
    assert text in str(info.value)


def test_conv_bn_act_gradients_and_bad_activation():
    cell = nn.Conv2dBnAct(3, 2, 3, has_bias=True, has_bn=True, activation="leakyrelu",
                          alpha=0.3)
    for p in cell.get_parameters():  # float64 throughout: layers refuse mixed dtypes
        p.set_dtype(ms.float64)
    x = Tensor(RNG.standard_normal((2, 3, 5, 5)))
    gradcheck(lambda a: cell(a), x)
    with pytest.raises(TypeError, match="'activation' must be str or Cell"):
        nn.DenseBnAct(3, 2, activation=3)
