"""The functional losses: gradcheck, MindSpore's values, reductions, errors, torch."""

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import ops
from cellgrad.ops._registry import OPS
from cellgrad.testing import gradcheck


def _i(*values, dtype=np.int32):
    return ms.Tensor(np.array(values, dtype))


LABELS = _i(2, 0, 1, 2)
IGNORED = _i(2, -100, 1, 0)
W3 = ms.Tensor(np.array([0.5, 2.0, 1.5]))
LABELS_4D = ms.Tensor(np.array([[[0, 1], [2, 0]], [[1, 1], [2, 2]]], np.int64))


def _probs(t):
    return ops.softmax(t, 1)


CASES = [
    Case("cross_entropy", ops.cross_entropy, [(4, 3)], extra=(LABELS,)),
    Case("cross_entropy", lambda x, y: ops.cross_entropy(x, y, W3, reduction="sum",
                                                         label_smoothing=0.2),
         [(4, 3)], extra=(IGNORED,), tag="weight-smooth-ignore-sum"),
    Case("cross_entropy", lambda x, y: ops.cross_entropy(x, y, W3, label_smoothing=0.1),
         [(4, 3)], extra=(IGNORED,), tag="weight-smooth-ignore-mean"),
    Case("cross_entropy", lambda x, y: ops.cross_entropy(x, y, reduction="none"),
         [(2, 3, 2, 2)], extra=(LABELS_4D,), tag="4d-none"),
    Case("cross_entropy", lambda x, t: ops.cross_entropy(x, _probs(t), W3, label_smoothing=0.3),
         [(4, 3), (4, 3)], tag="probabilities"),
    Case("cross_entropy", lambda x: ops.cross_entropy(x, _i(1)[0]), [(3,)], tag="1d"),
    Case("nll_loss", lambda x, y: ops.nll_loss(ops.log_softmax(x, 1), y, W3, label_smoothing=0.2),
         [(4, 3)], extra=(IGNORED,)),
    Case("nll_loss", lambda x, y: ops.nll_loss(x, y, reduction="none"), [(2, 3, 2, 2)],
         extra=(LABELS_4D,), tag="4d"),
    Case("binary_cross_entropy",
         lambda x, t, w: ops.binary_cross_entropy(ops.sigmoid(x), ops.sigmoid(t), w),
         [(3, 4), (3, 4), (4,)]),
    Case("binary_cross_entropy_with_logits", ops.binary_cross_entropy_with_logits,
         [(3, 4), (3, 4)], low=-6, high=6),
    Case("binary_cross_entropy_with_logits",
         lambda x, t: ops.binary_cross_entropy_with_logits(
             x, t, ms.Tensor(np.array([1.0, 2.0, 0.5, 1.5])), ms.Tensor(np.array([3.0, 0.5, 1.0,
                                                                                  2.0])), "sum"),
         [(3, 4), (3, 4)], tag="weights"),
    Case("smooth_l1_loss", lambda x, t: ops.smooth_l1_loss(x, t, 0.5), [(3, 4), (3, 4)],
         low=-3, high=3),
    Case("kl_div", lambda x, t: ops.kl_div(x, t * t + 0.1, "batchmean"), [(3, 4), (3, 4)]),
    Case("embedding", lambda w: ops.embedding(_i(0, 2, 0, 1), w), [(3, 2)]),
]
GRADCHECKED = names(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


# every op here but binary_cross_entropy and embedding (first order only) has a second order
SECOND = [c for c in CASES if not OPS[c.op].first_order_only]


@pytest.mark.parametrize("case", SECOND, ids=[c.id for c in SECOND])
def test_gradgradcheck(case):
    check_second_order(case)


def test_second_order_covers_the_cross_entropy_family():
    assert {"cross_entropy", "nll_loss", "kl_div", "smooth_l1_loss",
            "binary_cross_entropy_with_logits"} <= {c.op for c in SECOND}


@pytest.mark.parametrize("fn", [
    lambda x, t: ops.mse_loss(x, t), lambda x, t: ops.mse_loss(x, t, "none"),
    lambda x, t: ops.l1_loss(x, t, "sum"),
    lambda x, t: ops.clip_by_global_norm((x, t), 1.0),
    lambda x, t: ops.clip_by_norm((x, t), 0.5),
    lambda x, t: ops.clip_by_norm(x, 0.5, float("inf")),
])
def test_composed_losses_and_clipping_gradcheck(fn):
    rng = np.random.default_rng(0)
    assert gradcheck(fn, ms.Tensor(rng.uniform(-2, 2, (3, 4))),
                     ms.Tensor(rng.uniform(-2, 2, (3, 4))))


T = ms.Tensor


def _f(*rows):
    return T(np.array(rows, np.float32))


LOGITS = _f([1.0, 2.0, 3.0], [1.0, -1.0, 0.0])


def test_cross_entropy_values_match_mindspore():
    # recorded from MindSpore 2.10; MindSpore's own float32 rounding differs in the 7th digit
    w = _f(1.0, 2.0, 3.0)
    np.testing.assert_allclose(ops.cross_entropy(LOGITS, _i(2, -100), w,
                                                 label_smoothing=0.2).asnumpy(),
                               0.46932065, rtol=2e-6)
    out = ops.cross_entropy(LOGITS, _f([0.2, 0.3, 0.5], [1, 0, 0]), w, label_smoothing=0.2)
    np.testing.assert_allclose(out.asnumpy(), 1.467748, rtol=2e-6)
    assert out.dtype == ms.float32 and out.shape == ()
    np.testing.assert_allclose(ops.cross_entropy(_f(1.0, 2.0, 3.0), _i(2)[0]).asnumpy(),
                               0.4076054, rtol=2e-6)


def test_nll_loss_values_match_mindspore():
    x = T(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / -10)
    out = ops.nll_loss(x, ms.Tensor(LABELS_4D.asnumpy().astype(np.int32)), reduction="none")
    np.testing.assert_allclose(out.asnumpy(), [[[0, 0.5], [1, 0.3]], [[1.6, 1.7], [2.2, 2.3]]],
                               rtol=1e-6, atol=1e-7)


def test_cross_entropy_label_and_argument_errors():
    with pytest.raises(ValueError, match=r"For 'cross_entropy', 'target' values must be class "
                                         r"indices in \[0, 3\) or ignore_index=-100, got 5"):
        ops.cross_entropy(LOGITS, _i(2, 5))
    with pytest.raises(ValueError, match=r"For 'cross_entropy', class-index 'target' must have "
                       r"shape \(2,\) \(input Tensor\(shape=\(2, 3\), dtype=Float32\) without its "
                       r"class dimension 1\), got Tensor\(shape=\(3,\), dtype=Int32\)"):
        ops.cross_entropy(LOGITS, _i(2, 1, 1))
    with pytest.raises(ValueError, match=r"class-probability 'target' must have the shape of "
                                         r"'input'"):
        ops.cross_entropy(LOGITS, _f([0.5, 0.5]))
    with pytest.raises(ValueError, match="For 'cross_entropy', 'reduction' must be one of "
                                         "'none', 'mean', 'sum', got 'avg'"):
        ops.cross_entropy(LOGITS, _i(2, 1), reduction="avg")
    with pytest.raises(ValueError, match=r"For 'cross_entropy', 'weight' must have shape \(3,\)"):
        ops.cross_entropy(LOGITS, _i(2, 1), _f(1.0, 2.0))
    with pytest.raises(ValueError, match=r"'label_smoothing' must be in \[0, 1\], got 1.5"):
        ops.cross_entropy(LOGITS, _i(2, 1), label_smoothing=1.5)
    with pytest.raises(TypeError, match="For 'nll_loss', 'target' must be an integer Tensor"):
        ops.nll_loss(LOGITS, _f([0.5, 0.5, 0.0], [1, 0, 0]))
    with pytest.raises(TypeError, match="For 'cross_entropy', 'input' must be a floating"):
        ops.cross_entropy(_i(1, 2), _i(0))


def test_cross_entropy_with_every_target_ignored_is_nan_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = ops.cross_entropy(LOGITS, _i(-100, -100))
    assert np.isnan(out.asnumpy())
    assert ops.cross_entropy(LOGITS, _i(-100, -100), reduction="sum").asnumpy() == 0.0


def test_cross_entropy_is_stable_for_huge_logits():
    x = T(np.array([[1e4, -1e4, 0.0]], np.float32))
    loss, g = ms.value_and_grad(lambda t: ops.cross_entropy(t, _i(1)))(x)
    assert np.isfinite(loss.asnumpy()) and loss.asnumpy() == pytest.approx(2e4)
    np.testing.assert_allclose(g.asnumpy(), [[1.0, -1.0, 0.0]], atol=1e-6)


def test_elementwise_losses_match_mindspore():
    x, t = _f([0.2, 0.7], [0.9, 0.1]), _f([0.0, 1.0], [1.0, 0.0])
    np.testing.assert_allclose(ops.binary_cross_entropy(x, t).asnumpy(), 0.1976349, rtol=1e-6)
    edge = ops.binary_cross_entropy(_f(0.0, 1.0), _f(1.0, 0.0), reduction="none")
    np.testing.assert_allclose(edge.asnumpy(), [27.631021, 27.631021], rtol=1e-6)  # log clamp
    bcel = ops.binary_cross_entropy_with_logits(x * 10 - 5, t, _f(1.0, 2.0), _f(3.0, 0.5),
                                                "none")
    np.testing.assert_allclose(bcel.asnumpy(), [[0.04858732, 0.12692805],
                                                [0.05444988, 0.03629971]], rtol=2e-6)
    np.testing.assert_allclose(ops.binary_cross_entropy_with_logits(x, t).asnumpy(), 0.5717189,
                               rtol=1e-6)
    np.testing.assert_allclose(ops.kl_div(x, t, "none").asnumpy(), [[0, -0.7], [-0.9, 0]],
                               rtol=1e-6)
    assert ops.kl_div(x, t).asnumpy() == pytest.approx(-0.4, rel=1e-6)
    assert ops.kl_div(x, t, "batchmean").asnumpy() == pytest.approx(-0.8, rel=1e-6)
    np.testing.assert_allclose(ops.smooth_l1_loss(x * 3, t, 0.5).asnumpy(),
                               [[0.35, 0.85], [1.45, 0.09]], rtol=1e-6)
    assert ops.smooth_l1_loss(x * 3, t, 0.5, "mean").asnumpy() == pytest.approx(0.685, 1e-6)
    mse = ops.mse_loss(T(np.array([1, 2])), T(np.array([0, 0])))
    assert mse.dtype == ms.float32 and mse.asnumpy() == 2.5
    np.testing.assert_allclose(ops.l1_loss(x, _f(1.0, 2.0), "none").asnumpy(),
                               [[0.8, 1.3], [0.1, 1.9]], rtol=1e-6)


def test_bce_with_logits_is_stable():
    x = _f(1000.0, -1000.0)
    out = ops.binary_cross_entropy_with_logits(x, _f(0.0, 1.0), reduction="none").asnumpy()
    assert out.tolist() == [1000.0, 1000.0]


def test_loss_argument_errors():
    x = _f([0.2, 0.7])
    with pytest.raises(ValueError, match=r"For 'binary_cross_entropy', 'logits' and 'labels' "
                                         r"must have the same shape"):
        ops.binary_cross_entropy(x, _f(1.0, 0.0))
    with pytest.raises(ValueError, match="For 'mse_loss', 'reduction' must be one of"):
        ops.mse_loss(x, x, "avg")
    with pytest.raises(ValueError, match="For 'kl_div', 'reduction' must be one of 'none', "
                                         "'mean', 'batchmean', 'sum', got 'x'"):
        ops.kl_div(x, x, "x")
    with pytest.raises(ValueError, match="For 'l1_loss', 'input' and 'target' must broadcast"):
        ops.l1_loss(x, _f(1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="'pos_weight' must broadcast to the shape"):
        ops.binary_cross_entropy_with_logits(x, x, pos_weight=_f(1.0, 2.0, 3.0))


def test_clip_values_match_mindspore():
    a, b = ops.clip_by_global_norm((_f(3.0, 4.0), _f(12.0)), 1.0)
    assert a.asnumpy().tolist() == pytest.approx([0.230769232, 0.307692319], rel=1e-7)
    assert b.asnumpy().tolist() == pytest.approx([0.923076928], rel=1e-7)
    np.testing.assert_allclose(ops.clip_by_norm(_f(3.0, 4.0), 1.0).asnumpy(),
                               [0.5999999, 0.79999983], rtol=1e-7)
    same = ops.clip_by_norm(_f(0.3, 0.4), 1.0).asnumpy()
    np.testing.assert_allclose(same, [0.3, 0.4], rtol=1e-7)
    with pytest.raises(RuntimeError, match="non-finite"):
        ops.clip_by_norm(_f(np.inf, 1.0), 1.0, error_if_nonfinite=True)


def test_one_hot_and_embedding():
    out = ops.one_hot(T(np.array([0, 2, -1])), 3)
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 0]]
    f = ops.one_hot(_i(0, 2), 3, T(1.0), T(0.0), axis=0)
    assert f.dtype == ms.float32 and f.asnumpy().tolist() == [[1, 0], [0, 0], [0, 1]]
    table = ms.Parameter(T(np.arange(6, dtype=np.float32).reshape(3, 2)), name="t")
    ids = _i(0, 2, 0)
    assert ops.embedding(ids, table).asnumpy().tolist() == [[0, 1], [4, 5], [0, 1]]
    g = ms.grad(lambda w: ops.embedding(ids, w, padding_idx=2).sum())(table)
    assert g.asnumpy().tolist() == [[2, 2], [0, 0], [0, 0]]
    with pytest.raises(ValueError, match=r"For 'embedding', 'input' values must be in \[-3, 3\)"):
        ops.embedding(_i(3), table)
    ops.embedding(_i(2), table, max_norm=1.0)  # renormalises row 2 in place, as PyTorch
    assert np.linalg.norm(table.asnumpy()[2]) == pytest.approx(1.0, rel=1e-5)
    assert gradcheck(lambda w: ops.embedding(ids, w), T(np.ones((3, 2))))


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides:UserWarning")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_against_torch(torch, dtype):
    F = torch.nn.functional
    tol = 1e-10 if dtype == np.float64 else 2e-6
    kw = dict(dtype=dtype, atol=tol, rtol=tol * 10)
    y, yt = ms.Tensor(IGNORED.asnumpy().astype(np.int64)), torch.tensor(IGNORED.asnumpy(),
                                                                       dtype=torch.long)
    w = W3.asnumpy().astype(dtype)
    pw = np.array([3.0, 0.5, 1.0, 2.0], dtype)
    for red in ("mean", "sum", "none"):
        for eps in (0.0, 0.2):
            torch_compare(torch, [(4, 3)],
                          lambda x, r=red, e=eps: ops.cross_entropy(x, y, ms.Tensor(w), -100, r, e),
                          lambda x, r=red, e=eps: F.cross_entropy(x, yt, torch.tensor(w), None,
                                                                  -100, None, r, e), **kw)
        torch_compare(torch, [(4, 3), (4, 3)],
                      lambda x, t, r=red: ops.cross_entropy(x, ops.softmax(t, 1), ms.Tensor(w),
                                                            reduction=r, label_smoothing=0.1),
                      lambda x, t, r=red: F.cross_entropy(x, F.softmax(t, 1), torch.tensor(w),
                                                          reduction=r, label_smoothing=0.1), **kw)
        torch_compare(torch, [(4, 3)], lambda x, r=red: ops.nll_loss(x, y, reduction=r),
                      lambda x, r=red: F.nll_loss(x, yt, reduction=r), **kw)
        torch_compare(torch, [(3, 4), (3, 4)],
                      lambda x, t, r=red: ops.binary_cross_entropy(ops.sigmoid(x),
                                                                   ops.sigmoid(t), reduction=r),
                      lambda x, t, r=red: F.binary_cross_entropy(torch.sigmoid(x),
                                                                 torch.sigmoid(t), reduction=r),
                      **kw)
        torch_compare(torch, [(3, 4), (3, 4)],
                      lambda x, t, r=red: ops.binary_cross_entropy_with_logits(
                          x * 5, t, None, ms.Tensor(pw), r),
                      lambda x, t, r=red: F.binary_cross_entropy_with_logits(
                          x * 5, t, None, reduction=r, pos_weight=torch.tensor(pw)), **kw)
        for name in ("mse_loss", "l1_loss"):
            torch_compare(torch, [(3, 4), (3, 4)],
                          lambda x, t, r=red, n=name: getattr(ops, n)(x, t, r),
                          lambda x, t, r=red, n=name: getattr(F, n)(x, t, reduction=r), **kw)
        torch_compare(torch, [(3, 4), (3, 4)],
                      lambda x, t, r=red: ops.smooth_l1_loss(x, t, 0.5, r),
                      lambda x, t, r=red: F.smooth_l1_loss(x, t, reduction=r, beta=0.5), **kw)
    for red in ("mean", "sum", "none", "batchmean"):
        torch_compare(torch, [(3, 4), (3, 4)],
                      lambda x, t, r=red: ops.kl_div(x, t * t + 0.1, r),
                      lambda x, t, r=red: F.kl_div(x, t * t + 0.1, reduction=r), **kw)
    torch_compare(torch, [(2, 3, 2, 2)],
                  lambda x: ops.cross_entropy(x, LABELS_4D, label_smoothing=0.1),
                  lambda x: F.cross_entropy(x, torch.tensor(LABELS_4D.asnumpy()),
                                            label_smoothing=0.1), **kw)


