"""Buckets start all-reducing during the backward walk, in place, with nothing allocated per
step: a TrainOneStepCell on an MLP with one parameter per bucket (a tiny bucket size).

With CELLGRAD_SHM_REDUCE=0 the buckets use MPI's Iallreduce (as across hosts) and must start
during the walk; otherwise (one host) they live in a shared-memory window and are reduced
there when the walk is done: no bucket is started on its own."""

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad.communication import get_group_size, get_rank, init
from cellgrad_distributed import buckets as buckets_module

init()
RANK, SIZE = get_rank(), get_group_size()
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True,
                             comm_fusion={"allreduce": {"mode": "size", "config": 1e-6}})

starts = []  # for each bucket started: which parameters had their gradient ready then
original = buckets_module.GradBuckets._start_ready


def spy(self):
    before = self.next
    original(self)
    starts.extend([list(self.ready)] * (self.next - before))


buckets_module.GradBuckets._start_ready = spy

ms.set_seed(3)
net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 16), nn.ReLU(),
                         nn.Dense(16, 3)])
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.1),
                           return_grad=True)
reducer = step.grad_reducer
flats = [b.flat for b in reducer._buckets.buckets]
assert len(flats) == 6, len(flats)  # one bucket per parameter
rng = np.random.default_rng(RANK)
x = Tensor(rng.standard_normal((4, 8)).astype(np.float32))
y = Tensor(rng.integers(0, 3, 4).astype(np.int32))

params = net.trainable_params()
local = ms.grad(lambda a, b: loss(net(a), b), None, params)(x, y)  # hooks idle: plain arrays
assert not any(np.shares_memory(g.asnumpy(), f) for g in local for f in flats)
_, grads = step(x, y)
if reducer._buckets.shared is None:
    # The first bucket (the last layer's bias) started while the first layer's weight, whose
    # gradient the walk computes last, was not ready: the all-reduce overlapped the backward.
    assert len(starts) == 6, len(starts)
    assert not starts[0][0], starts[0]
    assert sum(starts[0]) < len(starts[0])
    print("ok overlap")
else:
    assert starts == [], starts
    segments = reducer._buckets.shared.views
    assert all(b.flat is views[RANK] for b, views in zip(reducer._buckets.buckets, segments))
    print("ok shared")

# The gradients handed to the optimizer are the averaged sums, in views of the buckets.
for p, g, mine in zip(params, grads, local):
    assert any(np.shares_memory(g.asnumpy(), f) for f in flats), p.name
    want = ms.ops.AllReduce()(mine).asnumpy() / SIZE
    np.testing.assert_allclose(g.asnumpy(), want, rtol=1e-6, atol=1e-7, err_msg=p.name)
arrivals = []  # per gradient put in a bucket: whether the rule computed it in its slot
original_put = buckets_module.GradBuckets.put


def spy_put(self, i, g):
    arrivals.append(g is self.views[i])
    return original_put(self, i, g)


buckets_module.GradBuckets.put = spy_put
for _ in range(2):  # steady state: the same buffers and the same Tensors every step
    _, again = step(x, y)
    assert all(b.flat is f for b, f in zip(reducer._buckets.buckets, flats))
    assert all(a is b for a, b in zip(again, grads))
# Dense's rule wrote every weight and bias gradient straight into its bucket slot (the
# leaves' grad_buffer), and only while the step ran: nothing was copied in.
assert arrivals == [True] * 12, arrivals
assert all(p._node.grad_buffer is None for p in params)
buckets_module.GradBuckets.put = original_put
print("ok in place")

# A hook put on a parameter after the reducer (as Tensor.register_hook does) sees the
# gradient first: what it returns is what gets reduced.
bias = params[-1]
bias._node.hooks.append(lambda node, gs: None if gs is None else (gs[0] * 2,))
local = ms.grad(lambda a, b: loss(net(a), b), None, params)(x, y)
_, grads = step(x, y)
np.testing.assert_allclose(grads[-1].asnumpy(), ms.ops.AllReduce()(local[-1]).asnumpy() / SIZE,
                           rtol=1e-6, atol=1e-7)
assert np.shares_memory(grads[-1].asnumpy(), flats[0])
print("ok hook order")

# A reducer used by hand (MindSpore's custom training loop) gives the same sums.
ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 1}})
manual = nn.DistributedGradReducer(params, mean=False)
reduced = manual(local)
everyone = [Tensor(g.asnumpy()) for g in local]
for g, r in zip(everyone, reduced):
    want = ms.ops.AllReduce()(g).asnumpy()
    np.testing.assert_allclose(r.asnumpy(), want, rtol=1e-6, atol=1e-7)
print("ok manual")
