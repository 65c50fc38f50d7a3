"""The module the `cellgrad` entry point names: registers the collectives' ops and exports
MindSpore's distributed names, lazily (nothing below is imported until a name is used).

`EXPORTS` maps a MindSpore qualname to `module:attr` in this package.
"""

import importlib

from cellgrad.plugins import hookimpl

OP_MODULES = ("collectives", "sync_norm")

_MANAGEMENT = """init release get_rank get_group_size get_local_rank get_local_rank_size
    get_world_rank_from_group_rank get_group_rank_from_world_rank create_group destroy_group
    get_comm_name get_process_group_ranks GlobalComm HCCL_WORLD_COMM_GROUP
    NCCL_WORLD_COMM_GROUP MCCL_WORLD_COMM_GROUP"""
_COMM_FUNC = """all_reduce all_gather_into_tensor reduce_scatter_tensor broadcast barrier
    CommHandle"""

EXPORTS = {
    **{f"communication.{n}": f"management:{n}" for n in _MANAGEMENT.split()},
    **{f"communication.comm_func.{n}": f"comm_func:{n}" for n in _COMM_FUNC.split()},
    **{f"ops.{n}": f"primitives:{n}"
       for n in ("AllReduce", "AllGather", "ReduceScatter", "Broadcast")},
    "nn.DistributedGradReducer": "grad_reducer:DistributedGradReducer",
    "nn.SyncBatchNorm": "sync_batchnorm:SyncBatchNorm",
}


@hookimpl
def cellgrad_register_ops(register):
    for name in OP_MODULES:
        for op in importlib.import_module(f"cellgrad_distributed.{name}").OPS:
            register(op)


@hookimpl
def cellgrad_export_names(export):
    for qualname, target in EXPORTS.items():
        export(qualname, lazy=f"cellgrad_distributed.{target}")
