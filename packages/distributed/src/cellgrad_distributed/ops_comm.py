"""`ops.set_comm_ops_inplace`: mirrors `mindspore.ops.set_comm_ops_inplace`.

`ops.all_reduce` & co. are `mint.distributed`'s functions, which write into the Tensors they
are given (MindSpore's default). The other mode, a new output Tensor returned, is
`cellgrad.communication.comm_func`'s.
"""

from __future__ import annotations

from cellgrad_distributed import plugin

__all__ = ["set_comm_ops_inplace"]


def _functions():
    return sorted(n for ns in (*plugin._MINT_DISTRIBUTED.values(),
                               plugin._OPS_ONLY["dist_exchange"]) for n in ns.split()
                  if n not in ("P2POp", "TCPStore") and not n.startswith(("get_", "is_"))
                  and n not in ("init_process_group", "destroy_process_group", "new_group"))


def set_comm_ops_inplace(is_enable, func_list=None):
    """Mirrors `mindspore.ops.set_comm_ops_inplace`: True (the default mode) is accepted; False
    raises, since cellgrad's ops collectives always write in place."""
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of "
                        f"bool, but got 'is_enable' type : {type(is_enable)}.")
    if func_list is not None:
        if not isinstance(func_list, (list, tuple)):
            raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
        known = _functions()
        for func in func_list:
            if func not in known:
                raise ValueError(f"The function name in `func_list` must be correct, but got "
                                 f"{func}.")
    if not is_enable:
        raise ValueError("For 'set_comm_ops_inplace', cellgrad's ops collectives always write "
                         "into the Tensors they are given; for collectives that return a new "
                         "Tensor use cellgrad.communication.comm_func (all_reduce, "
                         "all_gather_into_tensor, reduce_scatter_tensor, broadcast).")
