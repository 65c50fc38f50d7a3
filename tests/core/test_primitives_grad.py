"""Gradients of the primitive classes: gradchecked in float64 (first and second order), MindSpore's
rules where they are not the textbook ones (Mod, Round, LinSpace), and PyTorch comparisons
(skipped without torch)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck, gradgradcheck

I32 = ms.int32


def _t(*shape, seed=0, low=-2.0, high=2.0):
    return Tensor(np.random.default_rng(seed).uniform(low, high, shape))


def _distinct(*shape, seed=0):
    n = int(np.prod(shape))
    return Tensor((np.random.default_rng(seed).permutation(n) * 0.3 - 0.1 * n + 0.07)
                  .reshape(shape))


CASES = [
    ("StridedSlice", lambda x: ops.StridedSlice()(x, (0, 1), (2, 4), (1, 2)), [(2, 5)]),
    ("StridedSlice-masks", lambda x: ops.StridedSlice(1, 2, 0, 2, 4)(x, (1, 0, 1), (2, 0, 2),
                                                                     (1, 1, 1)), [(3, 4, 2)]),
    ("StridedSlice-ellipsis", lambda x: ops.StridedSlice(0, 0, 1)(x, (0, 2), (0, 0), (1, -1)),
     [(2, 3, 4)]),
    ("Slice", lambda x: ops.Slice()(x, (1, 0), (2, -1)), [(3, 4)]),
    ("GatherNd", lambda x: ops.GatherNd()(x, Tensor([[0, 1], [2, 3], [0, 1]], I32)), [(3, 4)]),
    ("GatherNd-rows", lambda x: ops.GatherNd()(x, Tensor([[1], [1]], I32)), [(3, 4)]),
    ("GatherD", lambda x: ops.GatherD()(x, 1, Tensor([[0, 0], [2, 1]], I32)), [(2, 3)]),
    ("GatherV2", lambda x: ops.GatherV2()(x, Tensor([2, 0, 2], I32), 1), [(2, 3)]),
    ("ScatterNd", lambda u: ops.ScatterNd()(Tensor([[1], [0], [1]], I32), u, (3, 3)), [(3, 3)]),
    ("ReverseV2", lambda x: ops.ReverseV2((0, -1))(x), [(2, 3, 2)]),
    ("ReverseSequence", lambda x: ops.ReverseSequence(1)(x, Tensor([2, 3], I32)), [(2, 4)]),
    ("Unstack", lambda x: ops.Unstack(axis=1)(x), [(2, 3)]),
    ("AddN", lambda a, b, c: ops.AddN()([a, b, c]), [(2, 3), (2, 3), (2, 3)]),
    ("TensorAdd", lambda a, b: ops.TensorAdd()(a, b), [(2, 3), (3,)]),
    ("CumSum", lambda x: ops.CumSum()(x, 1), [(2, 4)]),
    ("CumSum-exclusive-reverse", lambda x: ops.CumSum(True, True)(x, 0), [(3, 2)]),
    ("Meshgrid", lambda a, b: ops.Meshgrid()((a, b)), [(3,), (2,)]),
    ("Meshgrid-ij", lambda a, b, c: ops.Meshgrid("ij")((a, b, c)), [(2,), (3,), (2,)]),
    ("Identity", lambda x: ops.Identity()(x), [(2, 3)]),
    ("Reciprocal", lambda x: ops.Reciprocal()(x + 3.0), [(2, 3)]),
    ("ACos", lambda x: ops.ACos()(x * 0.4), [(2, 3)]),
    ("Erf", lambda x: ops.Erf()(x), [(2, 3)]),
    ("Einsum-batched", lambda a, b: ops.Einsum("bij,bjk->bik")((a, b)), [(2, 2, 3), (2, 3, 2)]),
    ("Einsum-ellipsis", lambda a, b: ops.Einsum("...ij,jk->...ik")((a, b)), [(2, 2, 3), (3, 2)]),
    ("Einsum-outer", lambda a, b: ops.Einsum("i,j->ij")((a, b)), [(3,), (2,)]),
    ("Einsum-sum-out", lambda a: ops.Einsum("ijk->k")((a,)), [(2, 3, 2)]),
    ("Einsum-trace", lambda a, b: ops.Einsum("ii,jk->jk")((a, b)), [(3, 3), (2, 2)]),
    ("Depend", lambda x, y: ops.Depend()(x, y) * 2, [(2, 3), (2,)]),
]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(name, fn, shapes):
    args = [_t(*s, seed=i) for i, s in enumerate(shapes)]
    positions = None if name != "Depend" else (0,)
    assert gradcheck(fn, *args, positions=positions)


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_gradgradcheck(name, fn, shapes):
    def squared(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(o * o for o in outs)

    args = [_t(*s, seed=i + 5) for i, s in enumerate(shapes)]
    positions = None if name != "Depend" else (0,)
    assert gradgradcheck(squared, *args, positions=positions)


@pytest.mark.parametrize("prim", [ops.ArgMaxWithValue, ops.ArgMinWithValue])
@pytest.mark.parametrize("axis,keep", [(0, False), (1, True), (-1, False)])
def test_arg_with_value_gradient_reaches_the_picked_element(prim, axis, keep):
    x = _distinct(3, 4)
    assert gradcheck(lambda t: prim(axis=axis, keep_dims=keep)(t)[1], x)
    assert gradgradcheck(lambda t: prim(axis=axis, keep_dims=keep)(t)[1] ** 2, x)


def test_mod_gradient_is_mindspores_floor_rule():
    # MindSpore 2.10: d/dx = 1, d/dy = -floor(x / y) (recorded); fmod truncates, so the rule
    # differs from the derivative where x / y < 0.
    x, y = Tensor(np.array([-7.5, 7.0, 5.5], np.float32)), Tensor(np.array([2.0, -3.0, 2.0],
                                                                         np.float32))
    gx, gy = ms.grad(lambda a, b: ops.Mod()(a, b).sum(), (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), [4.0, 3.0, -2.0])
    pos = (_t(2, 3, seed=1, low=0.5, high=3.0), _t(2, 3, seed=2, low=0.5, high=2.0))
    assert gradcheck(lambda a, b: ops.Mod()(a, b), *pos)  # where floor == trunc it is exact
    assert gradgradcheck(lambda a, b: ops.Mod()(a, b) ** 2, *pos)


def test_constant_results_have_no_gradient():
    x = _t(3)
    assert np.all(ms.grad(lambda t: (ops.Round()(t) * t).sum())(x).asnumpy() ==
                  np.round(x.asnumpy()))
    out = ops.LinSpace()(Tensor(1.0), Tensor(2.0), 3)
    assert out._node is None
    g = ms.grad(lambda a: ops.ScalarToTensor()(3.0) + a.sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), np.ones(3))


def test_erf_gradient_values_match_mindspore():
    x = Tensor(np.array([-7.5, 7.0, 5.5], np.float32))
    g = ms.grad(lambda a: ops.Erf()(a).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), [4.2013055e-25, 5.9158883e-22, 8.2232506e-14],
                               rtol=1e-4)


# ---- PyTorch ----
def _torch_pair(ms_fn, th_fn, *arrays, atol=1e-5):
    torch = pytest.importorskip("torch")
    ms_in = [Tensor(a) for a in arrays]
    th_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    ms_out, th_out = ms_fn(*ms_in), th_fn(*th_in)
    np.testing.assert_allclose(ms_out.asnumpy(), th_out.detach().numpy(), atol=atol, rtol=1e-5)
    weights = np.random.default_rng(0).normal(size=ms_out.shape)
    ms_grads = ms.grad(lambda *xs: (ms_fn(*xs) * Tensor(weights.astype(arrays[0].dtype))).sum(),
                       tuple(range(len(arrays))))(*ms_in)
    ms_grads = ms_grads if isinstance(ms_grads, tuple) else (ms_grads,)
    (th_out * torch.tensor(weights.astype(arrays[0].dtype))).sum().backward()
    for m, t in zip(ms_grads, th_in):
        np.testing.assert_allclose(m.asnumpy(), t.grad.numpy(), atol=atol, rtol=1e-4)


RNG = np.random.default_rng(7)
A = RNG.normal(size=(3, 4)).astype(np.float32)
B = RNG.normal(size=(4, 5)).astype(np.float32)


@pytest.mark.torch
@pytest.mark.parametrize("name", ["erf", "einsum", "gather_nd", "strided", "cumsum", "reverse",
                                  "acos", "fmod", "meshgrid", "gather_d"])
def test_against_torch(name):
    torch = pytest.importorskip("torch")
    idx = np.array([[0, 1], [2, 3]])
    pairs = {
        "erf": (lambda a: ops.Erf()(a), torch.erf, (A,)),
        "einsum": (lambda a, b: ops.Einsum("ij,jk->ik")((a, b)),
                   lambda a, b: torch.einsum("ij,jk->ik", a, b), (A, B)),
        "gather_nd": (lambda a: ops.GatherNd()(a, Tensor(idx.astype(np.int32))),
                      lambda a: a[tuple(torch.tensor(idx).T)], (A,)),
        "strided": (lambda a: ops.StridedSlice(0, 2, 0, 0, 0)(a, (1, 0), (3, 0), (1, 2)),
                    lambda a: a[1:3, 0::2], (A,)),
        "cumsum": (lambda a: ops.CumSum()(a, 1), lambda a: torch.cumsum(a, 1), (A,)),
        "reverse": (lambda a: ops.ReverseV2((1,))(a), lambda a: torch.flip(a, (1,)), (A,)),
        "acos": (lambda a: ops.ACos()(a * 0.3), lambda a: torch.acos(a * 0.3), (A,)),
        "fmod": (lambda a: ops.Mod()(a, 0.7), lambda a: torch.fmod(a, 0.7), (A,)),
        "meshgrid": (lambda a: ops.Meshgrid("ij")((a[0], a[1]))[0],
                     lambda a: torch.meshgrid(a[0], a[1], indexing="ij")[0], (A,)),
        "gather_d": (lambda a: ops.GatherD()(a, 1, Tensor(idx.astype(np.int32))),
                     lambda a: torch.gather(a[:2], 1, torch.tensor(idx)), (A[:2],)),
    }
    ms_fn, th_fn, arrays = pairs[name]
    _torch_pair(ms_fn, th_fn, *arrays)
