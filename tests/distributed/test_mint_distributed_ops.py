"""ops' communication primitives in one process (a world of one): values, gradients and
MindSpore's argument errors of `Reduce`, `CollectiveGather`, `CollectiveScatter`, `AlltoAll`,
`AllGatherV`, `ReduceScatterV`, `AlltoAllV`, `AlltoAllVC`, `NeighborExchange`,
`NeighborExchangeV2`, `BatchISendIRecv`, `all_gather_matmul`, `matmul_reduce_scatter`.
Two and three processes: test_mint_distributed_mpi.py (mpi_programs/comm_primitives.py)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck


def t(*shape, dtype=np.float64):
    return Tensor(np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype))


def test_one_process_values(world):
    x = t(4, 3)
    same = x.asnumpy()
    for prim in (ops.Reduce(0), ops.CollectiveGather(0), ops.CollectiveScatter(0),
                 ops.AlltoAll(1, 0, 1)):
        np.testing.assert_array_equal(prim(x).asnumpy(), same)
    flat = t(5)
    for out in (ops.AllGatherV()(flat, [5]), ops.ReduceScatterV()(flat, (5,)),
                ops.AlltoAllV()(flat, [5], [5]), ops.AlltoAllVC()(flat, [5]),
                ops.AlltoAllV(block_size=5)(flat, [1], [1])):
        np.testing.assert_array_equal(out.asnumpy(), flat.asnumpy())
    assert ops.AllGatherV()(Tensor(np.zeros(0, np.float32)), [0]).shape == ()
    (got,) = ops.NeighborExchange([0], [0], ([4, 3],), ([4, 3],), ms.float64)((x,))
    np.testing.assert_array_equal(got.asnumpy(), same)
    sent, got = ops.BatchISendIRecv(("isend", "irecv"), [0, 0], [(4, 3)], (ms.float32,))(x)
    assert sent.shape == () and got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), same, rtol=1e-6)
    out, gathered = ops.all_gather_matmul(x, t(3, 2), "hccl_world_group", 1)
    np.testing.assert_allclose(out.asnumpy(), same @ t(3, 2).asnumpy())
    assert ops.all_gather_matmul(x, t(2, 3), "hccl_world_group", 1, gather_output=False,
                                 trans_x2=True)[1].shape == (0,)
    np.testing.assert_allclose(ops.matmul_reduce_scatter(x, t(3, 2), "hccl_world_group",
                                                         1).asnumpy(), same @ t(3, 2).asnumpy())
    ops.Barrier()()


def test_neighbor_exchange_v2_of_one_process(world):
    """Sending the top row towards itself, a process receives it as its bottom halo."""
    ids_send = [0] + [-1] * 7
    ids_recv = [-1] * 4 + [0] + [-1] * 3
    halo = ops.NeighborExchangeV2(ids_send, [1, 0, 0, 0], ids_recv, [0, 1, 0, 0], "NCHW")
    x = Tensor(np.arange(6, dtype=np.float64).reshape(1, 1, 2, 3))
    np.testing.assert_array_equal(halo(x).asnumpy()[0, 0], [[0, 1, 2], [3, 4, 5], [0, 1, 2]])
    assert gradcheck(lambda a: halo(a) * t(1, 1, 3, 3), x)


@pytest.mark.parametrize("fn", [
    lambda x: ops.Reduce(0)(x).sin(),
    lambda x: ops.CollectiveGather(0)(x) * 2,
    lambda x: ops.CollectiveScatter(0)(x).exp(),
    lambda x: ops.AlltoAll(1, 1, 0)(x) ** 2,
    lambda x: ops.AllGatherV()(x.reshape(-1), [12]).cos(),
    lambda x: ops.ReduceScatterV()(x.reshape(-1), [12]) * 3,
    lambda x: ops.AlltoAllVC(block_size=3)(x.reshape(-1), [4]).sin(),
    lambda x: ops.NeighborExchange([0], [0], ([4, 3],), ([4, 3],), ms.float64)((x,))[0] ** 3,
    lambda x: ops.all_gather_matmul(x, t(3, 2), "hccl_world_group", 1)[0],
    lambda x: ops.matmul_reduce_scatter(x, t(3, 2), "hccl_world_group", 1),
    # a process alone sends to itself: the gradient comes back through Receive's backward
    lambda x: ops.Receive(3, 0, [4, 3], ms.float64)(ops.Send(3, 0)(x * 2)) ** 2,
    lambda x: _reduced(x).sin(),
])
def test_gradcheck(world, fn):
    assert gradcheck(fn, t(4, 3))


def _reduced(x):
    from cellgrad.mint import distributed as dist

    y = x * 1.0
    dist.reduce(y, 0)
    return y


# the ops of cellgrad-distributed these gradchecks cover (test_dist_op_registry.py)
GRADCHECKED = {"Reduce", "CollectiveGather", "CollectiveScatter", "AlltoAll", "AllGatherV",
               "ReduceScatterV", "AlltoAllV", "NeighborExchange", "NeighborExchangeV2", "Send",
               "Receive", "DistCommReduce"}


def test_receive_without_a_message_says_so(world):
    with pytest.raises(RuntimeError, match="nothing was sent with the tag 5"):
        ops.Receive(5, 0, [2], ms.float32)()


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.Reduce(1)(t(2)), ValueError, "'dest_rank' 1 is out of range"),
    (lambda: ops.Reduce(0, op="mean"), ValueError, "'op' must be one of"),
    (lambda: ops.Reduce(0)(np.ones(2)), TypeError, "'input_x' must be a Tensor"),
    (lambda: ops.CollectiveScatter(0)(Tensor(1.0)), ValueError, "at least 1 dimension"),
    (lambda: ops.AlltoAll(2, 0, 0)(t(4)), ValueError, "'split_count' 2 must be the group size"),
    (lambda: ops.AlltoAll(1.0, 0, 0), TypeError, "'split_count' must be int"),
    (lambda: ops.AllGatherV()(t(2, 2), [4]), ValueError, "flat"),
    (lambda: ops.AllGatherV()(t(3), [2]), ValueError, "'output_split_sizes' gives it 2"),
    (lambda: ops.ReduceScatterV(op="prod"), ValueError, "PROD is not supported"),
    (lambda: ops.AlltoAllV()(t(3), [1, 2], [3]), ValueError, "one per process"),
    (lambda: ops.AlltoAllVC(transpose=1), TypeError, "'transpose' must be a bool"),
    (lambda: ops.Receive(0, 0, [2], "float32"), TypeError, "'dtype' must be one of"),
    (lambda: ops.NeighborExchange([0], [0], ([2],), ([3],), ms.float32)((t(2),)), ValueError,
     "'send_shapes' says"),
    (lambda: ops.NeighborExchange([1], [0], ([2],), ([2],), ms.float32)((t(2),)), ValueError,
     "'send_rank_ids' must be a list of ranks"),
    (lambda: ops.NeighborExchangeV2([0] * 8, [0] * 4, [-1] * 8, [0] * 4, "NCHW"), ValueError,
     "repeated ranks"),
    (lambda: ops.NeighborExchangeV2((-1,) * 8, [0] * 4, [-1] * 8, [0] * 4, "NCHW"), TypeError,
     "must be a list"),
    (lambda: ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0, -1, 0, 0], "NCHW"),
     ValueError, "less than 0"),
    (lambda: ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0] * 4, "NHWC"), ValueError,
     "only supports 'NCHW'"),
    (lambda: ops.BatchISendIRecv(("isend", "recv"), [0, 0]), TypeError, "'isend'/'irecv'"),
    (lambda: ops.BatchISendIRecv(("irecv",), [0]), ValueError, "one entry per 'irecv'"),
    (lambda: ops.all_gather_matmul(t(2, 3), t(3, 2), "hccl_world_group", 2), ValueError,
     "'world_size' 2 must be the size"),
    (lambda: ops.all_gather_matmul(t(2, 3), t(3, 2), "hccl_world_group", 1, comm_turn=1),
     ValueError, "'comm_turn' supports only 0"),
    (lambda: ops.matmul_reduce_scatter(t(2, 3), t(3, 2).astype(ms.float32),
                                       "hccl_world_group", 1), TypeError, "dtype of 'input'"),
])
def test_errors(world, call, error, message):
    with pytest.raises(error, match=message):
        call()
