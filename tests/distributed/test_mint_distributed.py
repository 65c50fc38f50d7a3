"""`mint.distributed` (and ops' comm functions) in one process: MindSpore 2.10's signatures,
ranks and group names, each collective in a world of one (in place, `async_op` handles,
gradients), MindSpore's argument errors, and the core's answers without cellgrad-distributed.
Two and three processes: test_mint_distributed_mpi.py."""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.mint import distributed as dist

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "signatures"))
from normalize import describe  # noqa: E402

RECORDED = json.loads((HERE / "recorded" / "mint_distributed_signatures.json").read_text())


@pytest.fixture
def pg():
    dist.init_process_group()
    yield dist
    dist.destroy_process_group()


def arange(*shape, dtype=np.float32):
    return Tensor(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


# ---- names and signatures ----


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_every_name_of_mindspore_with_its_signature(name):
    assert describe(getattr(dist, name))["params"] == RECORDED[name]["params"]


def test_dir_lists_mindsporess_names():
    assert set(RECORDED) | {"TCPStore"} <= set(dir(dist))


def test_ops_has_the_same_functions():
    for name in ("P2POp", "TCPStore", "init_process_group", "get_rank", "new_group"):
        assert getattr(ops, name) is getattr(dist, name)
    for name in ("all_reduce", "broadcast", "send", "reduce", "all_gather_object"):
        assert getattr(ops, name).__wrapped__ is getattr(dist, name)  # + the mode switch
    assert ops.gather is not dist.gather  # ops.gather indexes a Tensor
    assert ms.mint.distributed is dist


@pytest.fixture
def other_mode():
    ops.set_comm_ops_inplace(False)
    yield
    ops.set_comm_ops_inplace(True)


def test_ops_other_mode_returns_new_tensors(pg, other_mode):
    x = arange(4)
    out, handle = ops.all_reduce(x, "max")
    assert handle is None and out is not x
    np.testing.assert_array_equal(out.asnumpy(), np.arange(4))
    out, handle = ops.all_reduce(x, async_op=True)
    handle.wait()
    np.testing.assert_array_equal(out.asnumpy(), np.arange(4))
    gathered, _ = ops.all_gather_into_tensor(None, arange(2, 3))
    scattered, _ = ops.reduce_scatter_tensor(None, arange(2, 3))
    single, _ = ops.all_to_all_single(None, arange(2, 3))
    (piece,), _ = ops.all_to_all([(2, 3)], [arange(2, 3)])
    for t in (gathered, scattered, single, piece):
        np.testing.assert_array_equal(t.asnumpy(), np.arange(6).reshape(2, 3))
    assert ops.barrier() is None  # not switched by MindSpore
    w = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    g = ms.grad(lambda a: (ops.all_reduce(a * 2)[0] * w).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), 2 * w.asnumpy())
    for call in (lambda: ops.broadcast(x, 0), lambda: ops.all_gather([x], x),
                 lambda: ops.gather_object(1, [None])):
        with pytest.raises(ValueError, match="Non-inplace mode is currently not supported."):
            call()
    ops.set_comm_ops_inplace(True, ["broadcast"])
    assert ops.broadcast(x, 0) is None


# ---- process groups ----


def test_before_and_after_init(pg):
    assert dist.is_available() and dist.is_initialized()
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert dist.get_process_group_ranks() == [0]
    assert dist.get_backend() == "hccl"
    assert dist.get_global_rank(None, 0) == 0 and dist.get_group_rank(None, 0) == 0
    dist.destroy_process_group()
    assert not dist.is_initialized()
    dist.init_process_group("mccl", world_size=1, rank=0)
    assert dist.is_initialized()


def test_before_init_as_mindspores_cpu_build():
    assert (dist.get_rank("any"), dist.get_world_size("any")) == (0, 1)
    assert dist.get_global_rank(None, 0) == 0
    for call in (lambda: dist.get_group_rank(None, 0), dist.get_process_group_ranks,
                 lambda: dist.get_global_rank("g", 0)):
        with pytest.raises(RuntimeError, match="has not been inited"):
            call()


def test_new_group_before_init_warns_and_gives_an_empty_name():
    with pytest.warns(UserWarning, match="has not been inited"):
        assert dist.new_group([0]) == ""  # as MindSpore's CPU build answers


