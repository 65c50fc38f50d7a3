"""`nn.SyncBatchNorm` in one process is BatchNorm: outputs, input and parameter gradients,
moving statistics; MindSpore's arguments and errors. Across processes it is checked against
BatchNorm on the whole batch in test_multiprocess.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn


def _pair(ndim):
    sync = nn.SyncBatchNorm(3, momentum=0.8)
    plain = (nn.BatchNorm2d if ndim == 4 else nn.BatchNorm1d)(3, momentum=0.8)
    return sync, plain


@pytest.mark.parametrize("shape", [(6, 3, 4, 5), (8, 3)])
def test_one_process_is_batchnorm(world, shape):
    sync, plain = _pair(len(shape))
    assert sync.group is None  # a world of one: nothing to synchronise
    x = Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32) * 3 + 1)
    w = Tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    for cell in (sync, plain):
        cell.set_train(True)

    def loss(cell):
        return lambda a: (cell(a) * w).sum()

    params = lambda c: [c.gamma, c.beta]  # noqa: E731
    ys, gs = ms.value_and_grad(loss(sync), 0, params(sync))(x)
    yp, gp = ms.value_and_grad(loss(plain), 0, params(plain))(x)
    np.testing.assert_allclose(ys.asnumpy(), yp.asnumpy(), rtol=1e-5, atol=1e-5)
    for a, b in zip((gs[0], *gs[1]), (gp[0], *gp[1])):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-5)
    for name in ("moving_mean", "moving_variance"):
        np.testing.assert_allclose(getattr(sync, name).asnumpy(),
                                   getattr(plain, name).asnumpy(), rtol=1e-5, atol=1e-6)
    sync.set_train(False)
    plain.set_train(False)
    np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_synchronised_path_in_a_world_of_one_under_a_launcher_env(world):
    """With the world group (as under mpirun) the statistics go through the all-reduce."""
    sync = nn.SyncBatchNorm(2)
    sync.group = "hccl_world_group"
    plain = nn.BatchNorm2d(2)
    x = Tensor(np.random.default_rng(3).standard_normal((4, 2, 3, 3)).astype(np.float32))
    g_sync = ms.grad(lambda a: (sync(a) ** 3).sum())(x)
    g_plain = ms.grad(lambda a: (plain(a) ** 3).sum())(x)
    np.testing.assert_allclose(g_sync.asnumpy(), g_plain.asnumpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(), plain.moving_variance.asnumpy(),
                               rtol=1e-5)


def test_names_and_repr_are_batchnorms(world):
    cell = nn.SequentialCell([nn.SyncBatchNorm(2)])
    assert [p.name for p in cell.get_parameters()] == [
        "0.moving_mean", "0.moving_variance", "0.gamma", "0.beta"]
    assert repr(nn.SyncBatchNorm(2)).startswith("SyncBatchNorm(num_features=2, eps=1e-05, "
                                                "momentum=0.9, gamma=Parameter (name=gamma")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"process_groups": (0,)}, TypeError,
     "For 'SyncBatchNorm', 'process_groups' must be a list of lists of ranks, but got tuple."),
    ({"process_groups": [0]}, TypeError, "each entry of 'process_groups' must be a list"),
    ({"process_groups": [[0, 1]]}, ValueError,
     "For 'SyncBatchNorm', rank id in process_groups must be in [0, 1), but got 1 in [[0, 1]]."),
    ({"process_groups": [[0], [0]]}, ValueError, "must not be duplicated"),
])
def test_bad_process_groups(world, kwargs, error, message):
    with pytest.raises(error) as info:
        nn.SyncBatchNorm(2, **kwargs)
    assert message in str(info.value)


def test_a_group_of_one_is_plain_batchnorm(world):
    assert nn.SyncBatchNorm(2, process_groups=[[0]]).group is None


def test_inputs_must_be_2d_or_4d(world):
    with pytest.raises(ValueError, match=r"For 'SyncBatchNorm', the input must be 2-D or 4-D "
                                         r"\(N, C\) or \(N, C, H, W\), but got shape \(2, 3, 4\)"):
        nn.SyncBatchNorm(3)(Tensor(np.ones((2, 3, 4), np.float32)))
