"""batch_norm, layer_norm, group_norm and dropout: gradcheck, MindSpore's running statistics,
values, errors, torch."""

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import Parameter, ops


def _stats(c):
    return ms.Tensor(np.linspace(-0.5, 0.5, c)), ms.Tensor(np.linspace(0.5, 2.0, c))


def _bn(training):
    def f(x, w, b):
        rm, rv = _stats(x.shape[1])
        return ops.batch_norm(x, rm, rv, w, b, training=training)

    return f


def _seeded(fn, *args):
    ms.set_seed(3)  # the same mask on every call, so finite differences see one function
    return fn(*args)


def _dropout_fixed(x):
    return _seeded(ops.dropout, x, 0.4)


CASES = [
    Case("nn_normalize", _bn(True), [(4, 3), (3,), (3,)], tag="batch_norm-train"),
    Case("nn_normalize", _bn(True), [(2, 3, 2, 2), (3,), (3,)], tag="batch_norm-train-4d"),
    Case("nn_normalize", _bn(False), [(2, 3, 2, 2), (3,), (3,)], tag="batch_norm-eval"),
    Case("nn_normalize", lambda x, w, b: ops.layer_norm(x, (3, 2), w, b), [(4, 3, 2), (3, 2),
                                                                            (3, 2)],
         tag="layer_norm"),
    Case("nn_normalize", lambda x: ops.layer_norm(x, 4), [(3, 4)], tag="layer_norm-noaffine"),
    Case("nn_normalize", lambda x, w, b: ops.group_norm(x, 2, w, b), [(2, 4, 3), (4,), (4,)],
         tag="group_norm"),
    Case("dropout", _dropout_fixed, [(4, 5)]),
    Case("dropout", lambda x: _seeded(ops.dropout2d, x, 0.5), [(2, 4, 2, 2)], tag="2d"),
]
GRADCHECKED = names(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradgradcheck(case):
    check_second_order(case)


# ---- batch_norm: MindSpore 2.10's numbers (recorded with /work/ms-venv) ----
X = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 5)
ONES3, ZEROS3 = np.ones(3, np.float32), np.zeros(3, np.float32)


def test_batch_norm_training_updates_running_stats_in_place_like_mindspore():
    rm = Parameter(ms.Tensor(ZEROS3), name="rm")
    rv = Parameter(ms.Tensor(ONES3), name="rv")
    y = ops.batch_norm(X, rm, rv, ms.Tensor(ONES3), ms.Tensor(ZEROS3), training=True,
                       momentum=0.1)
    np.testing.assert_allclose(y.asnumpy()[:, 0], [-1.3416258, -0.44720852, 0.4472087,
                                                   1.3416258], rtol=1e-6)
    assert y.dtype == ms.float32
    # running = 0.9 * running + 0.1 * batch, the variance unbiased (0.6, not 0.45)
    np.testing.assert_allclose(rm.asnumpy(), [0.09, 0.11, 0.13], rtol=1e-6)
    np.testing.assert_allclose(rv.asnumpy(), [0.96, 0.96, 0.96], rtol=1e-6)
    plain_mean, plain_var = ms.Tensor(ZEROS3), ms.Tensor(ONES3)  # plain Tensors too
    ops.batch_norm(X, plain_mean, plain_var, ms.Tensor(ONES3), ms.Tensor(ZEROS3), True)
    np.testing.assert_allclose(plain_mean.asnumpy(), [0.09, 0.11, 0.13], rtol=1e-6)


def test_batch_norm_eval_uses_running_stats_and_leaves_them():
    rm, rv = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)), ms.Tensor(np.full(3, 4.0,
                                                                                   np.float32))
    y = ops.batch_norm(X, rm, rv, ms.Tensor(np.full(3, 2.0, np.float32)), ms.Tensor(ONES3))
    expected = (X.asnumpy() - [1, 2, 3]) / np.sqrt(4 + 1e-5) * 2 + 1
    np.testing.assert_allclose(y.asnumpy(), expected, rtol=1e-6, atol=1e-6)
    assert rm.asnumpy().tolist() == [1.0, 2.0, 3.0]


