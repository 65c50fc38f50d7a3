"""Random ops and primitives (ops/_fn_random2.py) and the Generator: shapes, dtypes, ranges,
statistics, seeding by `set_seed`, generator state, in-place fills, errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def T(x):
    return Tensor(np.asarray(x))


def test_seeded_by_set_seed():
    def draw():
        ms.set_seed(7)
        return (ops.standard_laplace((50,)).asnumpy(), ops.shuffle(T(np.arange(20))).asnumpy(),
                ops.random_poisson(T(np.array([40], np.int32)), T([3.0])).asnumpy())

    for a, b in zip(draw(), draw()):
        np.testing.assert_array_equal(a, b)
    ms.set_seed(8)
    assert not np.array_equal(draw()[0], ops.standard_laplace((50,)).asnumpy())


@pytest.mark.parametrize("fn, shape, dtype", [
    (lambda: ops.Gamma()((3, 2), T(np.array([1.0, 2], np.float32)), T(np.ones(2, np.float32))),
     (3, 2, 2), ms.float32),
    (lambda: ops.Poisson()((3, 2), T(np.array([1.0, 2], np.float32))), (3, 2, 2), ms.int32),
    (lambda: ops.RandomGamma()(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2]))),
     (3, 2, 2), ms.float64),
    (lambda: ops.RandomPoisson()(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2], np.float32))),
     (3, 2, 2), ms.int64),
    (lambda: ops.random_poisson(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2], np.float32)),
                                dtype=ms.int32), (3, 2, 2), ms.int32),
    (lambda: ops.Multinomial()(T(np.array([[0.2, 0.8]], np.float32)), 3), (1, 3), ms.int32),
    (lambda: ops.MultinomialWithReplacement(4, True)(T(np.array([[0.2, 0.8]], np.float32)),
                                                     T(np.int64(1)), T(np.int64(0))),
     (1, 4), ms.int64),
    (lambda: ops.RandpermV2()(5), (5,), ms.int64),
    (lambda: ops.RandomCategorical()(T(np.array([[0.0, 1, 2]], np.float32)), 4, 1), (1, 4),
     ms.int64),
    (lambda: ops.TruncatedNormal()(T(np.array([3, 2], np.int32))), (3, 2), ms.float32),
    (lambda: ops.StandardLaplace()((2, 3)), (2, 3), ms.float32),
    (lambda: ops.Cauchy([2, 3])(), (2, 3), ms.float32),
    (lambda: ops.LogNormalReverse()(T(np.zeros((2, 3), np.float16))), (2, 3), ms.float16),
    (lambda: ops.NonDeterministicInts()(T(np.array([2, 3], np.int32))), (2, 3), ms.int64),
])
def test_shapes_and_dtypes(fn, shape, dtype):
    out = fn()
    assert out.shape == shape and out.dtype == dtype


def test_ranges_and_statistics():
    ms.set_seed(0)
    tn = ops.TruncatedNormal()(T(np.array([20000], np.int32))).asnumpy()
    assert tn.min() >= -2 and tn.max() <= 2 and abs(tn.mean()) < 0.03
    assert abs(tn.std() - 0.88) < 0.02  # the std of N(0, 1) truncated to [-2, 2]
    ptn = ops.ParameterizedTruncatedNormal()(T(np.array([2, 5000], np.int32)), T([0.0, 10]),
                                              T([1.0, 2]), T([-1.0, 9]), T([1.0, 20]))
    row0, row1 = ptn.asnumpy()
    assert row0.min() >= -1 and row0.max() <= 1 and row1.min() >= 9 and row1.max() <= 20
    g = ops.random_gamma(T(np.array([20000], np.int32)), T(np.array([3.0])))
    assert abs(g.asnumpy().mean() - 3) < 0.1
    lap = ops.standard_laplace((20000,)).asnumpy()
    assert abs(np.mean(np.abs(lap)) - 1) < 0.05
    perm = ops.Randperm(6, -1)(T(np.array([4], np.int32))).asnumpy()
    assert sorted(perm[:4].tolist()) == [0, 1, 2, 3] and perm[4:].tolist() == [-1, -1]
    cat = ops.random_categorical(T(np.log(np.array([[0.1, 0.9]]))), 20000).asnumpy()
    assert abs(cat.mean() - 0.9) < 0.02
    m = ops.multinomial_with_replacement(T(np.array([[0.1, 0.0, 0.9]])), 0, 0, 5000, True)
    assert 1 not in m.asnumpy()
    nr = ops.multinomial_with_replacement(T(np.array([1.0, 1, 1])), 3, 4, 3, False).asnumpy()
    assert sorted(nr.tolist()) == [0, 1, 2]


def test_candidate_samplers():
    tc = T(np.array([[1], [3]], np.int64))
    s, te, se = ops.UniformCandidateSampler(1, 3, True, 5)(tc)
    assert s.dtype == ms.int64 and len(set(s.asnumpy().tolist())) == 3
    assert te.shape == (2, 1) and se.shape == (3,) and te.dtype == ms.float32
    s, te, se = ops.uniform_candidate_sampler(tc, 1, 4, False, 5)
    np.testing.assert_allclose(te.asnumpy(), 4 / 5)
    s, te, se = ops.log_uniform_candidate_sampler(tc, 1, 3, True, 5)
    assert s.asnumpy().max() < 5
    p1 = np.log(3 / 2) / np.log(6)
    # MindSpore (TensorFlow's rule): p * 3 when the 3 draws were distinct, else 1 - (1 - p)^tries
    allowed = [p1 * 3] + [1 - (1 - p1) ** k for k in range(4, 100)]
    assert min(abs(te.asnumpy()[0, 0] - a) for a in allowed) < 1e-5
    with pytest.raises(ValueError, match="must not exceed 'range_max'"):
        ops.UniformCandidateSampler(1, 6, True, 5)(tc)


def test_inplace_fills():
    x = T(np.zeros(1000, np.float32))
    assert ops.uniform_(x, 1, 2) is x and x.asnumpy().min() >= 1 and x.asnumpy().max() < 2
    ops.exponential_(x, 2)
    assert x.asnumpy().min() >= 0 and abs(x.asnumpy().mean() - 0.5) < 0.1
    ops.random_(x, 1, 5)
    assert set(np.unique(x.asnumpy()).tolist()) == {1, 2, 3, 4}
    ops.bernoulli_(x, 0.0)
    assert x.asnumpy().sum() == 0
    ops.normal_(x, 3, 0.1)
    assert abs(x.asnumpy().mean() - 3) < 0.05
    assert ops.Bernoulli()(T(np.zeros(3, np.int32)), 0.5).dtype == ms.int32
    with pytest.raises(ValueError, match="'lambd' must be positive"):
        ops.exponential_(x, 0)
    with pytest.raises(TypeError, match="must be a float Tensor"):
        ops.normal_(T(np.zeros(3, np.int32)))


def test_tensor_random_methods():
    x = T(np.array([0.0, 1.0, 1.0], np.float32))
    assert x.bernoulli().asnumpy().tolist() == [0, 1, 1]
    u = x.uniform(1.0, 2.0)
    assert u.shape == (3,) and u.asnumpy().min() >= 1
    assert x.log_normal().asnumpy().min() > 0
    assert x.cauchy().shape == (3,)
    assert T(np.array([[0.1, 0.9]], np.float32)).multinomial(2).dtype == ms.int32
    assert T(np.array([[0.0, 1]], np.float32)).random_categorical(3).shape == (1, 3)


def test_generator_and_top_level_seeds():
    g = ms.Generator()
    assert g.initial_seed() == 0
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    state = g.get_state()
    assert state.dtype == ms.uint8 and state.shape == (16,) and state.asnumpy()[0] == 5
    a = ops.uniform_(T(np.zeros(4, np.float32)), generator=g).asnumpy()
    g.set_state(state)
    b = ops.uniform_(T(np.zeros(4, np.float32)), generator=g).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert isinstance(ms.manual_seed(3), ms.Generator) and ms.initial_seed() == 3
    saved = ms.get_rng_state()
    ms.set_rng_state(saved)
    assert ms.get_rng_state().asnumpy().tolist() == saved.asnumpy().tolist()
    s = ms.seed()
    assert isinstance(s, int) and ms.initial_seed() == s
    with pytest.raises(TypeError, match="16 elements"):
        g.set_state(T(np.zeros(3, np.uint8)))


def test_bernoulli_ext_and_accidental_hits():
    assert ops.bernoulli_ext(T(np.array([0.0, 1.0], np.float32))).asnumpy().tolist() == [0, 1]
    rows, ids, w = ops.ComputeAccidentalHits(1)(T(np.array([[1], [2]], np.int64)),
                                                T(np.array([1, 2, 3], np.int64)))
    assert rows.asnumpy().tolist() == [0, 1] and ids.asnumpy().tolist() == [0, 1]
    assert w.dtype == ms.float32 and w.asnumpy()[0] == -np.finfo(np.float32).max
