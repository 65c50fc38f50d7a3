"""nn.probability (cellgrad_nn/probability): values and gradients against
torch.distributions, sampling shapes/dtypes/statistics and seeds, bijectors, errors.
MindSpore's own numbers: ms_programs/probability_dists.py and probability_bijectors.py."""

import math

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.nn.probability.bijector as msb
import cellgrad.nn.probability.distribution as msd
from cellgrad import Tensor

torch = pytest.importorskip("torch")
td = torch.distributions


def f32(*v):
    return Tensor(np.array(v, np.float32))


def t32(*v):
    return torch.tensor(np.array(v, np.float32), requires_grad=True)


# name: (cellgrad distribution without parameters, torch constructor, parameters, values)
CASES = {
    "Normal": (msd.Normal(), td.Normal, [(0.5, -1.0, 2.0), (1.0, 2.0, 0.5)], (0.3, 1.0, -2.0)),
    "Uniform": (msd.Uniform(), td.Uniform, [(0.0, -1.0, 1.0), (2.0, 1.0, 4.0)], (0.3, 0.5, 2.0)),
    "Exponential": (msd.Exponential(), td.Exponential, [(0.5, 1.0, 2.0)], (0.3, 1.0, 2.0)),
    "Gamma": (msd.Gamma(), td.Gamma, [(2.0, 0.7, 3.0), (1.5, 1.0, 0.5)], (0.3, 1.0, 2.5)),
    "Beta": (msd.Beta(), td.Beta, [(2.0, 0.7, 3.0), (1.5, 1.0, 0.5)], (0.3, 0.6, 0.9)),
    "Cauchy": (msd.Cauchy(), td.Cauchy, [(0.5, -1.0, 2.0), (1.0, 2.0, 0.5)], (0.3, 1.0, -2.0)),
    "LogNormal": (msd.LogNormal(), td.LogNormal, [(0.5, -1.0, 0.2), (1.0, 0.5, 0.7)],
                  (0.3, 1.0, 2.0)),
    "Bernoulli": (msd.Bernoulli(), td.Bernoulli, [(0.2, 0.5, 0.9)], (0.0, 1.0, 1.0)),
    "Poisson": (msd.Poisson(), td.Poisson, [(0.5, 2.0, 6.0)], (0.0, 2.0, 5.0)),
}
METHODS = {"log_prob": "log_prob", "cdf": "cdf", "entropy": "entropy", "mean": "mean",
           "var": "variance"}
SKIP = {("Cauchy", "entropy"), ("Cauchy", "mean"), ("Cauchy", "var"), ("Beta", "cdf"),
        ("Gamma", "cdf"), ("Poisson", "cdf"), ("Poisson", "entropy"), ("Bernoulli", "cdf")}


def _ours(d, method, params, value):
    if method in ("log_prob", "cdf"):
        return getattr(d, method)(value, *params)
    return getattr(d, method)(*params)


def _theirs(cls, method, params, value):
    dist = cls(*params)
    attr = getattr(dist, METHODS[method])
    return attr(value) if method in ("log_prob", "cdf") else (attr() if callable(attr)
                                                              else attr)


@pytest.mark.parametrize("name, method", [(n, m) for n in CASES for m in METHODS
                                          if (n, m) not in SKIP])
