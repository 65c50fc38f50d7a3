"""`mint.nn.SyncBatchNorm` on N processes against `mint.nn.BatchNorm*` in one process on the
concatenated batch: outputs, input/weight/bias gradients and running statistics over three
training steps, then evaluation. Prints `ok <what>`; a failed check ends the job."""

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, mint
from cellgrad.mint import distributed as dist

dist.init_process_group()
RANK, SIZE = dist.get_rank(), dist.get_world_size()


def close(got, want, what, tol=2e-5):
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol, err_msg=what)


def check(shape, plain_cls, what, momentum=0.1, process_group=None):
    c = shape[1]
    sync = mint.nn.SyncBatchNorm(c, momentum=momentum, process_group=process_group)
    plain = plain_cls(c, momentum=momentum)
    for cell in (sync, plain):
        cell.set_train(True)
    rng = np.random.default_rng(7)
    for step in range(3):
        whole = (rng.standard_normal((SIZE * shape[0],) + shape[1:]) * 3 + 1).astype(np.float32)
        w = rng.standard_normal(whole.shape).astype(np.float32)
        mine = slice(RANK * shape[0], (RANK + 1) * shape[0])

        def loss(cell, weights):
            return lambda x: (cell(x) * Tensor(weights) + cell(x) ** 2 * 0.1).sum()

        params = [sync.weight, sync.bias]
        (ys, (gx, gp)) = ms.value_and_grad(loss(sync, w[mine]), 0, params)(Tensor(whole[mine]))
        (yp, (px, pp)) = ms.value_and_grad(loss(plain, w), 0, [plain.weight, plain.bias])(
            Tensor(whole))
        # the single process's loss is the sum of every process's losses
        close(gx.asnumpy(), px.asnumpy()[mine], f"{what} input gradient step {step}", 1e-4)
        total = [np.zeros(c, np.float32), np.zeros(c, np.float32)]
        for i, g in enumerate(gp):
            t = Tensor(g.asnumpy().copy())
            dist.all_reduce(t)
            total[i] = t.asnumpy()
        close(total[0], pp[0].asnumpy(), f"{what} weight gradient", 1e-4)
        close(total[1], pp[1].asnumpy(), f"{what} bias gradient", 1e-4)
        close(sync(Tensor(whole[mine])).asnumpy(), plain(Tensor(whole)).asnumpy()[mine],
              f"{what} output")
    close(sync.running_mean.asnumpy(), plain.running_mean.asnumpy(), f"{what} running_mean")
    close(sync.running_var.asnumpy(), plain.running_var.asnumpy(), f"{what} running_var")
    assert int(sync.num_batches_tracked.asnumpy()) == int(plain.num_batches_tracked.asnumpy())
    sync.set_train(False)
    plain.set_train(False)
    x = Tensor(np.random.default_rng(RANK).standard_normal(shape).astype(np.float32))
    close(sync(x).asnumpy(), plain(x).asnumpy(), f"{what} evaluation")
    print(f"ok {what}", flush=True)


check((3, 4, 5, 2), mint.nn.BatchNorm2d, "2d")
check((5, 3, 4), mint.nn.BatchNorm1d, "1d")
check((4, 3), mint.nn.BatchNorm1d, "2-D input", momentum=0.3)
check((2, 3, 2, 2, 3), mint.nn.BatchNorm3d, "3d", process_group=dist.new_group(list(range(SIZE))))


# A PyTorch-style data-parallel loop: gradients averaged with mint.distributed.all_reduce('avg')
# after each backward; three SGD steps equal one process's on the whole batch.
def net(norm):
    ms.set_seed(3)
    return ms.nn.SequentialCell([mint.nn.Linear(4, 6), norm(6), mint.nn.ReLU(),
                                 mint.nn.Linear(6, 2)])


mine_net, whole_net = net(mint.nn.SyncBatchNorm), net(mint.nn.BatchNorm1d)
for model in (mine_net, whole_net):
    model.set_train(True)
opts = [ms.nn.SGD(m.trainable_params(), 0.1) for m in (mine_net, whole_net)]
rng = np.random.default_rng(11)
for _step in range(3):
    x = rng.standard_normal((SIZE * 4, 4)).astype(np.float32)
    y = rng.standard_normal((SIZE * 4, 2)).astype(np.float32)
    part = slice(RANK * 4, RANK * 4 + 4)

    def mse(model):
        return lambda a, b: ((model(a) - b) ** 2).mean()

    _, grads = ms.value_and_grad(mse(mine_net), None, mine_net.trainable_params())(
        Tensor(x[part]), Tensor(y[part]))
    for g in grads:
        dist.all_reduce(g, "avg")
    opts[0](grads)
    _, whole = ms.value_and_grad(mse(whole_net), None, whole_net.trainable_params())(
        Tensor(x), Tensor(y))
    opts[1](whole)
for a, b in zip(mine_net.trainable_params(), whole_net.trainable_params()):
    close(a.asnumpy(), b.asnumpy(), f"data-parallel {a.name}", 1e-5)
print("ok data parallel", flush=True)
