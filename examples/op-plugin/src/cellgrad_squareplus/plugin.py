"""The plugin module that the entry point names: one op with its own backward rule.

squareplus(x, b) = (x + sqrt(x*x + b)) / 2 is a smooth ReLU (Barron, 2021, arXiv:2112.11687):
it tends to ReLU as b -> 0 and is cheap (no exp).
"""

import numpy as np

from cellgrad.ops import Primitive, prim_attr_register
from cellgrad.plugins import hookimpl


def squareplus_forward(x, *, b=4.0):
    """Squareplus, a smooth ReLU: `(x + sqrt(x * x + b)) / 2` elementwise, `b > 0`.

    Args:
        x: a floating Tensor (integer and bool inputs are computed in float32).
        b: the curvature near 0; smaller is closer to ReLU.
    """
    if not b > 0:
        raise ValueError(f"For 'squareplus', 'b' must be positive, got {b!r}.")
    s = np.sqrt(x * x + b)
    # For x < 0, x + s loses every digit to cancellation; (x + s)(s - x) = b gives it exactly.
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x >= 0, (x + s) * 0.5, b / (2 * (s - x)))
    out = out.astype(x.dtype, copy=False)
    return out, (x, out)  # saving the input and output keeps grad-of-grad exact


def squareplus_backward(ctx, grad):
    """d/dx = (1 + x / s) / 2 = out / s with s = sqrt(x*x + b) = 2 * out - x.

    Only operators on `ctx.saved`, so the same rule runs on numpy arrays (first order) and on
    Tensors, recorded, when a higher-order gradient is asked for.
    """
    x, out = ctx.saved
    return grad * out / (2 * out - x)


class Squareplus(Primitive):
    """The primitive-class form, MindSpore style: `ops.Squareplus(b=4.0)(x)`."""

    @prim_attr_register  # records `b` as an attribute: Prim[Squareplus]<b=4.0>
    def __init__(self, b=4.0):
        pass

    def __call__(self, x):
        import cellgrad.ops

        return cellgrad.ops.squareplus(x, b=self.b)


@hookimpl
def cellgrad_register_ops(register):
    register("squareplus", squareplus_forward, squareplus_backward, promote="float")


@hookimpl
def cellgrad_export_names(export):
    export("ops.Squareplus", Squareplus)