def test_batch_norm_errors():
    rm, rv = ms.Tensor(np.zeros(4, np.float32)), ms.Tensor(np.ones(4, np.float32))
    with pytest.raises(ValueError, match=r"For 'batch_norm', 'weight' must have shape \(3,\) "
                       r"\(the channel dimension 1 of input_x \(4, 3\)\), got "
                       r"Tensor\(shape=\(4,\), dtype=Float32\)"):
        ops.batch_norm(X, rm, rv, rm, rm)
    with pytest.raises(TypeError, match="For 'batch_norm', 'weight' must be a Tensor, got "
                                        "NoneType"):
        ops.batch_norm(X, rm, rv, None, None)
    with pytest.raises(ValueError, match="For 'batch_norm', 'input_x' must be at least 2-D"):
        ops.batch_norm(ms.Tensor(ONES3), rm, rv, rm, rm)


def test_layer_norm_values_and_errors():
    y = ops.layer_norm(X, (3,), eps=1e-7)  # MindSpore: LayerNorm primitive, epsilon 1e-7
    np.testing.assert_allclose(y.asnumpy()[0], [-1.2247427, 0.0, 1.2247427], rtol=1e-5)
    with pytest.raises(ValueError, match=r"For 'layer_norm', 'normalized_shape' \(4,\) must be "
                                         r"the trailing dimensions of 'input'"):
        ops.layer_norm(X, (4,))
    with pytest.raises(ValueError, match=r"For 'layer_norm', 'weight' must have shape \(3,\)"):
        ops.layer_norm(X, (3,), ms.Tensor(np.ones(4, np.float32)))


def test_group_norm_values_and_errors():
    x = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    y = ops.group_norm(x, 3).asnumpy()  # MindSpore 2.10 prints this row for every group
    np.testing.assert_allclose(y[1, 2], [-1.3416355, -0.4472118, 0.4472118, 1.3416355],
                               rtol=1e-4)
    with pytest.raises(ValueError, match=r"For 'group_norm', the channel count 3 of 'input' "
                                         r"\(2, 3, 4\) must be divisible by 'num_groups' 2"):
        ops.group_norm(x, 2)


# ---- dropout ----
def test_dropout_zeroes_and_scales_and_follows_the_seed():
    x = ms.Tensor(np.ones((100, 100), np.float32))
    ms.set_seed(7)
    a = ops.dropout(x, p=0.3).asnumpy()
    ms.set_seed(7)
    b = ops.dropout(x, p=0.3).asnumpy()
    assert a.dtype == np.float32 and (a == b).all()
    assert set(np.unique(a).tolist()) == {0.0, np.float32(1 / 0.7)}
    assert abs((a == 0).mean() - 0.3) < 0.03
    assert ops.dropout(x, p=0.3, training=False) is x and ops.dropout(x, p=0.0) is x
    # An op seed names a stream (MindSpore's rule): calls move it on, set_seed restarts it.
    ms.set_seed(3)
    s1, s2 = (ops.dropout(x, p=0.5, seed=5).asnumpy() for _ in range(2))
    ms.set_seed(3)
    assert (s1 == ops.dropout(x, p=0.5, seed=5).asnumpy()).all() and not (s1 == s2).all()
    ms.set_seed(3)
    assert not (s1 == ops.dropout(x, p=0.5, seed=6).asnumpy()).all()


def test_dropout_gradient_uses_the_same_mask():
    x = ms.Tensor(np.ones((20, 20), np.float32))
    out, g = ms.value_and_grad(lambda t: ops.dropout(t, p=0.5).sum())(x)
    ms.set_seed(1)
    y = ops.dropout(x, p=0.5)
    g = ms.grad(lambda t: (ops.dropout(t, p=0.5) * 1).sum())
    ms.set_seed(1)
    assert (g(x).asnumpy() == y.asnumpy()).all()


def test_dropout_errors():
    x = ms.Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"For 'dropout', 'p' must be in \[0, 1\), got 1.0"):
        ops.dropout(x, p=1.0)
    with pytest.raises(ValueError, match=r"For 'dropout', 'p' must be in \[0, 1\), got -0.1"):
        ops.dropout(x, p=-0.1)
    with pytest.raises(TypeError, match="For 'dropout', 'p' must be a float, got int 1"):
        ops.dropout(x, p=1)
    with pytest.raises(ValueError, match=r"For 'dropout2d', 'input' must be 4-D \(N, C, H, W\)"):
        ops.dropout2d(x)


