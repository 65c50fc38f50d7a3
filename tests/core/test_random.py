"""Random ops: shapes, dtypes and bounds (hypothesis), seeding as MindSpore, threads, errors."""

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cellgrad as ms
from cellgrad import Tensor, ops, seeding
from cellgrad.common.initializer import Normal, initializer

shapes = st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple)
float_dtypes = st.sampled_from([ms.float16, ms.float32, ms.float64])
int_dtypes = st.sampled_from([ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8])


@pytest.fixture(autouse=True)
def _unseeded_after():
    yield
    seeding.reset(None)


@settings(max_examples=40, deadline=None)
@given(shape=shapes, dtype=float_dtypes, seed=st.none() | st.integers(0, 2**31))
def test_rand_and_randn_honour_shape_dtype_and_range(shape, dtype, seed):
    u = ops.rand(shape, dtype=dtype, seed=seed)
    n = ops.randn(*shape, dtype=dtype, seed=seed)
    assert u.shape == shape and u.dtype == dtype
    assert n.dtype == dtype and n.shape == (shape or (1,))
    values = u.asnumpy().astype(np.float64)
    assert np.all((values >= 0) & (values <= 1))
    assert np.all(np.isfinite(n.asnumpy()))


def test_rand_without_size_is_one_element():
    assert ops.rand().shape == (1,) and ops.randn().shape == (1,)


@settings(max_examples=40, deadline=None)
@given(shape=shapes, low=st.integers(-60, 60), span=st.integers(1, 60), dtype=int_dtypes)
def test_randint_honours_bounds_and_dtype(shape, low, span, dtype):
    if dtype == ms.uint8:
        low = abs(low)
    out = ops.randint(low, low + span, shape, dtype=dtype)
    assert out.shape == shape and out.dtype == dtype
    values = out.asnumpy().astype(np.int64)
    assert np.all((values >= low) & (values < low + span))
    like = ops.randint_like(Tensor(np.zeros(shape, dtype.np_dtype)), low, low + span)
    assert like.dtype == dtype and like.shape == shape
    assert np.all((like.asnumpy() >= low) & (like.asnumpy() < low + span))


@settings(max_examples=40, deadline=None)
@given(shape=shapes, lo=st.floats(-10, 10), width=st.floats(0.01, 10))
def test_uniform_float_and_int(shape, lo, width):
    out = ops.uniform(shape, Tensor(lo), Tensor(lo + width))
    assert out.shape == shape and out.dtype == ms.float32
    values = out.asnumpy()
    assert np.all((values >= np.float32(lo) - 1e-5) & (values <= np.float32(lo + width) + 1e-5))
    ints = ops.uniform(shape, Tensor(-3, ms.int32), Tensor(4, ms.int32), dtype=ms.int32)
    assert ints.dtype == ms.int32 and ints.shape == shape
    assert np.all((ints.asnumpy() >= -3) & (ints.asnumpy() < 4))


def test_uniform_broadcasts_bounds_and_normal_broadcasts_mean():
    lo = Tensor(np.array([0.0, 10.0, 100.0], np.float32))
    out = ops.uniform((2, 3), lo, lo + 1).asnumpy()
    assert out.shape == (2, 3) and np.all((out >= lo.asnumpy()) & (out < lo.asnumpy() + 1))
    ms.set_seed(0)
    n = ops.normal((20000, 3), lo, Tensor(0.5)).asnumpy()
    np.testing.assert_allclose(n.mean(axis=0), [0.0, 10.0, 100.0], atol=0.02)
    np.testing.assert_allclose(n.std(axis=0), 0.5, atol=0.01)
    assert ops.normal((2,), Tensor(0.0, ms.float64), 1.0).dtype == ms.float64


def test_distribution_moments():
    ms.set_seed(1)
    u = ops.rand(100000).asnumpy()
    assert abs(u.mean() - 0.5) < 0.005 and abs(u.var() - 1 / 12) < 0.002
    z = ops.standard_normal((100000,)).asnumpy()
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    b = ops.bernoulli(Tensor(np.zeros(100000, np.float32)), 0.3).asnumpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.01


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 3), cats=st.integers(1, 6), n=st.integers(1, 6),
       replacement=st.booleans(), data=st.data())
def test_multinomial_draws_only_positive_weights(rows, cats, n, replacement, data):
    weights = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]),
                                                   min_size=cats, max_size=cats),
                                          min_size=rows, max_size=rows)), np.float32)
    weights[:, 0] += 1.0  # every row has a positive sum
    if not replacement and n > cats:
        with pytest.raises(ValueError, match="must not exceed the number of categories"):
            ops.multinomial(Tensor(weights), n, False)
        return
    out = ops.multinomial(Tensor(weights), n, replacement).asnumpy()
    assert out.dtype == np.int32 and out.shape == (rows, n)
    for row, picks in zip(weights, out):
        positive = int((row > 0).sum())
        if replacement:
            assert np.all(row[picks] > 0)
        else:
            assert len(set(picks.tolist())) == n
            assert np.all(row[picks[:min(n, positive)]] > 0)  # zero weights come last


