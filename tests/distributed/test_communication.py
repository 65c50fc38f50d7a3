"""`cellgrad.communication` and the collectives in one process: a world of one, MindSpore's
names and defaults, and clear errors for bad groups, ranks and arguments."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.communication import (
    GlobalComm,
    create_group,
    destroy_group,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_process_group_ranks,
    get_rank,
    get_world_rank_from_group_rank,
    init,
)
from cellgrad.communication.comm_func import (
    CommHandle,
    all_gather_into_tensor,
    all_reduce,
    barrier,
    broadcast,
    reduce_scatter_tensor,
)


def x34():
    return Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))


def test_before_init_the_world_is_one_process_as_in_mindspore():
    assert (get_rank(), get_group_size()) == (0, 1)
    assert GlobalComm.INITED is False and GlobalComm.WORLD_COMM_GROUP == "hccl_world_group"
    with pytest.raises(RuntimeError, match=r"has not been inited.*call `init\(\)`"):
        create_group("g", [0, 1])


def test_init_outside_mpirun_gives_a_world_of_one(world):
    assert GlobalComm.INITED is True
    assert GlobalComm.WORLD_COMM_GROUP == "mccl_world_group"
    for name in ("hccl_world_group", "nccl_world_group", "mccl_world_group"):
        assert get_rank(name) == 0 and get_group_size(name) == 1
    assert (get_local_rank(), get_local_rank_size()) == (0, 1)
    assert get_process_group_ranks() == [0]
    assert get_world_rank_from_group_rank("hccl_world_group", 0) == 0
    assert get_group_rank_from_world_rank(0, "hccl_world_group") == 0
    init()  # a second call changes nothing
    assert get_group_size() == 1


def test_collectives_in_a_world_of_one_are_the_identity(world):
    x = x34()
    for y in (ops.AllReduce()(x), ops.AllReduce(ops.ReduceOp.MAX)(x), ops.AllGather()(x),
              ops.ReduceScatter()(x), ops.Broadcast(0)((x,))[0], broadcast(x, 0),
              all_reduce(x)[0], all_gather_into_tensor(x)[0], reduce_scatter_tensor(x)[0]):
        assert y.dtype == ms.float32 and y.shape == (4, 3)
        np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
        assert y.asnumpy() is not x.asnumpy()
    ints = Tensor(np.arange(3, dtype=np.int32))
    assert ops.AllReduce()(ints).dtype == ms.int32
    assert all_reduce(x)[1] is None
    out, handle = all_reduce(x, async_op=True)
    assert isinstance(handle, CommHandle)
    handle.wait()
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    assert barrier() is None


def test_reprs_and_reduce_ops_are_mindspores():
    assert repr(ops.AllReduce()) == ("Prim[AllReduce]<op=sum, group=hccl_world_group, "
                                     "fusion=0, index=0, no_eliminate=True>")
    assert repr(ops.AllGather()) == ("Prim[AllGather]<group=hccl_world_group, rank_size=1, "
                                     "fusion=0, mean_flag=False, no_eliminate=True>")
    assert repr(ops.ReduceScatter()) == ("Prim[ReduceScatter]<op=sum, group=hccl_world_group, "
                                         "rank_size=1, fusion=0, no_eliminate=True>")
    assert repr(ops.Broadcast(0)) == ("Prim[Broadcast]<root_rank=0, group=hccl_world_group, "
                                      "no_eliminate=True>")
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD) == \
        ("sum", "max", "min", "prod")
    assert repr(CommHandle()) == "CommHandle(handle=None)"


@pytest.mark.parametrize("call, error, message", [
    (lambda: get_rank(3), TypeError,
     "For 'get_rank', the argument 'group' must be type of string, but got 'group' type : "
     "<class 'int'>."),
    (lambda: get_group_size("nope"), ValueError,
     "For 'get_group_size', the group 'nope' does not exist: create it with "
     "create_group('nope', rank_ids) on its processes first"),
    (lambda: ops.AllReduce(group="nope")(x34()), ValueError,
     "For 'AllReduce', the group 'nope' does not exist"),
    (lambda: ops.AllGather(group=1), TypeError,
     "For 'AllGather', the type of 'group' should be 'str', but got type 'int'."),
    (lambda: ops.AllReduce(op=1), TypeError, "For 'AllReduce', the 'op' must be str, but got int."),
    (lambda: ops.AllReduce(op="mean"), ValueError,
     "For 'AllReduce', the 'op' must be one of sum, max, min, prod, but got 'mean'."),
    (lambda: ops.ReduceScatter(op=2), TypeError,
     "For 'ReduceScatter', the type of 'op' should be 'str', but got type 'int'."),
    (lambda: ops.Broadcast("0"), TypeError,
     "For 'Broadcast', the type of 'root_rank' should be 'int', but got type 'str'."),
    (lambda: ops.Broadcast(1)((x34(),)), ValueError,
     "For 'Broadcast', 'root_rank' 1 is out of range: the group 'hccl_world_group' has 1 "
     "process (ranks 0 to 0)."),
    (lambda: ops.Broadcast(0)(x34()), TypeError,
     "For 'Broadcast', 'input_x' must be a tuple of Tensors, but got Tensor."),
    (lambda: ops.AllReduce()(np.ones(3)), TypeError,
     "For 'AllReduce', 'x' must be a Tensor, but got ndarray."),
    (lambda: ops.AllReduce()(Tensor(np.array([True]))), TypeError,
     "For 'AllReduce', the input must be an integer or floating Tensor, but got dtype bool."),
    (lambda: ops.AllGather()(Tensor(np.float32(1))), ValueError,
     "For 'AllGather', the input must have at least 1 dimension"),
    (lambda: broadcast(x34(), src=2), ValueError,
     "For 'broadcast', 'src' 2 is not a world rank of the group 'mccl_world_group', which "
     "holds the world ranks [0]."),
    (lambda: broadcast(x34(), src="0"), TypeError, "For broadcast, the src must be int"),
    (lambda: all_reduce(x34(), op="avg"), TypeError,
     "For all_reduce, the input op value must be one of sum, prod, min, max"),
    (lambda: barrier(0), TypeError, "group must be type of string, but got <class 'int'>"),
    (lambda: create_group("pair", [0, 1]), ValueError,
     "For 'create_group', 'rank_ids' [0, 1], which holds 1, is out of range: the world has 1 "
     "process (ranks 0 to 0)."),
    (lambda: create_group("pair", [0]), ValueError,
     "For 'create_group', 'rank_ids' must hold more than 1 rank, but got [0]."),
    (lambda: create_group("pair", [0, 0]), ValueError, "must not repeat a rank"),
    (lambda: create_group("pair", (0, 1)), TypeError,
     "For 'create_group', the argument 'rank_ids' must be a list, but got tuple."),
    (lambda: create_group("hccl_world_group", [0, 1]), ValueError, "already exists"),
    (lambda: destroy_group("hccl_world_group"), ValueError, "cannot be destroyed"),
    (lambda: get_world_rank_from_group_rank("hccl_world_group", 1), ValueError,
     "For 'get_world_rank_from_group_rank', 'group_rank_id' 1 is out of range: group "
     "'mccl_world_group' has 1 process (ranks 0 to 0)."),
    (lambda: get_group_rank_from_world_rank(True, "hccl_world_group"), TypeError,
     "'world_rank_id' must be an int, but got bool True."),
    (lambda: init(1), TypeError,
     "For 'init', the argument 'backend_name' must be a string, but got the type : "
     "<class 'int'>"),
    (lambda: init("hccl"), RuntimeError,
     "For 'init', cellgrad communicates through MPI on the CPU: 'backend_name' must be None, "
     "'mccl' or 'mpi', but got 'hccl'"),
])
def test_bad_groups_ranks_and_arguments_are_clear_errors(world, call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_collectives_under_a_launcher_need_init(monkeypatch):
    monkeypatch.setenv("PMI_SIZE", "4")
    with pytest.raises(RuntimeError, match=r"For 'AllReduce', this process is one of 4 started "
                                           r"by an MPI launcher, but .*init\(\) has not been"):
        ops.AllReduce()(x34())


def test_release_forgets_init(world):
    world.release()
    assert GlobalComm.INITED is False
    with pytest.raises(RuntimeError, match="has not been inited"):
        create_group("g", [0, 1])


def test_the_timeout_comes_from_the_environment(monkeypatch):
    from cellgrad_distributed import watchdog

    monkeypatch.delenv("CELLGRAD_COMM_TIMEOUT", raising=False)
    assert watchdog.timeout() == 1800.0  # PyTorch's default_pg_timeout (gloo, MPI)
    monkeypatch.setenv("CELLGRAD_COMM_TIMEOUT", "2.5")
    assert watchdog.timeout() == 2.5
    for bad in ("soon", "0", "-1"):
        monkeypatch.setenv("CELLGRAD_COMM_TIMEOUT", bad)
        with pytest.raises(ValueError, match="CELLGRAD_COMM_TIMEOUT must be a"):
            watchdog.timeout()


def test_names_live_where_mindspore_has_them():
    import cellgrad.communication as comm
    import cellgrad.communication.comm_func as comm_func

    for name in ("init", "release", "get_rank", "get_group_size", "get_local_rank",
                 "create_group", "GlobalComm", "HCCL_WORLD_COMM_GROUP"):
        assert name in dir(comm) and getattr(comm, name) is not None
    for name in ("all_reduce", "all_gather_into_tensor", "broadcast", "barrier"):
        assert callable(getattr(comm_func, name))
    assert comm.HCCL_WORLD_COMM_GROUP == "hccl_world_group"
    assert ms.ops.AllReduce is ops.AllReduce and ms.nn.SyncBatchNorm is not None


def test_processes_on_one_host_share_its_cores(monkeypatch):
    from threadpoolctl import threadpool_info

    from cellgrad_distributed import threads

    for var in threads._ENV:
        monkeypatch.delenv(var, raising=False)
    assert threads.share_cores(1) is None
    monkeypatch.setattr(threads, "cores", lambda: 8)
    try:
        assert threads.share_cores(4) == 2
        blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
        assert blas and all(p["num_threads"] == 2 for p in blas)
    finally:
        threads._limits.restore_original_limits()
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert threads.share_cores(4) is None  # the user's setting wins
