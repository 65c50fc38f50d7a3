"""Every `mint.distributed` function against numpy on N processes, and the gradients of the
differentiable ones (each process draws every process's data from the same seeds, so it can
compute what each call must give it). Prints `ok <what>` per check; a failed check raises,
which ends the job."""

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.mint import distributed as dist

dist.init_process_group()
RANK, SIZE = dist.get_rank(), dist.get_world_size()
assert dist.is_initialized() and dist.is_available()


def data(seed, shape=(2 * SIZE, 3)):
    return [np.random.default_rng([seed, r]).standard_normal(shape).astype(np.float32)
            for r in range(SIZE)]


def close(got, want, what):
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5, err_msg=what)


def ok(what):
    print(f"ok {what}", flush=True)


# ---- all_reduce: every op, sync and async, in place; its gradient ----
xs = data(1)
for op, ref in (("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod),
                ("avg", np.mean)):
    for async_op in (False, True):
        t = Tensor(xs[RANK].copy())
        handle = dist.all_reduce(t, op, async_op=async_op)
        if async_op:
            handle.wait()
        else:
            assert handle is None
        close(t.asnumpy(), ref(np.stack(xs), axis=0), f"all_reduce {op} {async_op}")
ok("all_reduce values")

ws = data(2)


def loss_reduce(x):
    y = x * 1.0  # the write replaces y on the tape, x is the leaf
    dist.all_reduce(y)
    return (y * Tensor(ws[RANK])).sum()


g = ms.grad(loss_reduce)(Tensor(xs[RANK]))
close(g.asnumpy(), np.sum(ws, axis=0), "all_reduce gradient")


def loss_avg(x):
    y = x * 1.0
    dist.all_reduce(y, "avg")
    return (y * Tensor(ws[RANK])).sum()


close(ms.grad(loss_avg)(Tensor(xs[RANK])).asnumpy(), np.mean(ws, axis=0), "avg gradient")
ok("all_reduce gradient")

# ---- all_gather_into_tensor, all_gather and their gradients ----
for async_op in (False, True):
    out = Tensor(np.zeros((2 * SIZE * SIZE, 3), np.float32))
    h = dist.all_gather_into_tensor(out, Tensor(xs[RANK]), async_op=async_op)
    h and h.wait()
    close(out.asnumpy(), np.concatenate(xs), "all_gather_into_tensor")
    parts = [Tensor(np.zeros((2 * SIZE, 3), np.float32)) for _ in range(SIZE)]
    h = dist.all_gather(parts, Tensor(xs[RANK]), async_op=async_op)
    h and h.wait()
    for r in range(SIZE):
        close(parts[r].asnumpy(), xs[r], "all_gather")
big_w = data(3, (2 * SIZE * SIZE, 3))


def loss_gather(x):
    out = Tensor(np.zeros((2 * SIZE * SIZE, 3), np.float32))
    dist.all_gather_into_tensor(out, x)
    return (out * Tensor(big_w[RANK])).sum()


want = np.sum(big_w, axis=0).reshape(SIZE, 2 * SIZE, 3)[RANK]
close(ms.grad(loss_gather)(Tensor(xs[RANK])).asnumpy(), want, "all_gather_into_tensor grad")


def loss_gather_list(x):
    parts = [Tensor(np.zeros((2 * SIZE, 3), np.float32)) for _ in range(SIZE)]
    dist.all_gather(parts, x)
    return sum((p * Tensor(ws[r])).sum() * (r + 1) for r, p in enumerate(parts))


want = SIZE * (RANK + 1) * ws[RANK]  # every process's loss weighs x_r by (r + 1) * ws[r]
close(ms.grad(loss_gather_list)(Tensor(xs[RANK])).asnumpy(), want, "all_gather grad")
ok("all_gather")

# ---- reduce_scatter_tensor, reduce_scatter and their gradients ----
block = slice(2 * RANK, 2 * RANK + 2)
for op, ref in (("sum", np.sum), ("max", np.max), ("avg", np.mean)):
    for async_op in (False, True):
        out = Tensor(np.zeros((2, 3), np.float32))
        h = dist.reduce_scatter_tensor(out, Tensor(xs[RANK]), op, async_op=async_op)
        h and h.wait()
        close(out.asnumpy(), ref(np.stack(xs), axis=0)[block], f"reduce_scatter_tensor {op}")
lists = [data(10 + q, (2, 3)) for q in range(SIZE)]  # lists[q][r]: process r's input q
for async_op in (False, True):
    out = Tensor(np.zeros((2, 3), np.float32))
    h = dist.reduce_scatter(out, [Tensor(lists[q][RANK]) for q in range(SIZE)],
                            async_op=async_op)
    h and h.wait()
    close(out.asnumpy(), np.sum(lists[RANK], axis=0), "reduce_scatter")
small_w = data(4, (2, 3))


def loss_rs(x):
    out = Tensor(np.zeros((2, 3), np.float32))
    dist.reduce_scatter_tensor(out, x)
    return (out * Tensor(small_w[RANK])).sum()


close(ms.grad(loss_rs)(Tensor(xs[RANK])).asnumpy(), np.concatenate(small_w),
      "reduce_scatter_tensor grad")


def loss_rs_list(*inputs):
    out = Tensor(np.zeros((2, 3), np.float32))
    dist.reduce_scatter(out, list(inputs))
    return (out * Tensor(small_w[RANK])).sum()


grads = ms.grad(loss_rs_list, grad_position=tuple(range(SIZE)))(
    *[Tensor(lists[q][RANK]) for q in range(SIZE)])
for q in range(SIZE):
    close(grads[q].asnumpy(), small_w[q], "reduce_scatter grad")
ok("reduce_scatter")

# ---- broadcast and reduce, with gradients ----
src = SIZE - 1
for async_op in (False, True):
    t = Tensor(xs[RANK].copy())
    h = dist.broadcast(t, src, async_op=async_op)
    h and h.wait()
    close(t.asnumpy(), xs[src], "broadcast")


def loss_bcast(x):
    y = x * 1.0
    dist.broadcast(y, src)
    return (y * Tensor(ws[RANK])).sum()


want = np.sum(ws, axis=0) if RANK == src else np.zeros_like(ws[0])
close(ms.grad(loss_bcast)(Tensor(xs[RANK])).asnumpy(), want, "broadcast grad")
for op, ref in (("sum", np.sum), ("max", np.max), ("avg", np.mean)):
    for async_op in (False, True):
        t = Tensor(xs[RANK].copy())
        h = dist.reduce(t, 0, op, async_op=async_op)
        h and h.wait()
        close(t.asnumpy(), ref(np.stack(xs), axis=0) if RANK == 0 else xs[RANK], f"reduce {op}")


def loss_reduce_to(x):
    y = x * 1.0
    dist.reduce(y, 0)
    return (y * Tensor(ws[RANK])).sum()


want = ws[0] if RANK == 0 else ws[0] + ws[RANK]
close(ms.grad(loss_reduce_to)(Tensor(xs[RANK])).asnumpy(), want, "reduce grad")
ok("broadcast reduce")

# ---- scatter, gather, all_to_all, all_to_all_single, uneven ----
pieces = data(20, (2, 3))  # process 0 scatters pieces[r] to r
out = Tensor(np.zeros((2, 3), np.float32))
dist.scatter(out, [Tensor(p) for p in pieces] if RANK == 0 else [], src=0)
close(out.asnumpy(), pieces[RANK], "scatter")
slots = [Tensor(np.zeros((2, 3), np.float32)) for _ in range(SIZE)]
h = dist.gather(Tensor(pieces[RANK] * 2), slots if RANK == SIZE - 1 else [], dst=SIZE - 1,
                async_op=True)
h.wait()
if RANK == SIZE - 1:
    for r in range(SIZE):
        close(slots[r].asnumpy(), pieces[r] * 2, "gather")
# process r sends (r + 1) * 10 + q, of q + 1 elements, to process q
inputs = [Tensor(np.full(q + 1, (RANK + 1) * 10 + q, np.float32)) for q in range(SIZE)]
outputs = [Tensor(np.zeros(RANK + 1, np.float32)) for _ in range(SIZE)]
dist.all_to_all(outputs, inputs)
for r in range(SIZE):
    close(outputs[r].asnumpy(), np.full(RANK + 1, (r + 1) * 10 + RANK), "all_to_all")
x = Tensor(np.arange(SIZE * 2 * 3, dtype=np.float32).reshape(SIZE * 2, 3) + 100 * RANK)
y = Tensor(np.zeros((SIZE * 2, 3), np.float32))
dist.all_to_all_single(y, x)
want = np.concatenate([(np.arange(SIZE * 6).reshape(SIZE * 2, 3) + 100 * r)[2 * RANK:2 * RANK + 2]
                       for r in range(SIZE)])
close(y.asnumpy(), want, "all_to_all_single")
# uneven: process r contributes r + 1 rows
splits = [r + 1 for r in range(SIZE)]
mine = Tensor(np.full((RANK + 1, 2), RANK, np.float32))
whole = Tensor(np.zeros((sum(splits), 2), np.float32))
dist.all_gather_into_tensor_uneven(whole, mine, splits)
close(whole.asnumpy(), np.concatenate([np.full((r + 1, 2), r) for r in range(SIZE)]),
      "all_gather_into_tensor_uneven")
summed = Tensor(np.zeros((RANK + 1, 2), np.float32))
dist.reduce_scatter_tensor_uneven(summed, Tensor(np.ones((sum(splits), 2), np.float32)), splits)
close(summed.asnumpy(), np.full((RANK + 1, 2), SIZE), "reduce_scatter_tensor_uneven")
ok("exchange")

# ---- point to point ----
peer = (RANK + 1) % SIZE
came_from = (RANK - 1) % SIZE
if RANK % 2 == 0:
    dist.send(Tensor(np.full(3, RANK, np.float32)), peer)
    got = Tensor(np.zeros(3, np.float32))
    assert dist.recv(got, came_from) == 0
else:
    got = Tensor(np.zeros(3, np.float32))
    dist.recv(got, came_from)
    dist.send(Tensor(np.full(3, RANK, np.float32)), peer)
close(got.asnumpy(), np.full(3, came_from), "send/recv")
got = Tensor(np.zeros(3, np.int64))
handles = [dist.isend(Tensor(np.full(3, RANK, np.int64)), peer), dist.irecv(got, came_from)]
for h in handles:
    h.wait()
close(got.asnumpy(), np.full(3, came_from), "isend/irecv")
got = Tensor(np.zeros(2, np.float32))
ops_list = [dist.P2POp(dist.isend, Tensor(np.full(2, RANK + 0.5, np.float32)), peer),
            dist.P2POp("irecv", got, came_from)]
(handle,) = dist.batch_isend_irecv(ops_list)
handle.wait()
close(got.asnumpy(), np.full(2, came_from + 0.5), "batch_isend_irecv")
ok("p2p")

# ---- objects ----
everyone = [None] * SIZE
dist.all_gather_object(everyone, {"rank": RANK, "text": "x" * RANK})
assert everyone == [{"rank": r, "text": "x" * r} for r in range(SIZE)], everyone
objs = [["from", 0], {"k": 1.5}] if RANK == 0 else [None, None]
dist.broadcast_object_list(objs, src=0)
assert objs == [["from", 0], {"k": 1.5}], objs
got = [None] * SIZE if RANK == 0 else None
dist.gather_object(("r", RANK), got, dst=0)
if RANK == 0:
    assert got == [("r", r) for r in range(SIZE)], got
one = [None]
dist.scatter_object_list(one, [f"for {r}" * (r + 1) for r in range(SIZE)] if RANK == 1 else None,
                         src=1)
assert one == [f"for {RANK}" * (RANK + 1)], one
if RANK == 0:
    dist.send_object_list([{"a": [1, 2]}, "two"], dst=1)
elif RANK == 1:
    box = [None, None]
    dist.recv_object_list(box, src=0)
    assert box == [{"a": [1, 2]}, "two"], box
ok("objects")

# ---- groups: new_group, ranks, a collective in a sub-group ----
pair = dist.new_group([1, 0])
assert pair == dist.new_group([0, 1]) and pair.startswith("hccl_2_"), pair
assert dist.get_process_group_ranks(pair) == [0, 1]
assert dist.get_backend(pair) == "hccl"
alone = dist.new_group([RANK])
assert dist.get_world_size(alone) == 1 and dist.get_rank(alone) == 0
if RANK < 2:
    t = Tensor(np.array([RANK + 1.0], np.float32))
    dist.all_reduce(t, group=pair)
    close(t.asnumpy(), [3.0], "group all_reduce")
    assert dist.get_group_rank(pair, RANK) == RANK and dist.get_global_rank(pair, RANK) == RANK
dist.barrier()
h = dist.barrier(async_op=True)
h.wait()
ops.set_comm_ops_inplace(False, ["all_reduce", "recv"])  # MindSpore's other mode of ops
t = Tensor(np.array([RANK + 1.0], np.float32))
out, handle = ops.all_reduce(t)
assert handle is None and t.asnumpy()[0] == RANK + 1
close(out.asnumpy(), [SIZE * (SIZE + 1) / 2], "ops.all_reduce other mode")
if RANK == 0:
    ops.send(Tensor(np.full(2, 5.0, np.float32)), 1)
elif RANK == 1:
    close(ops.recv(Tensor(np.zeros(2, np.float32)), 0).asnumpy(), [5, 5], "ops.recv other mode")
ops.set_comm_ops_inplace(True)
ok("groups")
dist.destroy_process_group(pair)
dist.destroy_process_group()
assert not dist.is_initialized()
ok("destroyed")
