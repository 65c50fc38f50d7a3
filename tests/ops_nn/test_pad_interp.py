"""`ops.pad`, `ops.Pad`, `ops.interpolate` and the padding / upsampling layers: gradchecks
(float64, first and second order), PyTorch on the same inputs, MindSpore 2.10's values and
errors (recorded by hand from MindSpore where the replay does not print them)."""

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import Tensor, nn, ops

CASES = [
    Case("pad", lambda x: ops.pad(x, (1, 2, 0, 1), value=0.5), [(2, 3, 4)], tag="constant"),
    Case("pad", lambda x: ops.pad(x, (-1, 2, 1, -1)), [(2, 3, 4)], tag="crop"),
    Case("pad", lambda x: ops.pad(x, (2, 1, 1, 2), mode="reflect"), [(1, 2, 3, 4)],
         tag="reflect"),
    Case("pad", lambda x: ops.pad(x, (3, 1, 0, 2, 1, 1), mode="replicate"), [(1, 2, 2, 3, 2)],
         tag="replicate"),
    Case("pad", lambda x: ops.pad(x, (1, 3), mode="circular"), [(2, 3)], tag="circular"),
    Case("pad", lambda x: ops.Pad(((0, 1), (2, 0), (1, 1)))(x), [(2, 2, 3)], tag="Pad"),
    Case("pad", lambda x: nn.Pad(((1, 1), (2, 2)), "SYMMETRIC")(x), [(2, 3)], tag="symmetric"),
    Case("interpolate", lambda x: ops.interpolate(x, (5, 3)), [(1, 2, 3, 4)], tag="nearest"),
    Case("interpolate", lambda x: ops.interpolate(x, (2, 7), mode="bilinear"), [(2, 1, 3, 4)],
         tag="bilinear"),
    Case("interpolate", lambda x: ops.interpolate(x, (5, 2), mode="bilinear",
                                                  align_corners=True), [(1, 2, 3, 4)],
         tag="bilinear-corners"),
    Case("interpolate", lambda x: ops.interpolate(x, 7, mode="linear"), [(2, 2, 4)],
         tag="linear"),
    Case("interpolate", lambda x: ops.interpolate(x, (3,), mode="nearest-exact"), [(1, 2, 7)],
         tag="nearest-exact"),
]
GRADCHECKED = names(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradgradcheck(case):
    check_second_order(case)


X = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)


# ---- pad: values ----

def test_pad_values_as_mindspore_prints_them():
    x = Tensor(X)
    assert ops.pad(x, (1, 0, 0, 1), value=6.0).asnumpy()[0, 0].tolist() == [
        [6, 0, 1, 2, 3], [6, 4, 5, 6, 7], [6, 8, 9, 10, 11], [6, 6, 6, 6, 6]]
    assert ops.pad(x, (-1, 2, 1, -1)).asnumpy()[0, 1].tolist() == [
        [0, 0, 0, 0, 0], [13, 14, 15, 0, 0], [17, 18, 19, 0, 0]]
    assert ops.pad(x, (1, 1, 2, 1), mode="circular").asnumpy()[0, 0, :, 0].tolist() == [
        7, 11, 3, 7, 11, 3]
    # Negative pads: reflect and replicate read the original, circular what is left.
    assert ops.pad(x, (2, -2, 0, 0), mode="reflect").asnumpy()[0, 0, 0].tolist() == [2, 1, 0, 1]
    assert ops.pad(x, (1, -1, 0, 0), mode="circular").asnumpy()[0, 0, 0].tolist() == [2, 0, 1, 2]
    assert ops.pad(x, (-1, 1, 0, 0), mode="circular").asnumpy()[0, 0, 0].tolist() == [1, 2, 3, 1]
    assert ops.pad(x, (-4, 1, 0, 0), mode="replicate").asnumpy()[0, :, :, 0].tolist() == [
        [3, 7, 11], [15, 19, 23]]


def test_pad_unbatched_and_constant_any_rank_and_dtype():
    x2 = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert ops.pad(x2, (1, 1), mode="reflect").asnumpy().tolist() == [[1, 0, 1, 2, 1],
                                                                      [4, 3, 4, 5, 4]]
    out = ops.pad(Tensor(np.arange(3, dtype=np.int32)), (1, 1), value=2.7)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [2, 0, 1, 2, 2]
    out = ops.pad(Tensor(np.array([True, False])), (1, 1), value=1)
    assert out.dtype == ms.bool_ and out.asnumpy().tolist() == [True, True, False, True]
    assert ops.pad(Tensor(X), (1, 0, 0, 1, 1, 0, 1, 1)).shape == (3, 3, 4, 5)
    x = Tensor(X)
    assert ops.pad(x, ()) is x


