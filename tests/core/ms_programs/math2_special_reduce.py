import numpy as np
import mindspore as ms
from mindspore import ops, Tensor

x = Tensor(np.array([0.25, 0.9, 1.7, 3.2, 7.5], np.float32))
a = Tensor(np.array([0.5, 1.0, 2.0, 3.0, 4.0], np.float32))
m = Tensor(np.array([[1.0, 3.0, 2.0, 3.0], [4.0, float("nan"), 0.0, -1.0],
                     [2.0, 2.0, 5.0, 1.0]], np.float32))
b = Tensor(np.array([[1.0, 3.0, 2.0, 3.0], [4.0, 6.0, 0.0, -1.0],
                     [2.0, 2.0, 5.0, 1.0]], np.float32))
mi = Tensor(np.array([[1, 3, 2, 3], [4, 6, 0, -1], [2, 2, 5, 1]], np.int32))


def show(name, f):
    try:
        r = f()
        lines = [f"{name} {t.dtype} {t.shape} "
                 f"{np.round(t.asnumpy().astype(np.float64), 4).tolist()}"
                 for t in (r if isinstance(r, tuple) else (r,))]
    except (TypeError, ValueError, RuntimeError) as e:
        print(name, "error", type(e).__name__)
        return
    print("\n".join(lines))


for n in ["lgamma", "digamma", "sinc", "i0", "bessel_i0", "bessel_i0e", "bessel_i1",
          "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e", "bessel_k1",
          "bessel_k1e", "bessel_y0", "bessel_y1"]:
    show(n, lambda: getattr(ops, n)(x))
    show(n + "_neg", lambda: getattr(ops, n)(-x))
show("lgamma_int", lambda: ops.lgamma(Tensor(np.array([1, 2, 5], np.int32))))
show("sinc_int", lambda: ops.sinc(Tensor(np.array([1, 2, 5], np.int32))))
show("polygamma", lambda: ops.polygamma(Tensor(2), x))
show("polygamma1", lambda: ops.polygamma(Tensor(1), x))
show("zeta", lambda: ops.zeta(a + 1.5, x))
show("igamma", lambda: ops.igamma(a, x))
show("igammac", lambda: ops.igammac(a, x))
show("mvlgamma", lambda: ops.mvlgamma(x + 2, 3))
show("Betainc", lambda: ops.Betainc()(a, a + 1, x / 8))
show("Mvlgamma", lambda: ops.Mvlgamma(2)(x + 1))
show("Polygamma", lambda: ops.Polygamma()(Tensor(3), x))
for n in ["BesselJ0", "BesselK1e", "BesselY1", "Digamma", "Lgamma", "Erfc", "Erfinv", "Sinc"]:
    show(n, lambda: getattr(ops, n)()(x / 8))
show("igamma_err", lambda: ops.igamma(a, 2.0))

