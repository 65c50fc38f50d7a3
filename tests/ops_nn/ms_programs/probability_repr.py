import mindspore.nn.probability.bijector as msb
import mindspore.nn.probability.distribution as msd
import numpy as np
from mindspore import Tensor


def f32(*v):
    return Tensor(np.array(v, np.float32))


# Gamma, Beta and Softplus leave out: MindSpore prints its internal helper Cells in them
for d in [
    msd.Normal(3.0, 4.0),
    msd.Normal(f32(1.0, 2.0), f32(1.0)),
    msd.Normal(),
    msd.Uniform(0.0, 1.0),
    msd.Bernoulli(0.5),
    msd.Categorical(f32(0.5, 0.5)),
    msd.LogNormal(0.0, 1.0),
    msd.Gumbel(0.0, 1.0),
    msd.Exponential(2.0),
    msd.Poisson(f32(1.0)),
    msd.Cauchy(0.0, 1.0),
    msd.Geometric(0.5),
    msd.Logistic(0.0, 1.0),
    msb.Exp(),
    msb.ScalarAffine(2.0, 1.0),
    msb.PowerTransform(0.5),
    msb.GumbelCDF(0.0, 1.0),
    msb.Invert(msb.Exp()),
    msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0)),
]:
    print(repr(d))
