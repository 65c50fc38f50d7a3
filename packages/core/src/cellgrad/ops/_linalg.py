"""Matrix products."""

from cellgrad import _blas_threads
from cellgrad._errors import ShapeError
from cellgrad.ops._registry import PROMOTE_ARITH, define


def _matmul_fwd(a, b):
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'matmul', inputs must be at least 1-D, got shapes {a.shape} and "
                         f"{b.shape}.")
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka != kb:
        raise ShapeError(
            f"For 'matmul', the contracted dimensions differ: input shape {a.shape} "
            f"(last dim {ka}) and other shape {b.shape} (dim {kb}); expected them equal.")
    try:
        return _blas_threads.matmul(a, b), (a, b)  # one BLAS thread below 4.2M MNK
    except ValueError:
        raise ShapeError(f"For 'matmul', batch dimensions of shapes {a.shape} and {b.shape} "
                         "cannot be broadcast.") from None


def _matmul_bwd(ctx, g):
    a, b = ctx.saved
    xp = ctx.xp
    na, nb = ctx.needs_input_grad
    if a.ndim == 1 and b.ndim == 1:
        return g * b, g * a
    if a.ndim == 1:
        ga = xp.squeeze(xp.matmul(xp.expand_dims(g, -2), xp.swapaxes(b, -1, -2)), -2)
        gb = xp.matmul(xp.expand_dims(a, -1), xp.expand_dims(g, -2))
    elif b.ndim == 1:
        ga = xp.matmul(xp.expand_dims(g, -1), xp.expand_dims(b, 0))
        gb = xp.squeeze(xp.matmul(xp.swapaxes(a, -1, -2), xp.expand_dims(g, -1)), -1)
    else:
        ga = xp.matmul(g, xp.swapaxes(b, -1, -2)) if na else None
        gb = xp.matmul(xp.swapaxes(a, -1, -2), g) if nb else None
    return ga, gb


MATMUL = define("matmul", _matmul_fwd, _matmul_bwd, PROMOTE_ARITH)
