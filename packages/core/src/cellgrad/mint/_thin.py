"""The mint functions that are an existing cellgrad function under torch-style argument names.

`THIN` maps a mint name to (target, mint's parameters, renames): the target is
`cellgrad.ops.<name>` ("ops.x") or `cellgrad.numpy.<name>` ("np.x"), the parameters are
written as in a `def`, and renames maps a mint argument to the target's (None: dropped).
"""

import inspect

from cellgrad import numpy as _mnp
from cellgrad import ops as _ops
from cellgrad.common import dtype as _mstype

_X = {"input": "x"}
_AXIS = {"dim": "axis"}
_AXIS_KEEP = {"dim": "axis", "keepdim": "keep_dims"}
_AXIS_KEEPS = {"dim": "axis", "keepdim": "keepdims"}
_NP2 = {"input": "x1", "other": "x2"}

THIN = {
    # elementwise, one tensor
    **{name: (f"ops.{name}", "input", {}) for name in (
        "abs acos arccos asin atan arctan ceil cos cosh exp exp2 expm1 floor log log10 log1p "
        "log2 logical_not neg negative reciprocal rsqrt sigmoid sign sin sinh square tanh "
        "isfinite isinf trunc inverse").split()},
    "fix": ("ops.trunc", "input", {}),
    "arcsin": ("ops.arcsin", "x", {}),
    "sqrt": ("ops.sqrt", "input", _X),
    "isnan": ("ops.isnan", "tensor", {"tensor": "input"}),
    **{name: (f"np.{target}", "input", _X) for name, target in (
        ("acosh", "arccosh"), ("arccosh", "arccosh"), ("asinh", "arcsinh"),
        ("arcsinh", "arcsinh"), ("atanh", "arctanh"), ("arctanh", "arctanh"), ("tan", "tan"),
        ("bitwise_not", "bitwise_not"), ("isneginf", "isneginf"), ("ravel", "ravel"))},
    # elementwise, two tensors
    **{name: (f"ops.{name}", "input, other", {}) for name in (
        "arctan2 atan2 bitwise_and bitwise_or bitwise_xor greater gt le less_equal logical_and "
        "logical_or logical_xor maximum minimum ne not_equal matmul equal ge eq lt less "
        "greater_equal floor_divide remainder mul").split()},
    **{name: (f"np.{name}", "input, other", _NP2) for name in
       "logaddexp logaddexp2 gcd fmod".split()},
    "pow": ("ops.pow", "input, exponent", {}),
    "divide": ("ops.div", "input, other, *, rounding_mode=None", {}),
    "div": ("ops.div", "input, other, *, rounding_mode=None", {}),
    "mm": ("ops.mm", "input, mat2", {}),
    "bmm": ("ops.bmm", "input, mat2", {"input": "input_x"}),
    "outer": ("ops.outer", "input, vec2", {}),
    "take": ("ops.take", "input, index", {}),
    "isclose": ("ops.isclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False", {}),
    "clamp": ("ops.clamp", "input, min=None, max=None", {}),
    "clip": ("ops.clamp", "input, min=None, max=None", {}),
    "masked_select": ("ops.masked_select", "input, mask", {}),
    # shapes
    "broadcast_to": ("ops.broadcast_to", "input, shape", {}),
    "reshape": ("ops.reshape", "input, shape", {}),
    "tile": ("ops.tile", "input, dims", {}),
    "flip": ("ops.flip", "input, dims", {}),
    "roll": ("ops.roll", "input, shifts, dims=None", {}),
    "swapaxes": ("ops.swapaxes", "input, axis0, axis1", {}),
    "transpose": ("ops.swapaxes", "input, dim0, dim1", {"dim0": "axis0", "dim1": "axis1"}),
    "permute": ("ops.permute", "input, dims", {"dims": "axis"}),
    "squeeze": ("ops.squeeze", "input, dim", _AXIS),
    "unsqueeze": ("ops.unsqueeze", "input, dim", {}),
    "tril": ("ops.tril", "input, diagonal=0", {}),
    "triu": ("ops.triu", "input, diagonal=0", {}),
    "unbind": ("ops.unbind", "input, dim=0", {}),
    "flatten": ("ops.flatten", "input, start_dim=0, end_dim=-1", {}),
    "cat": ("ops.cat", "tensors, dim=0", _AXIS),
    "concat": ("ops.cat", "tensors, dim=0", _AXIS),
    "stack": ("ops.stack", "tensors, dim=0", _AXIS),
    "hstack": ("np.hstack", "tensors", {"tensors": "tup"}),
    "dstack": ("np.dstack", "tensors", {"tensors": "tup"}),
    "chunk": ("ops.chunk", "input, chunks, dim=0", _AXIS),
    "split": ("ops.split", "tensor, split_size_or_sections, dim=0", _AXIS),
    "index_select": ("ops.index_select", "input, dim, index", _AXIS),
    "gather": ("ops.gather_elements", "input, dim, index", {}),
    "scatter": ("ops.scatter", "input, dim, index, src", _AXIS),
    "repeat_interleave": ("ops.repeat_interleave", "input, repeats, dim=None, *, output_size=None",
                          {"dim": "axis", "output_size": None}),
    "diag": ("np.diag", "input, diagonal=0", {"input": "v", "diagonal": "k"}),
    "trace": ("np.trace", "input", {"input": "a"}),
    "diff": ("np.diff", "input, n=1, dim=-1, prepend=None, append=None",
             {"input": "a", "dim": "axis"}),
    # reductions and scans
    "all": ("ops.all", "input, dim=None, keepdim=False", _AXIS_KEEP),
    "any": ("ops.any", "input, dim=None, keepdim=False", _AXIS_KEEP),
    "argmax": ("ops.argmax", "input, dim=None, keepdim=False", {}),
    "logsumexp": ("ops.logsumexp", "input, dim, keepdim=False", {}),
    "sum": ("ops.sum", "input, dim=None, keepdim=False, *, dtype=None", {}),
    "prod": ("ops.prod", "input, dim=None, keepdim=False, *, dtype=None", _AXIS_KEEP),
    "nansum": ("np.nansum", "input, dim=None, keepdim=False, *, dtype=None",
               {"input": "a", "dim": "axis", "keepdim": "keepdims"}),
    "std": ("ops.std", "input, dim=None, *, correction=1, keepdim=False",
            {"dim": "axis", "correction": "ddof", "keepdim": "keepdims"}),
    "var": ("ops.var", "input, dim=None, *, correction=1, keepdim=False",
            {"dim": "axis", "correction": "ddof", "keepdim": "keepdims"}),
    "cumsum": ("ops.cumsum", "input, dim, dtype=None", {"input": "x", "dim": "axis"}),
    "cumprod": ("np.cumprod", "input, dim, dtype=None", {"input": "a", "dim": "axis"}),
    # creation
    "eye": ("ops.eye", "n, m=None, dtype=None", {}),
    "full_like": ("ops.full_like", "input, fill_value, *, dtype=None", {}),
    "ones_like": ("ops.ones_like", "input, *, dtype=None", {}),
    "zeros_like": ("ops.zeros_like", "input, *, dtype=None", {}),
    "einsum": ("ops.einsum", "equation, *operands", {}),
    "nonzero": ("ops.nonzero", "input, *, as_tuple=False", {}),
}


