"""Initializers: names, distributions and fan computations as MindSpore's, seeded by set_seed."""

import importlib.util
import math

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor
from cellgrad.common import initializer as init
from cellgrad.common.initializer import (
    Constant,
    HeNormal,
    HeUniform,
    Identity,
    Initializer,
    Normal,
    One,
    Orthogonal,
    TruncatedNormal,
    Uniform,
    XavierNormal,
    XavierUniform,
    Zero,
    apply_initializer,
    initializer,
)

BF16 = importlib.util.find_spec("ml_dtypes") is not None  # bfloat16 needs cellgrad-core[bfloat16]
needs_bf16 = pytest.mark.skipif(not BF16, reason="needs ml_dtypes (cellgrad-core[bfloat16])")


@pytest.fixture(autouse=True)
def seeded():
    ms.set_seed(1234)
    yield


def values(i, shape, dtype=ms.float32):
    t = initializer(i, shape, dtype)
    want = (shape,) if isinstance(shape, int) else tuple(shape)
    assert isinstance(t, Tensor) and t.shape == want and t.dtype == dtype
    return t.asnumpy()


@pytest.mark.parametrize("name, cls", [
    ("zeros", Zero), ("ones", One), ("normal", Normal), ("uniform", Uniform),
    ("xavier_uniform", XavierUniform), ("xavier_normal", XavierNormal),
    ("he_normal", HeNormal), ("he_uniform", HeUniform), ("truncatedNormal", TruncatedNormal),
    ("orthogonal", Orthogonal), ("identity", Identity), ("Zero", Zero), ("ONES", One),
])
def test_string_names_resolve_to_classes(name, cls, monkeypatch):
    seen = []
    monkeypatch.setattr(cls, "_initialize", lambda self, arr: seen.append(type(self)))
    initializer(name, [4, 4])
    assert seen == [cls]


def test_constants():
    assert values("ones", [1, 2, 3]).tolist() == [[[1.0] * 3] * 2]
    assert values("zeros", [2]).tolist() == [0.0, 0.0]
    assert values(One(), (2,)).tolist() == [1.0, 1.0]
    assert values(Zero(), 2).tolist() == [0.0, 0.0]
    assert values(0, [2]).tolist() == [0.0, 0.0]
    assert values(2.5, [2]).tolist() == [2.5, 2.5]
    assert values(Constant(3), [2], ms.int32).tolist() == [3, 3]
    assert values(Constant(np.array([1.0, 2.0])), [2, 2]).tolist() == [[1.0, 2.0]] * 2


def test_tensor_init_is_returned_after_a_shape_check():
    t = Tensor(np.zeros((1, 2, 3)), ms.float32)
    assert initializer(t, [1, 2, 3], ms.float32) is t
    with pytest.raises(ValueError, match=r"the 'init' shape \[1, 2, 3\] and the 'shape' \[2\]"):
        initializer(t, [2])


def test_bad_arguments():
    with pytest.raises(ValueError, match="the class corresponding to 'nope' was not found"):
        initializer("nope", [2])
    with pytest.raises(TypeError, match="should be 'Tensor', 'number', 'string' or "
                                        "'initializer', but got <class 'list'>"):
        initializer([1.0], [2])
    with pytest.raises(ValueError, match="must be positive integer, but got \\(2, 0\\)"):
        initializer("ones", (2, 0))
    with pytest.raises(ValueError, match="must be positive integer"):
        initializer("ones", [-1])
    with pytest.raises(ValueError, match="'shape' is required"):
        initializer("ones")


def test_dtypes():
    assert values("ones", [2], ms.float16).dtype == np.float16
    assert values("ones", [2], ms.int32).dtype == np.int32
    assert values(Normal(), [3], ms.float64).dtype == np.float64
    if BF16:
        b = values(Normal(1.0), [64], ms.bfloat16)
        assert b.dtype.name == "bfloat16"
        bits = b.astype(np.float32).view(np.uint32)
        assert (bits & 0xFFFF).max() == 0  # bfloat16-representable


def test_normal_moments():
    v = values(Normal(sigma=0.5, mean=1.0), [200, 200])
    assert abs(v.mean() - 1.0) < 0.01 and abs(v.std() - 0.5) < 0.01
    d = values("normal", [200, 200])
    assert abs(d.std() - 0.01) < 0.0005


