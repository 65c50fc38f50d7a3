"""`ops.Reduce`, `CollectiveGather`, `CollectiveScatter`, `AlltoAll`, `Barrier`, `Send` and
`Receive` on N processes against numpy, with their gradients (MindSpore's backward rules).
Prints `ok <what>`; a failed check ends the job."""

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.communication import create_group, get_group_size, get_rank, init

init()
RANK, SIZE = get_rank(), get_group_size()
dist_pair = "pair_0_1"
create_group(dist_pair, [0, 1])  # the others get a group they are not in


def data(seed, shape):
    return [np.random.default_rng([seed, r]).standard_normal(shape).astype(np.float32)
            for r in range(SIZE)]


def close(got, want, what):
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5, err_msg=what)


xs, ws = data(1, (2, 3)), data(2, (2, 3))
root = SIZE - 1

# Reduce: the root's output is the sum; its gradient reaches every process from the root
out = ops.Reduce(root)(Tensor(xs[RANK]))
close(out.asnumpy(), np.sum(xs, axis=0) if RANK == root else np.zeros(1), "Reduce")
g = ms.grad(lambda x: (ops.Reduce(root)(x) * (Tensor(ws[RANK]) if RANK == root
                                              else Tensor(np.ones(1, np.float32)))).sum())(
    Tensor(xs[RANK]))
close(g.asnumpy(), ws[root], "Reduce gradient")
print("ok Reduce", flush=True)

# CollectiveGather and CollectiveScatter
out = ops.CollectiveGather(0)(Tensor(xs[RANK]))
close(out.asnumpy(), np.concatenate(xs) if RANK == 0 else np.zeros(1), "CollectiveGather")
big = data(3, (2 * SIZE, 3))
g = ms.grad(lambda x: (ops.CollectiveGather(0)(x) * (Tensor(big[0]) if RANK == 0
                                                    else Tensor(np.ones(1, np.float32)))).sum())(
    Tensor(xs[RANK]))
close(g.asnumpy(), big[0][2 * RANK:2 * RANK + 2], "CollectiveGather gradient")
out = ops.CollectiveScatter(root)(Tensor(big[RANK]))
close(out.asnumpy(), big[root][2 * RANK:2 * RANK + 2], "CollectiveScatter")
g = ms.grad(lambda x: (ops.CollectiveScatter(root)(x) * Tensor(ws[RANK])).sum())(
    Tensor(big[RANK]))
close(g.asnumpy(), np.concatenate(ws) if RANK == root else np.zeros((2 * SIZE, 3)),
      "CollectiveScatter gradient")
print("ok CollectiveGather CollectiveScatter", flush=True)

# AlltoAll: split along axis 1, concatenate along axis 0
x = data(4, (2, 3 * SIZE))
out = ops.AlltoAll(SIZE, 1, 0)(Tensor(x[RANK]))
close(out.asnumpy(), np.concatenate([x[r][:, 3 * RANK:3 * RANK + 3] for r in range(SIZE)]),
      "AlltoAll")
w = data(5, (2 * SIZE, 3))
g = ms.grad(lambda a: (ops.AlltoAll(SIZE, 1, 0)(a) * Tensor(w[RANK])).sum())(Tensor(x[RANK]))
want = np.concatenate([w[q][2 * RANK:2 * RANK + 2] for q in range(SIZE)], axis=1)
close(g.asnumpy(), want, "AlltoAll gradient")
ops.Barrier()()
print("ok AlltoAll", flush=True)

# Send from 0 to 1, whose gradient comes back from 1's Receive
if RANK == 0:
    g = ms.grad(lambda a: ops.Send(7, 1)(a * 2.0).sum())(Tensor(xs[0]))
    close(g.asnumpy(), 2 * ws[1], "Send gradient")
elif RANK == 1:
    recv = ops.Receive(7, 0, [2, 3], ms.float32)

    def loss(dummy):
        got = recv(dummy)
        close(got.asnumpy(), xs[0] * 2, "Receive")
        return (got * Tensor(ws[1])).sum() + dummy * 0

    ms.grad(loss)(Tensor(0.0, ms.float32))
print("ok Send Receive", flush=True)

# the uneven ones: process r holds r + 1 elements
mine = Tensor(np.full(RANK + 1, RANK + 1.0, np.float32))
sizes = [r + 1 for r in range(SIZE)]
whole = np.concatenate([np.full(r + 1, r + 1.0) for r in range(SIZE)])
close(ops.AllGatherV()(mine, sizes).asnumpy(), whole, "AllGatherV")
wv = data(6, (sum(sizes),))
g = ms.grad(lambda a: (ops.AllGatherV()(a, sizes) * Tensor(wv[RANK])).sum())(mine)
close(g.asnumpy(), np.sum(wv, axis=0)[sum(sizes[:RANK]):sum(sizes[:RANK + 1])],
      "AllGatherV gradient")
long = data(7, (sum(sizes),))
out = ops.ReduceScatterV()(Tensor(long[RANK]), sizes)
close(out.asnumpy(), np.sum(long, axis=0)[sum(sizes[:RANK]):sum(sizes[:RANK + 1])],
      "ReduceScatterV")
g = ms.grad(lambda a: (ops.ReduceScatterV()(a, sizes) * Tensor(wv[RANK][:RANK + 1])).sum())(
    Tensor(long[RANK]))
