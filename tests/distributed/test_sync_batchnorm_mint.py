"""`mint.nn.SyncBatchNorm` in one process is `mint.nn.BatchNorm*`: outputs, gradients, running
statistics (momentum and the cumulative average), evaluation; MindSpore's parameter names,
signature and errors. Across processes against BatchNorm on the whole batch:
test_mint_distributed_mpi.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, mint
from cellgrad.testing import gradcheck

PLAIN = {2: mint.nn.BatchNorm1d, 3: mint.nn.BatchNorm1d, 4: mint.nn.BatchNorm2d,
         5: mint.nn.BatchNorm3d}


def _x(shape, seed=0, dtype=np.float32):
    return Tensor((np.random.default_rng(seed).standard_normal(shape) * 2 + 1).astype(dtype))


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 2, 3)])
@pytest.mark.parametrize("momentum", [0.1, 0.7])
def test_one_process_is_batchnorm(world, shape, momentum):
    sync = mint.nn.SyncBatchNorm(3, momentum=momentum)
    plain = PLAIN[len(shape)](3, momentum=momentum)
    w = _x(shape, 1)
    for step in range(3):
        x = _x(shape, 10 + step)
        for cell in (sync, plain):
            cell.set_train(True)

        def loss(cell):
            return lambda a: (cell(a) * w).sum()

        ys, gs = ms.value_and_grad(loss(sync), 0, [sync.weight, sync.bias])(x)
        yp, gp = ms.value_and_grad(loss(plain), 0, [plain.weight, plain.bias])(x)
        np.testing.assert_allclose(ys.asnumpy(), yp.asnumpy(), rtol=1e-5, atol=1e-5)
        for got, want in zip((gs[0], *gs[1]), (gp[0], *gp[1])):
            np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-4, atol=1e-5)
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(getattr(sync, name).asnumpy(), getattr(plain, name).asnumpy(),
                                   rtol=1e-5, atol=1e-6)
    sync.set_train(False)
    plain.set_train(False)
    x = _x(shape, 5)
    np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_momentum_none_is_the_cumulative_average(world):
    # mint.nn.BatchNorm* do not take momentum=None: checked against the batches' statistics
    cell = mint.nn.SyncBatchNorm(3, momentum=None)
    cell.set_train(True)
    means, variances = [], []
    for step in range(4):
        x = _x((5, 3, 2), 20 + step).asnumpy()
        cell(Tensor(x))
        means.append(x.mean(axis=(0, 2)))
        variances.append(x.var(axis=(0, 2), ddof=1))
    np.testing.assert_allclose(cell.running_mean.asnumpy(), np.mean(means, 0), rtol=1e-5)
    np.testing.assert_allclose(cell.running_var.asnumpy(), np.mean(variances, 0), rtol=1e-5)
    assert int(cell.num_batches_tracked.asnumpy()) == 4


def test_the_synchronised_path_in_a_world_of_one_is_batchnorm(world):
    """The all-reduced statistics and the op's backward (what N processes run), on one."""
    from cellgrad_distributed import world as groups

    sync = mint.nn.SyncBatchNorm(3, momentum=0.2)
    plain = mint.nn.BatchNorm2d(3, momentum=0.2)
    plain.set_train(True)
    x = _x((4, 3, 2, 3), 3)
    group = groups.world()
    g_sync = ms.grad(lambda a: (sync._synchronised(a, group, 0.2) ** 3).sum())(x)
    g_plain = ms.grad(lambda a: (plain(a) ** 3).sum())(x)
    np.testing.assert_allclose(g_sync.asnumpy(), g_plain.asnumpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(sync.running_var.asnumpy(), plain.running_var.asnumpy(),
                               rtol=1e-5)
    np.testing.assert_allclose(sync.running_mean.asnumpy(), plain.running_mean.asnumpy(),
                               rtol=1e-5, atol=1e-7)


def test_gradcheck_of_the_synchronised_op(world):
    from cellgrad_distributed import world as groups

    sync = mint.nn.SyncBatchNorm(2, dtype=ms.float64)
    sync.weight.set_data(Tensor(np.array([1.5, -0.5])))
    w = _x((3, 2, 2), 4, np.float64)
    assert gradcheck(lambda a: sync._synchronised(a, groups.world(), 0.1) * w,
                     _x((3, 2, 2), 5, np.float64))


def test_parameters_and_repr_as_mindspore(world):
    cell = mint.nn.SyncBatchNorm(4)
    params = [(p.name, p.shape, p.requires_grad) for p in cell.get_parameters()]
    assert params == [("weight", (4,), True), ("bias", (4,), True),
                      ("running_mean", (4,), False), ("running_var", (4,), False),
                      ("num_batches_tracked", (), False)]
    assert cell.num_batches_tracked.dtype == ms.int64
    assert cell.process_group == "mccl_world_group"
    assert repr(cell) == ("SyncBatchNorm(num_features=4, eps=1e-05, momentum=0.1, affine=True, "
                          "track_running_stats=True)")
    from cellgrad.mint import distributed as dist

    assert mint.nn.SyncBatchNorm(2, process_group=dist.new_group([0])).process_group == \
        "hccl_1_b6589fc6ab0dc82cf12099d1c2d40ab994e8410c"


def test_without_running_stats_it_always_uses_the_batch(world):
    cell = mint.nn.SyncBatchNorm(3, track_running_stats=False)
    cell.set_train(False)
    x = _x((5, 3), 2)
    want = (x.asnumpy() - x.asnumpy().mean(0)) / np.sqrt(x.asnumpy().var(0) + 1e-5)
    np.testing.assert_allclose(cell(x).asnumpy(), want, rtol=1e-4, atol=1e-5)
    assert cell.running_mean is None


@pytest.mark.parametrize("make, error, message", [
    (lambda: mint.nn.SyncBatchNorm(0), ValueError, "'num_features' must be a positive int"),
    (lambda: mint.nn.SyncBatchNorm(3, momentum=1.5), ValueError, r"in range \[0, 1\]"),
    (lambda: mint.nn.SyncBatchNorm(3, process_group=[0, 1]), TypeError, "group name"),
    (lambda: mint.nn.SyncBatchNorm(3)(_x((3,))), ValueError, "expected at least 2D input"),
    (lambda: mint.nn.SyncBatchNorm(3)(_x((2, 0))), ValueError, "channels should be non-zero"),
    (lambda: mint.nn.SyncBatchNorm(3, process_group="nope"), ValueError, "does not exist"),
])
def test_errors(world, make, error, message):
    with pytest.raises(error, match=message):
        make()