@pytest.mark.parametrize("mode, padding, shape", [
    ("constant", (1, 2, 0, 3), (2, 3, 4, 5)),
    ("constant", (-1, 2, 3, -2), (2, 3, 4, 5)),
    ("reflect", (2, 3, 1, 0), (2, 3, 4, 5)),
    ("reflect", (2, 3), (3, 4, 5)),
    ("replicate", (4, 0, 2, 5, 1, 1), (1, 2, 3, 4, 5)),
    ("replicate", (-1, 3), (2, 3, 5)),
    ("circular", (1, 2, 3, 0), (2, 3, 4, 5)),
    ("circular", (2, 1, 0, 4), (3, 4, 5)),
])
def test_pad_matches_torch(torch, mode, padding, shape):
    torch_compare(torch, [shape], lambda x: ops.pad(x, padding, mode),
                  lambda x: torch.nn.functional.pad(x, padding, mode))


def test_pad_reads_mindspore_1x_pairs_per_dimension():
    # MindSpore 1.x's ops.pad took (before, after) per dimension from the first (mindcv's
    # volo.py still passes it); MindSpore 2.10 raises a TypeError, cellgrad reads it (README:
    # differs on purpose) with a DeprecationWarning naming the flat form
    x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4))
    with pytest.warns(DeprecationWarning, match=r"read as the flat padding \(1, 2, 0, 1\)"):
        got = ops.pad(x, ((0, 0), (0, 0), (0, 1), (1, 2)))
    np.testing.assert_array_equal(got.asnumpy(), ops.pad(x, (1, 2, 0, 1)).asnumpy())
    np.testing.assert_array_equal(
        got.asnumpy(), np.pad(x.asnumpy(), ((0, 0), (0, 0), (0, 1), (1, 2))))
    with pytest.warns(DeprecationWarning):
        got = ops.pad(x, [[0, 0], [0, 0], [1, 1], [1, 1]], mode="reflect")
    np.testing.assert_array_equal(got.asnumpy(), ops.pad(x, (1, 1, 1, 1), "reflect").asnumpy())
    with pytest.warns(DeprecationWarning):
        got = ops.pad(x, ((1, 0), (0, 0), (0, 0), (0, 0)), value=7.0)
    assert got.shape == (2, 2, 3, 4) and float(got.asnumpy()[0].max()) == 7.0


# ---- pad: bad input ----

