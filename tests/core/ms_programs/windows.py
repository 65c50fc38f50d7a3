import mindspore as ms
from mindspore import Tensor, ops


def show(name, f):
    try:
        r = f()
        print(name, r.shape, r.dtype)
        print(r)
    except Exception as e:
        print(name, "error", type(e).__name__, str(e).split("\n")[0].split("<class")[0])


n5 = Tensor(5, ms.int32)
for nm in ["bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window"]:
    f = getattr(ops, nm)
    show(nm, lambda f=f: f(n5))
    show(nm + "_int", lambda f=f: f(5))
    show(nm + "_np", lambda f=f: f(5, False))
    show(nm + "_f64", lambda f=f: f(n5, False, dtype=ms.float64))
    show(nm + "_f16", lambda f=f: f(6, dtype=ms.float16))
    show(nm + "_1", lambda f=f: f(1))
    show(nm + "_0", lambda f=f: f(0))
    show(nm + "_neg", lambda f=f: f(-1))
    show(nm + "_float", lambda f=f: f(5.0))
    show(nm + "_2", lambda f=f: f(2, False))
    show(nm + "_bool", lambda f=f: f(4, periodic=1))
    show(nm + "_int_dtype", lambda f=f: f(4, dtype=ms.int32))
show("hamming_ab", lambda: ops.hamming_window(6, True, 0.5, 0.3))
show("hamming_f64", lambda: ops.hamming_window(4, dtype=ms.float64))
show("kaiser_beta", lambda: ops.kaiser_window(6, False, 5.0))
show("kaiser_f32", lambda: ops.kaiser_window(7, dtype=ms.float32))
show("hann_f32", lambda: ops.hann_window(7, False, dtype=ms.float32))
show("bw_int64", lambda: ops.bartlett_window(Tensor(5, ms.int64)))
show("bw_dtype_int", lambda: ops.bartlett_window(n5, dtype=ms.int32))
show("bw_1d", lambda: ops.bartlett_window(Tensor([5], ms.int32)))
show("bw_1", lambda: ops.bartlett_window(Tensor(1, ms.int32)))
show("bw_0", lambda: ops.bartlett_window(Tensor(0, ms.int32)))
show("bw_neg", lambda: ops.bartlett_window(Tensor(-1, ms.int32)))
show("bw_float", lambda: ops.bartlett_window(Tensor(5.0, ms.float32)))
show("bw_bool", lambda: ops.bartlett_window(n5, periodic=1))
show("bl_6", lambda: ops.blackman_window(Tensor(6, ms.int32), False, dtype=ms.float16))
show("bl_1", lambda: ops.blackman_window(Tensor(1, ms.int32)))
show("P_bartlett", lambda: ops.BartlettWindow()(n5))
show("P_bartlett_f64", lambda: ops.BartlettWindow(periodic=False, dtype=ms.float64)(n5))
show("P_blackman", lambda: ops.BlackmanWindow(False)(Tensor(7, ms.int64)))
show("P_hamming", lambda: ops.HammingWindow()(Tensor([5], ms.int64)))
show("P_hamming_args", lambda: ops.HammingWindow(False, 0.5, 0.3, ms.float64)(
    Tensor([5], ms.int32)))
show("P_hamming_0d", lambda: ops.HammingWindow()(n5))
