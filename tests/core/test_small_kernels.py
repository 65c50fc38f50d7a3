"""`cellgrad._core._small`: the loops standing in for numpy's add/sub/mul/neg ufuncs and the
tanh/sigmoid gradients on small float arrays must give numpy's results bit for bit, and decline
(None) whatever they cannot compute exactly as numpy would."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cellgrad as ms
from cellgrad._core import _small
from cellgrad.ops._elementwise import OPS

UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply}
FLOATS = st.sampled_from([np.float32, np.float64])
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6)


def _pair(dtype, shape):
    elements = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True,
                         width=32 if dtype is np.float32 else 64)
    return st.tuples(hnp.arrays(dtype, shape, elements=elements),
                     hnp.arrays(dtype, shape, elements=elements))


def _same_bits(got, want):
    """`got` is a fresh ndarray equal to numpy's `want` bit for bit (NaN payloads aside)."""
    want = np.asarray(want)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    got, want = np.asarray(np.nan_to_num(got)), np.asarray(np.nan_to_num(want))
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(UFUNCS)), data=st.data(), dtype=FLOATS, shape=SHAPES)
def test_binary_kernels_equal_numpy_bit_for_bit(name, data, dtype, shape):
    a, b = data.draw(_pair(dtype, shape))
    with np.errstate(all="ignore"):
        want = np.asarray(UFUNCS[name](a, b))
    _same_bits(_small.binary(name, a, b), want)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(UFUNCS)), data=st.data(), dtype=FLOATS,
       shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=8))
def test_binary_kernels_with_a_scalar_operand(name, data, dtype, shape):
    a, _ = data.draw(_pair(dtype, shape))
    s = dtype(data.draw(st.floats(-1e3, 1e3, width=32)))
    with np.errstate(all="ignore"):
        for x, y in ((a, s), (s, a)):
            _same_bits(_small.binary(name, x, y), UFUNCS[name](x, y))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), dtype=FLOATS, shape=SHAPES)
def test_neg_and_activation_gradients_equal_numpy(data, dtype, shape):
    g, out = data.draw(_pair(dtype, shape))
    with np.errstate(all="ignore"):
        tanh_want = g - g * out * out
        t = g * out
        sigmoid_want = t - t * out
        cases = [(_small.neg(g), -g), (_small.activation_grad("tanh", g, out), tanh_want),
                 (_small.activation_grad("sigmoid", g, out), sigmoid_want)]
    for got, want in cases:
        _same_bits(got, want)


def test_results_are_fresh_writeable_arrays():
    a = np.arange(4, dtype=np.float32)
    out = _small.binary("add", a, a)
    assert out is not a and out.flags.writeable and out.flags.c_contiguous
    out[0] = 7
    assert a[0] == 0


F32 = np.ones(4, np.float32)


@pytest.mark.parametrize("a, b", [
    (F32, np.ones(4, np.float64)),                      # dtypes differ
    (F32, np.ones(5, np.float32)),                      # shapes differ (no broadcasting)
    (F32, np.ones((1, 4), np.float32)),
    (np.ones(4, np.int32), np.ones(4, np.int32)),       # not floating
    (np.ones(4, np.float16), np.ones(4, np.float16)),
    (np.ones(8, np.float32)[::2], F32),                 # not contiguous
    (np.ones(4, ">f4"), np.ones(4, ">f4")),             # byte-swapped
    (np.ones(16385, np.float32), np.ones(16385, np.float32)),   # past SMALL_MAX
    (np.ma.ones(4, np.float32), F32),                   # subclass
    (F32, np.float64(2.0)),                             # scalar of another dtype
    (F32, 2.0),                                         # Python scalar
    (np.float32(1), np.float32(2)),                     # no array
])
def test_kernels_decline_what_numpy_must_do(a, b):
    assert _small.binary("mul", a, b) is None
    assert _small.activation_grad("tanh", a, b) is None


def test_only_the_arithmetic_ufunc_ops_use_kernels():
    assert {name for name, op in OPS.items() if op.kernel} == {"add", "sub", "mul", "neg"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tensor_arithmetic_and_gradients_through_the_kernels(dtype):
    rng = np.random.default_rng(3)
    xa, wa = (rng.standard_normal((5, 3)).astype(dtype) for _ in range(2))

    def f(x, w):
        return ms.ops.tanh(x * w + x - 0.5 * w).sum() + ms.ops.sigmoid(-x).sum()

    gx, gw = ms.grad(f, grad_position=(0, 1))(ms.Tensor(xa), ms.Tensor(wa))
    t = np.tanh(xa * wa + xa - dtype(0.5) * wa)
    s = 1 / (1 + np.exp(xa))
    dt = 1 - t * t
    np.testing.assert_allclose(gx.asnumpy(), dt * (wa + 1) - s * (1 - s),
                               rtol=1e-5 if dtype is np.float32 else 1e-12)
    np.testing.assert_allclose(gw.asnumpy(), dt * (xa - 0.5),
                               rtol=1e-5 if dtype is np.float32 else 1e-12)
    assert gx.dtype == gw.dtype == ms.Tensor(xa).dtype