@pytest.mark.parametrize("call, error, message", [
    (lambda x: ops.pad(X, (1, 1)), TypeError, "type of 'input_x' must be Tensor"),
    (lambda x: ops.pad(x, (1, 2, 3)), ValueError, "size of padding must be divisible by 2, "
                                                  "got 3"),
    (lambda x: ops.pad(x, (1.0, 2)), TypeError,
     r"^For 'pad', the paddings value must be tuple of int or list of int, but got \(1.0, 2\)$"),
    # pairs, but not one per dimension: not MindSpore 1.x's form either
    (lambda x: ops.pad(x, ((1, 1), (1, 1))), TypeError,
     r"tuple of int or list of int, but got \(\(1, 1\), \(1, 1\)\)$"),
    (lambda x: ops.pad(x, 1), TypeError, "'padding' must be a tuple or list"),
    (lambda x: ops.pad(x, (1, 1), mode="wrap"), ValueError, "'mode' must be one of "),
    (lambda x: ops.pad(x, (1, 1), mode="reflect", value=1.0), ValueError,
     "the padding mode 'reflect' can not set value, but got value 1.0"),
    (lambda x: ops.pad(x, (1, 1), mode="reflect"), ValueError,
     "mode 'reflect' pads all dimensions but the batch and channel ones .* got 2 paddings "
     "for a 4-D input"),
    (lambda x: ops.pad(x, (1,) * 6, mode="reflect"), ValueError, "at most 2"),
    (lambda x: ops.pad(x, (4, 0, 0, 0), mode="reflect"), ValueError,
     r"smaller than the dimension it pads, got \(4, 0\) for dimension 3 of size 4"),
    (lambda x: ops.pad(x, (5, 0, 0, 0), mode="circular"), ValueError,
     "wraps around at most once"),
    (lambda x: ops.pad(x, (-3, -2)), ValueError, "leaves nothing of dimension 3"),
    (lambda x: ops.pad(x, (1,) * 10), ValueError, "10 paddings pad 5 dimensions but the input "
                                                  "has 4"),
    (lambda x: ops.Pad([[0, 0]]), TypeError, "type of 'paddings' must be tuple, but got list"),
    (lambda x: ops.Pad(((0, 0), (1, 0)))(x), ValueError,
     r"one \(before, after\) pair per dimension of the input \(4\), got 2"),
    (lambda x: ops.Pad(((0, 0), (1, 0, 1), (0, 0), (0, 0)))(x), ValueError, r"shape \(n, 2\)"),
    (lambda x: ops.Pad(((0, 0), (-1, 0), (0, 0), (0, 0)))(x), ValueError,
     r"must be >= 0, but got paddings\[1\]\[0\] = -1"),
    (lambda x: nn.Pad(((0, 0), (0, 0), (3, 0), (0, 0)), "REFLECT")(x), ValueError,
     r"REFLECT paddings must be smaller than the dimension they pad, got \(3, 0\)"),
    (lambda x: nn.Pad(((0, 0), (0, 0), (4, 0), (0, 0)), "SYMMETRIC")(x), ValueError,
     "SYMMETRIC paddings must be at most the dimension"),
    (lambda x: nn.Pad(((1, 1),), "reflect"), ValueError, "'mode' must be str and must be in"),
    (lambda x: nn.Pad([[1, 1]]), TypeError, "type of 'paddings' must be tuple, but got list"),
    (lambda x: nn.Pad(((0, 0),) * 5), ValueError, "up to 4 dims is supported, but got 5"),
    (lambda x: nn.ZeroPad2d((1, 2, 3)), ValueError, "must be a multiple of 2, but got 3"),
    (lambda x: nn.ZeroPad2d([1, 2]), TypeError, "must be in \\[int, tuple\\]"),
    (lambda x: nn.ZeroPad2d((1,) * 6), ValueError, "must be no more than 4, but got 6"),
    (lambda x: nn.ConstantPad1d((1, 2), "a"), TypeError, "'value' must be in \\[int, float\\]"),
    (lambda x: nn.ReflectionPad2d((1, -1)), ValueError, "must be >= 0"),
    (lambda x: nn.ReplicationPad1d([1, 1]), TypeError, "must be an integer or tuple"),
])
def test_pad_bad_input_names_the_op(call, error, message):
    with pytest.raises(error, match=message):
        call(Tensor(X))


# ---- padding layers ----

def test_padding_layers():
    x = Tensor(X)
    np.testing.assert_array_equal(nn.Pad(((0, 0), (0, 0), (1, 2), (2, 1)), "REFLECT")(x),
                                  np.pad(X, ((0, 0), (0, 0), (1, 2), (2, 1)), "reflect"))
    np.testing.assert_array_equal(nn.Pad(((0, 0), (0, 0), (3, 0), (4, 0)), "SYMMETRIC")(x),
                                  np.pad(X, ((0, 0), (0, 0), (3, 0), (4, 0)), "symmetric"))
    np.testing.assert_array_equal(nn.Pad(((0, 0), (1, 0), (0, 0), (2, 2)))(x),
                                  np.pad(X, ((0, 0), (1, 0), (0, 0), (2, 2))))
    np.testing.assert_array_equal(nn.ZeroPad2d((1, 0, 2, 1))(x),
                                  np.pad(X, ((0, 0), (0, 0), (2, 1), (1, 0))))
    assert nn.ZeroPad2d(1)(x).shape == (1, 2, 5, 6)
    assert nn.ZeroPad2d((-1, 0, 1, 0))(x).shape == (1, 2, 4, 3)
    np.testing.assert_array_equal(nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 2.5)(x),
                                  np.pad(X, ((0, 0), (1, 1), (0, 1), (1, 0)),
                                         constant_values=2.5))
    np.testing.assert_array_equal(nn.ReflectionPad1d((2, 1))(x),
                                  np.pad(X, ((0, 0),) * 3 + ((2, 1),), "reflect"))
    np.testing.assert_array_equal(nn.ReflectionPad2d(1)(x),
                                  np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1)), "reflect"))
    np.testing.assert_array_equal(nn.ReplicationPad2d((1, 2, 0, 1))(Tensor(X[0])),
                                  np.pad(X[0], ((0, 0), (0, 1), (1, 2)), "edge"))
    np.testing.assert_array_equal(nn.ReplicationPad1d(2)(Tensor(X[0])),
                                  np.pad(X[0], ((0, 0), (0, 0), (2, 2)), "edge"))
    assert repr(nn.ZeroPad2d(1)) == "ZeroPad2d()" and repr(nn.Pad(((1, 1),))) == "Pad()"


