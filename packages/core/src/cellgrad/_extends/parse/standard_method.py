"""Mirrors `mindspore._extends.parse.standard_method`: the functions MindSpore's graph compiler
resolves a Tensor method call to, `standard_method.name(x, *args)` for `x.name(*args)`. On
cellgrad each is the Tensor method itself, called through MindSpore's signature for the
function (its argument names and defaults, which can differ from the method's), so code that
imports them runs eagerly with MindSpore's results."""

import ast
import builtins
import inspect

from cellgrad import dtype as mstype
from cellgrad.ops import functional as F

# name -> MindSpore 2.10's parameter list of `standard_method.name` (first one: the tensor)
_SIGNATURES = {
    "acos": "x",
    "acosh": "input",
    "add": "input, other",
    "addbmm": "x, batch1, batch2, *, beta=1, alpha=1",
    "addcdiv": "input, tensor1, tensor2, value=1",
    "addcmul": "input, tensor1, tensor2, value=1",
    "addmm": "x, mat1, mat2, *, beta=1, alpha=1",
    "addmm_": "self, mat1, mat2, *, beta=1, alpha=1",
    "addr": "x, vec1, vec2, beta=1, alpha=1",
    "adjoint": "x",
    "amax": "input, axis=None, keep_dims=False",
    "amin": "input, axis=None, keep_dims=False",
    "aminmax": "input, *, axis=0, keepdims=False",
    "angle": "x",
    "argmax": "x, axis=None, keepdims=False",
    "argmax_with_value": "x, axis=0, keep_dims=False",
    "argmin": "x, axis=None, keepdims=False",
    "argmin_with_value": "x, axis=0, keep_dims=False",
    "argsort": "input, axis=-1, descending=False",
    "argwhere": "input",
    "asin": "x",
    "asinh": "x",
    "astype": "x, dtype, copy=True",
    "atan": "input",
    "atan2": "input, other",
    "atanh": "x",
    "baddbmm": "x, batch1, batch2, *, beta=1, alpha=1",
    "bernoulli": "input, *, generator=None",
    "bernoulli_": "input, p=0.5, *, generator=None",
    "bincount": "x, weights=None, minlength=0",
    "bitwise_and": "x, y",
    "bitwise_left_shift": "x, y",
    "bitwise_or": "x, y",
    "bitwise_right_shift": "x, y",
    "bitwise_xor": "x, y",
    "bmm": "input_x, mat2",
    "broadcast_to": "x, shape",
    "cauchy": "x, median=0.0, sigma=1.0",
    "ceil": "x",
    "cholesky": "input_x, upper=False",
    "cholesky_inverse": "input_x, upper=False",
    "cholesky_solve": "input, input2, upper=False",
    "choose": "x, choices, mode='clip'",
    "chunk": "x, chunks, axis=0",
    "clamp": "x, min=None, max=None",
    "clamp_": "x, min=None, max=None",
    "clip": "x, min=None, max=None",
    "col2im": "*inputs",
    "conj": "input",
    "copy": "x",
    "copy_": "self, src, non_blocking=False",
    "copysign": "x, other",
    "cos": "x",
    "cosh": "x",
    "count_nonzero": "x, axis=(), keep_dims=False, dtype=int32",
    "cov": "x, *, correction=1, fweights=None, aweights=None",
    "cross": "input, other, dim=None",
    "cummax": "x, axis",
    "cummin": "x, axis",
    "cumprod": "input, dim, dtype=None",
    "cumsum": "x, axis=None, dtype=None",
    "deg2rad": "x",
    "det": "input",
    "diag": "x",
    "diagflat": "input, offset=0",
    "diagonal": "x, offset=0, axis1=0, axis2=1",
    "diagonal_scatter": "input, src, offset, dim1=0, dim2=1",
    "diff": "x, n=1, axis=-1, prepend=None, append=None",
    "digamma": "input",
    "div": "input, value, *, rounding_mode=None",
    "dot": "input, other",
    "dsplit": "input, indices_or_sections",
    "eigvals": "x",
    "eq": "input, other",
    "equal": "x, y",
    "erf": "x",
    "erfc": "x",
    "erfinv": "input",
    "erfinv_": "input",
    "exp": "x",
    "expand": "input, size",
    "expand_dims": "x, axis",
    "expm1": "input_x",
    "exponential_": "input, lambd=1, *, generator=None",
    "fill": "x, value",
    "fill_diagonal": "x, fill_value, wrap=False",
    "fills": "x, value",
    "flatten": "x, order='C', *, start_dim=0, end_dim=-1",
    "flip": "x, dims",
    "fliplr": "x",
    "flipud": "x",
    "float_power": "x, exponent",
    "floor": "x",
    "floor_divide": "input, other",
    "fmax": "input, other",
    "fmin": "input, other",
    "fmod": "x, other",
    "fold": "input, output_size, kernel_size, dilation=1, padding=0, stride=1",
    "frac": "x",
    "gather": "input_x, input_indices, axis, batch_dims=0",
    "gather_elements": "input, dim, index",
    "gather_nd": "input_x, indices",
    "ge": "x, y",
    "geqrf": "x",
    "ger": "input, vec2",
    "greater": "input, other",
    "greater_equal": "input, other",
    "gt": "x, y",
    "hardshrink": "x, lambd=0.5",
    "heaviside": "x, values",
    "histc": "x, bins=100, min=0.0, max=0.0",
    "hsplit": "input, indices_or_sections",
    "hypot": "x, other",
    "i0": "x",
    "igamma": "input, other",
    "igammac": "input, other",
    "imag": "input",
    "index_add": "input, dim, index, source, *, alpha=1",
    "index_add_": "x, dim, index, source, *, alpha=1",
    "index_fill": "x, axis, index, value",
    "index_put": "input, indices, values, accumulate=False",
    "index_put_": "input, indices, values, accumulate=False",
    "index_select": "x, axis, index",
    "inner": "x, other",
    "inplace_update": "x, v, indices",
    "inv": "x",
    "inverse": "input",
    "invert": "x",
    "is_complex": "x",
    "is_floating_point": "x",
    "is_signed": "x",
    "isclose": "x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False",
    "isfinite": "x",
    "isinf": "input",
    "isnan": "input",
    "isneginf": "input",
    "isposinf": "input",
    "isreal": "input",
    "item": "data",
    "itemset": "data, *args",
    "lcm": "x, other",
    "ldexp": "x, other",
    "le": "input, other",
    "lerp": "start, end, weight",
    "less": "input, other",
    "less_equal": "input, other",
    "lgamma": "input",
    "log": "x",
    "log10": "input",
    "log1p": "x",
    "log2": "input",
    "log_matrix_determinant": "input",
    "log_normal": "x, mean=1.0, std=2.0",
    "logaddexp": "input, other",
    "logaddexp2": "input, other",
    "logcumsumexp": "input, axis",
    "logdet": "x",
    "logical_and": "input, other",
    "logical_not": "input",
    "logical_or": "input, other",
    "logical_xor": "input, other",
    "logit": "x, eps=None",
    "logsumexp": "input, dim, keepdim=False",
    "lstsq": "input, A",
    "lu_solve": "b, LU_data, LU_pivots",
    "masked_fill": "x, mask, value",
    "masked_scatter": "input, mask, tensor",
    "masked_select": "input, mask",
    "matmul": "x, y",
    "matrix_determinant": "input",
    "matrix_power": "input, n",
    "max": "input, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False",
    "maximum": "input, other",
    "mean": "x, axis=None, keep_dims=False",
    "median": "input, axis=-1, keepdims=False",
    "min": "input, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False",
    "minimum": "x, y",
    "mm": "mat1, mat2",
    "move_to": "input, to, blocking=True",
    "moveaxis": "input, source, destination",
    "movedim": "input, source, destination",
    "msort": "x",
    "mul": "input, other",
    "multinomial": "input, num_samples, replacement=True, seed=None",
    "multiply": "input, other",
    "mvlgamma": "input, p",
    "nan_to_num": "x, nan=0.0, posinf=None, neginf=None",
    "nanmean": "input, axis=None, keepdims=False, *, dtype=None",
    "nanmedian": "input, axis=-1, keepdims=False",
    "nanquantile": "input, q, axis=None, keepdims=False",
    "nansum": "input, axis=None, keepdims=False, *, dtype=None",
    "narrow": "input, axis, start, length",
    "ndimension": "x",
    "ne": "input, other",
    "neg": "input",
    "negative": "input",
    "new_ones": "x, size, *, dtype=None",
    "new_zeros": "x, size, *, dtype=None",
    "nextafter": "input, other",
    "nonzero": "input, *, as_tuple=False",
    "norm": "A, ord=None, dim=None, keepdim=False, *, dtype=None",
    "normal_": "input, mean=0, std=1, *, generator=None",
    "not_equal": "x, other",
    "numel": "input",
    "orgqr": "input, input2",
    "ormqr": "input, input2, input3, left=True, transpose=False",
    "outer": "input, vec2",
    "permute": "input, *axis",
    "positive": "input",
    "pow": "x, y",
    "ptp": "x, axis=None, keepdims=False",
    "put_": "x, index, source, accumulate=False",
    "qr": "input, some=True",
    "quantile": "input, q, axis=None, keepdims=False",
    "rad2deg": "x",
    "random_categorical": "x, num_sample, seed=0, dtype=int64",
    "ravel": "x",
    "real": "x",
    "reciprocal": "x",
    "register_hook": "x, func",
    "remainder": "input, divisor",
    "renorm": "input_x, p, dim, maxnorm",
    "repeat": "x, *args, repeats=None",
    "repeat_interleave": "x, repeats, dim=None",
    "reshape": "x, *shape",
    "reshape_as": "x, other",
    "resize": "x, *new_shape",
    "reverse": "x, axis",
    "reverse_sequence": "x, seq_lengths, seq_dim, batch_dim=0",
    "roll": "x, shifts, dims=None",
    "rot90": "x, k, dims",
    "rsqrt": "x",
    "scatter": "self, axis, index, src",
    "searchsorted": "x, v, side='left', sorter=None",
    "select": "x, condition, y",
    "select_scatter": "input, src, axis, index",
    "sgn": "x",
    "short": "x",
    "sigmoid": "input",
    "sign": "x",
    "sign_": "input",
    "signbit": "x",
    "sin": "x",
    "sinc": "x",
    "sinh": "input",
    "slice_scatter": "input, src, axis=0, start=None, end=None, step=1",
    "slogdet": "x",
    "soft_shrink": "input, lambd=0.5",
    "softmax": "input, axis, dtype=None",
    "sort": "input, axis=-1, descending=False",
    "split": "tensor, split_size_or_sections, axis=0",
    "sqrt": "x",
    "square": "x",
    "squeeze": "x, axis=None",
    "std": "x, axis=None, ddof=0, keepdims=False",
    "sub": "x, y",
    "subtract": "x, other, *, alpha=1",
    "sum": "input, axis=None, dtype=None, keepdims=False, initial=None",
    "sum_to_size": "input, *size",
    "swapaxes": "input, axis0, axis1",
    "swapdims": "x, dim0, dim1",
    "t": "input",
    "take": "x, indices, axis=None, mode='clip'",
    "tan": "x",
    "tanh": "x",
    "tanh_": "x",
    "tensor_split": "input, indices_or_sections, axis=0",
    "tile": "x, reps",
    "to": "input_x, dtype",
    "to_": "input_x, device=None, non_blocking=False",
    "to_coo": "x",
    "to_csr": "x",
    "tolist": "x",
    "top_k": "input_x, k, sorted=True",
    "topk": "input_x, k, dim=None, largest=True, sorted=True",
    "trace": "x, offset=0, axis1=0, axis2=1, dtype=None",
    "transpose": "x, *axis",
    "tril": "x, diagonal=0",
    "triu": "input, diagonal=0",
    "true_divide": "divident, divisor",
    "trunc": "input",
    "type_as": "input, other",
    "unbind": "input, dim=0",
    "unfold": "input, kernel_size, dilation=1, padding=0, stride=1",
    "uniform": "input, from_=0.0, to=1.0, generator=None",
    "uniform_": "input, from_=0, to=1, *, generator=None",
    "unique_consecutive": "input, return_inverse=False, return_counts=False, dim=None",
    "unique_with_pad": "x, pad_num",
    "unsorted_segment_max": "x, segment_ids, num_segments",
    "unsorted_segment_min": "x, segment_ids, num_segments",
    "unsorted_segment_prod": "x, segment_ids, num_segments",
    "unsqueeze": "input, dim",
    "var": "x, axis=None, ddof=0, keepdims=False",
    "view": "x, *shape",
    "view_as": "input, other",
    "vsplit": "input, indices_or_sections",
    "where": "x, condition, y",
    "xdivy": "x, y",
    "xlogy": "x, y",
    "zero_": "input",}


