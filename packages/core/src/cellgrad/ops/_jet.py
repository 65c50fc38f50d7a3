"""Taylor-mode higher-order forward derivatives: `ops.jet` and `ops.derivative`.

MindSpore rewrites the compiled graph with a Taylor rule per primitive (and refuses the
primitives that have none). cellgrad differentiates the path instead: the inputs move along
x(t) = x0 + s1 t + s2 t^2/2! + ... + sn t^n/n!, and the k-th derivative of fn(x(t)) at t = 0 is
taken by k nested forward-mode products (`jvp`) in the scalar t. That needs no per-op rule, so
every differentiable op works, at the cost of nesting (fine for the low orders jet is used for).
"""

from cellgrad._core._buffer import TensorBuffer as _Tensor
from cellgrad.common import dtype as mstype

__all__ = ["jet", "derivative"]

_JET_DTYPES = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)


def _check_item(primal, series, name):
    if not isinstance(primal, _Tensor) or not isinstance(series, _Tensor) or \
            primal.dtype not in _JET_DTYPES or primal.dtype != series.dtype:
        raise TypeError(f"For `F.{name}`, the elements' types of primals and series must be the "
                        f"same and belong to `mstype.int32, mstype.int64, mstype.float32, "
                        f"mstype.float64`, but got other dtype.")
    if primal.shape == series.shape[1:]:
        pass
    elif primal.shape == series.shape:
        series = series.expand_dims(0)
    else:
        raise ValueError("In series, the shape of each element must be the same as the primals.")
    if primal.dtype in (mstype.int32, mstype.int64):
        return primal.astype(mstype.float32), series.astype(mstype.float32)
    return primal, series


def _check_jet_inputs(primals, series):
    if isinstance(primals, _Tensor) and isinstance(series, _Tensor):
        return (primals,), (series,)
    if not (isinstance(primals, tuple) and isinstance(series, tuple)):
        raise TypeError("For 'F.jet', the 'primals' and `series` must be both Tensor or tuple.")
    if len(primals) != len(series):
        raise ValueError("The lengths of primals and series must be the same.")
    return primals, series


def _path(x0, coeffs, t):
    """x0 + c1 t + c2 t^2/2! + ... by Horner's rule (products only, exact at t = 0)."""
    acc = None
    for k in range(len(coeffs), 0, -1):
        term = coeffs[k - 1] if acc is None else coeffs[k - 1] + acc
        acc = term * t if k == 1 else term * (t / k)
    return x0 + acc


def _taylor(fn, primals, series):
    """(outputs of fn, [k-th derivatives of each output for k = 1..n]) along the path."""
    from cellgrad.func_transforms import jvp
    from cellgrad.ops import functional as F

    order = series[0].shape[0]
    if any(s.shape[0] != order for s in series):
        raise ValueError(f"For 'F.jet', every series must hold the same number of derivatives, "
                         f"but got {[s.shape[0] for s in series]}.")
    coeffs = [[s[k] for k in range(order)] for s in series]
    t0 = F.zeros((), primals[0].dtype)
    one = F.ones((), primals[0].dtype)
    n_out = []

    def along(t):
        out = fn(*(_path(x0, c, t) for x0, c in zip(primals, coeffs)))
        outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        n_out[:] = [len(outs), isinstance(out, (tuple, list))]
        return outs

    def up_to(k):  # t -> (g, g', ..., g^(k)) flattened, each g^(j) one entry per output
        if k == 0:
            return along

        def inner(t):
            out, tangent = jvp(up_to(k - 1), t, one)
            return tuple(out[:n_out[0]]) + tuple(tangent)

        return inner

    out, tangent = jvp(up_to(order - 1), t0, one)
    m, several = n_out
    primal_out = list(out[:m])
    series_out = [F.stack([tangent[k * m + j] for k in range(order)]) for j in range(m)]
    return primal_out, series_out, several and m > 1


def jet(fn, primals, series):
    """Mirrors `mindspore.ops.jet`: `(fn(*primals), out_series)`, where `series[k]` holds the
    (k+1)-th derivatives of the inputs and `out_series[k]` those of the output (a list of each
    for a function of several outputs)."""
    primals, series = _check_jet_inputs(primals, series)
    checked = [_check_item(p, s, "jet") for p, s in zip(primals, series)]
    outs, out_series, several = _taylor(fn, [p for p, _ in checked], [s for _, s in checked])
    return (outs, out_series) if several else (outs[0], out_series[0])


def derivative(fn, primals, order):
    """Mirrors `mindspore.ops.derivative`: `(fn(*primals), its order-th derivative)` along the
    direction whose first derivative is one in every input element (the others zero)."""
    from cellgrad.ops import functional as F

    if isinstance(order, bool) or not isinstance(order, int):
        raise TypeError("For `F.derivative`, the type of order must be int.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, but "
                         f"got {order}.")
    items = primals if isinstance(primals, tuple) else (primals,)
    for p in items:
        if not isinstance(p, _Tensor) or p.dtype not in _JET_DTYPES:
            raise TypeError("For `F.derivative`, the elements of primals must belong to "
                            "`mstype.int32, mstype.int64, mstype.float32, mstype.float64`, but "
                            "got other dtype.")
    items = [p.astype(mstype.float32) if p.dtype in (mstype.int32, mstype.int64) else p
             for p in items]
    series = [F.concat((F.ones((1,) + p.shape, p.dtype), F.zeros((order - 1,) + p.shape,
                                                                   p.dtype))) for p in items]
    outs, out_series, several = _taylor(fn, items, series)
    last = [s[-1] for s in out_series]
    return (outs, last) if several else (outs[0], last[0])