def make(name, func, params, renames, namespace="mint", target=None):
    """A function `name(<params>)` calling `func` with the arguments renamed by `renames`
    (a name mapped to None is dropped); cellgrad-ops-nn builds `mint.nn.functional` with it."""
    signature = inspect.signature(eval(f"lambda {params}: None", {"mstype": _mstype}))  # noqa: S307
    variadic = [p.name for p in signature.parameters.values() if p.kind is p.VAR_POSITIONAL]

    def thin(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            hint = ("'out' is not supported (cellgrad tensors are not written in place): use the "
                    "returned tensor" if "out" in kwargs else str(exc))
            raise TypeError(f"For '{namespace}.{name}', {hint}; its parameters are "
                            f"({params}).") from None
        bound.apply_defaults()
        arguments = bound.arguments
        positional = arguments.pop(variadic[0]) if variadic else ()
        call = {}
        for key, value in arguments.items():
            target_key = renames.get(key, key)
            if target_key is not None:
                call[target_key] = value
        return func(*call.values(), *positional) if variadic else func(**call)

    thin.__name__ = thin.__qualname__ = name
    thin.__module__ = f"cellgrad.{namespace}"
    thin.__signature__ = signature
    thin.__doc__ = f"Mirrors `mindspore.{namespace}.{name}`" + \
        (f" (`cellgrad.{target}` underneath)." if target else ".")
    return thin


def _target(target):
    module, _, attr = target.partition(".")
    return getattr(_ops if module == "ops" else _mnp, attr)


FUNCTIONS = {name: make(name, _target(target), params, renames, target=target)
             for name, (target, params, renames) in THIN.items()}