# ---- huber, cosine similarity and the margin losses (composed from recorded ops) ----
A = _f([0.2, -1.5, 3.0], [1.0, 0.5, -0.25])
B = _f([1.0, -1.0, 0.5], [-2.0, 0.4, 0.0])
SIGN = _f(1.0, -1.0)


def test_margin_and_similarity_losses_match_mindspore():
    # recorded from MindSpore 2.10
    np.testing.assert_allclose(ops.huber_loss(A, B, "none", 1.5).asnumpy(),
                               [[0.32, 0.125, 2.625], [3.375, 0.005, 0.03125]], rtol=1e-6)
    assert ops.huber_loss(A, B, "mean", 1.5).asnumpy() == pytest.approx(1.0802083, rel=1e-6)
    np.testing.assert_allclose(ops.cosine_similarity(A, B).asnumpy(), [0.6349094, -0.7703289],
                               rtol=1e-6)
    np.testing.assert_allclose(ops.cosine_similarity(A, B, 0).asnumpy(),
                               [-0.7893522, 0.99827445, 0.9965458], rtol=1e-6)
    assert ops.cosine_similarity(A, A * 0).asnumpy().tolist() == [0.0, 0.0]
    np.testing.assert_allclose(ops.margin_ranking_loss(A[:, 0], B[:, 0], SIGN, 0.3, "none")
                               .asnumpy(), [1.1, 3.3], rtol=1e-6)
    np.testing.assert_allclose(ops.cosine_embedding_loss(A, B, SIGN, 0.2, "none").asnumpy(),
                               [0.3650906, 0.0], rtol=1e-6, atol=1e-7)
    assert ops.cosine_embedding_loss(A, B, SIGN, 0.2).asnumpy() == pytest.approx(0.1825453,
                                                                                 rel=1e-6)
    with pytest.raises(ValueError, match="For 'huber_loss', 'delta' must be positive"):
        ops.huber_loss(A, B, delta=0)
    with pytest.raises(ValueError, match="For 'cosine_embedding_loss', 'target' must have the "
                                         "shape of 'input1' without dimension 1"):
        ops.cosine_embedding_loss(A, B, _f(1.0, 1.0, 1.0))


