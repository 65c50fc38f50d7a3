import mindspore as ms
import numpy as np
from mindspore import Tensor, ops


def show(name, a):
    print(name, a.shape, a.dtype)
    a = a.asnumpy()
    if np.iscomplexobj(a):  # real and imaginary parts; + 0.0 drops the sign of zeros
        print(np.round(a.real, 4) + 0.0)
        print(np.round(a.imag, 4) + 0.0)
    else:
        print(np.round(a, 4) + 0.0)


x = Tensor(np.sin(np.arange(32.0) * 0.3), ms.float32)
x2 = Tensor(np.cos(np.arange(40.0) * 0.45).reshape(2, 20), ms.float32)
show("stft", ops.stft(x, 8, return_complex=True))
show("stft_real", ops.stft(x, 8, hop_length=4, window=ops.hann_window(8, dtype=ms.float32),
                           return_complex=False))
show("stft_nc", ops.stft(x, 8, center=False, onesided=False, normalized=True,
                         return_complex=True))
show("stft_win", ops.stft(x2, 8, 3, 6, ops.hamming_window(6), return_complex=True))
show("stft_const", ops.stft(x2, 6, pad_mode="CONSTANT", return_complex=True))
show("STFT", ops.STFT(8, 4, 8, False, True, True)(x, ops.ones(8, ms.float32)))
show("FFT1", ops.FFTWithSize(1, False, False)(Tensor(np.array([1 + 1j, 2, 3j, 4]),
                                                        ms.complex64)))
show("FFT_r", ops.FFTWithSize(1, False, True)(Tensor(np.array([1.0, 2.0, 3.0, 4.0]),
                                                        ms.float32)))
show("FFT_r_full", ops.FFTWithSize(1, False, True, onesided=False)(
    Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)))
show("FFT_ir", ops.FFTWithSize(1, True, True, signal_sizes=(4,))(
    Tensor(np.array([1 + 1j, 2, 3j]), ms.complex64)))
show("FFT_ir_default", ops.FFTWithSize(1, True, True)(Tensor(np.array([1 + 1j, 2, 3j]),
                                                              ms.complex64)))
show("FFT2_ortho", ops.FFTWithSize(2, False, False, norm="ortho")(
    Tensor(np.arange(6.0).reshape(2, 3), ms.complex64)))
show("IFFT2", ops.FFTWithSize(2, True, False, norm="forward")(
    Tensor(np.arange(6.0).reshape(2, 3), ms.complex64)))
a = Tensor(np.array([[2.0, 1.0, 0.3], [0.5, 3.0, 0.2], [0.1, 0.4, 1.0]]), ms.float64)
show("eigvals", ops.eigvals(a))
w, v = ops.eig(a)
show("eig_w", w)
show("eig_v_abs", Tensor(np.abs(v.asnumpy())))
show("Eig", ops.Eig()(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))[0])
show("Eig_v_abs", Tensor(np.abs(ops.Eig(True)(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]],
                                                              np.float32)))[1].asnumpy())))
show("eigvals_rot", ops.eigvals(Tensor(np.array([[0.0, -2.0], [2.0, 0.0]]), ms.float64)))
show("logm", ops.MatrixLogarithm()(Tensor(np.array([[2, 1], [0.5, 3]]), ms.complex64)))
for name, f in [("eig_int", lambda: ops.eig(Tensor(np.eye(2), ms.int32))),
                ("eig_rect", lambda: ops.eig(Tensor(np.ones((2, 3)), ms.float32))),
                ("logm_real", lambda: ops.MatrixLogarithm()(Tensor(np.eye(2), ms.float32)))]:
    try:
        print(name, f().shape)
    except Exception as e:
        print(name, "error", type(e).__name__)