def _default(node):
    if isinstance(node, ast.Attribute):  # dtype defaults, e.g. `dtype=int32`
        return getattr(mstype, node.attr)
    if isinstance(node, ast.Name):
        return getattr(mstype, node.id)
    return ast.literal_eval(node)


def _signature(params):
    args = ast.parse(f"def f({params}): pass").body[0].args
    kinds = inspect.Parameter
    out = []
    pos_defaults = [inspect.Parameter.empty] * (len(args.args) - len(args.defaults))
    pos_defaults += [_default(d) for d in args.defaults]
    out += [kinds(a.arg, kinds.POSITIONAL_OR_KEYWORD, default=d)
            for a, d in zip(args.args, pos_defaults)]
    if args.vararg is not None:
        out.append(kinds(args.vararg.arg, kinds.VAR_POSITIONAL))
    out += [kinds(a.arg, kinds.KEYWORD_ONLY,
                  default=inspect.Parameter.empty if d is None else _default(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg is not None:
        out.append(kinds(args.kwarg.arg, kinds.VAR_KEYWORD))
    return inspect.Signature(out)


def _method_call(name, params):
    sig = _signature(params)
    ps = list(sig.parameters.values())
    varargs = any(p.kind is p.VAR_POSITIONAL for p in ps)
    positional = [p.name for p in ps if p.kind is p.POSITIONAL_OR_KEYWORD]

    def call(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        if varargs:
            return getattr(args[0], name)(*args[1:], **kwargs)
        # MindSpore's defaults fill the gaps before the last positional argument given;
        # what comes after is left to the method's own defaults.
        kw = {n: v for n, v in bound.arguments.items() if n not in positional}
        last = builtins.max(i for i, n in enumerate(positional) if n in bound.arguments)
        bound.apply_defaults()
        pos = [bound.arguments[n] for n in positional[:last + 1]]
        return getattr(pos[0], name)(*pos[1:], **kw)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = sig
    call.__doc__ = f"Mirrors `mindspore._extends.parse.standard_method.{name}`: `x.{name}(...)`."
    return call


# Last but for the few functions below: names such as `max`, `sum`, `bool` hide the builtins here.
globals().update({name: _method_call(name, params) for name, params in _SIGNATURES.items()})


def tensor_bool(x):
    """Mirrors `standard_method.tensor_bool`: a Tensor of shape () or (1,) as a Python bool."""
    if x is None:
        raise ValueError(
            "Only tensor which shape is () or (1,) can be converted to bool, but got None")
    if x.shape not in ((), (1,)):
        shape = ", ".join(str(d) for d in x.shape)
        raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but "
                         f"got tensor shape is ({shape})")
    return builtins.bool(x.asnumpy().reshape(()))


def _to(dtype, what):
    def to(input_x):
        return F.cast(input_x, dtype)

    to.__name__ = to.__qualname__ = f"to_{what}"
    to.__doc__ = f"Mirrors `standard_method.to_{what}`: `input_x` cast to {dtype}."
    return to


to_float, to_half, to_int, to_long, to_double, to_bool, to_byte, to_bfloat16 = (
    _to(dt, what) for dt, what in (
        (mstype.float32, "float"), (mstype.float16, "half"), (mstype.int32, "int"),
        (mstype.int64, "long"), (mstype.float64, "double"), (mstype.bool_, "bool"),
        (mstype.uint8, "byte"), (mstype.bfloat16, "bfloat16")))


def ms_len(input_data):
    """Mirrors `standard_method.ms_len`, the compiler's `len`: `input_data.__len__()`."""
    return input_data.__len__()