def test_multinomial_frequencies_follow_weights():
    ms.set_seed(3)
    out = ops.multinomial(Tensor(np.array([1.0, 3.0, 0.0], np.float32)), 40000).asnumpy()
    counts = np.bincount(out, minlength=3) / out.size
    np.testing.assert_allclose(counts, [0.25, 0.75, 0.0], atol=0.01)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 1000), offset=st.integers(0, 5))
def test_randperm_is_a_permutation_fixed_by_seed_and_offset(n, seed, offset):
    p = ops.randperm(n, seed=seed, offset=offset)
    assert p.dtype == ms.int64 and sorted(p.asnumpy().tolist()) == list(range(n))
    assert np.array_equal(p.asnumpy(), ops.randperm(n, seed, offset).asnumpy())
    ms.set_seed(seed)  # the global seed plays no part, as in MindSpore
    assert np.array_equal(p.asnumpy(), ops.randperm(n, seed, offset).asnumpy())


def test_set_seed_repeats_a_sequence_and_streams_are_per_kernel():
    ms.set_seed(11)
    a1, a2 = ops.rand(6).asnumpy(), ops.rand(6).asnumpy()
    ms.set_seed(11)
    b1 = ops.rand(6).asnumpy()
    ops.randn(4)  # another kernel's stream: does not shift rand's
    ops.randint(0, 9, (3,))
    b2 = ops.rand(6).asnumpy()
    assert not np.array_equal(a1, a2)
    assert np.array_equal(a1, b1) and np.array_equal(a2, b2)
    ms.set_seed(11)
    assert np.array_equal(ops.uniform((6,), Tensor(0.0), Tensor(1.0)).asnumpy(), a1)  # one kernel


def test_op_seed_combines_with_the_global_seed():
    ms.set_seed(5)
    s1 = ops.standard_normal((5,), seed=3).asnumpy()
    s2 = ops.standard_normal((5,), seed=3).asnumpy()
    ms.set_seed(5)
    assert np.array_equal(ops.standard_normal((5,), seed=3).asnumpy(), s1)
    assert not np.array_equal(s1, s2)
    ms.set_seed(6)
    assert not np.array_equal(ops.standard_normal((5,), seed=3).asnumpy(), s1)
    ms.set_seed(5)
    assert not np.array_equal(ops.standard_normal((5,), seed=4).asnumpy(), s1)


def test_unseeded_draws_differ():
    seeding.reset(None)
    assert not np.array_equal(ops.rand(16).asnumpy(), ops.rand(16).asnumpy())
    assert ms.get_seed() is None


def test_bernoulli_seed_fixes_the_draw_and_global_seed_reproduces_unseeded_ones():
    z = Tensor(np.zeros(64, np.float32))
    assert np.array_equal(ops.bernoulli(z, 0.5, seed=9).asnumpy(),
                          ops.bernoulli(z, 0.5, seed=9).asnumpy())
    ms.set_seed(2)
    first = ops.bernoulli(z, 0.5).asnumpy()
    ms.set_seed(2)
    assert np.array_equal(ops.bernoulli(z, 0.5).asnumpy(), first)  # MindSpore does not repeat
    p = Tensor(np.array([0.0, 1.0, 1.0, 0.0], np.float32))
    assert ops.bernoulli(Tensor(np.zeros(4, np.int32)), p).asnumpy().tolist() == [0, 1, 1, 0]


def test_seeded_primitives_own_their_stream_and_unseeded_follow_the_global_seed():
    u = ops.UniformReal(seed=4)
    first, second = u((4,)).asnumpy(), u((4,)).asnumpy()
    assert not np.array_equal(first, second)
    assert np.array_equal(ops.UniformReal(seed=4)((4,)).asnumpy(), first)
    ms.set_seed(1)
    a = ops.StandardNormal()((2, 3)).asnumpy()
    ms.set_seed(1)
    assert np.array_equal(ops.StandardNormal()((2, 3)).asnumpy(), a)
    v = ops.UniformInt(seed=2)(Tensor(np.array([3, 2], np.int64)), Tensor(-3, ms.int32),
                               Tensor(3, ms.int32))
    assert v.shape == (3, 2) and v.dtype == ms.int32
    assert np.all((v.asnumpy() >= -3) & (v.asnumpy() < 3))
    assert repr(ops.UniformReal()) == "Prim[UniformReal]"


def test_initializers_draw_from_the_same_seeded_source():
    ms.set_seed(8)
    w1 = initializer(Normal(1.0), (3, 4)).asnumpy()
    r1 = ops.rand(3).asnumpy()
    ms.set_seed(8)
    r2 = ops.rand(3).asnumpy()  # another stream: order between kinds does not matter
    w2 = initializer(Normal(1.0), (3, 4)).asnumpy()
    assert np.array_equal(w1, w2) and np.array_equal(r1, r2)


