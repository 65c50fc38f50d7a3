import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

a = Tensor(np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]), ms.float32)
g = Tensor(np.array([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0], [2.0, 1.0, -2.0]]), ms.float32)
b = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), ms.float32)
w3 = Tensor(np.array([[0.3, -1.0, 0.5], [1.2, 0.1, -0.4], [0.7, 0.9, 0.2]]), ms.float32)
w2 = Tensor(np.array([[0.3, -1.0], [1.2, 0.1], [0.7, 0.9]]), ms.float32)


# qr, lstsq, lu_solve and orgqr: MindSpore 2.10's CPU build has no gradient for them
# (RuntimeError); cellgrad's are checked by gradcheck and against PyTorch (test_linalg2*.py)


def check(name, f, *args):
    try:
        grads = ms.grad(f, tuple(range(len(args))))(*args)
        for i, x in enumerate(grads if isinstance(grads, tuple) else (grads,)):
            print(name, i, x.shape, x.dtype)
            print(x.asnumpy() + 0.0)
    except Exception as e:
        print(name, "error", type(e).__name__)


check("det", lambda x: ops.det(x), g)
check("slogdet", lambda x: ops.slogdet(x)[1], g)
check("logdet", lambda x: ops.logdet(x), a)
check("inverse", lambda x: (ops.inverse(x) * w3).sum(), g)
check("matrix_solve", lambda x, y: (ops.matrix_solve(x, y) * w2).sum(), g, b)
check("svd_s", lambda x: (ops.svd(x, compute_uv=False) * Tensor([1.0, -2.0])).sum(), b)
check("svd_rec", lambda x: (lambda s, u, v: (ops.matmul(u * s.expand_dims(-2), v.T) * w2)
                            .sum())(*ops.svd(x)), b)
check("pinv", lambda x: (ops.pinv(x) * w2.T).sum(), b)
check("cholesky_solve", lambda x, y: (ops.cholesky_solve(x, y) * w2).sum(), b,
      ops.cholesky(a))
check("matrix_power", lambda x: (ops.matrix_power(x, 3) * w3).sum(), g)
check("trace", lambda x: ops.trace(x), g)
check("kron", lambda x, y: (ops.kron(x, y)).sum(), g, b)
check("cross", lambda x, y: (ops.cross(x, y) * w3).sum(), a, g)
check("cdist", lambda x, y: (ops.cdist(x, y) * w3).sum(), a, g)
check("pdist", lambda x: (ops.pdist(x) * Tensor([1.0, -1.0, 2.0])).sum(), g)
check("dist", lambda x, y: ops.dist(x, y, 3), a, g)
check("cov", lambda x: (ops.cov(x) * w3).sum(), g)
check("renorm", lambda x: (ops.renorm(x, 2, 0, 2.0) * w3).sum(), g)
check("norm_nuc", lambda x: ops.norm(x, "nuc"), g)
check("norm_2", lambda x: ops.norm(x, 2), g)
check("norm_fro", lambda x: ops.norm(x), g)
check("vector_norm", lambda x: (ops.vector_norm(x, 3, 1) * Tensor([1.0, 2.0, 3.0])).sum(), g)
check("matrix_band_part", lambda x: (ops.matrix_band_part(x, 1, 0) * w3).sum(), g)
check("addmm", lambda i, x, y: (ops.addmm(i, x, y, beta=0.5, alpha=2.0) * w2).sum(), b, g, b)
check("baddbmm", lambda i, x, y: ops.baddbmm(i, x, y, 0.5, 2.0).sum(), b,
      ops.stack([a, g]), ops.stack([b, b]))
check("block_diag", lambda x, y: (ops.block_diag(x, y) ** 2).sum(), g, b)
