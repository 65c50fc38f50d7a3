"""Linear algebra values and gradients of `cellgrad.ops` against PyTorch (float64)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(11)
A, B, W = (RNG.standard_normal(s) for s in ((3, 3), (3, 2), (4, 3)))
SPD = A @ A.T + 3 * np.eye(3)

# name: (cellgrad function, torch function, inputs)
CASES = {
    "det": (ops.det, torch.linalg.det, [A]),
    "slogdet": (lambda x: ops.slogdet(x)[1], lambda x: torch.linalg.slogdet(x)[1], [A]),
    "logdet": (ops.logdet, torch.logdet, [SPD]),
    "svdvals": (lambda x: ops.svd(x, compute_uv=False), torch.linalg.svdvals, [W]),
    "pinv": (ops.pinv, torch.linalg.pinv, [W]),
    "qr_r": (lambda x: ops.qr(x)[1], lambda x: torch.linalg.qr(x)[1], [W]),
    "qr_q": (lambda x: ops.qr(x)[0], lambda x: torch.linalg.qr(x)[0], [W]),
    "cholesky": (ops.cholesky, torch.linalg.cholesky, [SPD]),
    "cholesky_inverse": (ops.cholesky_inverse, torch.cholesky_inverse,
                         [np.linalg.cholesky(SPD)]),
    "cholesky_solve": (ops.cholesky_solve, torch.cholesky_solve, [B, np.linalg.cholesky(SPD)]),
    "solve": (ops.matrix_solve, torch.linalg.solve, [SPD, B]),
    "matrix_exp": (ops.matrix_exp, torch.linalg.matrix_exp, [A]),
    "matrix_power": (lambda x: ops.matrix_power(x, -3),
                     lambda x: torch.linalg.matrix_power(x, -3), [SPD]),
    "lstsq": (ops.lstsq, lambda x, y: torch.linalg.lstsq(x, y).solution, [W, W[:, :2]]),
    "kron": (ops.kron, torch.kron, [A, B]),
    "inner": (ops.inner, torch.inner, [A, W]),
    "cross": (lambda x, y: ops.cross(x, y, 1), lambda x, y: torch.linalg.cross(x, y, dim=1),
              [A, SPD]),
    "cdist": (ops.cdist, torch.cdist, [W, A]),
    "cdist_p3": (lambda x, y: ops.cdist(x, y, 3.0), lambda x, y: torch.cdist(x, y, 3.0), [W, A]),
    "pdist": (ops.pdist, torch.pdist, [W]),
    "dist": (ops.dist, torch.dist, [W, W[::-1].copy()]),
    "cov": (ops.cov, torch.cov, [W]),
    "renorm": (lambda x: ops.renorm(x, 2, 0, 1.0), lambda x: torch.renorm(x, 2, 0, 1.0), [W]),
    "norm_nuc": (lambda x: ops.norm(x, "nuc"), lambda x: torch.linalg.norm(x, "nuc"), [W]),
    "norm_inf": (lambda x: ops.norm(x, float("inf")),
                 lambda x: torch.linalg.norm(x, float("inf")), [W]),
    "vector_norm": (lambda x: ops.vector_norm(x, 3, 1),
                    lambda x: torch.linalg.vector_norm(x, 3, 1), [W]),
    "block_diag": (ops.block_diag, torch.block_diag, [A, B]),
    "addbmm": (lambda i, a, b: ops.addbmm(i, a, b, beta=0.5, alpha=2.0),
               lambda i, a, b: torch.addbmm(i, a, b, beta=0.5, alpha=2.0),
               [B, RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 4, 2))]),
    "householder": (ops.orgqr, torch.linalg.householder_product, [W, W[0]]),
    "ormqr": (ops.ormqr, torch.ormqr, [W, W[0], B[:, :1].repeat(4, 0)[:4]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    ours, theirs, inputs = CASES[name]
    out = ours(*(Tensor(x) for x in inputs))
    t_in = [torch.tensor(x, requires_grad=True) for x in inputs]
    t_out = theirs(*t_in)
    np.testing.assert_allclose(out.asnumpy(), t_out.detach().numpy(), rtol=1e-8, atol=1e-10)
    weight = RNG.standard_normal(out.shape)
    grads = ms.grad(lambda *xs: (ours(*xs) * Tensor(weight)).sum(),
                    tuple(range(len(inputs))))(*(Tensor(x) for x in inputs))
    grads = grads if isinstance(grads, tuple) else (grads,)
    t_grads = torch.autograd.grad((t_out * torch.tensor(weight)).sum(), t_in)
    for g, tg in zip(grads, t_grads):
        np.testing.assert_allclose(g.asnumpy(), tg.numpy(), rtol=1e-7, atol=1e-9)
