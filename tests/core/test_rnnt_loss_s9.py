"""ops.RNNTLoss: costs against a plain per-example loop, grads against finite differences of it
(and torch autograd of the same loop when torch is installed), MindSpore's argument checks."""

import math

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.ops import operations as P


def _ref_cost(acts, labels, t_len, u_len, blank):
    """-log P(labels | acts) for one example, by the alpha recursion over explicit loops."""
    lp = acts[:t_len, :u_len + 1] - np.log(np.exp(acts[:t_len, :u_len + 1]).sum(-1,
                                                                                 keepdims=True))
    alpha = [[-math.inf] * (u_len + 1) for _ in range(t_len)]
    for t in range(t_len):
        for u in range(u_len + 1):
            if t == 0 and u == 0:
                alpha[t][u] = 0.0
                continue
            terms = []
            if t > 0:
                terms.append(alpha[t - 1][u] + lp[t - 1, u, blank])
            if u > 0:
                terms.append(alpha[t][u - 1] + lp[t, u - 1, labels[u - 1]])
            m = max(terms)
            alpha[t][u] = m + math.log(sum(math.exp(x - m) for x in terms))
    return -(alpha[t_len - 1][u_len] + lp[t_len - 1, u_len, blank])


def _case(seed, b_n=3, t_n=4, u_n=3, v_n=5, blank=0):
    rng = np.random.default_rng(seed)
    acts = rng.standard_normal((b_n, t_n, u_n + 1, v_n))
    t_len = rng.integers(1, t_n + 1, b_n).astype(np.int32)
    t_len[0] = t_n
    u_len = rng.integers(0, u_n + 1, b_n).astype(np.int32)
    u_len[0] = u_n
    choices = [v for v in range(v_n) if v != blank]
    labels = rng.choice(choices, (b_n, u_n)).astype(np.int32)
    for b in range(b_n):
        labels[b, u_len[b]:] = blank  # padding, ignored
    return acts, labels, t_len, u_len


def _run(acts, labels, t_len, u_len, blank=0, dtype=np.float32):
    return ops.RNNTLoss(blank_label=blank)(Tensor(acts.astype(dtype)), Tensor(labels),
                                          Tensor(t_len), Tensor(u_len))


