"""MindSpore's norm and loss primitives without a functional twin in 2.10:
`SigmoidCrossEntropyWithLogits`, `L2Normalize`, `L2Loss`, `LpNorm` (and its op, `lp_norm`)."""

import numpy as np

from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._prim_attrs import of_type
from cellgrad_nn.functional.losses import BCE_LOGITS


def _same_dtype(op, a, b):
    if a.dtype != b.dtype:
        raise TypeError(f"For primitive[{op}], the input type must be same, got "
                        f"{_checks.describe(a)} and {_checks.describe(b)}.")


class SigmoidCrossEntropyWithLogits(Primitive):
    """Mirrors `mindspore.ops.SigmoidCrossEntropyWithLogits()(logits, label)`: the elementwise
    loss. As in MindSpore, `label` gets a zero gradient."""

    def __call__(self, logits, label):
        _checks.floating(self.name, "logits", logits)
        _checks.tensor(self.name, "label", label)
        _same_dtype(self.name, logits, label)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For {self.name}, 'label' shape must be consistent with 'logits' "
                             f"shape, but got 'label' shape: {tuple(label.shape)}, 'logits' "
                             f"shape: {tuple(logits.shape)}.")
        return apply(BCE_LOGITS, (logits, F.stop_gradient(label), None, None), {})


class L2Normalize(Primitive):
    """Mirrors `mindspore.ops.L2Normalize(axis=0, epsilon=1e-4)`: x / sqrt(max(sum(x**2),
    epsilon)) along one axis (an int or a 1-element tuple/list).

    Differs on purpose: where the sum is below `epsilon` the gradient is that of the clamped
    forward (x / sqrt(epsilon)); MindSpore's rule divides by the unclamped norm there.
    """

    @prim_attr_register
    def __init__(self, axis=0, epsilon=1e-4):
        axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        if len(axes) != 1:
            raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got "
                            f"{len(axes)}, later will support multiple axis!")
        if isinstance(axes[0], bool) or not isinstance(axes[0], int):
            raise TypeError(f"For 'L2Normalize', the 'axis' must be an int, got {axis!r}.")
        _checks.number(self.name, "epsilon", epsilon)
        self.add_prim_attr("axis", axes)

    def __call__(self, x):
        _checks.floating(self.name, "x", x)
        rank = max(x.ndim, 1)
        if not -rank <= self.axis[0] < rank:
            raise ValueError(f"For primitive[L2Normalize], the axis value must be in "
                             f"[{-rank},{rank}), but got {self.axis[0]}.")
        sq = F.sum(F.square(x), self.axis[0], keepdim=True)
        return x / F.sqrt(F.maximum(sq, self.epsilon))


class L2Loss(Primitive):
    """Mirrors `mindspore.ops.L2Loss()(input)`: sum(input ** 2) / 2, a 0-d tensor of the
    input's dtype."""

    def __call__(self, input):
        _checks.floating(f"primitive[{self.name}]", "x", input)
        return F.sum(F.square(input)) / 2


def _lp_fwd(x, *, axis, p, keep_dims, epsilon):
    a = np.abs(x)
    if p == 0:
        out = np.count_nonzero(x, axis=axis, keepdims=True).astype(x.dtype)
    elif p == 1:
        out = a.sum(axis=axis, keepdims=True)
    elif p == 2:
        out = np.sqrt(np.square(x).sum(axis=axis, keepdims=True))
    else:
        out = np.power(np.power(a, p).sum(axis=axis, keepdims=True), 1.0 / p)
    out = out.astype(x.dtype, copy=False)
    return (out if keep_dims else np.squeeze(out, axis)), (x, out, axis, p, keep_dims, epsilon)


def _lp_bwd(ctx, g):
    x, out, axis, p, keep_dims, eps = ctx.saved
    if not keep_dims:
        g = np.expand_dims(g, axis)
    if p == 0:
        return np.zeros_like(x)
    if p == 1:
        return g * np.sign(x)
    # d/dx (sum |x|^p)^(1/p) = sign(x) |x|^(p-1) / norm^(p-1), the norm kept above epsilon.
    norm = np.maximum(out, eps)
    if p == 2:
        return g * x / norm
    return g * np.sign(x) * np.abs(x) ** (p - 1) / norm ** (p - 1)


LP_NORM = Op("lp_norm", _lp_fwd, _lp_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (LP_NORM,)


class LpNorm(Primitive):
    """Mirrors `mindspore.ops.LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)`:
    (sum |x|**p) ** (1/p) over `axis`; p=0 counts the nonzero elements. The gradient divides
    by the norm kept at least `epsilon` (zero for an all-zero slice)."""

    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        super().__init__(type(self).__name__)
        axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        for a in axes:
            if isinstance(a, bool) or not isinstance(a, int):
                raise TypeError(f"For 'LpNorm', the 'axis' must be an int or a tuple/list of "
                                f"ints, got {axis!r}.")
        if of_type("LpNorm", "p", p, int) < 0:
            raise ValueError(f"For 'LpNorm', the 'p' must be an int >= 0, got {p!r}.")
        of_type("LpNorm", "epsilon", epsilon, float)
        if isinstance(axis, int):  # MindSpore records an int axis only, as a list
            self.add_prim_attr("axis", axes)
        else:
            self.axis = axis
        self.p, self.keep_dims, self.epsilon = p, bool(keep_dims), float(epsilon)
        self.init_attrs.update(axis=axis, p=p, keep_dims=keep_dims, epsilon=epsilon)

    def __call__(self, input):
        _checks.floating(self.name, "input", input)
        axis = tuple(_checks.axis(self.name, a, input.ndim) for a in self.axis)
        if len(set(axis)) != len(axis):
            raise ValueError(f"For 'LpNorm', the 'axis' must not repeat an axis, got "
                             f"{self.axis}.")
        return apply(LP_NORM, (input,), {"axis": axis, "p": self.p, "keep_dims": self.keep_dims,
                                         "epsilon": self.epsilon})
