import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

g = Tensor(np.array([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0], [2.0, 1.0, -2.0]], np.float32))
b = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
v = Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def show(name, f):
    try:
        r = f()
        for x in r if isinstance(r, tuple) else (r,):
            print(name, x.shape, x.dtype)
            print(x)
    except Exception as e:
        print(name, "error", type(e).__name__)


show("trace", lambda: g.trace())
show("trace_off", lambda: g.trace(1))
show("trace_3d", lambda: ops.stack([g, g]).trace(0, 1, 2))
show("trace_dtype", lambda: g.trace(dtype=ms.float64))
show("trace_int", lambda: Tensor(np.arange(9).reshape(3, 3), ms.int32).trace())
show("qr", lambda: tuple(t.abs() for t in b.qr()))
show("qr_some", lambda: tuple(t.abs() for t in b.qr(False)))
show("addmm", lambda: b.addmm(g, b, beta=0.5, alpha=2))
show("addmm_pos", lambda: b.addmm(g, b, 0.5, 2))
show("addmv", lambda: v.addmv(g, v, beta=2, alpha=0.5))
show("addr", lambda: g.addr(v, v, 0.5, 2))
show("addbmm", lambda: b.addbmm(ops.stack([g, g]), ops.stack([b, b]), beta=0.5, alpha=2))
show("baddbmm", lambda: b.baddbmm(ops.stack([g, g]), ops.stack([b, b]), beta=0.5, alpha=2))
show("cross", lambda: g.cross(g * 2 + 1))
show("cov", lambda: g.cov(correction=0))
show("renorm", lambda: g.renorm(2, 0, 2.0))
show("matrix_power", lambda: g.matrix_power(2))
show("slogdet", lambda: g.slogdet())
show("log_matrix_determinant", lambda: g.log_matrix_determinant())
show("lstsq", lambda: b.lstsq(Tensor(np.array([[1.0], [0.0], [2.0]], np.float32))))
show("svd", lambda: b.svd()[0])
show("det", lambda: g.det())
show("logdet", lambda: (g * g.T + 3).logdet())
show("matrix_determinant", lambda: g.matrix_determinant())
show("cholesky", lambda: (g @ g.T + Tensor(np.eye(3), ms.float32)).cholesky(True))
show("cholesky_inverse", lambda: g.cholesky_inverse())
show("cholesky_solve", lambda: b.cholesky_solve(g))
show("lu_solve", lambda: b.lu_solve(g, Tensor(np.array([2, 3, 3], np.int32))))
show("ger", lambda: v.ger(v))
show("inner", lambda: g.inner(b.T))
show("geqrf_tau", lambda: b.geqrf()[1].abs())
show("orgqr", lambda: g.orgqr(Tensor(np.array([1.2, 0.5], np.float32))))
show("norm_nuc", lambda: g.norm("nuc"))
show("norm_dim", lambda: g.norm(1, 1, True))
