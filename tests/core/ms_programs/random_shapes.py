"""Random ops and primitives: the shapes and dtypes MindSpore 2.10 gives (its values are not
reproduced: cellgrad draws from PCG64 streams)."""
import numpy as np

import mindspore as ms
from mindspore import ops, Tensor, Parameter
ms.set_seed(1)
def t(f):
    try:
        r = f()
        def d(x): return f"{type(x).__name__}{tuple(x.shape)}:{x.dtype}" if isinstance(x, Tensor) else repr(x)
        print(d(r) if not isinstance(r,(tuple,list)) else [d(x) for x in r])
    except Exception as e: print("ERR", type(e).__name__, str(e).splitlines()[0][:250])
x = Tensor(np.full((2,3),0.5,np.float32))
t(lambda: ops.Bernoulli()(x, Tensor(np.float32(0.3)))); t(lambda: ops.Bernoulli()(Tensor(np.zeros(3,np.int32)), 0.5))
t(lambda: ops.Multinomial()(Tensor(np.array([[0.2,0.8]],np.float32)), 3))
t(lambda: ops.Multinomial(dtype=ms.int64)(Tensor(np.array([0.2,0.8],np.float32)), 3))
t(lambda: ops.MultinomialWithReplacement(4, True)(Tensor(np.array([[0.2,0.8]],np.float32)), Tensor(1, ms.int64), Tensor(0, ms.int64)))
t(lambda: ops.multinomial_with_replacement(Tensor(np.array([[0.2,0.8]],np.float32)), 1, 0, 4, True))
t(lambda: ops.RandomGamma()(Tensor(np.array([3,2],np.int32)), Tensor(np.array([1.,2],np.float32))))
t(lambda: ops.RandomPoisson()(Tensor(np.array([3,2],np.int32)), Tensor(np.array([1.,2],np.float32))))
t(lambda: ops.random_poisson(Tensor(np.array([3,2],np.int32)), Tensor(np.array([1.,2],np.float32))))
t(lambda: ops.random_poisson(Tensor(np.array([3,2],np.int32)), Tensor(np.array([1.,2],np.float32)), dtype=ms.int32))
t(lambda: ops.RandpermV2()(Tensor(5, ms.int64), Tensor(0, ms.int64), Tensor(0,ms.int64)) )
t(lambda: ops.RandpermV2()(5))
t(lambda: ops.RandomShuffle()(x)); t(lambda: ops.shuffle(x, 1))
t(lambda: ops.RandomCategorical()(Tensor(np.array([[0.,1,2]],np.float32)), 4, 1))
t(lambda: ops.random_categorical(Tensor(np.array([[0.,1,2]],np.float32)), 4))
t(lambda: ops.UniformCandidateSampler(1, 3, True, 5)(Tensor(np.array([[1],[3]],np.int64))))
t(lambda: ops.uniform_candidate_sampler(Tensor(np.array([[1],[3]],np.int64)), 1, 3, True, 5))
t(lambda: ops.LogUniformCandidateSampler(1, 3, True, 5)(Tensor(np.array([[1],[3]],np.int64))))
t(lambda: ops.UniformCandidateSampler(1, 3, False, 5)(Tensor(np.array([[1],[3]],np.int64))))
t(lambda: ops.TruncatedNormal()(Tensor(np.array([3,2],np.int32))))
t(lambda: ops.ParameterizedTruncatedNormal()(Tensor(np.array([2,3],np.int32)), Tensor(np.array([0.,1],np.float32)), Tensor(np.array([1.,1],np.float32)), Tensor(np.array([-1.,0],np.float32)), Tensor(np.array([1.,2],np.float32))))
t(lambda: ops.StandardLaplace()((2,3))); t(lambda: ops.standard_laplace((2,3)))
t(lambda: ops.Cauchy([2,3])()); t(lambda: ops.LogNormalReverse()(x)); t(lambda: ops.NonDeterministicInts()(Tensor(np.array([2,3],np.int32))))
t(lambda: Tensor(np.zeros(3,np.float32)).random_categorical(2))
