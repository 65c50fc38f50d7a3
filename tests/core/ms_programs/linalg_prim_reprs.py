import mindspore as ms
from mindspore import ops

for p in [ops.Svd(), ops.Qr(True), ops.Cholesky(), ops.MatrixInverse(True), ops.MatrixPower(2),
          ops.Cross(), ops.Cdist(1.0), ops.Renorm(2, 0, 1.0), ops.Renorm(1, 1, 2.0),
          ops.NuclearNorm(), ops.NuclearNorm([0, 1]), ops.MatrixDiagV3(), ops.Lstsq(),
          ops.BartlettWindow(), ops.BlackmanWindow(False, ms.float64), ops.HammingWindow(),
          ops.HammingWindow(dtype=ms.float16), ops.HammingWindow(dtype=ms.float64),
          ops.FFTWithSize(1, False, False), ops.FFTWithSize(1, False, False, norm="forward"),
          ops.FFTWithSize(2, True, True, norm="ortho", signal_sizes=(4, 4)),
          ops.STFT(8, 2, 8, False, True, True), ops.Eig(), ops.TridiagonalMatMul(),
          ops.MatrixSolveLs(), ops.LuUnpack()]:
    print(repr(p))
print(ops.MatrixPower(3).n)