@pytest.mark.parametrize("seed,blank", [(0, 0), (1, 2), (2, 4), (3, 0)])
def test_costs_match_the_loop_reference(seed, blank):
    acts, labels, t_len, u_len = _case(seed, blank=blank)
    costs, grads = _run(acts, labels, t_len, u_len, blank)
    assert costs.shape == (3,) and costs.dtype == ms.float32
    assert grads.shape == acts.shape and grads.dtype == ms.float32
    want = [_ref_cost(acts[b].astype(np.float32).astype(np.float64), labels[b], t_len[b],
                      u_len[b], blank) for b in range(3)]
    np.testing.assert_allclose(costs.asnumpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("seed,blank", [(0, 0), (5, 3)])
def test_grads_match_finite_differences(seed, blank):
    acts, labels, t_len, u_len = _case(seed, b_n=2, t_n=3, u_n=2, v_n=4, blank=blank)
    acts = acts.astype(np.float32).astype(np.float64)
    _, grads = _run(acts, labels, t_len, u_len, blank)
    got = grads.asnumpy()
    eps = 1e-6
    for b in range(2):
        num = np.zeros(acts.shape[1:])
        for idx in np.ndindex(*acts.shape[1:]):
            hi, lo = acts[b].copy(), acts[b].copy()
            hi[idx] += eps
            lo[idx] -= eps
            num[idx] = (_ref_cost(hi, labels[b], t_len[b], u_len[b], blank)
                        - _ref_cost(lo, labels[b], t_len[b], u_len[b], blank)) / (2 * eps)
        np.testing.assert_allclose(got[b], num, rtol=1e-4, atol=1e-5)
        # outside the example's lengths the gradient is exactly zero
        assert not got[b, t_len[b]:].any() and not got[b, :, u_len[b] + 1:].any()


def test_grads_match_torch_autograd_of_the_loop():
    torch = pytest.importorskip("torch")
    acts, labels, t_len, u_len = _case(7, blank=1)
    acts = acts.astype(np.float32)
    _, grads = _run(acts, labels, t_len, u_len, blank=1)
    for b in range(3):
        x = torch.tensor(acts[b], dtype=torch.float64, requires_grad=True)
        lp = torch.log_softmax(x, -1)
        tl, ul = int(t_len[b]), int(u_len[b])
        alpha = {(0, 0): torch.zeros((), dtype=torch.float64)}
        for t in range(tl):
            for u in range(ul + 1):
                if t == 0 and u == 0:
                    continue
                terms = []
                if t > 0:
                    terms.append(alpha[t - 1, u] + lp[t - 1, u, 1])
                if u > 0:
                    terms.append(alpha[t, u - 1] + lp[t, u - 1, int(labels[b, u - 1])])
                alpha[t, u] = torch.logsumexp(torch.stack(terms), 0)
        (-(alpha[tl - 1, ul] + lp[tl - 1, ul, 1])).backward()
        np.testing.assert_allclose(grads.asnumpy()[b], x.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_float16_and_the_docstring_example():
    rng = np.random.default_rng(3)
    acts = rng.random((1, 2, 3, 5)).astype(np.float16)
    labels = np.array([[1, 2]], np.int32)
    costs, grads = _run(acts, labels, np.array([2], np.int32), np.array([2], np.int32),
                        dtype=np.float16)
    assert costs.dtype == ms.float16 and grads.dtype == ms.float16
    assert costs.shape == (1,) and grads.shape == (1, 2, 3, 5)
    want = _ref_cost(acts[0].astype(np.float64), labels[0], 2, 2, 0)
    assert abs(float(costs.asnumpy()[0]) - want) < 1e-2
    # each cell's gradient over the vocabulary sums to zero (softmax)
    np.testing.assert_allclose(grads.asnumpy().astype(np.float64).sum(-1), 0, atol=2e-3)


def test_exported_like_mindspore():
    assert P.RNNTLoss is ops.RNNTLoss
    op = ops.RNNTLoss()
    assert op.blank_label == 0
    assert ops.RNNTLoss(3).blank_label == 3


def test_argument_checks():
    f = Tensor(np.zeros((2, 3, 3, 5), np.float32))
    lab = Tensor(np.zeros((2, 2), np.int32))
    n = Tensor(np.array([3, 2], np.int32))
    m = Tensor(np.array([2, 1], np.int32))
    with pytest.raises(TypeError, match="the type of 'blank_label' should be 'int', but got "
                                        "type 'float'"):
        ops.RNNTLoss(1.0)
    with pytest.raises(TypeError, match=r"element of 'acts_type' must be one of Tensor\[Float32"
                                        r"\], Tensor\[Float16\], but got Tensor\[Float64\]"):
        ops.RNNTLoss()(Tensor(np.zeros((2, 3, 3, 5))), lab, n, n)
    with pytest.raises(TypeError, match=r"element of 'labels' must be Tensor\[Int32\], but got "
                                        r"Tensor\[Int64\]"):
        ops.RNNTLoss()(f, Tensor(np.zeros((2, 2), np.int64)), n, n)
    with pytest.raises(ValueError, match="the 'acts_rank' must be int and must = 4, but got '3'"):
        ops.RNNTLoss()(Tensor(np.zeros((3, 3, 5), np.float32)), lab, n, n)
    with pytest.raises(ValueError, match=r"the labels shape\[1\] should be = acts shape\[2\]-1: "
                                         r"2, but got 1\."):
        ops.RNNTLoss()(f, Tensor(np.zeros((2, 1), np.int32)), n, n)
    with pytest.raises(ValueError, match="input_length must be in"):
        ops.RNNTLoss()(f, lab, Tensor(np.array([4, 2], np.int32)), n)
    with pytest.raises(ValueError, match="label_length must be in"):
        ops.RNNTLoss()(f, lab, n, Tensor(np.array([3, 2], np.int32)))
    with pytest.raises(ValueError, match="'blank_label' must be in"):
        ops.RNNTLoss(5)(f, lab, n, m)
    with pytest.raises(ValueError, match="labels within label_length must be in"):
        ops.RNNTLoss()(f, Tensor(np.array([[7, 1], [1, 1]], np.int32)), n, m)
    # labels past label_length are padding: never read, so any value passes
    costs, _ = ops.RNNTLoss()(f, Tensor(np.array([[1, 9], [1, -4]], np.int32)), n,
                              Tensor(np.array([1, 1], np.int32)))
    assert costs.shape == (2,)


def test_a_dtype_error_wins_over_a_rank_error_as_in_mindspore():
    n = Tensor(np.array([3, 2], np.int32))
    with pytest.raises(TypeError, match="acts_type"):
        ops.RNNTLoss()(Tensor(np.zeros((3, 3, 5))), Tensor(np.zeros((2, 2), np.int32)), n, n)