def test_uniform_bounds():
    v = values(Uniform(scale=0.3), [200, 200])
    assert v.min() >= -0.3 and v.max() <= 0.3 and v.max() > 0.29
    assert abs(v.std() - 0.3 / math.sqrt(3)) < 0.005
    assert values("uniform", [1000]).max() <= 0.07


def test_truncated_normal_bounds_are_absolute():
    small = values(TruncatedNormal(), [200, 200])
    assert abs(small.std() - 0.01) < 0.0005  # [-2, 2] is 200 sigma: no visible truncation
    wide = values(TruncatedNormal(sigma=3.0), [200, 200])
    assert np.abs(wide).max() <= 2.0 and np.abs(wide).max() > 1.99
    with pytest.raises(ValueError, match="sigma must be positive"):
        values(TruncatedNormal(sigma=0.0), [2])


def test_xavier_fans_for_linear_and_conv_shapes():
    v = values(XavierUniform(), [300, 200])
    bound = math.sqrt(6.0 / (200 + 300))
    assert np.abs(v).max() <= bound and np.abs(v).max() > 0.99 * bound
    conv = values(XavierUniform(gain=2), [64, 16, 3, 3])  # fan_in 144, fan_out 576
    bound = 2 * math.sqrt(6.0 / (144 + 576))
    assert np.abs(conv).max() <= bound and np.abs(conv).max() > 0.99 * bound
    n = values(XavierNormal(), [400, 600])
    assert abs(n.std() - math.sqrt(2.0 / 1000)) < 0.001
    with pytest.raises(ValueError, match="fewer than 2 dimensions, but got dimensions 1"):
        values(XavierUniform(), [5])


def test_he_gains_and_modes():
    # default: leaky_relu with negative_slope 0 -> gain sqrt(2), fan_in = 400
    v = values(HeNormal(), [300, 400])
    assert abs(v.std() - math.sqrt(2) / math.sqrt(400)) < 0.002
    v = values(HeNormal(mode="fan_out"), [300, 400])
    assert abs(v.std() - math.sqrt(2) / math.sqrt(300)) < 0.002
    v = values(HeNormal(nonlinearity="tanh"), [300, 400])
    assert abs(v.std() - (5 / 3) / 20) < 0.002
    v = values(HeUniform(negative_slope=math.sqrt(5)), [300, 400])
    bound = math.sqrt(3) * math.sqrt(2 / 6) / 20
    assert np.abs(v).max() <= bound and np.abs(v).max() > 0.99 * bound
    conv = values(HeUniform(nonlinearity="relu"), [8, 4, 5, 5])  # fan_in 100
    bound = math.sqrt(3) * math.sqrt(2) / 10
    assert np.abs(conv).max() <= bound
    with pytest.raises(ValueError, match="'mode' fan_avg not supported"):
        values(HeNormal(mode="fan_avg"), [2, 2])
    with pytest.raises(ValueError, match="'nonlinearity' should be one of"):
        values(HeNormal(nonlinearity="gelu"), [2, 2])


def test_orthogonal():
    q = values(Orthogonal(gain=2.0), [3, 5]).astype(np.float64)
    np.testing.assert_allclose(q @ q.T, 4 * np.eye(3), atol=1e-5)
    tall = values("orthogonal", [5, 3]).astype(np.float64)
    np.testing.assert_allclose(tall.T @ tall, np.eye(3), atol=1e-5)
    flat = values(Orthogonal(), [2, 3, 4]).reshape(2, 12).astype(np.float64)
    np.testing.assert_allclose(flat @ flat.T, np.eye(2), atol=1e-5)
    with pytest.raises(ValueError, match="no less than 2, but got 1"):
        values(Orthogonal(), [4])


def test_identity():
    assert values(Identity(), [2, 3]).tolist() == [[1, 0, 0], [0, 1, 0]]
    with pytest.raises(ValueError, match="should be 2, but got 3"):
        values("identity", [2, 2, 2])


def test_set_seed_reproduces_values():
    ms.set_seed(7)
    a = values("normal", [5])
    b = values(XavierUniform(), [3, 3])
    ms.set_seed(7)
    np.testing.assert_array_equal(values("normal", [5]), a)
    np.testing.assert_array_equal(values(XavierUniform(), [3, 3]), b)
    ms.set_seed(8)
    assert not np.array_equal(values("normal", [5]), a)


