"""The module the `cellgrad` entry point names: registers the collectives' ops and exports
MindSpore's distributed names, lazily (nothing below is imported until a name is used).

`EXPORTS` maps a MindSpore qualname to `module:attr` in this package.
"""

import importlib

from cellgrad.plugins import hookimpl

OP_MODULES = ("collectives", "sync_norm", "dist_collectives", "comm_primitives",
              "comm_v_primitives", "comm_neighbors", "comm_halo")

_MANAGEMENT = """init release get_rank get_group_size get_local_rank get_local_rank_size
    get_world_rank_from_group_rank get_group_rank_from_world_rank create_group destroy_group
    get_comm_name get_process_group_ranks GlobalComm HCCL_WORLD_COMM_GROUP
    NCCL_WORLD_COMM_GROUP MCCL_WORLD_COMM_GROUP"""
_COMM_FUNC = """all_reduce all_gather_into_tensor reduce_scatter_tensor broadcast barrier
    CommHandle"""

# mint.distributed: module -> names (ops has the same functions, and three of its own)
_MINT_DISTRIBUTED = {
    "dist_store": "TCPStore",
    "dist_groups": """destroy_process_group get_backend get_global_rank get_group_rank
        get_process_group_ranks get_rank get_world_size init_process_group is_available
        is_initialized new_group""",
    "dist_collectives": """all_gather all_gather_into_tensor all_reduce barrier broadcast reduce
        reduce_scatter reduce_scatter_tensor""",
    "dist_exchange": """all_gather_into_tensor_uneven all_to_all all_to_all_single gather scatter
        reduce_scatter_tensor_uneven""",
    "dist_p2p": "P2POp batch_isend_irecv irecv isend recv send",
    "dist_objects": """all_gather_object broadcast_object_list gather_object recv_object_list
        scatter_object_list send_object_list""",
}
# MindSpore's list of the ops functions `ops.set_comm_ops_inplace` switches (ops_comm.py)
COMM_FUNCS = """all_reduce all_gather_into_tensor all_gather_into_tensor_uneven all_to_all
    all_to_all_single reduce_scatter_tensor reduce_scatter_tensor_uneven isend irecv send recv
    gather scatter all_gather reduce_scatter barrier broadcast reduce batch_isend_irecv
    all_gather_object broadcast_object_list gather_object scatter_object_list send_object_list
    recv_object_list gather_into_tensor scatter_tensor all_to_all_v_c""".split()
_OPS_ONLY = {"dist_exchange": "gather_into_tensor scatter_tensor all_to_all_v_c",
             "ops_comm": "set_comm_ops_inplace",
             "comm_primitives": "AlltoAll Barrier CollectiveGather CollectiveScatter Receive "
                                "Reduce Send",
             "comm_v_primitives": "AllGatherV AlltoAllV AlltoAllVC ReduceScatterV",
             "comm_neighbors": "BatchISendIRecv NeighborExchange",
             "comm_halo": "NeighborExchangeV2",
             "comm_matmul": "all_gather_matmul matmul_reduce_scatter"}
_NOT_IN_OPS = ("gather", "scatter")  # ops' gather and scatter index Tensors

EXPORTS = {
    **{f"mint.distributed.{n}": f"{m}:{n}" for m, ns in _MINT_DISTRIBUTED.items()
       for n in ns.split()},
    **{f"ops.{n}": f"{'ops_comm' if n in COMM_FUNCS else m}:{n}"
       for m, ns in (*_MINT_DISTRIBUTED.items(), *_OPS_ONLY.items())
       for n in ns.split() if n not in _NOT_IN_OPS},
    "mint.nn.SyncBatchNorm": "mint_sync_batchnorm:SyncBatchNorm",
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
