"""Every collective against numpy on random data, and its gradient, on N processes.

Each process draws every process's data from the same seeds, so it can compute with numpy what
each collective must return and what gradient each process must get. The loss of process r is
sum(w_r * output_r); the gradient the collectives' rules give process r is the gradient of the
sum of all processes' losses with respect to its input.
"""

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.communication import create_group, get_group_size, get_rank, init
from cellgrad.communication.comm_func import (
    all_gather_into_tensor,
    all_reduce,
    barrier,
    broadcast,
    reduce_scatter_tensor,
)

init()
RANK, SIZE = get_rank(), get_group_size()
SHAPE = (2 * SIZE, 3)


def data(seed, shape=SHAPE, positive=False):
    """Every process's array for `seed`: a list indexed by rank."""
    arrays = [np.random.default_rng([seed, r]).standard_normal(shape).astype(np.float32)
              for r in range(SIZE)]
    return [np.abs(a) + 0.5 for a in arrays] if positive else arrays


def close(got, want, what):
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5, err_msg=what)


def check_reduce(op, reference, grad_reference, positive=False):
    xs, ws = data(1, positive=positive), data(2)
    x = Tensor(xs[RANK])
    y = ops.AllReduce(op)(x)
    close(y.asnumpy(), reference(np.stack(xs)), f"AllReduce {op}")
    g = ms.grad(lambda a: (ops.AllReduce(op)(a) * Tensor(ws[RANK])).sum())(x)
    close(g.asnumpy(), grad_reference(xs, ws), f"grad AllReduce {op}")
    print(f"ok AllReduce {op}")


def grad_max_min(fn):
    def reference(xs, ws):
        extreme = fn(np.stack(xs), axis=0)
        return sum(ws) * (xs[RANK] == extreme)
    return reference


check_reduce("sum", lambda s: s.sum(0), lambda xs, ws: sum(ws))
check_reduce("max", lambda s: s.max(0), grad_max_min(np.max))
check_reduce("min", lambda s: s.min(0), grad_max_min(np.min))
check_reduce("prod", lambda s: s.prod(0),
             lambda xs, ws: sum(ws) * np.prod(np.stack(xs), 0) / xs[RANK], positive=True)

# AllGather: concatenation along axis 0; gradient = the sum of the processes' w, block r.
xs, ws = data(3), data(4, (SIZE * SHAPE[0], SHAPE[1]))
x = Tensor(xs[RANK])
close(ops.AllGather()(x).asnumpy(), np.concatenate(xs), "AllGather")
g = ms.grad(lambda a: (ops.AllGather()(a) * Tensor(ws[RANK])).sum())(x)
block = slice(RANK * SHAPE[0], (RANK + 1) * SHAPE[0])
close(g.asnumpy(), sum(ws)[block], "grad AllGather")
print("ok AllGather")

# ReduceScatter: block r of the sum; gradient = every process's w, concatenated.
xs, ws = data(5), data(6, (2, SHAPE[1]))
x = Tensor(xs[RANK])
close(ops.ReduceScatter()(x).asnumpy(), sum(xs)[2 * RANK:2 * RANK + 2], "ReduceScatter")
g = ms.grad(lambda a: (ops.ReduceScatter()(a) * Tensor(ws[RANK])).sum())(x)
close(g.asnumpy(), np.concatenate(ws), "grad ReduceScatter")
try:
    ops.ReduceScatter()(Tensor(np.ones((2 * SIZE + 1, 2), np.float32)))
except ValueError as exc:
    assert str(exc) == (f"For 'ReduceScatter', the first dimension of the input "
                        f"({2 * SIZE + 1}, 2) must be divisible by the group size {SIZE}."), exc
else:
    raise AssertionError("ReduceScatter accepted a first dimension the group does not divide")
print("ok ReduceScatter")

# Broadcast from the last process: its gradient is the sum of all w, the others' zero.
root = SIZE - 1
xs, ws = data(7), data(8)
x = Tensor(xs[RANK])
(y,) = ops.Broadcast(root)((x,))
close(y.asnumpy(), xs[root], "Broadcast")
g = ms.grad(lambda a: (ops.Broadcast(root)((a,))[0] * Tensor(ws[RANK])).sum())(x)
close(g.asnumpy(), sum(ws) if RANK == root else np.zeros(SHAPE), "grad Broadcast")
print("ok Broadcast")

# Functional forms: (output, handle) tuples, async handles, src as a world rank.
xs = data(9)
x = Tensor(xs[RANK])
out, handle = all_reduce(x)
assert handle is None
close(out.asnumpy(), sum(xs), "all_reduce")
out, handle = all_reduce(x, "max", async_op=True)
handle.wait()
close(out.asnumpy(), np.max(np.stack(xs), 0), "all_reduce async")
out, handle = all_gather_into_tensor(x, async_op=True)
handle.wait()
close(out.asnumpy(), np.concatenate(xs), "all_gather_into_tensor")
out, _ = reduce_scatter_tensor(x)
close(out.asnumpy(), sum(xs)[2 * RANK:2 * RANK + 2], "reduce_scatter_tensor")
close(broadcast(x, src=0).asnumpy(), xs[0], "broadcast")
barrier()
print("ok comm_func")

# Other dtypes: integers exactly, float16 summed in float32.
ints = [np.arange(6, dtype=np.int32).reshape(2, 3) * (r + 1) for r in range(SIZE)]
got = ops.AllReduce()(Tensor(ints[RANK]))
assert got.dtype == ms.int32 and (got.asnumpy() == sum(ints)).all()
halves = [a.astype(np.float16) for a in data(10)]
got = ops.AllReduce()(Tensor(halves[RANK]))
assert got.dtype == ms.float16
close(got.asnumpy(), sum(h.astype(np.float32) for h in halves).astype(np.float16), "float16")
print("ok dtypes")

# A user group: the reverse order of the world ranks, so group ranks differ from world ones.
ranks = list(range(SIZE))[::-1]
create_group("reversed", ranks)
assert get_rank("reversed") == ranks.index(RANK)
assert get_group_size("reversed") == SIZE
xs = data(11)
got = ops.AllGather("reversed")(Tensor(xs[RANK]))
close(got.asnumpy(), np.concatenate([xs[r] for r in ranks]), "AllGather on a group")
print("ok group")
