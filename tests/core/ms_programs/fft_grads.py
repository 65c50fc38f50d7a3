import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

x = Tensor(np.array([1.0, 2.0, 0.5, -1.0]), ms.float64)
xc = Tensor(np.array([1 + 1j, 2 - 0.5j, 0.5, -1j]), ms.complex128)
w1 = Tensor(np.array([1.0, 0.5, -1.0, 2.0]))
w2 = Tensor(np.array([0.3, -0.2, 1.5, 1.0]))
m = Tensor(np.arange(12.0).reshape(3, 4) / 7.0)
mc = Tensor(np.arange(12.0).reshape(3, 4) / 7.0 + 1j * np.cos(np.arange(12.0)).reshape(3, 4))
wm = Tensor(np.sin(np.arange(24.0)).reshape(3, 8))


def weighted(y, n):
    w = Tensor(np.cos(np.arange(np.prod(y.shape)) + 0.5).reshape(y.shape))
    if y.dtype in (ms.complex64, ms.complex128):
        v = Tensor(np.sin(np.arange(np.prod(y.shape)) * 0.7).reshape(y.shape))
        return (ops.real(y) * w + ops.imag(y) * v).sum()
    return (y * w).sum()


def show(a):
    a = a.asnumpy()
    if np.iscomplexobj(a):  # real and imaginary parts; + 0.0 drops the sign of zeros
        print(np.round(a.real, 4) + 0.0)
        print(np.round(a.imag, 4) + 0.0)
    else:
        print(np.round(a, 4) + 0.0)


def check(name, f, *args, grad=True):
    out = f(*args)
    print(name, out.shape, out.dtype)
    show(out)
    if not grad:  # MindSpore 2.10 crashes (SIGSEGV) on this gradient, or gets it wrong
        return
    for i, g in enumerate(ms.grad(lambda *a: weighted(f(*a), name), tuple(range(len(args))))(
            *args) if len(args) > 1 else (ms.grad(lambda a: weighted(f(a), name))(*args),)):
        print(name, "grad", i, g.dtype)
        show(g)


check("fft", ops.fft, x)
check("fft_c", ops.fft, xc)
check("fft_n6", lambda a: ops.fft(a, 6), xc)
check("fft_n3_ortho", lambda a: ops.fft(a, 3, norm="ortho"), xc)
check("ifft", ops.ifft, xc)
check("ifft_fwd", lambda a: ops.ifft(a, norm="forward"), x)
check("rfft", ops.rfft, x)
check("rfft_n6", lambda a: ops.rfft(a, 6), x)
check("irfft", ops.irfft, xc[:3])
check("irfft_n5", lambda a: ops.irfft(a, 5), xc[:3])
check("irfft_n3_ortho", lambda a: ops.irfft(a, 3, norm="ortho"), xc)
check("hfft", ops.hfft, xc[:3])
check("hfft_n5", lambda a: ops.hfft(a, 5), xc)
check("ihfft", ops.ihfft, x, grad=False)
check("ihfft_n3", lambda a: ops.ihfft(a, 3, norm="ortho"), x, grad=False)
check("fft2", ops.fft2, m)
check("fft2_c_s", lambda a: ops.fft2(a, (2, 5)), mc)
check("ifft2", ops.ifft2, mc)
check("fftn", ops.fftn, mc)
check("fftn_dim0", lambda a: ops.fftn(a, dim=(0,)), mc)
check("ifftn_s", lambda a: ops.ifftn(a, s=(4, 3)), mc)
check("rfft2", ops.rfft2, m)
check("rfftn_s", lambda a: ops.rfftn(a, s=(2, 6)), m)
check("irfft2", ops.irfft2, mc)
check("irfftn_s", lambda a: ops.irfftn(a, s=(3, 5)), mc, grad=False)  # SIGSEGV
check("hfft2", ops.hfft2, mc)
check("hfftn_s", lambda a: ops.hfftn(a, s=(2, 4)), mc, grad=False)
check("ihfft2", ops.ihfft2, m, grad=False)
check("ihfftn", ops.ihfftn, m, grad=False)
check("fftshift", ops.fftshift, m)
check("fftshift_c", lambda a: ops.fftshift(a, 1), mc)
check("ifftshift", ops.ifftshift, wm)
print(ops.fft(Tensor(np.array([1.0, 2.0, 3.0], np.float32))).dtype)
print(ops.fft(Tensor(np.array([1, 2, 3], np.int32))).dtype)
print(ops.irfft(Tensor(np.array([1.0, 2.0, 3.0], np.float32))).dtype)
print(ops.fftfreq(5), ops.rfftfreq(6, 0.5), ops.fftfreq(4, dtype=ms.float64).dtype)
print(ops.rfftfreq(7, 2.0, ms.float64), ops.fftfreq(7, 2.0, ms.float64))
show(ops.rfft(xc))
print(ops.fft(Tensor(np.array([1.0, 2.0, 3.0], np.float16))).dtype)
print(ops.fftshift(Tensor(np.arange(5)), 0), ops.fftshift(Tensor(3.0)))
for name, f in [("rfft_complex", lambda: ops.rfft(xc)), ("fft_norm", lambda: ops.fft(x, norm="x")),
                ("fft_dim", lambda: ops.fft(x, dim=2)), ("fft_n0", lambda: ops.fft(x, 0)),
                ("fft_list", lambda: ops.fft([1.0, 2.0])), ("fft2_1d", lambda: ops.fft2(x))]:
    try:
        print(name, f().shape)
    except Exception as e:
        print(name, "error", type(e).__name__)