def test_threads_drawing_at_once_never_share_a_stream():
    """Every draw gets its own generator: threads see exactly the single-threaded draws."""
    def draws(n):
        return [ops.rand(64).asnumpy().tobytes() for _ in range(n)]

    ms.set_seed(21)
    expected = set(draws(200))
    ms.set_seed(21)
    results, barrier = [], threading.Barrier(4)

    def worker():
        barrier.wait()
        results.extend(draws(50))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 200 and set(results) == expected


def test_random_values_are_constants_for_gradients():
    drawn = []

    def f(t):
        r = ops.rand(3)
        drawn.append(r.asnumpy())
        return (t * r).sum()

    g = ms.grad(f)(Tensor(np.ones(3, np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), drawn[0])
    assert ops.rand(3).asnumpy().flags.writeable


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.uniform((2,), 0.0, 1.0), TypeError,
     r"For functional operator\[uniform\], the input\[minval\] and input\[maxval\] must be a "
     "Tensor"),
    (lambda: ops.uniform((2,), Tensor(0.0), Tensor(1.0), dtype=ms.float64), TypeError,
     "The 'uniform' doesn't support 'Float64'"),
    (lambda: ops.uniform((2,), Tensor(3, ms.int32), Tensor(3, ms.int32), dtype=ms.int32),
     RuntimeError, "For 'uniform', 'low' must be less than 'high', but got low=3 and high=3"),
    (lambda: ops.standard_normal((2, -1)), ValueError,
     r"For 'standard_normal', the shape must not have negative entries, but got \(2, -1\)"),
    (lambda: ops.standard_normal([2, 2]), TypeError, "For 'standard_normal', the shape must be"),
    (lambda: ops.rand(2, dtype=ms.int32), ValueError,
     "For 'rand', the 'dtype' must be a float type, but got Int32"),
    (lambda: ops.randint(0.5, 5, (3,)), TypeError, "For 'randint', 'low' must be an int, but "
                                                   "got float"),
    (lambda: ops.randint(0, 5, 3), ValueError, "For 'randint', the input 'size' must be a tuple"),
    (lambda: ops.randint(0, 5, (3,), dtype=ms.float32), ValueError,
     "For 'randint', the 'dtype' must be an int type, but got Float32"),
    (lambda: ops.randint(0, 300, (3,), dtype=ms.uint8), ValueError,
     r"For 'randint', the range \[0, 300\) does not fit dtype UInt8"),
    (lambda: ops.rand_like(Tensor(np.zeros(2, np.int32))), ValueError,
     "For 'rand_like', the 'dtype' must be a float type, but got Int32"),
    (lambda: ops.randint_like(Tensor(np.zeros(2, np.float32)), 0, 3), ValueError,
     "For 'randint_like', the 'dtype' must be an int type, but got Float32"),
    (lambda: ops.bernoulli(Tensor(np.zeros(2, np.float32)), 1.5), ValueError,
     r"For 'bernoulli', p should be in \[0, 1\], but got 1.5"),
    (lambda: ops.bernoulli(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.ones(3, np.float32))),
     ValueError, r"'p' must have the shape of 'input' \(2, 3\) or one element, but got shape "
                 r"\(3,\)"),
    (lambda: ops.multinomial(Tensor(np.ones((2, 2, 2), np.float32)), 1), ValueError,
     "the dimension of inputs must be 1d or 2d, but got 3"),
    (lambda: ops.multinomial(Tensor(np.array([-1.0, 2.0], np.float32)), 1), ValueError,
     "the weights must be finite and non-negative"),
    (lambda: ops.multinomial(Tensor(np.zeros(3, np.float32)), 1), ValueError,
     "every row of weights must have a positive sum"),
    (lambda: ops.randperm(0), ValueError, "the input 'n' must be greater than 0, but got data: 0"),
    (lambda: ops.randperm(300, dtype=ms.uint8), ValueError,
     "the value of 'n' is 300, it's too large for input 'dtype' UInt8"),
    (lambda: ops.rand(3, seed=-1), ValueError, "For 'rand', the seed must be a non-negative int"),
    (lambda: ops.UniformInt()((2,), Tensor(1.0), Tensor(5.0)), TypeError,
     r"For primitive\[UniformInt\], the input argument\[minval\] must be a type of "
     r"\{Tensor\[Int32\]\}, but got Tensor\[Float32\]"),
    (lambda: ops.UniformReal(seed=-2), ValueError, "'seed' must be a non-negative int"),
])
def test_bad_arguments_name_the_op_and_what_was_expected(call, error, message):
    with pytest.raises(error, match=message):
        call()