@pytest.mark.parametrize("fn", [
    lambda a, b: ops.huber_loss(a, b, "sum", 0.7),
    lambda a, b: ops.cosine_similarity(a, b),
    lambda a, b: ops.margin_ranking_loss(a[:, 0], b[:, 0], ms.Tensor(np.array([1.0, -1.0, 1.0])),
                                         0.1),
    lambda a, b: ops.cosine_embedding_loss(a, b, ms.Tensor(np.array([1.0, -1.0, -1.0])), -0.9),
])
def test_margin_and_similarity_losses_gradcheck(fn):
    rng = np.random.default_rng(4)
    assert gradcheck(fn, ms.Tensor(rng.uniform(-2, 2, (3, 4))),
                     ms.Tensor(rng.uniform(-2, 2, (3, 4))))


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_margin_and_similarity_losses_against_torch(torch, dtype):
    F = torch.nn.functional
    tol = 1e-10 if dtype == np.float64 else 2e-6
    kw = dict(dtype=dtype, atol=tol, rtol=tol * 10)
    sign = np.array([1.0, -1.0, 1.0], dtype)
    for red in ("mean", "sum", "none"):
        torch_compare(torch, [(3, 4), (3, 4)], lambda a, b, r=red: ops.huber_loss(a, b, r, 0.7),
                      lambda a, b, r=red: F.huber_loss(a, b, reduction=r, delta=0.7), **kw)
        torch_compare(torch, [(3,), (3,)],
                      lambda a, b, r=red: ops.margin_ranking_loss(a, b, ms.Tensor(sign), 0.2, r),
                      lambda a, b, r=red: F.margin_ranking_loss(a, b, torch.tensor(sign), 0.2,
                                                                reduction=r), **kw)
        torch_compare(torch, [(3, 4), (3, 4)],
                      lambda a, b, r=red: ops.cosine_embedding_loss(a, b, ms.Tensor(sign), -0.5,
                                                                    r),
                      lambda a, b, r=red: F.cosine_embedding_loss(a, b, torch.tensor(sign), -0.5,
                                                                  reduction=r), **kw)
    torch_compare(torch, [(3, 4), (3, 4)], lambda a, b: ops.cosine_similarity(a, b, 0),
                  lambda a, b: F.cosine_similarity(a, b, 0), **kw)