def test_new_group_names_as_mindspore(pg):
    assert dist.new_group() == "mccl_world_group"
    name = dist.new_group([0])
    assert name == "hccl_1_b6589fc6ab0dc82cf12099d1c2d40ab994e8410c"  # sha1 of "0"
    assert dist.new_group([0], backend="mccl").startswith("mccl_1_")
    assert (dist.get_rank(name), dist.get_world_size(name)) == (0, 1)
    assert dist.get_backend(name) == "hccl"
    assert dist.get_process_group_ranks(name) == [0]
    t = Tensor(np.array([2.0], np.float32))
    dist.all_reduce(t, group=name)
    assert t.asnumpy().tolist() == [2.0]
    dist.destroy_process_group(name)
    with pytest.warns(UserWarning, match="does not exist"):
        assert dist.get_rank(name) == -1
    with pytest.warns(UserWarning, match="does not exist"):
        assert dist.get_world_size(name) == -1


@pytest.mark.parametrize("call, error, message", [
    (lambda: dist.init_process_group("nccl"), ValueError, "'backend' must be 'hccl'"),
    (lambda: dist.init_process_group(world_size=4), ValueError, "started 1 process"),
    (lambda: dist.init_process_group(rank=3), ValueError, "gave this process the rank 0"),
    (lambda: dist.init_process_group(world_size="2"), TypeError, "'world_size'"),
    (lambda: dist.init_process_group(init_method="tcp://a:1", store=object()), TypeError,
     "'store'"),
    (lambda: dist.new_group((0,)), TypeError, "ranks must be list"),
    (lambda: dist.new_group([0], backend="nccl"), TypeError, "backend must be hccl or mccl"),
    (lambda: dist.get_rank(3), TypeError, "'group' must be type of string"),
    (lambda: dist.get_global_rank(None, "0"), TypeError, "group_rank argument must be integer"),
    (lambda: dist.get_backend(1), TypeError, "string or None"),
    (lambda: dist.init_process_group(init_method="tcp://127.0.0.1:1"), ValueError,
     "world_size must be a positive integer"),
    (lambda: dist.init_process_group(init_method="tcp://127.0.0.1:1", world_size=1), ValueError,
     "rank must be a non-negative integer"),
])
def test_group_errors(pg, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_init_with_a_store_checks_the_launchers_world(pg):
    dist.destroy_process_group()
    store = dist.TCPStore("127.0.0.1", _free_port(), is_master=True)
    dist.init_process_group(store=store, world_size=1, rank=0)
    assert dist.is_initialized()


# ---- TCPStore: MindSpore's answers (recorded on MindSpore 2.10's CPU build) ----


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tcp_store_as_mindspore():
    from datetime import timedelta

    port = _free_port()
    master = dist.TCPStore("127.0.0.1", port, world_size=2, is_master=True,
                           timeout=timedelta(seconds=5), wait_for_workers=False)
    client = dist.TCPStore("127.0.0.1", port, timeout=timedelta(seconds=1))
    assert master.set("k", "v") is None and client.get("k") == b"v"
    client.set("b", b"\x00\x01")
    assert master.get("b") == b"\x00\x01"
    assert (master.add("n", 3), client.add("n", 4), master.get("n")) == (3, 7, b"7")
    master.set("s", "12")
    assert client.add("s", 1) == 13
    assert (client.delete_key("k"), client.delete_key("k")) == (True, False)
    with pytest.raises(RuntimeError, match="TCP get operation failed"):
        client.get("missing")
    with pytest.raises(TypeError, match="'amount' must be type of string or int"):
        client.add("n", "1")
    with pytest.raises(TypeError, match="'value' must be type of string or bytes"):
        client.set("n", 1)
    assert (master.host, master.port) == ("127.0.0.1", port)


def test_tcp_store_get_waits_for_the_key():
    import threading
    from datetime import timedelta

    port = _free_port()
    master = dist.TCPStore("127.0.0.1", port, is_master=True, timeout=timedelta(seconds=10))
    client = dist.TCPStore("127.0.0.1", port, timeout=timedelta(seconds=10))
    threading.Timer(0.2, lambda: master.set("late", "here")).start()
    assert client.get("late") == b"here"


@pytest.mark.parametrize("kwargs, error, message", [
    ({"host_name": 1, "port": 1}, TypeError, "'host_name' must be type of string"),
    ({"host_name": "h", "port": 70000}, ValueError, "'port' must be legal"),
    ({"host_name": "h", "port": 1, "world_size": 0}, ValueError, "'world_size' must be legal"),
    ({"host_name": "h", "port": 1, "timeout": 5}, TypeError, "'timeout' must be type of"),
])
def test_tcp_store_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        dist.TCPStore(**kwargs)


# ---- collectives in a world of one ----


def test_all_reduce_writes_in_place(pg):
    for op in ("sum", "max", "min", "prod", "avg"):
        t = arange(2, 3)
        data = t._data
        assert dist.all_reduce(t, op) is None
        np.testing.assert_array_equal(t.asnumpy(), np.arange(6).reshape(2, 3))
        assert t._data is data  # the tensor's own memory


def test_async_op_gives_a_handle_that_completes_the_write(pg):
    t = arange(4)
    handle = dist.all_reduce(t, async_op=True)
    assert type(handle).__name__ == "CommHandle"
    handle.wait()
    handle.wait()  # a second wait does nothing
    np.testing.assert_array_equal(t.asnumpy(), np.arange(4))
    out = Tensor(np.zeros(4, np.float32))
    dist.all_gather_into_tensor(out, t, async_op=True).wait()
    np.testing.assert_array_equal(out.asnumpy(), np.arange(4))
    assert dist.barrier(async_op=True) is not None and dist.barrier() is None


def test_every_collective_of_one_process(pg):
    x = arange(2, 3)
    out = Tensor(np.zeros((2, 3), np.float32))
    dist.all_gather_into_tensor(out, x)
    parts = [Tensor(np.zeros((2, 3), np.float32))]
    dist.all_gather(parts, x)
    red = Tensor(np.zeros((2, 3), np.float32))
    dist.reduce_scatter_tensor(red, x)
    red2 = Tensor(np.zeros((2, 3), np.float32))
    dist.reduce_scatter(red2, [x])
    b = arange(2, 3)
    dist.broadcast(b, 0)
    r = arange(2, 3)
    dist.reduce(r, 0, "max")
    s = Tensor(np.zeros((2, 3), np.float32))
    dist.scatter(s, [x])
    g = [Tensor(np.zeros((2, 3), np.float32))]
    dist.gather(x, g)
    a2a = [Tensor(np.zeros(6, np.float32))]
    dist.all_to_all(a2a, [x.reshape(-1)])
    single = Tensor(np.zeros((2, 3), np.float32))
    dist.all_to_all_single(single, x)
    uneven = Tensor(np.zeros((2, 3), np.float32))
    dist.all_gather_into_tensor_uneven(uneven, x, [2])
    rsu = Tensor(np.zeros((2, 3), np.float32))
    dist.reduce_scatter_tensor_uneven(rsu, x, [2])
    st = Tensor(np.zeros((2, 3), np.float32))
    ops.scatter_tensor(st, x)
    gt = Tensor(np.zeros((2, 3), np.float32))
    ops.gather_into_tensor(gt, x)
    vc = Tensor(np.zeros(6, np.float32))
    ops.all_to_all_v_c(vc, x, [6])
    for t in (out, parts[0], red, red2, b, r, s, g[0], a2a[0], single, uneven, rsu, st, gt, vc):
        np.testing.assert_array_equal(t.asnumpy().reshape(2, 3), np.arange(6).reshape(2, 3))


def test_object_collectives_of_one_process(pg):
    objs = [None]
    dist.all_gather_object(objs, {"a": (1, 2)})
    assert objs == [{"a": (1, 2)}]
    same = ["kept", 3]
    dist.broadcast_object_list(same)
    assert same == ["kept", 3]
    got = [None]
    dist.gather_object("g", got)
    assert got == ["g"]
    one = [None]
    dist.scatter_object_list(one, [[1, "x"]])
    assert one == [[1, "x"]]


def test_gradients_flow_through_the_writes(pg):
    w = Tensor(np.array([1.0, -2.0, 3.0], np.float64))

    def through(fn):
        def loss(x):
            y = x * 1.0
            fn(y)
            return (y * y * w).sum()
        return ms.grad(loss)

    x = Tensor(np.array([0.5, 1.5, -1.0], np.float64))
    want = 2 * x.asnumpy() * w.asnumpy()
    for fn in (dist.all_reduce, lambda y: dist.all_reduce(y, "avg"),
               lambda y: dist.broadcast(y, 0), lambda y: dist.reduce(y, 0)):
        np.testing.assert_allclose(through(fn)(x).asnumpy(), want)

    def gathered(x):
        out = Tensor(np.zeros(3, np.float64))
        dist.all_gather_into_tensor(out, x)
        parts = [Tensor(np.zeros(3, np.float64))]
        dist.all_gather(parts, out)
        red = Tensor(np.zeros(3, np.float64))
        dist.reduce_scatter(red, parts)
        return (red * red * w).sum()

    np.testing.assert_allclose(ms.grad(gathered)(x).asnumpy(), want)


def test_gradcheck_through_all_reduce_and_reduce_scatter(pg):
    from cellgrad.testing import gradcheck

    def f(x):
        y = x * 2.0
        dist.all_reduce(y, "prod")
        out = Tensor(np.zeros((2, 2), np.float64))
        dist.reduce_scatter_tensor(out, y.sin())
        return out

    assert gradcheck(f, Tensor(np.random.default_rng(0).standard_normal((2, 2))))


def test_async_under_a_gradient_transform_runs_at_once(pg):
    def loss(x):
        y = x * 3.0
        dist.all_reduce(y, async_op=True).wait()
        return y.sum()

    np.testing.assert_allclose(ms.grad(loss)(Tensor(np.ones(2, np.float32))).asnumpy(), [3, 3])


@pytest.mark.parametrize("call, error, message", [
    (lambda: dist.all_reduce(np.ones(2)), TypeError, "For all_reduce, the input tensor must be"),
    (lambda: dist.all_reduce(arange(2), 1), TypeError, "the input op type must be str"),
    (lambda: dist.all_reduce(arange(2), "mean"), TypeError, "must be one of sum, prod, min, max"),
    (lambda: dist.all_reduce(arange(2, dtype=np.int32), "avg"), TypeError, "floating"),
    (lambda: dist.all_reduce(arange(2), group=3), TypeError, "'group' must be type of string"),
    (lambda: dist.all_reduce(arange(2), async_op=1), TypeError, "'async_op' must be a bool"),
    (lambda: dist.all_reduce(arange(2), group="nope"), ValueError, "does not exist"),
    (lambda: dist.broadcast(arange(2), 1), ValueError, "'src' 1 is not a world rank"),
    (lambda: dist.broadcast(arange(2), "0"), TypeError, "the src must be int"),
    (lambda: dist.reduce(arange(2), 1.0), TypeError, "the dst must be int"),
    (lambda: dist.all_gather_into_tensor(arange(3), arange(2)), ValueError, r"shape \(2,\)"),
    (lambda: dist.all_gather([arange(2), arange(2)], arange(2)), TypeError,
     "len must be equal to group rank size"),
    (lambda: dist.reduce_scatter_tensor(arange(2), arange(2, dtype=np.float64)), TypeError,
     "dtype should be Float64"),
    (lambda: dist.all_to_all_single(arange(2), arange(3), None, [1, 1]), ValueError,
     "split sizes"),
    (lambda: dist.reduce_scatter_tensor_uneven(arange(2), arange(2), op="prod"), TypeError,
     "one of sum, min, max, avg"),
    (lambda: dist.send(arange(2), 0), ValueError, "Invalid destination rank"),
    (lambda: dist.recv(arange(2), 0), ValueError, "holds one process"),
    (lambda: dist.P2POp("send", arange(1), 0), TypeError, "isend or irecv"),
    (lambda: dist.P2POp(dist.isend, np.ones(1), 0), TypeError, "Expected tensor to be Tensor"),
    (lambda: dist.P2POp("isend", arange(1), 0, tag=1), NotImplementedError, "tag"),
    (lambda: dist.batch_isend_irecv([]), TypeError, "can not be empty"),
    (lambda: dist.all_gather_object([], 1), TypeError, "equal to group rank size"),
    (lambda: dist.broadcast_object_list([]), TypeError, "can not be empty"),
    (lambda: dist.send_object_list((1,), 0), TypeError, "must be a list"),
    (lambda: ops.set_comm_ops_inplace(1), TypeError, "'is_enable' must be type of bool"),
    (lambda: ops.set_comm_ops_inplace(True, ["all_sum"]), ValueError, "must be correct"),
    (lambda: ops.set_comm_ops_inplace(True, "all_reduce"), TypeError, "Expected list or tuple"),
])
def test_argument_errors(pg, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_p2p_op_keeps_its_fields():
    t = arange(2)
    op = dist.P2POp(dist.irecv, t, 1, group="g")
    assert (op.op, op.tensor, op.peer, op.group, op.tag) == (dist.irecv, t, 1, "g", 0)
    ops.set_comm_ops_inplace(True, ["all_reduce", "recv"])


# ---- without cellgrad-distributed ----


def test_without_the_package_one_process_still_asks_and_collectives_name_it():
    code = """
import cellgrad.mint.distributed as d
print(d.is_available(), d.is_initialized(), d.get_rank(), d.get_world_size(), d.get_backend())
try:
    d.all_reduce
except AttributeError as e:
    print(type(e).__name__, e)
try:
    from cellgrad.mint.distributed import broadcast
except ImportError as e:
    print(type(e).__name__, e)
"""
    # the plugin is left out by name, as an uninstalled one would be
    env = dict(os.environ, CELLGRAD_DISABLED_PLUGINS="cellgrad-distributed")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "False False 0 1 hccl"
    assert lines[1].startswith("PluginNameAttributeError cellgrad.mint.distributed.all_reduce "
                               "is provided by cellgrad-distributed")
    assert lines[2].startswith("PluginNameImportError cellgrad.mint.distributed.broadcast")
