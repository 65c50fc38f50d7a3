"""ops' communication functions: mirrors `mindspore.ops.all_reduce` & co. and
`mindspore.ops.set_comm_ops_inplace`.

By default (in place) each is `mint.distributed`'s function. `set_comm_ops_inplace(False)`
switches the listed functions to MindSpore's other mode: `all_reduce`,
`all_gather_into_tensor`, `reduce_scatter_tensor`, `all_to_all`, `all_to_all_single` return
`(output, handle)` with a new output, `recv` returns the received Tensor and `irecv`
`(Tensor, handle)`; `send` and `isend` are the same either way; the others raise MindSpore's
"Non-inplace mode is currently not supported.".
"""

from __future__ import annotations

import functools

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad_distributed import dist_collectives as C
from cellgrad_distributed import dist_exchange as X
from cellgrad_distributed import dist_objects as O
from cellgrad_distributed import dist_p2p as P
from cellgrad_distributed.plugin import COMM_FUNCS

__all__ = ["set_comm_ops_inplace"]

_INPLACE = dict.fromkeys(COMM_FUNCS, True)


def set_comm_ops_inplace(is_enable, func_list=None):
    """Mirrors `mindspore.ops.set_comm_ops_inplace`: the mode of every (or the listed)
    communication function of ops."""
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of "
                        f"bool, but got 'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        for name in _INPLACE:
            _INPLACE[name] = is_enable
        return
    if not isinstance(func_list, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in _INPLACE:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
        _INPLACE[name] = is_enable


def _zeros(shape, like):
    return Tensor(np.zeros(tuple(shape), like._data.dtype))


def _all_reduce(tensor, op="sum", group=None, async_op=False):
    C.check_tensor("all_reduce", tensor)
    out = tensor.clone()
    return out, C.all_reduce(out, op, group, async_op)


def _all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    C.check_tensor("all_gather_into_tensor", input_tensor)
    size = C.member("all_gather_into_tensor", group, async_op).size
    shape = (size * input_tensor.shape[0],) + tuple(input_tensor.shape[1:]) \
        if input_tensor.ndim else (size,)
    out = _zeros(shape, input_tensor)
    return out, C.all_gather_into_tensor(out, input_tensor, group, async_op)


def _reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    C.check_tensor("reduce_scatter_tensor", input)
    size = C.member("reduce_scatter_tensor", group, async_op).size
    rows = input.shape[0] // size if input.ndim else 0
    out = _zeros((rows,) + tuple(input.shape[1:]), input)
    return out, C.reduce_scatter_tensor(out, input, op, group, async_op)


def _all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    C.check_tensors("all_to_all", input_tensor_list, "input_tensor_list")
    like = input_tensor_list[0]
    outs = [_zeros(t.shape if isinstance(t, Tensor) else t, like) for t in output_tensor_list]
    return tuple(outs), X.all_to_all(outs, input_tensor_list, group, async_op)


def _all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                       group=None, async_op=False):
    C.check_tensor("all_to_all_single", input)
    rows = sum(output_split_sizes) if output_split_sizes else input.shape[0]
    out = _zeros((rows,) + tuple(input.shape[1:]), input)
    handle = X.all_to_all_single(out, input, output_split_sizes, input_split_sizes, group,
                                 async_op)
    return out, handle


def _recv(tensor, src=0, group=None, tag=0):
    C.check_tensor("recv", tensor)
    out = _zeros(tensor.shape, tensor)
    P.recv(out, src, group, tag)
    return out


def _irecv(tensor, src=0, group=None, tag=0):
    C.check_tensor("irecv", tensor)
    out = _zeros(tensor.shape, tensor)
    return out, P.irecv(out, src, group, tag)


_OTHER_MODE = {"all_reduce": _all_reduce, "all_gather_into_tensor": _all_gather_into_tensor,
               "reduce_scatter_tensor": _reduce_scatter_tensor, "all_to_all": _all_to_all,
               "all_to_all_single": _all_to_all_single, "recv": _recv, "irecv": _irecv,
               "send": P.send, "isend": P.isend, "barrier": C.barrier}


def _switched(name, inplace):
    other = _OTHER_MODE.get(name)

    @functools.wraps(inplace)
    def function(*args, **kwargs):
        if _INPLACE[name]:
            return inplace(*args, **kwargs)
        if other is None:
            raise ValueError("Non-inplace mode is currently not supported.")
        return other(*args, **kwargs)

    function.__module__ = __name__
    function.__doc__ = (f"Mirrors `mindspore.ops.{name}`: `mint.distributed.{name}` in place "
                        f"(the default), MindSpore's other mode after "
                        f"`set_comm_ops_inplace(False)`.")
    return function


_SOURCES = {**{n: getattr(C, n) for n in C.__all__}, **{n: getattr(X, n) for n in X.__all__},
            **{n: getattr(P, n) for n in P.__all__}, **{n: getattr(O, n) for n in O.__all__}}
FUNCTIONS = {name: _switched(name, _SOURCES[name]) for name in COMM_FUNCS
             if name not in ("gather", "scatter")}  # ops' gather and scatter index Tensors
globals().update(FUNCTIONS)