def test_padding_layer_gradient_reaches_the_input(torch):
    x = np.random.default_rng(0).standard_normal((2, 3, 5))
    g = ms.grad(lambda t: (nn.ReflectionPad1d((2, 3))(t) ** 2).sum())(Tensor(x))
    tx = torch.tensor(x, requires_grad=True)
    (torch.nn.ReflectionPad1d((2, 3))(tx) ** 2).sum().backward()
    np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-12)


# ---- interpolate: values ----

def test_interpolate_values_as_mindspore():
    x = Tensor(X)
    assert ops.interpolate(x, size=(5, 7)).asnumpy()[0, 0, :, :3].tolist() == [
        [0, 0, 1], [0, 0, 1], [4, 4, 5], [4, 4, 5], [8, 8, 9]]
    assert ops.interpolate(x, size=6).shape == (1, 2, 6, 6)
    # recompute_scale_factor: the size is floor(input size * scale), then resized to it.
    out = ops.interpolate(x, scale_factor=(1.5, 0.6), recompute_scale_factor=True)
    assert out.asnumpy()[0, 0].tolist() == [[0, 2], [0, 2], [4, 6], [8, 10]]
    np.testing.assert_allclose(
        ops.interpolate(x, size=(2, 3), mode="bilinear").asnumpy()[0, 0],
        [[1.1666666, 2.5, 3.8333335], [7.166667, 8.5, 9.833334]], rtol=1e-6)
    assert ops.interpolate(x, size=(1, 1), mode="bilinear").asnumpy().ravel().tolist() == [
        5.5, 17.5]
    assert ops.interpolate(x, size=(2, 1), mode="bilinear",
                           align_corners=True).asnumpy().ravel().tolist() == [0, 8, 12, 20]
    ramp = Tensor(np.arange(10, dtype=np.float32).reshape(1, 1, 10))
    assert ops.interpolate(ramp, 3, mode="nearest-exact").asnumpy().ravel().tolist() == [1, 5, 8]
    assert ops.interpolate(ramp, 3).asnumpy().ravel().tolist() == [0, 3, 6]
    np.testing.assert_allclose(ops.interpolate(ramp, 3, mode="linear").asnumpy().ravel(),
                               [1.1666666, 4.5, 7.8333335], rtol=1e-6)
    assert ops.interpolate(x, size=(2, 3), mode="area").asnumpy()[0, 0].tolist() == [
        [2.5, 3.5, 4.5], [6.5, 7.5, 8.5]]
    assert ops.interpolate(x, scale_factor=0.5, mode="area").asnumpy().ravel().tolist() == [
        4.5, 6.5, 16.5, 18.5]
    assert ops.upsample(x, size=(5, 7)).shape == (1, 2, 5, 7)


