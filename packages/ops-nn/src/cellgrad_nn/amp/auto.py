"""amp level 'auto': MindSpore 2.10's per-operator dtype policy of the PyNative executor.

While a network (or function) made 'auto' runs, each operator's float inputs are cast before it
runs: an operator of the auto white list (convolutions, MatMul, Dense, ...) takes the low dtype,
one of the black list (Exp, Log, Softmax, norms, losses, Sum, ...) float32, one of the promote
list (BiasAdd, Concat, ...) the widest float dtype among its inputs; any other runs on the dtypes
it gets. A cell with a precision set by `to_float` runs its operators in that precision instead,
as MindSpore's does. MindSpore's convolution and Dense cells add their bias with BiasAdd after
the white-listed product, so with a float32 bias their output is float32; `ops.dense` is one
white-listed primitive (bias included), its output low.

Operators are matched by the name of cellgrad's op, one per MindSpore primitive except where
cellgrad shares or composes one, which differs from MindSpore: `ops.ReduceSum` and `ops.sum`
share cellgrad's `sum` (float32 here, ReduceSum keeps float16 in MindSpore); `ops.cross_entropy`
and `nn.SoftmaxCrossEntropyWithLogits` share `cross_entropy` (low here; MindSpore's
cross_entropy is float32 through LogSoftmax); `ops.prelu` is composed (float32 here).
"""

import functools
import threading
import types

from cellgrad._core._buffer import TensorBuffer

from cellgrad import observe
from cellgrad._core import _buffer
from cellgrad.dtype import float32, promote_types
from cellgrad.ops import functional as F

# MindSpore 2.10's lists (`mindspore.train.amp.AMP_AUTO_WHITE_LIST` ..., by primitive name)
AUTO_WHITE_LIST = (
    "Conv2D", "Conv3D", "Conv2DExt", "Conv3DExt", "ConvTranspose2D", "Conv2DTranspose",
    "Conv3DTranspose", "Convolution", "MatMul", "MatMulExt", "BatchMatMul", "BatchMatMulExt",
    "PReLU", "Einsum", "Dense", "Addmm", "Addbmm", "Addmv", "Baddbmm", "Mv")
AUTO_BLACK_LIST = (
    "Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10", "Log1p", "Log2",
    "Reciprocal", "Rsqrt", "Sinh", "Tan", "Softplus", "SoftplusExt", "LayerNorm", "LayerNormExt",
    "BatchNorm", "BatchNormExt", "GroupNorm", "Norm", "KLDivLoss", "SmoothL1Loss",
    "MultilabelMarginLoss", "SoftMarginLoss", "TripletMarginLoss", "MultiMarginLoss",
    "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd", "Softmax", "LogSoftmax",
    "LogSoftmaxExt", "CumProd", "CumSum", "CumsumExt", "ProdExt", "SumExt", "L1LossExt",
    "MSELossExt", "NLLLoss", "NLLLoss2d")
PROMOTE_LIST = ("Addcdiv", "Addcmul", "Cross", "_PyboostCrossPrim", "Dot", "GridSampler2D",
                "GridSampler3D", "BiasAdd", "AddN", "Concat")

# cellgrad's ops for those primitives: white ops cast their first two inputs (data, weight);
# a third (a bias) is added by the promote rule, as MindSpore's BiasAdd after the product
_WHITE, _BLACK, _PROMOTE = 1, 2, 3
_KIND = {
    **dict.fromkeys(("conv2d", "conv3d", "conv_transpose2d", "conv_transpose3d", "matmul",
                     "dense"), _WHITE),
    **dict.fromkeys(("pow", "acos", "asin", "cosh", "mint_erfinv", "exp", "expm1", "log",
                     "log10", "log1p", "log2", "reciprocal", "rsqrt", "sinh", "mnp_tan",
                     "softplus", "layer_norm", "nn_normalize", "lp_norm", "kl_div",
                     "smooth_l1_loss", "binary_cross_entropy_with_logits", "prod", "softmax",
                     "log_softmax", "mnp_cumprod", "cumsum", "sum", "nll_loss"), _BLACK),
    **dict.fromkeys(("bias_add", "concat", "addn", "grid_sample"), _PROMOTE),
}

ACTIVE = False  # some thread runs an 'auto' network (a cheap first check for callers)
_local = threading.local()
_lock = threading.Lock()
_users = 0  # threads inside an 'auto' call: the dispatch policy is installed while any is
_handle = None


