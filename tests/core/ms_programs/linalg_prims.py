import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

a = Tensor(np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32))
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


P = ops
show("Svd", lambda: P.Svd(True, True)(b)[0])
show("Svd_nouv", lambda: P.Svd(compute_uv=False)(b))
show("Qr", lambda: tuple(t.abs() for t in P.Qr(False)(b)))
show("Qr_full", lambda: tuple(t.abs() for t in P.Qr(True)(b)))
show("Cholesky", lambda: P.Cholesky()(a))
show("CholeskyInverse", lambda: P.CholeskyInverse()(P.Cholesky()(a)))
show("CholeskySolve", lambda: P.CholeskySolve()(b, P.Cholesky()(a)))
show("MatrixInverse", lambda: P.MatrixInverse()(g))
show("MatrixInverse_adj", lambda: P.MatrixInverse(True)(g))
show("MatrixDeterminant", lambda: P.MatrixDeterminant()(g))
show("LogMatrixDeterminant", lambda: P.LogMatrixDeterminant()(g))
show("MatrixSolve", lambda: P.MatrixSolve()(g, b))
show("MatrixSolveLs", lambda: P.MatrixSolveLs()(b, a, Tensor(0.5, ms.float64)))
show("MatrixSolveLs2", lambda: P.MatrixSolveLs(False)(b, a, Tensor(0.0, ms.float64)))
show("MatrixTriangularSolve", lambda: P.MatrixTriangularSolve()(g, b))
show("MatrixTriangularSolve_up_adj", lambda: P.MatrixTriangularSolve(False, True)(g, b))
show("MatrixPower", lambda: P.MatrixPower(2)(ops.stack([a, g])))
show("MatrixPower_neg", lambda: P.MatrixPower(-1)(ops.stack([a, g])))
show("MatrixPower_2d", lambda: P.MatrixPower(2)(a))
show("MatrixBandPart", lambda: P.MatrixBandPart()(g, 1, 0))
show("MatrixBandPart_t", lambda: P.MatrixBandPart()(g, Tensor(0, ms.int64), Tensor(-1, ms.int64)))
show(
    "MatrixDiagV3",
    lambda: P.MatrixDiagV3()(
        v, Tensor(1, ms.int32), Tensor(-1, ms.int32), Tensor(-1, ms.int32), Tensor(0.0, ms.float32)
    ),
)
show(
    "MatrixDiagV3_band",
    lambda: P.MatrixDiagV3()(
        Tensor(np.arange(6.0).reshape(2, 3), ms.float32),
        Tensor([-1, 0], ms.int32),
        Tensor(3, ms.int32),
        Tensor(4, ms.int32),
        Tensor(9.0, ms.float32),
    ),
)
show(
    "MatrixDiagV3_LR",
    lambda: P.MatrixDiagV3("LEFT_RIGHT")(
        Tensor(np.arange(6.0).reshape(2, 3), ms.float32),
        Tensor([-1, 0], ms.int32),
        Tensor(3, ms.int32),
        Tensor(4, ms.int32),
        Tensor(9.0, ms.float32),
    ),
)
x34 = Tensor(np.arange(1.0, 13.0).reshape(3, 4), ms.float32)
show(
    "MatrixDiagPartV3",
    lambda: P.MatrixDiagPartV3()(x34, Tensor(0, ms.int32), Tensor(0.0, ms.float32)),
)
show(
    "MatrixDiagPartV3_band",
    lambda: P.MatrixDiagPartV3()(x34, Tensor([-1, 1], ms.int32), Tensor(9.0, ms.float32)),
)
show(
    "MatrixDiagPartV3_band_LL",
    lambda: P.MatrixDiagPartV3("LEFT_LEFT")(
        x34, Tensor([-1, 1], ms.int32), Tensor(9.0, ms.float32)
    ),
)
show(
    "MatrixSetDiagV3",
    lambda: P.MatrixSetDiagV3()(x34, Tensor([7.0, 8.0, 9.0], ms.float32), Tensor(0, ms.int32)),
)
show(
    "MatrixSetDiagV3_band",
    lambda: P.MatrixSetDiagV3()(
        x34, Tensor(np.arange(9.0).reshape(3, 3), ms.float32), Tensor([-1, 1], ms.int32)
    ),
)
show("Lstsq", lambda: P.Lstsq()(b, Tensor(np.array([[1.0], [0.0], [2.0]], np.float32))))
show(
    "Lstsq_l2",
    lambda: P.Lstsq(l2_regularizer=0.5)(b, Tensor(np.array([[1.0], [0.0], [2.0]], np.float32))),
)
show("LuSolve", lambda: P.LuSolve()(b, g, Tensor(np.array([2, 3, 3], np.int32))))
show("LuUnpack", lambda: P.LuUnpack()(g, Tensor(np.array([2, 3, 3], np.int32))))
show("Geqrf", lambda: P.Geqrf()(b)[1].abs())
show("Orgqr", lambda: P.Orgqr()(g, Tensor(np.array([1.2, 0.5], np.float32))))
show("Trace", lambda: P.Trace()(g))
show("Ger", lambda: P.Ger()(v, v))
show("Cross", lambda: P.Cross()(a, g))
show("Cross1", lambda: P.Cross(1)(a, g))
show("Cdist", lambda: P.Cdist()(a, g))
show("Cdist_b", lambda: P.Cdist(1.0)(ops.stack([a, g]), ops.stack([g, a])))
show("Pdist", lambda: P.Pdist()(g))
show("Renorm", lambda: P.Renorm(2, 0, 2.0)(g))
show("NuclearNorm", lambda: P.NuclearNorm()(g))
show("NuclearNorm_dim", lambda: P.NuclearNorm([0, 1], True)(g))
show("EuclideanNorm_tuple", lambda: P.EuclideanNorm()(g, (0,)))
show(
    "TridiagonalMatMul",
    lambda: P.TridiagonalMatMul()(
        Tensor([[1.0, 2.0, 3.0]]), Tensor([[4.0, 5.0, 6.0]]), Tensor([[7.0, 8.0, 9.0]]), b
    ),
)