def test_interpolate_keeps_the_dtype():
    for dtype in (np.float16, np.float32, np.float64):
        x = Tensor(np.arange(4, dtype=dtype).reshape(1, 1, 2, 2))
        out = ops.interpolate(x, size=(3, 3), mode="bilinear")
        assert out.asnumpy().dtype == dtype
        np.testing.assert_allclose(out.asnumpy().astype(np.float64),
                                   [[[[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]]])


@pytest.mark.parametrize("shape, size, mode, corners", [
    ((2, 3, 5, 4), (7, 9), "bilinear", False),
    ((2, 3, 5, 4), (3, 2), "bilinear", False),
    ((2, 3, 5, 4), (7, 3), "bilinear", True),
    ((2, 3, 5, 4), (1, 6), "bilinear", True),
    ((2, 3, 6), (11,), "linear", False),
    ((2, 3, 6), (4,), "linear", True),
    ((2, 3, 5, 4), (7, 9), "nearest", None),
    ((2, 3, 5, 4), (3, 2), "nearest", None),
    ((2, 3, 9), (4,), "nearest-exact", None),
    ((2, 3, 5, 4), (8, 3), "nearest-exact", None),
    ((2, 3, 6, 5), (3, 2), "area", None),
])
def test_interpolate_matches_torch(torch, shape, size, mode, corners):
    torch_compare(torch, [shape],
                  lambda x: ops.interpolate(x, size, mode=mode, align_corners=corners),
                  lambda x: torch.nn.functional.interpolate(x, size, mode=mode,
                                                            align_corners=corners))


def test_upsample_layer():
    up = nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True)
    assert repr(up) == "Upsample()" and up.mode == "bilinear" and up.size == (5, 7)
    out = up(Tensor(X))
    np.testing.assert_allclose(out.asnumpy()[0, 0, 1], [2, 2.5, 3, 3.5, 4, 4.5, 5])
    # MindSpore checks the arguments when the cell runs, not when it is built.
    with pytest.raises(ValueError, match="'scale_factor' option cannot currently be set"):
        nn.Upsample(scale_factor=2.0)(Tensor(X))


# ---- interpolate: bad input ----

@pytest.mark.parametrize("call, error, message", [
    (lambda x: ops.interpolate(X, (2, 2)), TypeError, "'input' must be a tensor"),
    (lambda x: ops.interpolate(x, (2, 3), 2.0), ValueError,
     "'size' and 'scale_factor' cannot be set simultaneously$"),
    (lambda x: ops.interpolate(x), ValueError, "'size' and 'scale_factor' cannot be both empty$"),
    (lambda x: ops.interpolate(x, (2, 3, 4)), ValueError,
     "'input' and 'size' must have the same spatial dimensions, but got 'input' is 2D, "
     "'size' is 3D$"),
    (lambda x: ops.interpolate(x, (0, 3)), ValueError, r"'size\[0\]' must be int and must > 0"),
    (lambda x: ops.interpolate(x, (2.0, 3)), TypeError, r"'size\[0\]' must be int, but got "
                                                        "'float'"),
    (lambda x: ops.interpolate(x, scale_factor=2, recompute_scale_factor=True), TypeError,
     "'scale_factor' must be float, but got 'int'"),
    (lambda x: ops.interpolate(x, scale_factor=-2.0, recompute_scale_factor=True), ValueError,
     "'scale_factor' must be float and must > 0"),
    (lambda x: ops.interpolate(x, scale_factor=0.2, recompute_scale_factor=True), ValueError,
     r"leaves an empty output \(0, 0\)"),
    (lambda x: ops.interpolate(x, (2, 3), mode="cubic"), ValueError, "'mode' must be in"),
    (lambda x: ops.interpolate(x, (2, 3), mode="BILINEAR"), ValueError, "'mode' must be in"),
    (lambda x: ops.interpolate(x, (5, 6), mode="linear"), ValueError,
     r"linear only support '\[3\]'D, but got 4D"),
    (lambda x: ops.interpolate(x, scale_factor=2.0), ValueError,
     "'scale_factor' option cannot currently be set with the mode = nearest and dim = 4D"),
    (lambda x: ops.interpolate(x, (2, 3), recompute_scale_factor=True), ValueError,
     "incorrect to set 'recompute_scale_factor' to True after specifying an explicit 'size'"),
    (lambda x: ops.interpolate(x, (5, 7), align_corners=False), ValueError,
     "'align_corners' option cannot currently be set with the mode = nearest, and dim = 4D"),
    (lambda x: ops.interpolate(x, (5, 7), mode="bilinear", align_corners=1), TypeError,
     "'align_corners' must be a bool, but got int"),
    (lambda x: ops.interpolate(Tensor(np.zeros((1, 1, 2, 2), np.int32)), (3, 3)), TypeError,
     "'input' must be a floating Tensor"),
    (lambda x: ops.interpolate(x, (5, 7), mode="trilinear"), ValueError,
     r"trilinear only support '\[5\]'D, but got 4D"),
])
def test_interpolate_bad_input_names_the_op(call, error, message):
    with pytest.raises(error, match=message):
        call(Tensor(X))
