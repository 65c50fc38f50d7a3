# ruff: noqa: B023  (each lambda runs at once, inside its loop iteration)
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


METHODS = ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival")
STATS = ("mean", "var", "sd", "mode", "entropy")

cases = [
    ("Normal", msd.Normal(3.0, 4.0), f32(1.0, 2.0, 3.5), (f32(1.0), f32(1.0, 1.5, 2.0)),
     ("Normal", f32(1.0), f32(1.0, 1.5, 2.0))),
    ("Uniform", msd.Uniform(0.0, 2.0), f32(-0.5, 0.5, 1.9, 2.5), (f32(0.5), f32(3.0)),
     ("Uniform", f32(-1.0), f32(3.0))),
    ("Exponential", msd.Exponential(0.5), f32(-1.0, 0.5, 2.0), (f32(1.5, 2.0, 0.2),),
     ("Exponential", f32(1.0, 2.0, 0.3))),
    ("Gamma", msd.Gamma(f32(2.0), f32(1.5)), f32(0.5, 1.0, 3.0), (f32(3.0), f32(0.5)),
     ("Gamma", f32(1.0, 2.0, 3.0), f32(1.0))),
    ("Beta", msd.Beta(f32(2.0), f32(3.0)), f32(0.1, 0.5, 0.9), (f32(1.5), f32(0.5)),
     ("Beta", f32(1.0, 2.0, 3.0), f32(1.0))),
    ("Cauchy", msd.Cauchy(1.0, 2.0), f32(-1.0, 1.0, 4.0), (f32(0.0), f32(0.5, 1.0, 3.0)),
     ("Cauchy", f32(0.0), f32(1.0, 3.0, 5.0))),
    ("Logistic", msd.Logistic(1.0, 2.0), f32(-1.0, 1.0, 4.0), (f32(0.0), f32(0.5, 1.0, 3.0)),
     None),
    ("LogNormal", msd.LogNormal(0.5, 0.8), f32(0.5, 1.0, 3.0), (f32(0.0), f32(0.5, 1.0, 3.0)),
     ("LogNormal", f32(0.0), f32(1.0, 2.0, 0.5))),
    ("Gumbel", msd.Gumbel(1.0, 2.0), f32(-1.0, 1.0, 4.0), (), ("Gumbel", f32(0.0), f32(1.0, 3.0))),
    ("Bernoulli", msd.Bernoulli(0.3), f32(0.0, 1.0, 1.0), (f32(0.6, 0.9, 0.1),),
     ("Bernoulli", f32(0.5, 0.8))),
    ("Geometric", msd.Geometric(0.3), f32(0.0, 1.0, 4.0), (f32(0.6, 0.9, 0.1),),
     ("Geometric", f32(0.5, 0.8))),
    ("Poisson", msd.Poisson(f32(2.0)), f32(0.0, 1.0, 4.0), (f32(0.5, 3.0, 7.0),), None),
    ("Categorical", msd.Categorical(f32(0.2, 0.5, 0.3)), Tensor(np.array([0, 2, 1], np.int32)),
     (Tensor(np.array([[0.1, 0.9, 0.0], [0.5, 0.25, 0.25], [0.2, 0.2, 0.6]], np.float32)),),
     ("Categorical", f32(0.3, 0.3, 0.4))),
]
for name, d, value, args, kl in cases:
    print(name, d.get_dist_type(), d.dtype, d.name, d.seed, d.is_scalar_batch, d.batch_shape)
    for m in METHODS:
        show(f"{name}.{m}", lambda: getattr(d, m)(value))
        if args:
            show(f"{name}.{m}.args", lambda: getattr(d, m)(value, *args))
    for m in STATS:
        if name == "Bernoulli" and m == "mode":  # MindSpore 2.10 raises a TypeError (a bug)
            continue
        show(f"{name}.{m}", lambda: getattr(d, m)())
        if args:
            show(f"{name}.{m}.args", lambda: getattr(d, m)(*args))
    if kl is not None:
        show(f"{name}.kl_loss", lambda: d.kl_loss(*kl))
        show(f"{name}.cross_entropy", lambda: d.cross_entropy(*kl))
        show(f"{name}.kl_wrong", lambda: d.kl_loss("Other", *kl[1:]))
    if name not in ("Gamma", "Beta", "Poisson"):  # MindSpore's CPU build cannot sample these
        show(f"{name}.sample", lambda: d.sample((2, 3)).shape)
        show(f"{name}.sample_dtype", lambda: d.sample().dtype)
        if args:
            show(f"{name}.sample_args", lambda: d.sample((2,), *args).shape)
    show(f"{name}.construct", lambda: d("mean"))
    show(f"{name}.dist_args", lambda: d.get_dist_args())
