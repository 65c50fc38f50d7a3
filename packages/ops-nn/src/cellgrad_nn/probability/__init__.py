"""`mindspore.nn.probability`: `distribution` (Normal, Uniform, Bernoulli, Categorical,
Exponential, Gamma, Beta, LogNormal, Poisson, Geometric, Gumbel, Logistic, Cauchy, HalfNormal,
Laplace, StudentT, the base
Distribution and TransformedDistribution) and `bijector` (Bijector, Exp, PowerTransform,
ScalarAffine, Softplus, GumbelCDF, Invert). Read by `cellgrad_nn.plugin` without importing the
modules below."""

_DISTRIBUTIONS = {
    "Distribution": "distribution", "Normal": "continuous", "Uniform": "continuous",
    "Exponential": "continuous", "Gamma": "continuous", "Beta": "continuous",
    "Cauchy": "continuous", "Logistic": "continuous", "Bernoulli": "discrete",
    "Geometric": "discrete", "Poisson": "discrete", "Categorical": "discrete",
    "TransformedDistribution": "transformed", "LogNormal": "transformed",
    "Gumbel": "transformed", "HalfNormal": "densities", "Laplace": "densities",
    "StudentT": "densities",
}
_BIJECTORS = ("Bijector", "Exp", "PowerTransform", "ScalarAffine", "Softplus", "GumbelCDF",
              "Invert")

EXPORTS: dict = {
    **{f"nn.probability.distribution.{name}": f"{module}:{name}"
       for name, module in _DISTRIBUTIONS.items()},
    **{f"nn.probability.bijector.{name}": f"bijector:{name}" for name in _BIJECTORS},
    # MindSpore's modules of the base classes, which real code imports from
    "nn.probability.distribution.distribution.Distribution": "distribution:Distribution",
    "nn.probability.bijector.bijector.Bijector": "bijector:Bijector",
}
