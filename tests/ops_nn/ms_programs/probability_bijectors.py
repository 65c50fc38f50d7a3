# ruff: noqa: B023  (each lambda runs at once, inside its loop iteration)
import mindspore as ms
import mindspore.nn.probability.bijector as msb
import mindspore.nn.probability.distribution as msd
import numpy as np
from mindspore import Tensor


def show(name, f):
    try:
        r = f()
        for x in r if isinstance(r, tuple) else (r,):
            if isinstance(x, Tensor):
                print(name, x.shape, x.dtype)
                print(np.round(x.asnumpy().astype(np.float64), 5) + 0.0)
            else:
                print(name, x)
    except Exception as e:
        print(name, "error", type(e).__name__, str(e).split("\n")[0])


def f32(*v):
    return Tensor(np.array(v, np.float32))


x = f32(0.5, 1.0, 2.0)
bijectors = [
    ("Exp", msb.Exp()),
    ("PowerTransform", msb.PowerTransform(0.5)),
    ("ScalarAffine", msb.ScalarAffine(2.0, -1.0)),
    ("Softplus", msb.Softplus(1.5)),
    ("GumbelCDF", msb.GumbelCDF(1.0, 2.0)),
    ("Invert", msb.Invert(msb.ScalarAffine(2.0, 1.0))),
    ("InvertExp", msb.Invert(msb.Exp())),
]
for name, b in bijectors:
    print(name, b.name, b.is_constant_jacobian, b.is_injective, b.batch_shape,
          b.is_scalar_batch, b.dtype)
    for m in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
        show(f"{name}.{m}", lambda: getattr(b, m)(x if name != "GumbelCDF" or m in (
            "forward", "forward_log_jacobian") else f32(0.1, 0.5, 0.9)))
    show(f"{name}.construct", lambda: b("forward", x))
show("softplus_big", lambda: msb.Softplus(2.0).forward(f32(-30.0, 0.0, 30.0)))
show("softplus_inv_small", lambda: msb.Softplus().inverse(f32(1e-9, 0.5, 30.0)))
show("power_zero_eq_exp", lambda: msb.PowerTransform(0.0).forward(x))
show("int_value", lambda: msb.Exp().forward(Tensor(np.array([1, 2], np.int32))))
show("list_value", lambda: msb.Exp().forward([1.0]))
show("bad_power", lambda: msb.PowerTransform(-1.0))
show("bad_scale", lambda: msb.GumbelCDF(0.0, -1.0))
show("bool_param", lambda: msb.ScalarAffine(True))
show("invert_bad", lambda: msb.Invert(3))

# TransformedDistribution
td = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
print(td.name, td.dtype, td.is_linear_transformation, td.batch_shape, td.is_scalar_batch)
for m in ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival"):
    show(f"td.{m}", lambda: getattr(td, m)(x))
    show(f"td.{m}.args", lambda: getattr(td, m)(x, f32(0.5), f32(2.0)))
show("td.mean", lambda: td.mean())
show("td.sample", lambda: td.sample((2, 2)).shape)
aff = msd.TransformedDistribution(msb.ScalarAffine(2.0, 1.0), msd.Normal(f32(0.0, 1.0), f32(1.0,
                                                                                         2.0)))
print(aff.is_linear_transformation, aff.batch_shape, aff.is_scalar_batch)
show("aff.mean", lambda: aff.mean())
show("aff.log_prob", lambda: aff.log_prob(f32(1.0, 3.0)))
show("aff.cdf", lambda: aff.cdf(f32(1.0, 3.0)))
show("call_on_dist", lambda: msb.Exp()(msd.Normal(0.0, 1.0)).log_prob(x))
show("td_bad", lambda: msd.TransformedDistribution(msd.Normal(0.0, 1.0), msb.Exp()))
show("td_int", lambda: msd.TransformedDistribution(msb.Exp(), msd.Bernoulli(0.5)))
# constructor errors of the distributions
show("normal_sd", lambda: msd.Normal(0.0, -1.0))
show("normal_dtype", lambda: msd.Normal(0.0, 1.0, dtype=ms.int32))
show("uniform_order", lambda: msd.Uniform(2.0, 1.0))
show("bernoulli_prob", lambda: msd.Bernoulli(1.5))
show("categorical_sum", lambda: msd.Categorical(f32(0.2, 0.2)))
show("poisson_scalar", lambda: msd.Poisson(2.0))
show("seed_neg", lambda: msd.Normal(0.0, 1.0, seed=-1))
show("name_int", lambda: msd.Normal(0.0, 1.0, name=3))
show("no_params", lambda: msd.Normal().mean())
show("value_list", lambda: msd.Normal(0.0, 1.0).prob([1.0]))
show("construct_bad", lambda: msd.Normal(0.0, 1.0)("nope"))
show("float64_param", lambda: msd.Normal(Tensor(np.array([1.0])), Tensor(np.array([2.0]))).mean())
show("float16", lambda: msd.Normal(f32(0.0).astype(ms.float16), f32(1.0).astype(ms.float16),
                                   dtype=ms.float16).prob(x.astype(ms.float16)))
# the density-only distributions
for d, v in [(msd.HalfNormal(0.0, 2.0), f32(-1.0, 0.5, 2.0)),
             (msd.Laplace(1.0, 2.0), f32(-1.0, 0.5, 2.0)),
             (msd.StudentT(3.0, 1.0, 2.0), f32(-1.0, 0.5, 2.0))]:
    show(f"{d.name}.prob", lambda: d.prob(v))
    show(f"{d.name}.log_prob", lambda: d.log_prob(v))
    show(f"{d.name}.prob.args", lambda: d.prob(v, *[f32(1.5) for _ in d.parameter_names]))
    show(f"{d.name}.mean", lambda: d.mean())
    show(f"{d.name}.cdf", lambda: d.cdf(v))