def test_dropout2d_drops_whole_channels():
    ms.set_seed(2)
    out = ops.dropout2d(ms.Tensor(np.ones((4, 8, 3, 3), np.float32)), 0.5).asnumpy()
    per_channel = out.reshape(4, 8, -1)
    assert ((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all()
    assert 0 < (per_channel == 0).all(-1).sum() < 32


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_against_torch(torch, dtype):
    F = torch.nn.functional
    tol = 1e-10 if dtype == np.float64 else 1e-5
    kw = dict(dtype=dtype, atol=tol, rtol=tol * 10)
    rm = np.linspace(-0.5, 0.5, 3).astype(dtype)
    rv = np.linspace(0.5, 2, 3).astype(dtype)
    for training in (True, False):
        torch_compare(
            torch, [(4, 3, 2, 2), (3,), (3,)],
            lambda x, w, b, t=training: ops.batch_norm(
                x, ms.Tensor(rm.copy()), ms.Tensor(rv.copy()), w, b, t, 0.2),
            lambda x, w, b, t=training: F.batch_norm(
                x, torch.tensor(rm.copy()), torch.tensor(rv.copy()), w, b, t, 0.2), **kw)
    torch_compare(torch, [(4, 3, 2), (3, 2), (3, 2)],
                  lambda x, w, b: ops.layer_norm(x, (3, 2), w, b),
                  lambda x, w, b: F.layer_norm(x, (3, 2), w, b), **kw)
    torch_compare(torch, [(2, 4, 3), (4,), (4,)], lambda x, w, b: ops.group_norm(x, 2, w, b),
                  lambda x, w, b: F.group_norm(x, 2, w, b), **kw)


@pytest.mark.torch
def test_batch_norm_running_stats_match_torch(torch):
    x = np.random.default_rng(0).standard_normal((8, 3, 2, 2))
    rm, rv = ms.Tensor(np.zeros(3)), ms.Tensor(np.ones(3))
    trm, trv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    for _ in range(3):
        ops.batch_norm(ms.Tensor(x), rm, rv, ms.Tensor(np.ones(3)), ms.Tensor(np.zeros(3)),
                       True, 0.3)
        torch.nn.functional.batch_norm(torch.tensor(x), trm, trv, training=True, momentum=0.3)
    np.testing.assert_allclose(rm.asnumpy(), trm.numpy(), rtol=1e-12)
    np.testing.assert_allclose(rv.asnumpy(), trv.numpy(), rtol=1e-12)


def test_dropout1d_and_3d_drop_whole_channels():
    ms.set_seed(4)
    out = ops.dropout1d(ms.Tensor(np.ones((4, 8, 5), np.float32)), 0.5).asnumpy()
    assert ((out == 0).all(-1) | (out == 2).all(-1)).all() and 0 < (out == 0).all(-1).sum() < 32
    unbatched = ops.dropout1d(ms.Tensor(np.ones((8, 5), np.float32)), 0.5).asnumpy()
    assert ((unbatched == 0).all(-1) | (unbatched == 2).all(-1)).all()
    out3 = ops.dropout3d(ms.Tensor(np.ones((2, 8, 2, 2, 2), np.float32)), 0.5).asnumpy()
    per = out3.reshape(2, 8, -1)
    assert ((per == 0).all(-1) | (per == 2).all(-1)).all()
    x = ms.Tensor(np.ones((2, 3, 4), np.float32))
    assert ops.dropout1d(x, 0.5, training=False) is x
    with pytest.raises(ValueError, match=r"For 'dropout3d', 'input' must be 4-D or 5-D "
                                         r"\(N, C, D, H, W\)"):
        ops.dropout3d(x)
    out, mask = ops.Dropout3D(0.5)(ms.Tensor(np.ones((2, 4, 2, 2, 2), np.float32)))
    assert mask.dtype == ms.bool_ and mask.shape == (2, 4, 2, 2, 2)
    np.testing.assert_array_equal(out.asnumpy(), mask.asnumpy() * 2.0)