show("cummax", lambda: ops.cummax(m, 1))
show("cummax_int", lambda: ops.cummax(mi, 0))
show("Cummax", lambda: ops.Cummax(0)(b))
show("Cummin", lambda: ops.Cummin(1)(b))
show("cumprod", lambda: ops.cumprod(b, 1))
show("cumprod_int", lambda: ops.cumprod(mi, 0))
show("CumProd", lambda: ops.CumProd(True, True)(mi, 1))
show("CumProd2", lambda: ops.CumProd(False, True)(b, 0))
show("logcumsumexp", lambda: ops.logcumsumexp(b, 1))
show("CumulativeLogsumexp", lambda: ops.CumulativeLogsumexp(False, True)(b, Tensor(1)))
show("CumulativeLogsumexp_ex", lambda: ops.CumulativeLogsumexp(True, False)(b, Tensor(0)))
show("median", lambda: ops.median(b))
show("median0", lambda: ops.median(b, 0, True))
show("median_nan", lambda: ops.median(m))
show("median_int", lambda: ops.median(mi, 1))
show("nanmedian", lambda: ops.nanmedian(m))
show("Median", lambda: ops.Median(False, 1, True)(b))
show("Median_global", lambda: ops.Median(True)(b))
show("nanmean", lambda: ops.nanmean(m, 1))
show("nanmean_all", lambda: ops.nanmean(m))
show("nanmean_int", lambda: ops.nanmean(mi))
show("nansum", lambda: ops.nansum(m, 0))
show("nansum_int", lambda: ops.nansum(mi, 1))
show("aminmax", lambda: ops.aminmax(b, axis=1))
show("aminmax_keep", lambda: ops.aminmax(mi, axis=0, keepdims=True))
show("count_nonzero", lambda: ops.count_nonzero(b, 1))
show("ReduceStd", lambda: ops.ReduceStd(axis=1)(b))
show("ReduceStd_all", lambda: ops.ReduceStd(unbiased=False, keep_dims=True)(b))
show("histc", lambda: ops.histc(b, 4, 0.0, 4.0))
show("histc_auto", lambda: ops.histc(b, 3))
show("histc_int", lambda: ops.histc(mi, 4, 0.0, 4.0))
show("Histogram", lambda: ops.Histogram(5, -1.0, 6.0)(b))
show("bincount", lambda: ops.bincount(Tensor(np.array([1, 3, 3, 0, 7], np.int32))))
show("bincount_w", lambda: ops.bincount(Tensor(np.array([1, 3, 3, 0], np.int32)),
                                        Tensor(np.array([.5, 1, 1, 2], np.float32)), 6))
show("Bincount", lambda: ops.Bincount()(Tensor(np.array([1, 3, 3, 0, 9], np.int32)),
                                        Tensor(np.int32(5)), Tensor(np.array([.5, 1, 1, 2, 3],
                                                                   np.float32))))
show("msort", lambda: ops.msort(b))
show("ptp", lambda: b.ptp(1))
show("argmax_with_value", lambda: b.argmax_with_value(1))
show("argmin_with_value", lambda: b.argmin_with_value(axis=0, keep_dims=True))
show("t_cummax", lambda: b.cummax(0))
show("t_nanmedian", lambda: m.nanmedian(0))

# gradients
x64 = Tensor(np.array([0.3, 1.2, 2.5], np.float64))
for n in ["lgamma", "digamma", "sinc", "bessel_j0", "bessel_j1", "bessel_i0", "bessel_i1",
          "bessel_i0e", "bessel_i1e", "bessel_k0", "bessel_k1", "bessel_k0e", "bessel_k1e",
          "bessel_y0", "bessel_y1"]:
    show("grad_" + n, lambda: ms.grad(lambda t: getattr(ops, n)(t).sum())(x64))
show("grad_polygamma", lambda: ms.grad(lambda t: ops.polygamma(Tensor(1), t).sum())(x64))
a64 = Tensor(np.array([1.3, 2.2, 3.5], np.float64))
show("grad_igamma", lambda: ms.grad(lambda t: ops.igamma(a64, t).sum())(x64))
show("grad_igamma_a", lambda: ms.grad(lambda t: ops.igamma(t, x64).sum())(a64))
show("grad_igammac_a", lambda: ms.grad(lambda t: ops.igammac(t, x64).sum())(a64))
show("grad_mvlgamma", lambda: ms.grad(lambda t: ops.mvlgamma(t, 2).sum())(x64 + 1))
b64 = Tensor(b.asnumpy().astype(np.float64))
show("grad_cumprod", lambda: ms.grad(lambda t: ops.cumprod(t, 1).sum())(b64 + 10))
show("grad_logcumsumexp", lambda: ms.grad(lambda t: ops.logcumsumexp(t, 1).sum())(b64))
show("grad_median", lambda: ms.grad(lambda t: ops.median(t, 1)[0].sum())(b64))
show("grad_nansum", lambda: ms.grad(lambda t: ops.nansum(t, 1).sum())(b64))
show("grad_nanmean", lambda: ms.grad(lambda t: ops.nanmean(t, 0).sum())(b64))
show("grad_ReduceStd", lambda: ms.grad(lambda t: ops.ReduceStd(axis=1)(t)[0].sum())(b64))
