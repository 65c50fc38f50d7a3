"""complex64/complex128: creation, repr/str, promotion, casts, arithmetic, reductions,
indexing, the complex ops and primitives, Tensor methods, and the complex gradients MindSpore
2.10's CPU computes (ComplexAbs, Angle, Complex, Polar, MatMul)."""
import mindspore as ms
import numpy as np
from mindspore import Tensor, ops


def z64():
    return Tensor(np.array([[1 + 2j, 3 - 4j, 0.5j], [2, -1j, 1 + 1j]], np.complex64))


def show(label, t):
    print(label, t.dtype, t.shape)
    print(repr(t))


# creation, repr, str, asnumpy
show("np c64", z64())
print(z64())
print(z64().asnumpy().dtype)
show("py scalar", Tensor(1 + 2j))
show("py list", Tensor([1 + 2j, 3]))
show("c128", Tensor(np.array([1.123456789 + 2.5j, -3e-5 + 1e6j], np.complex128)))
show("nan inf", Tensor(np.array([np.nan + 1j, np.inf - 2j], np.complex64)))
show("long", Tensor(np.arange(30).astype(np.complex64) * (1 + 1j)))
print(Tensor(np.array([1.123456789 + 2.5j, -3e-5 + 1e6j], np.complex64)))
print(Tensor(1 + 2j).item(), z64()[0].tolist())

# promotion
z = Tensor(np.array([1 + 2j, 3 - 4j], np.complex64))
show("c64+int", z + 1)
show("c64+float", z + 1.5)
show("c64+f64", z + Tensor([1.0, 2.0], ms.float64))
show("c64+f32", z + Tensor([1.0, 2.0], ms.float32))
show("c64+i32", z + Tensor([1, 2], ms.int32))
show("c64+c128", z + Tensor(np.array([1j, 2], np.complex128)))

# arithmetic, reductions, shapes, indexing
show("mul", z * z)
show("div", z / z)
show("sub", z - z)
show("neg", -z64())
show("matmul", ops.matmul(z.reshape(1, 2), z.reshape(2, 1)))
show("sum", z64().sum())
show("sum axis", z64().sum(axis=0))
show("mean", z64().mean())
show("mean axis", z64().mean(axis=1))
show("reshape", z64().reshape(3, 2))
show("index", z64()[:, 1])
show("slice", z64()[1:])
show("T", z64().T)
show("exp", ops.exp(z64()))
show("sqrt", ops.sqrt(z64()))
show("log", ops.log(z64()))
print(ops.cat((z64(), z64())).shape)
show("eq", z == z)

# casts
show("to f32", z64().astype(ms.float32))
show("to i32", z64().astype(ms.int32))
show("to bool", z64().astype(ms.bool_))
show("f32 to c64", Tensor([1.5, 2]).astype(ms.complex64))
show("c64 to c128", z.astype(ms.complex128))

# complex ops and primitives
show("real", ops.real(z64()))
show("imag", ops.imag(z64()))
show("conj", ops.conj(z64()))
show("angle", ops.angle(z64()))
show("real of real", ops.real(Tensor([1.0, 2.0])))
show("imag of real", ops.imag(Tensor([1.0, 2.0])))
show("imag of int", ops.imag(Tensor([1, 2])))
show("conj of int", ops.conj(Tensor([1, 2])))
show("Complex", ops.Complex()(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])))
show("Complex f64", ops.Complex()(Tensor([1.0], ms.float64), Tensor([-1.0], ms.float64)))
show("polar", ops.polar(Tensor([1.0, 2.0]), Tensor([0.5, 4.0])))
show("polar f64", ops.polar(Tensor([1.0], ms.float64), Tensor([1.0], ms.float64)))
show("ComplexAbs", ops.ComplexAbs()(z64()))
show("Real", ops.Real()(z64()))
show("Imag", ops.Imag()(z64()))
show("Conj", ops.Conj()(z64()))
show("Angle", ops.Angle()(z64()))
show("Polar", ops.Polar()(Tensor([3.0]), Tensor([0.25])))
show("ConjugateTranspose", ops.ConjugateTranspose()(z64(), (1, 0)))
show("adjoint", ops.adjoint(z64()))
show("adjoint real", ops.adjoint(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))))
show("view_as_real", ops.view_as_real(z64()[0]))
show("isreal", ops.isreal(Tensor(np.array([1 + 0j, 1j], np.complex64))))
show("isreal real", ops.isreal(Tensor([1.0, 2.0])))
print(ops.is_complex(z64()), ops.is_complex(Tensor([1.0])))

# Tensor methods
show("t.real", z64().real())
show("t.imag", z64().imag())
show("t.conj", z64().conj())
show("t.angle", z64().angle())
show("t.H", z64().H)
show("t.mH", z64().mH)
show("t.mT", z64().mT)
show("t.adjoint", z64().adjoint())
show("t.isreal", z64().isreal())
print(z64().is_complex(), z64().is_floating_point(), z64().is_signed(), z64().itemsize,
      z64().nbytes)

# gradients (MindSpore's convention: dL/dx + i dL/dy)
w = Tensor(np.array([0.5 - 1j, 2 + 1j], np.complex64))
x = Tensor(np.array([1.0, -2.0], np.float32))
y = Tensor(np.array([3.0, 0.5], np.float32))
print("grad ComplexAbs", ms.grad(lambda v: ops.ComplexAbs()(v).sum())(z))
print("grad angle", ms.grad(lambda v: ops.angle(v).sum())(z))
print("grad matmul", ms.grad(
    lambda v: ops.real(ops.matmul(v.reshape(1, 2), w.reshape(2, 1))).sum())(z))
print("grad Complex", ms.grad(lambda a, b: ops.abs(ops.Complex()(a, b)).sum(),
                              grad_position=(0, 1))(x, y))
print("grad polar", ms.grad(lambda a, b: ops.real(ops.polar(a, b)).sum()
                            + ops.imag(ops.polar(a, b)).sum(),
                            grad_position=(0, 1))(Tensor([1.0, 2.0]), y))