def test_values_and_gradients_against_torch(name, method):
    d, cls, params, value = CASES[name]
    ours_p = [f32(*p) for p in params]
    theirs_p = [t32(*p) for p in params]
    grad_value = method in ("log_prob", "cdf") and name not in ("Bernoulli", "Poisson")
    out = _ours(d, method, ours_p, f32(*value))
    t_value = t32(*value) if grad_value else torch.tensor(np.array(value, np.float32))
    t_out = _theirs(cls, method, theirs_p, t_value)
    np.testing.assert_allclose(out.asnumpy(), t_out.detach().numpy(), rtol=2e-5, atol=2e-6)
    positions = tuple(range(len(params) + grad_value))

    def loss(*args):
        value_arg = args[-1] if grad_value else f32(*value)
        return _ours(d, method, list(args[:len(params)]), value_arg).sum()

    ours_g = ms.grad(loss, positions)(*ours_p, *([f32(*value)] if grad_value else []))
    ours_g = ours_g if isinstance(ours_g, tuple) else (ours_g,)
    t_in = theirs_p + ([t_value] if grad_value else [])
    t_grads = torch.autograd.grad(t_out.sum(), t_in, allow_unused=True)
    for g, tg in zip(ours_g, t_grads):
        expected = np.zeros(g.shape) if tg is None else tg.numpy()
        np.testing.assert_allclose(g.asnumpy(), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name, ours_b, theirs_b", [
    ("Normal", (f32(0.5), f32(2.0)), (0.5, 2.0)),
    ("Exponential", (f32(2.0),), (2.0,)),
    ("Gamma", (f32(2.0), f32(0.5)), (2.0, 0.5)),
    ("Beta", (f32(2.0), f32(0.5)), (2.0, 0.5)),
    ("Bernoulli", (f32(0.3),), (0.3,)),
])
def test_kl_loss_against_torch(name, ours_b, theirs_b):
    d, cls, params, _ = CASES[name]
    a = [f32(*p) for p in params]
    ours = d.kl_loss(name, *ours_b, *a)
    theirs = td.kl_divergence(cls(*[torch.tensor(np.array(p, np.float32)) for p in params]),
                              cls(*[torch.tensor(np.float32(v)) for v in theirs_b]))
    np.testing.assert_allclose(ours.asnumpy(), theirs.numpy(), rtol=1e-4, atol=1e-6)
    cross = d.cross_entropy(name, *ours_b, *a).asnumpy()
    np.testing.assert_allclose(cross, (d.entropy(*a) + ours).asnumpy(), rtol=1e-6)


def test_gamma_and_poisson_cdf_against_scipy_style_values():
    # P(a, x) by the closed forms for integer a
    g = msd.Gamma(f32(2.0), f32(1.0))
    x = np.array([0.5, 1.0, 3.0])
    np.testing.assert_allclose(g.cdf(f32(*x)).asnumpy(), 1 - np.exp(-x) * (1 + x), rtol=1e-5)
    p = msd.Poisson(f32(2.0))
    k = np.array([0.0, 1.0, 3.0])
    expected = [sum(math.exp(-2) * 2 ** j / math.factorial(j) for j in range(int(v) + 1))
                for v in k]
    np.testing.assert_allclose(p.cdf(f32(*k)).asnumpy(), expected, rtol=1e-5)
    grad = ms.grad(lambda v: g.cdf(v).sum())(f32(*x)).asnumpy()
    np.testing.assert_allclose(grad, x * np.exp(-x), rtol=1e-5)  # the density


