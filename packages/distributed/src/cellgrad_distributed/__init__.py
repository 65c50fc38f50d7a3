"""cellgrad-distributed: data-parallel training on MPI (mpi4py), with MindSpore's API.

Users reach it through MindSpore's names: `cellgrad.communication` (`init`, `get_rank`,
`get_group_size`, `create_group`, ...), `cellgrad.communication.comm_func`,
`cellgrad.mint.distributed` (and its functions in `ops`), `ops.AllReduce` & the other collective
primitives (`ops.ReduceOp` is the core's), `nn.DistributedGradReducer`, `nn.SyncBatchNorm`
and `mint.nn.SyncBatchNorm`; it reads the core's
`cellgrad.set_auto_parallel_context` & co. This package is found through its `cellgrad` entry
point and never imported by hand.
"""

__version__ = "0.1.0"