def _state():
    s = getattr(_local, "s", None)
    if s is None:
        s = _local.s = {"dtypes": [], "mixed": []}
    return s


def _low():
    """This thread's low dtype, or None outside an 'auto' call or inside a `to_float` cell."""
    s = _state()
    if not s["dtypes"] or any(s["mixed"]):
        return None
    return s["dtypes"][-1]


def _is_float(v):
    return isinstance(v, TensorBuffer) and v.dtype.kind == 2


def _cast(v, dtype):
    if _is_float(v):
        return v if v.dtype is dtype else F.cast(v, dtype)
    if isinstance(v, (tuple, list)):
        return type(v)(_cast(e, dtype) for e in v)
    return v


def _widest(values, found=None):
    for v in values:
        if _is_float(v):
            found = v.dtype if found is None else promote_types(found, v.dtype)
        elif isinstance(v, (tuple, list)):
            found = _widest(v, found)
    return found


def _policy(op, inputs):
    kind = _KIND.get(op.name)
    if kind is None:
        return inputs
    low = _low()
    if low is None:
        return inputs
    if kind == _WHITE:
        return tuple(_cast(v, low) for v in inputs[:2]) + inputs[2:]
    if kind == _BLACK:
        return tuple(_cast(v, float32) for v in inputs)
    widest = _widest(inputs)
    return inputs if widest is None else tuple(_cast(v, widest) for v in inputs)


def white_pair(x, w):
    """`x` and `w` in the low dtype (for the dtype checks a white-listed op makes first)."""
    low = _low()
    return (x, w) if low is None else (_cast(x, low), _cast(w, low))


def white(*args):
    """Every float Tensor of `args` in the low dtype (`ops.dense`: one white primitive)."""
    low = _low()
    return args if low is None else tuple(_cast(v, low) for v in args)


class _Cells(observe.Observer):
    """Tracks the `to_float` cells each thread is inside (the policy pauses there)."""

    def cell_begin(self, cell, args, kwargs):
        _state()["mixed"].append(cell._mixed is not None)

    def cell_end(self, cell, result):
        self._leave()

    def cell_abort(self, cell):
        self._leave()

    def _leave(self):
        mixed = _state()["mixed"]
        if mixed:
            mixed.pop()


def _enter(dtype):
    global ACTIVE, _users, _handle
    s = _state()
    s["dtypes"].append(dtype)
    if len(s["dtypes"]) > 1:
        return
    s["mixed"] = []
    with _lock:
        _users += 1
        if _users == 1:
            _buffer.set_amp_policy(_policy)
            _handle = observe.add_observer(_Cells())
            ACTIVE = True


def _exit():
    global ACTIVE, _users, _handle
    s = _state()
    s["dtypes"].pop()
    if s["dtypes"]:
        return
    with _lock:
        _users -= 1
        if _users == 0:
            _handle.remove()
            _handle = None
            _buffer.set_amp_policy(None)
            ACTIVE = False


class AmpLevel:
    """The level an `AmpStrategy` reports (`AmpLevel.AmpAuto` for 'auto')."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"AmpLevel.{self.name}"


AmpLevel.AmpAuto = AmpLevel("AmpAuto")


class AmpStrategy:
    """The `amp_strategy` attribute MindSpore sets on an 'auto' network or function."""

    def __init__(self, dtype):
        self._dtype = dtype

    def get_amp_level(self):
        return AmpLevel.AmpAuto

    def get_amp_dtype(self):
        return self._dtype

    def get_white_list(self):
        return [(name, []) for name in AUTO_WHITE_LIST]

    def get_black_list(self):
        return [(name, []) for name in AUTO_BLACK_LIST]


def _decorate(fn, dtype):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _enter(dtype)
        try:
            return fn(*args, **kwargs)
        finally:
            _exit()
    return wrapper


def make_auto(network, dtype):
    """MindSpore's 'auto': `network.amp_strategy`, and its construct (or the function itself)
    run under the policy; a Cell is changed in place (its construct bound as MindSpore binds
    it, so a deep copy runs its own), a function wrapped."""
    from cellgrad import nn

    network.amp_strategy = AmpStrategy(dtype)
    if isinstance(network, nn.Cell):
        construct = network.construct
        func = getattr(construct, "__func__", None)
        if func is None:  # a construct set on the instance: a plain function of the inputs
            network.__dict__["construct"] = _decorate(construct, dtype)
        else:
            network.__dict__["construct"] = types.MethodType(_decorate(func, dtype), network)
        return network
    return _decorate(network, dtype)