@pytest.mark.parametrize("dist, mean, var", [
    (msd.Normal(1.0, 2.0, seed=3), 1.0, 4.0),
    (msd.Uniform(-1.0, 3.0, seed=3), 1.0, 16 / 12),
    (msd.Exponential(2.0, seed=3), 0.5, 0.25),
    (msd.Gamma(f32(3.0), f32(2.0), seed=3), 1.5, 0.75),
    (msd.Beta(f32(2.0), f32(3.0), seed=3), 0.4, 0.04),
    (msd.Logistic(1.0, 0.5, seed=3), 1.0, (0.5 * math.pi) ** 2 / 3),
    (msd.LogNormal(0.0, 0.5, seed=3), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    (msd.Gumbel(1.0, 2.0, seed=3), 1.0 + 2.0 * np.euler_gamma, (2.0 * math.pi) ** 2 / 6),
    (msd.Bernoulli(0.3, seed=3), 0.3, 0.21),
    (msd.Geometric(0.4, seed=3), 1.5, 3.75),
    (msd.Poisson(f32(3.0), seed=3), 3.0, 3.0),
    (msd.Categorical(f32(0.2, 0.5, 0.3), seed=3), 1.1, 0.49),
])
def test_sample_statistics(dist, mean, var):
    s = dist.sample((20000,)).asnumpy().astype(np.float64).reshape(-1)
    assert abs(s.mean() - mean) < 5 * math.sqrt(var / s.size) + 1e-3
    assert abs(s.var() - var) < 0.1 * var


def test_sample_shapes_dtypes_and_seeds():
    n = msd.Normal(f32(0.0, 1.0), f32(1.0, 2.0))
    assert n.sample().shape == (2,) and n.sample((3, 4)).shape == (3, 4, 2)
    assert msd.Normal(0.0, 1.0).sample().shape == ()
    assert msd.Bernoulli(0.5).sample((3,)).dtype == ms.int32
    assert msd.Categorical(f32(0.5, 0.5), dtype=ms.int64).sample((3,)).dtype == ms.int64
    assert msd.Normal().sample((2,), f32(0.0), f32(1.0, 2.0, 3.0)).shape == (2, 3)
    ms.set_seed(11)
    first = msd.Normal(0.0, 1.0).sample((5,)).asnumpy()
    ms.set_seed(11)
    again = msd.Normal(0.0, 1.0).sample((5,)).asnumpy()
    np.testing.assert_array_equal(first, again)
    ms.set_seed(2)
    u = msd.Uniform(0.0, 1.0, seed=7)
    a, a2 = u.sample((5,)).asnumpy(), u.sample((5,)).asnumpy()
    ms.set_seed(2)
    b = msd.Uniform(0.0, 1.0, seed=7).sample((5,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, a2)  # the stream advances, as MindSpore's


BIJECTORS = [
    (msb.Exp(), torch.distributions.transforms.ExpTransform()),
    (msb.ScalarAffine(2.0, -1.0), torch.distributions.transforms.AffineTransform(-1.0, 2.0)),
    (msb.PowerTransform(0.5), None),
    (msb.Softplus(1.5), None),
    (msb.GumbelCDF(1.0, 2.0), None),
    (msb.Invert(msb.ScalarAffine(2.0, 1.0)), None),
]


@pytest.mark.parametrize("bijector, torch_t", BIJECTORS)
def test_bijector_roundtrip_jacobian_and_gradient(bijector, torch_t):
    x = f32(0.5, 1.0, 2.0)
    y = bijector.forward(x)
    np.testing.assert_allclose(bijector.inverse(y).asnumpy(), x.asnumpy(), rtol=1e-5)
    # log|dy/dx| against the finite-difference slope, and the two Jacobians cancel
    eps = 1e-3
    slope = (bijector.forward(x + eps).asnumpy() - bijector.forward(x - eps).asnumpy()) / (
        2 * eps)
    np.testing.assert_allclose(bijector.forward_log_jacobian(x).asnumpy() + np.zeros(3),
                               np.log(np.abs(slope)), rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose((bijector.forward_log_jacobian(x)
                                + bijector.inverse_log_jacobian(y)).asnumpy() + np.zeros(3),
                               0.0, atol=1e-5)
    g = ms.grad(lambda v: bijector.forward(v).sum())(x).asnumpy()
    np.testing.assert_allclose(g, slope, rtol=1e-3)
    if torch_t is not None:
        tx = t32(0.5, 1.0, 2.0)
        np.testing.assert_allclose(y.asnumpy(), torch_t(tx).detach().numpy(), rtol=1e-6)


def test_transformed_distribution_equals_lognormal():
    x = f32(0.3, 1.0, 2.0)
    t = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.5, 0.8))
    ln = msd.LogNormal(0.5, 0.8)
    np.testing.assert_allclose(t.log_prob(x).asnumpy(), ln.log_prob(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(t.cdf(x).asnumpy(), ln.cdf(x).asnumpy(), rtol=1e-6)
    called = msb.Exp()(msd.Normal(0.5, 0.8))
    assert isinstance(called, msd.TransformedDistribution)
    with pytest.raises(ValueError, match="non-linear"):
        t.mean()


@pytest.mark.parametrize("call, error, match", [
    (lambda: msd.Normal(0.0, -1.0), ValueError, "greater than zero"),
    (lambda: msd.Normal(0.0, 1.0, dtype=ms.int32), TypeError, "dtype"),
    (lambda: msd.Uniform(2.0, 1.0), ValueError, "low must be less than high"),
    (lambda: msd.Bernoulli(1.5), ValueError, "less than one"),
    (lambda: msd.Categorical(f32(0.2, 0.2)), ValueError, "sum to one"),
    (lambda: msd.Poisson(2.0), TypeError, "scalar"),
    (lambda: msd.Normal().mean(), TypeError, "can not be None"),
    (lambda: msd.Normal(0.0, 1.0).prob([1.0]), TypeError, "Tensor"),
    (lambda: msd.Normal(0.0, 1.0).kl_loss("Uniform", f32(0.0), f32(1.0)), ValueError,
     "Expected dist input is Normal"),
    (lambda: msd.Beta(f32(1.0), f32(2.0)).cdf(f32(0.5)), NotImplementedError, "cdf"),
    (lambda: msd.Cauchy(0.0, 1.0).mean(), ValueError, "undefined"),
    (lambda: msb.PowerTransform(-1.0), ValueError, "Power"),
    (lambda: msb.Exp().forward(Tensor(np.array([1], np.int32))), TypeError, "Float"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_module_paths_real_code_imports():
    import cellgrad.nn.probability.bijector.bijector as bijector_module
    from cellgrad.nn.probability.distribution.distribution import Distribution

    assert issubclass(msd.Normal, Distribution) and msd.distribution.Distribution is Distribution
    assert bijector_module.Bijector is msb.Bijector
    assert ms.nn.probability.distribution.Uniform is msd.Uniform


def test_more_distributions_against_torch():
    x = np.array([0.3, 1.0, 2.5], np.float32)
    cases = [
        (msd.Gumbel(1.0, 2.0), td.Gumbel(1.0, 2.0), ("log_prob", "cdf", "entropy", "mean")),
        (msd.Logistic(1.0, 2.0), td.TransformedDistribution(
            td.Uniform(0.0, 1.0), [td.transforms.SigmoidTransform().inv,
                                   td.transforms.AffineTransform(1.0, 2.0)]), ("log_prob",
                                                                               "cdf")),
        (msd.Geometric(0.3), td.Geometric(torch.tensor(0.3)), ("log_prob", "mean", "entropy")),
        (msd.Categorical(f32(0.2, 0.5, 0.3)), td.Categorical(torch.tensor([0.2, 0.5, 0.3])),
         ("entropy", "mean")),
    ]
    for ours, theirs, methods in cases:
        for m in methods:
            value = np.floor(x) if isinstance(ours, msd.Geometric) else x
            got = getattr(ours, m)(f32(*value)) if m in ("log_prob", "cdf") else getattr(
                ours, m)()
            attr = getattr(theirs, m)
            want = attr(torch.tensor(value)) if m in ("log_prob", "cdf") else attr
            want = want() if callable(want) else want
            if isinstance(ours, msd.Categorical) and m == "mean":
                want = (torch.arange(3.0) * torch.tensor([0.2, 0.5, 0.3])).sum()
            np.testing.assert_allclose(got.asnumpy().reshape(-1),
                                       np.asarray(want).reshape(-1), rtol=1e-5, atol=1e-6)
    cat = msd.Categorical(f32(0.2, 0.5, 0.3))
    np.testing.assert_allclose(cat.log_prob(Tensor(np.array([0, 2, 1], np.int32))).asnumpy(),
                               np.log([0.2, 0.3, 0.5]), rtol=1e-6)
    kl = cat.kl_loss("Categorical", f32(0.3, 0.3, 0.4)).asnumpy()
    want = td.kl_divergence(td.Categorical(torch.tensor([0.2, 0.5, 0.3])),
                            td.Categorical(torch.tensor([0.3, 0.3, 0.4]))).numpy()
    np.testing.assert_allclose(kl, want, rtol=1e-5)