close(g.asnumpy(), np.concatenate([wv[r][:r + 1] for r in range(SIZE)]), "ReduceScatterV grad")
# all-to-all-v: process r sends q + 1 elements valued 10 r + q to process q
send = [q + 1 for q in range(SIZE)]
recv = [RANK + 1] * SIZE
x = Tensor(np.concatenate([np.full(q + 1, 10.0 * RANK + q) for q in range(SIZE)])
           .astype(np.float32))
want = np.concatenate([np.full(RANK + 1, 10.0 * r + RANK) for r in range(SIZE)])
close(ops.AlltoAllV()(x, send, recv).asnumpy(), want, "AlltoAllV")
matrix = [q + 1 for _ in range(SIZE) for q in range(SIZE)]  # [i * size + j]: j + 1 from i to j
close(ops.AlltoAllVC()(x, matrix).asnumpy(), want, "AlltoAllVC")
was = [np.random.default_rng([8, q]).standard_normal((q + 1) * SIZE).astype(np.float32)
       for q in range(SIZE)]  # process q's output weights
g = ms.grad(lambda a: (ops.AlltoAllVC()(a, matrix) * Tensor(was[RANK])).sum())(x)
# block r of process q's output is what process r sent it
want = np.concatenate([was[q][RANK * (q + 1):(RANK + 1) * (q + 1)] for q in range(SIZE)])
close(g.asnumpy(), want, "AlltoAllVC gradient")
assert g.shape == x.shape
print("ok uneven", flush=True)

# NeighborExchange around a ring, both ways at once; its gradient goes back the same way
right, left = (RANK + 1) % SIZE, (RANK - 1) % SIZE
exchange = ops.NeighborExchange([right, left], [left, right], ([2], [3]), ([2], [3]), ms.float32)
a = Tensor(np.full(2, RANK, np.float32))
b = Tensor(np.full(3, 10.0 * RANK, np.float32))
from_left, from_right = exchange((a, b))
close(from_left.asnumpy(), np.full(2, left), "NeighborExchange left")
close(from_right.asnumpy(), np.full(3, 10.0 * right), "NeighborExchange right")
wl = [np.random.default_rng([9, r]).standard_normal(2).astype(np.float32) for r in range(SIZE)]
wr = [np.random.default_rng([10, r]).standard_normal(3).astype(np.float32) for r in range(SIZE)]
ga, gb = ms.grad(lambda p, q: (exchange((p, q))[0] * Tensor(wl[RANK])).sum()
                 + (exchange((p, q))[1] * Tensor(wr[RANK])).sum(), grad_position=(0, 1))(a, b)
close(ga.asnumpy(), wl[right], "NeighborExchange gradient to the right")
close(gb.asnumpy(), wr[left], "NeighborExchange gradient to the left")
sent, got = ops.BatchISendIRecv(("isend", "irecv"), [right, left], [(2,)], (ms.int32,))(
    (Tensor(np.full(2, RANK, np.int32)),))
assert sent.shape == () and got.asnumpy().tolist() == [left, left], got
print("ok NeighborExchange BatchISendIRecv", flush=True)

# the fused tensor-parallel ops are an all-gather and a matmul, a matmul and a reduce-scatter
xs2, w2 = data(11, (2, 4)), data(12, (4, 3))
out, gathered = ops.all_gather_matmul(Tensor(xs2[RANK]), Tensor(w2[0]), "hccl_world_group", SIZE)
close(gathered.asnumpy(), np.concatenate(xs2), "all_gather_matmul gather")
close(out.asnumpy(), np.concatenate(xs2) @ w2[0], "all_gather_matmul")
rows = data(13, (2 * SIZE, 4))
out = ops.matmul_reduce_scatter(Tensor(rows[RANK]), Tensor(w2[0]), "hccl_world_group", SIZE)
close(out.asnumpy(), sum(r @ w2[0] for r in rows)[2 * RANK:2 * RANK + 2], "matmul_reduce_scatter")
print("ok fused matmul", flush=True)

# NeighborExchangeV2: MindSpore's documented example on processes 0 and 1, and its gradient
if RANK < 2:
    none = [-1] * 8
    if RANK == 0:
        ids, lens = none[:4] + [1] + none[5:], [0, 1, 0, 0]  # the bottom neighbour is 1
    else:
        ids, lens = [0] + none[1:], [1, 0, 0, 0]  # the top neighbour is 0
    halo = ops.NeighborExchangeV2(ids, lens, ids, lens, "NCHW", group=dist_pair)
    x = Tensor(np.ones([1, 1, 2, 2], np.float32) * (RANK + 1))
    want = [[[[1, 1], [1, 1], [2, 2]]]] if RANK == 0 else [[[[1, 1], [2, 2], [2, 2]]]]
    close(halo(x).asnumpy(), np.array(want, np.float32), "NeighborExchangeV2")
    wh = [np.random.default_rng([14, r]).standard_normal((1, 1, 3, 2)).astype(np.float32)
          for r in range(2)]
    g = ms.grad(lambda a: (halo(a) * Tensor(wh[RANK])).sum())(x).asnumpy()
    if RANK == 0:  # its bottom row went to 1's top halo
        want = wh[0][:, :, :2].copy()
        want[:, :, 1] += wh[1][:, :, 0]
    else:  # its top row went to 0's bottom halo
        want = wh[1][:, :, 1:].copy()
        want[:, :, 0] += wh[0][:, :, 2]
    close(g, want, "NeighborExchangeV2 gradient")
print("ok NeighborExchangeV2", flush=True)
