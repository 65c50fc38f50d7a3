"""The primitive classes (`ops.ReLU()`, `ops.BatchNorm(...)`, ...): outputs as MindSpore 2.10
returns them (values recorded with /work/ms-venv), argument errors, gradients through them."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, ops
from cellgrad.testing import gradcheck

T = ms.Tensor


def _f(*rows):
    return T(np.array(rows, np.float32))


X = _f(-4.0, -1.0, 0.5, 2.0, 4.0)


@pytest.mark.parametrize("prim, fn", [
    (ops.ReLU(), ops.relu), (ops.ReLU6(), ops.relu6), (ops.Elu(), ops.elu),
    (ops.HSwish(), ops.hardswish), (ops.HSigmoid(), ops.hardsigmoid),
    (ops.Softplus(), ops.softplus), (ops.Softmax(), ops.softmax),
    (ops.LogSoftmax(0), ops.log_softmax), (ops.Softmax((0,)), ops.softmax),
    (ops.GeLU(), lambda x: ops.gelu(x, approximate="tanh")),
])
def test_activation_primitives_match_their_functions(prim, fn):
    assert prim.name == type(prim).__name__ and repr(prim) == f"Prim[{prim.name}]"
    np.testing.assert_array_equal(prim(X).asnumpy(), fn(X).asnumpy())


def test_gelu_primitive_is_the_tanh_approximation_as_in_mindspore():
    np.testing.assert_allclose(ops.GeLU()(_f(-1.0, 2.0, 0.5)).asnumpy(),
                               [-0.158808, 1.9545977, 0.345714], rtol=1e-6)


def test_bias_add_primitive_data_formats():
    x = T(np.zeros((2, 2, 2, 3), np.float32))
    out = ops.BiasAdd("NHWC")(x, _f(1.0, 2.0, 3.0))
    assert out.asnumpy()[1, 1, 0].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="For 'BiasAdd', 'data_format' must be"):
        ops.BiasAdd("NWC")(x, _f(1.0))


def test_batch_norm_primitive_outputs_and_moving_update_as_mindspore():
    x = T((np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.5) / 7)
    rm = Parameter(T(np.full(3, 0.5, np.float32)), name="rm")
    rv = Parameter(T(np.full(3, 2.0, np.float32)), name="rv")
    w, b = _f(1.0, 2.0, 3.0), _f(0.1, 0.2, 0.3)
    outs = ops.BatchNorm(is_training=True, momentum=0.2)(x, w, b, rm, rv)
    assert len(outs) == 5 and all(o.dtype == ms.float32 for o in outs)
    assert outs[1].asnumpy().tolist() == [0, 0, 0] and outs[2].asnumpy().tolist() == [0, 0, 0]
    np.testing.assert_allclose(outs[3].asnumpy(), [3.7132843, 6.172803, 9.2304125], rtol=1e-6)
    np.testing.assert_allclose(outs[4].asnumpy(), [11.925804, 19.161816, 26.14641], rtol=1e-6)
    np.testing.assert_allclose(rm.asnumpy(), [1.1426569, 1.6345606, 2.2460825], rtol=1e-6)
    np.testing.assert_allclose(rv.asnumpy(), [4.325898, 5.979844, 7.5763226], rtol=1e-6)
    evals = ops.BatchNorm()(x, w, b, rm, rv)
    assert all(o.asnumpy().tolist() == [0, 0, 0] for o in evals[1:])
    assert rm.asnumpy()[0] == pytest.approx(1.1426569)
    with pytest.raises(ValueError, match=r"For 'BatchNorm', 'momentum' must be in \[0, 1\]"):
        ops.BatchNorm(momentum=1.5)


def test_batch_norm_primitive_gradients():
    def f(x, w, b):
        return ops.BatchNorm(True)(x, w, b, T(np.zeros(3)), T(np.ones(3)))[0]

    rng = np.random.default_rng(0)
    assert gradcheck(f, T(rng.standard_normal((4, 3, 2))), T(rng.uniform(0.5, 2, 3)),
                     T(rng.standard_normal(3)))


def test_layer_norm_primitive_outputs_as_mindspore():
    x = T(np.arange(12, dtype=np.float32).reshape(4, 3) / 5)
    y, mean, var = ops.LayerNorm()(x, _f(1.0, 1.0, 1.0), _f(0.0, 0.0, 0.0))
    np.testing.assert_allclose(y.asnumpy()[0], [-1.2247427, 0.0, 1.2247427], rtol=1e-6)
    assert mean.shape == (4, 1) and var.shape == (4, 1)
    np.testing.assert_allclose(mean.asnumpy()[:, 0], [0.2, 0.8, 1.4, 2.0], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy()[:, 0], [0.02666667] * 4, rtol=1e-5)
    y2 = ops.LayerNorm(-1, -1)(x, _f(2.0, 2.0, 2.0), _f(1.0, 1.0, 1.0))[0]
    np.testing.assert_allclose(y2.asnumpy(), y.asnumpy() * 2 + 1, rtol=1e-6)
    with pytest.raises(ValueError, match=r"For 'LayerNorm', 'begin_norm_axis' must be in "
                                         r"\[-2, 2\)"):
        ops.LayerNorm(2)(x, _f(1.0), _f(0.0))


def test_softmax_cross_entropy_primitives_as_mindspore():
    logits = _f([1.0, 2.0, 3.0], [1.0, -1.0, 0.0])
    loss, dlogits = ops.SoftmaxCrossEntropyWithLogits()(logits, _f([0, 0, 1], [1, 0, 0]))
    np.testing.assert_allclose(loss.asnumpy(), [0.40760595, 0.40760595], rtol=1e-6)
    np.testing.assert_allclose(dlogits.asnumpy(), [[0.09003057, 0.24472848, -0.33475906],
                                                   [-0.33475912, 0.09003057, 0.24472846]],
                               rtol=1e-6)
    labels = T(np.array([2, 0], np.int32))
    mean = ops.SparseSoftmaxCrossEntropyWithLogits()(logits, labels)
    assert mean.shape == () and mean.asnumpy() == pytest.approx(0.40760544, rel=2e-6)
    grad = ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(logits, labels)
    np.testing.assert_allclose(grad.asnumpy(), [[0.04501528, 0.1223641, -0.16737935],
                                                [-0.16737935, 0.04501528, 0.1223641]],
                               rtol=2e-6)
    g = ms.grad(lambda t: ops.SoftmaxCrossEntropyWithLogits()(t, _f([0, 0, 1], [1, 0, 0]))[0]
                .sum())(logits)
    np.testing.assert_allclose(g.asnumpy(), dlogits.asnumpy(), rtol=1e-6)


def test_nll_loss_primitive_returns_total_weight():
    logits = _f([1.0, 2.0, 3.0], [1.0, -1.0, 0.0])
    labels = T(np.array([2, 0], np.int32))
    for reduction, value in (("none", [-9.0, -1.0]), ("sum", -10.0), ("mean", -2.5)):
        loss, total = ops.NLLLoss(reduction)(logits, labels, _f(1.0, 2.0, 3.0))
        np.testing.assert_allclose(loss.asnumpy(), value, rtol=1e-6)
        assert total.shape == () and total.asnumpy() == 4.0
    loss, total = ops.NLLLoss()(logits, labels, _f(1.0, 1.0, 1.0))
    assert loss.asnumpy() == -2.0 and total.asnumpy() == 2.0


def test_loss_primitives_as_mindspore():
    x, t = _f([0.2, 0.7], [0.9, 0.1]), _f([0.0, 1.0], [1.0, 0.0])
    assert ops.BCEWithLogitsLoss()(x, t, _f(1.0, 2.0), _f(1.0, 2.0)).asnumpy() == \
        pytest.approx(1.0602076, rel=1e-6)
    assert ops.BinaryCrossEntropy("sum")(x, t).asnumpy() == pytest.approx(0.1976349 * 4, 1e-6)
    np.testing.assert_allclose(ops.SmoothL1Loss(0.5)(x * 3, t).asnumpy(),
                               [[0.35, 0.85], [1.45, 0.09]], rtol=1e-6)
    assert ops.KLDivLoss("batchmean")(x, t).asnumpy() == pytest.approx(-0.8, rel=1e-6)
    with pytest.raises(ValueError, match="For 'BinaryCrossEntropy', 'reduction' must be one of"):
        ops.BinaryCrossEntropy("avg")


def test_dropout_primitives_return_masks():
    x = T(np.ones((4, 6, 3, 3), np.float32))
    ms.set_seed(0)
    out, mask = ops.Dropout(0.5)(x)
    assert mask.dtype == ms.float32 and set(np.unique(mask.asnumpy())) <= {0.0, 1.0}
    np.testing.assert_array_equal(out.asnumpy(), mask.asnumpy() * 2)
    out, mask = ops.Dropout(1.0)(x)
    assert mask.asnumpy().all() and (out.asnumpy() == 1).all()
    seeded = ops.Dropout(0.5, Seed0=3, Seed1=4)  # its own stream: calls differ, instances repeat
    a, b = seeded(x)[1].asnumpy(), seeded(x)[1].asnumpy()
    assert (a == ops.Dropout(0.5, Seed0=3, Seed1=4)(x)[1].asnumpy()).all() and not (a == b).all()
    out, mask = ops.Dropout2D(0.5)(x)
    assert mask.dtype == ms.bool_ and mask.shape == x.shape
    m = mask.asnumpy().reshape(4, 6, -1)
    assert (m.all(-1) | ~m.any(-1)).all()
    np.testing.assert_array_equal(out.asnumpy(), mask.asnumpy() * 2.0)
    with pytest.raises(ValueError, match=r"For 'Dropout', 'keep_prob' must be in \(0.0, 1.0\], "
                                         r"got 0"):
        ops.Dropout(0)
    with pytest.raises(ValueError, match=r"For primitive\[Dropout2D\], the rank of input  must "
                                         r"be equal to 4 , but got 2"):
        ops.Dropout2D()(T(np.ones((2, 3), np.float32)))


def test_one_hot_primitive():
    out = ops.OneHot()(T(np.array([0, 2], np.int32)), 3, T(1.0), T(0.0))
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [[1, 0, 0], [0, 0, 1]]