def test_initializer_seed_attribute():
    i = Normal(1.0)
    i.seed = 3
    assert i.seed == 3
    np.testing.assert_array_equal(values(i, [4]), values(i, [4]))


def test_lazy_tensor_construction():
    t = Tensor(shape=(2, 3), dtype=ms.float32, init=One())
    assert t.init_data() is t
    assert t.asnumpy().tolist() == [[1.0] * 3] * 2
    u = Tensor(shape=[4], dtype=ms.float16, init=Normal())
    assert u.dtype == ms.float16 and u.shape == (4,)


def test_apply_initializer_and_to_tensor():
    arr = apply_initializer("ones", (2,), ms.int32)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.int32 and arr.tolist() == [1, 1]
    t = One().to_tensor(shape=(2,))
    assert t.dtype == ms.float32 and t.asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="One.to_tensor needs a shape"):
        One().to_tensor()


def test_custom_initializer_subclass():
    class Arange(Initializer):
        def _initialize(self, arr):
            arr[...] = np.arange(arr.size).reshape(arr.shape)

    assert values(Arange(), [2, 2]).tolist() == [[0, 1], [2, 3]]
    with pytest.raises(NotImplementedError, match="Initializer must implement _initialize"):
        values(Initializer(), [2])


def test_module_is_importable_by_its_mindspore_path():
    import cellgrad.common.initializer as mod

    assert mod is init
    assert ms.common.initializer.Normal is Normal
    assert ms.common.dtype.float32 is ms.float32


# ---- Dirac, Sparse, VarianceScaling ----
def test_dirac_is_the_identity_of_a_convolution_per_group():
    from cellgrad.common.initializer import Dirac

    w = initializer(Dirac(groups=2), [6, 4, 3, 3], ms.float32).asnumpy()
    assert w.shape == (6, 4, 3, 3) and w.sum() == 6
    for group in range(2):
        for d in range(3):
            assert w[group * 3 + d, d, 1, 1] == 1
    assert initializer("dirac", [2, 2, 5]).asnumpy()[:, :, 2].tolist() == [[1, 0], [0, 1]]
    with pytest.raises(ValueError, match="only support to initialize tensor with dimension of 3, "
                                         r"4 or 5, but got 2 \(shape \(2, 2\)\)"):
        initializer(Dirac(), [2, 2])
    with pytest.raises(ValueError, match="must be divisible by groups, but got first dimension 5, "
                                         "groups 2"):
        initializer(Dirac(2), [5, 2, 3])


def test_sparse_zeros_a_fraction_of_every_column():
    from cellgrad.common.initializer import Sparse

    ms.set_seed(0)
    w = initializer(Sparse(0.3, sigma=2.0), [10, 50]).asnumpy()
    assert ((w == 0).sum(axis=0) == 3).all()
    assert 1.5 < w[w != 0].std() < 2.5
    with pytest.raises(ValueError, match="dimension of the initialized tensor should be 2, but "
                                         "got 3"):
        initializer(Sparse(0.5), [2, 2, 2])


@pytest.mark.parametrize("mode, fan", [("fan_in", 200), ("fan_out", 400), ("fan_avg", 300)])
@pytest.mark.parametrize("distribution", ["uniform", "truncated_normal", "untruncated_normal"])
def test_variance_scaling_gives_scale_over_fan(mode, fan, distribution):
    from cellgrad.common.initializer import VarianceScaling

    ms.set_seed(1)
    w = initializer(VarianceScaling(2.0, mode, distribution), [400, 200]).asnumpy()
    assert abs(w.var() * fan / 2.0 - 1) < 0.03
    std = np.sqrt(2.0 / fan)
    if distribution == "uniform":
        assert np.abs(w).max() <= np.sqrt(3) * std
    elif distribution == "truncated_normal":
        assert np.abs(w).max() <= 2 * std / 0.87962566103423978
    else:
        assert np.abs(w).max() > 2.5 * std


def test_variance_scaling_rejects_bad_arguments():
    from cellgrad.common.initializer import VarianceScaling

    with pytest.raises(ValueError, match="'scale' must be greater than 0, but got 0"):
        VarianceScaling(0)
    with pytest.raises(ValueError, match="'mode' must be fan_in, fan_out or fan_avg, but got x"):
        VarianceScaling(mode="x")
    with pytest.raises(ValueError, match="'distribution' must be uniform, truncated_normal or "
                                         "untruncated_normal, but got normal"):
        VarianceScaling(distribution="normal")
