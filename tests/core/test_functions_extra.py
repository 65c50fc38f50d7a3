"""The ops functions real MindSpore code uses (issue 29): values, dtypes, errors, gradients
(float64 gradcheck, second order, and PyTorch where it has the op). MindSpore's own printed
values are replayed from ms_programs/functions_extra.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops
from cellgrad.ops import functional as F
from cellgrad.testing import gradcheck, gradgradcheck

RNG = np.random.default_rng(29)


def _t(*shape, low=-2.0, high=2.0):
    return Tensor(RNG.uniform(low, high, shape))


def _i(*values):
    return Tensor(np.array(values, np.int64))


# ---- every differentiable function: one line each, gradchecked to second order ----
X23, W32 = _t(2, 3), _t(3, 2)
GRAD_CASES = {
    "einsum-matmul": (lambda a, b: ops.einsum("ij,jk->ik", a, b), (X23, W32)),
    "einsum-implicit": (lambda a, b: ops.einsum("ij,jk", a, b), (X23, W32)),
    "einsum-trace": (lambda a: ops.einsum("ii", a), (_t(3, 3),)),
    "einsum-diag": (lambda a: ops.einsum("ii->i", a), (_t(3, 3),)),
    "einsum-batch": (lambda a, b: ops.einsum("bij,bjk->bik", a, b), (_t(2, 2, 3), _t(2, 3, 2))),
    "einsum-ellipsis": (lambda a, b: ops.einsum("...ij,...jk->...ik", a, b),
                        (_t(2, 2, 3), _t(3, 2))),
    "einsum-three": (lambda a, b, c: ops.einsum("ij,jk,kl->il", a, b, c),
                     (X23, W32, _t(2, 4))),
    "einsum-outer-sum": (lambda a, b: ops.einsum("i,j->", a, b), (_t(3), _t(2))),
    "einsum-bilinear": (lambda a, w, b: ops.einsum("bi,oij,bj->bo", a, w, b),
                        (_t(2, 3), _t(4, 3, 2), _t(2, 2))),
    "einsum-broadcast": (lambda a, b: ops.einsum("ij,ij->ij", a, b), (X23, _t(1, 3))),
    "outer": (ops.outer, (_t(3), _t(4))),
    "dot": (ops.dot, (X23, W32)),
    "dot-3d": (ops.dot, (_t(2, 2, 3), _t(2, 3, 2))),
    "tensor_dot": (lambda a, b: ops.tensor_dot(a, b, ((1, 2), (1, 0))), (_t(2, 3, 4),
                                                                          _t(4, 3, 2))),
    "tensor_dot-int": (lambda a, b: ops.tensor_dot(a, b, 1), (X23, W32)),
    "batch_dot": (lambda a, b: ops.batch_dot(a, b, (-1, -2)), (_t(2, 2, 3), _t(2, 3, 2))),
    "batch_dot-2d": (ops.batch_dot, (X23, _t(2, 3))),
    "vecdot": (ops.vecdot, (X23, _t(2, 3))),
    "composite-matmul": (ops.composite.matmul, (X23, W32)),
    "gather_nd": (lambda a: ops.gather_nd(a, _i([0, 1], [1, 2], [0, 1])), (X23,)),
    "gather_nd-slices": (lambda a: ops.gather_nd(a, _i([1], [0])), (X23,)),
    "tensor_scatter_elements": (
        lambda a, u: ops.tensor_scatter_elements(a, _i([0, 2]), u, 1), (X23, _t(1, 2))),
    "tensor_scatter_elements-dup": (
        lambda a, u: ops.tensor_scatter_elements(a, _i([0, 0]), u, 1), (X23, _t(1, 2))),
    "tensor_scatter_elements-add": (
        lambda a, u: ops.tensor_scatter_elements(a, _i([1, 0, 1]), u, 0, "add"),
        (X23, _t(1, 3))),
    "repeat_elements": (lambda a: ops.repeat_elements(a, 2, 1), (X23,)),
    "meshgrid": (lambda a, b: ops.meshgrid(a, b), (_t(3), _t(2))),
    "meshgrid-ij": (lambda a, b, c: ops.meshgrid(a, b, c, indexing="ij"), (_t(2), _t(3), _t(2))),
    "unstack": (lambda a: ops.unstack(a, 1), (X23,)),
    "roll": (lambda a: ops.roll(a, (1, -1), (0, 1)), (X23,)),
    "roll-flat": (lambda a: ops.roll(a, 2), (X23,)),
    "diag": (ops.diag, (_t(3),)),
    "diag-2d": (ops.diag, (_t(2, 2),)),
    "top_k": (lambda a: ops.top_k(a, 2)[0], (Tensor(np.array([[0.1, 0.9, -0.5],
                                                                 [1.3, -0.2, 0.4]])),)),
    "cummin": (lambda a: ops.cummin(a, 1)[0], (Tensor(np.array([[0.5, -0.3, 0.2, -0.9],
                                                                  [1.0, 2.0, 0.1, 0.7]])),)),
    "reduce_sum": (lambda a: F.reduce_sum(a, 1), (X23,)),
    "reduce_mean": (F.reduce_mean, (X23,)),
    "addn": (lambda a, b: F.addn((a, b, a)), (X23, _t(2, 3))),
    "logsumexp": (lambda a: ops.logsumexp(a, 1), (X23,)),
    "logsumexp-keep": (lambda a: ops.logsumexp(a, (0, 1), True), (X23,)),
    "tensor_mul": (F.tensor_mul, (X23, _t(3))),
    "pows": (lambda a: F.pows(a, 3.0), (X23,)),
    "mixed_precision_cast": (lambda a: F.mixed_precision_cast(ms.float64, (a, a * 2))[1],
                             (X23,)),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradcheck(name):
    fn, args = GRAD_CASES[name]
    assert gradcheck(fn, *args)


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradgradcheck(name):
    fn, args = GRAD_CASES[name]
    if name in ("top_k", "cummin", "roll", "roll-flat", "unstack", "diag", "diag-2d",
                "gather_nd", "gather_nd-slices", "repeat_elements", "meshgrid", "meshgrid-ij",
                "tensor_mul") or name.startswith("tensor_scatter"):
        def fn2(*a):  # linear in its input: square it, so the second order is not zero
            out = fn(*a)
            return tuple(o * o for o in out) if isinstance(out, tuple) else out * out
    else:
        fn2 = fn
    assert gradgradcheck(fn2, *args)


# ---- einsum against numpy ----
@pytest.mark.parametrize("eq,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij->ji", [(2, 3)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("ij->", [(2, 3)]), ("i,j->ij", [(2,), (3,)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 4)]),
    ("iij->j", [(2, 2, 3)]), ("ij,ij->i", [(2, 3), (2, 3)]), ("i j -> j i", [(2, 3)]),
    ("ba,ca", [(2, 3), (4, 3)]), ("...i,i", [(2, 3, 4), (4,)]), ("Ab,bc->Ac", [(2, 3), (3, 2)]),
])
def test_einsum_matches_numpy(eq, shapes):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    out = ops.einsum(eq, *[Tensor(a) for a in arrays])
    want = np.einsum(eq.replace(" ", ""), *arrays)
    assert out.shape == want.shape and str(out.dtype) == "Float32"
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_einsum_errors():
    x = _t(2, 3)
    with pytest.raises(ValueError, match="the number of inputs must be equal"):
        ops.einsum("ij,jk->ik", x)
    with pytest.raises(ValueError, match="the k does not"):
        ops.einsum("ij->k", x)
    with pytest.raises(ValueError, match="label 'j' has sizes 3 and 2"):
        ops.einsum("ij,jk->ik", x, x)
    with pytest.raises(ValueError, match="may appear once to the right"):
        ops.einsum("ij->ii", x)
    with pytest.raises(ValueError, match="names 3 dimensions"):
        ops.einsum("ijk->i", x)
    with pytest.raises(TypeError, match=r"Tensor\[Int64\]"):
        ops.einsum("ij->i", Tensor([[1, 2]]))
    with pytest.raises(TypeError, match="one dtype"):
        ops.einsum("ij,j->i", Tensor(np.ones((2, 3), np.float32)),
                   Tensor(np.ones(3, np.float16)))


# ---- values, dtypes and errors the replay does not cover ----
def test_partial_binds_leading_arguments():
    x = Tensor([1.0, 2.0])
    f = ops.partial(ops.add, x)
    assert f.func == ops.add.__call__ and f.args == (x,)
    np.testing.assert_allclose(f(1).asnumpy(), [2.0, 3.0])
    with pytest.raises(IndexError):
        ops.partial()


def test_tuple_and_scalar_conversions():
    assert F.tuple_to_array((1, 2)).dtype == ms.int32
    assert F.tuple_to_array((1.5, 2)).dtype == ms.float32
    assert F.tuple_to_array([1, 2]) is None  # as MindSpore 2.10
    with pytest.raises(TypeError, match="tuple of numbers"):
        F.tuple_to_array(3)
    t = F.scalar_to_tensor(2.7, ms.int64)
    assert t.shape == () and t.dtype == ms.int64 and int(t) == 2
    with pytest.raises(TypeError, match="ScalarToTensor"):
        F.scalar_to_tensor("a")


def test_make_range_and_tuple_len():
    assert F.make_range(2, 8, 3) == (2, 5) and F.make_range(3) == (0, 1, 2)
    with pytest.raises(TypeError, match="int scalar"):
        F.make_range(2.5)
    with pytest.raises(RuntimeError, match=r"within \[1, 3\]"):
        F.make_range(1, 2, 3, 4)
    assert F.tuple_len(((1,), 2)) == 2
    with pytest.raises(RuntimeError, match="tuple or list"):
        F.tuple_len(Tensor([1]))


def test_identity_is_tensor_and_mixed_precision_cast():
    x = Tensor([1.0])
    assert F.identity(x) is x and F.is_tensor(Parameter(x, name="w")) and not F.is_tensor(1.0)
    out = F.mixed_precision_cast(ms.float16, [x, (Tensor([1]), "s")])
    assert isinstance(out, tuple) and out[0].dtype == ms.float16
    assert out[1][0].dtype == ms.int64 and out[1][1] == "s"


def test_assign_add_updates_in_place_and_returns_a_copy():
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    r = F.assign_add(p, Tensor([1.0, 2.0]))
    np.testing.assert_allclose(p.asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(r.asnumpy(), [1.0, 2.0])
    assert r is not p and not isinstance(r, Parameter)
    F.assign_add(p, r)
    np.testing.assert_allclose(p.asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(r.asnumpy(), [1.0, 2.0])
    with pytest.raises(ValueError, match="same shape"):
        F.assign_add(p, Tensor([1.0]))


def test_reductions_keep_dtypes():
    assert F.reduce_sum(Tensor(np.array([1, 2], np.int32))).dtype == ms.int32
    assert F.reduce_sum(Tensor([True, True])).dtype == ms.bool_
    assert F.reduce_mean(Tensor([1, 2])).asnumpy() == 1
    np.testing.assert_allclose(F.reduce_sum(Tensor(np.ones((2, 3), np.float32)), [0]).asnumpy(),
                               [2, 2, 2])


def test_addn_errors():
    with pytest.raises(TypeError, match="tuple or list of Tensors"):
        F.addn(Tensor([1.0]))
    with pytest.raises(ValueError, match="input shape must be same"):
        F.addn((Tensor([1.0, 2.0]), Tensor([1.0])))


def test_nonzero():
    x = Tensor([[1, 0], [2, 3]])
    assert ops.nonzero(x).asnumpy().tolist() == [[0, 0], [1, 0], [1, 1]]
    rows, cols = ops.nonzero(x, as_tuple=True)
    assert rows.dtype == ms.int64 and rows.asnumpy().tolist() == [0, 1, 1]
    assert cols.asnumpy().tolist() == [0, 0, 1]
    with pytest.raises(TypeError, match="'as_tuple' must be bool"):
        ops.nonzero(x, as_tuple=1)


def test_range_dtypes_and_errors():
    assert ops.range(0, 5, 2).dtype == ms.int64
    assert ops.range(Tensor(0, ms.float64), Tensor(1.0, ms.float64),
                     Tensor(0.5, ms.float64)).dtype == ms.float64
    np.testing.assert_allclose(ops.range(1.0, 0.0, -0.25).asnumpy(), [1.0, 0.75, 0.5, 0.25])
    with pytest.raises(TypeError, match="dtypes of inputs must be the same"):
        ops.range(0, 2.5, 1)
    with pytest.raises(ValueError, match="cannot be negative when limit > start"):
        ops.range(0, 5, -1)


def test_roll_matches_numpy():
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ops.roll(Tensor(a), (1, -3), (0, 1)).asnumpy(),
                                  np.roll(a, (1, -3), (0, 1)))
    np.testing.assert_array_equal(ops.roll(Tensor(a), 5).asnumpy(), np.roll(a, 5))
    with pytest.raises(ValueError, match="one length"):
        ops.roll(Tensor(a), (1, 2), 0)


def test_array_errors():
    x = _t(2, 3)
    with pytest.raises(RuntimeError, match="does not index into input_shape"):
        ops.gather_nd(x, _i([2, 0]))
    with pytest.raises(ValueError, match="'reduction' must be 'none' or 'add'"):
        ops.tensor_scatter_elements(x, _i([0]), _t(1, 1), 1, "mul")
    with pytest.raises(ValueError, match="'rep' must be in range"):
        ops.repeat_elements(x, 0)
    with pytest.raises(ValueError, match=r"'axis' must be in range of \[-2, 2\)"):
        ops.repeat_elements(x, 2, 2)
    with pytest.raises(ValueError, match="all tensors should have the same type"):
        ops.meshgrid(Tensor([1]), Tensor([1.0]))
    with pytest.raises(ValueError, match="input rank must be greater than or equal to 1"):
        ops.diag(Tensor(1.0))
    with pytest.raises(TypeError, match="doesn't support 'Float32'"):
        ops.sequence_mask(Tensor([1.0]), 2)
    with pytest.raises(TypeError, match="input type must be same"):
        ops.isclose(Tensor([1, 2]), Tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="doesn't support 'Int32'"):
        ops.dot(Tensor(np.ones((2, 2), np.int32)), Tensor(np.ones((2, 2), np.int32)))
    with pytest.raises(ValueError, match="should not be equal to 0"):
        ops.batch_dot(_t(2, 2, 3), _t(2, 3, 2), 0)


def test_products_match_numpy():
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((4, 3, 5))
    np.testing.assert_allclose(ops.tensor_dot(Tensor(a), Tensor(b), ((1, 2), (1, 0))).asnumpy(),
                               np.tensordot(a, b, ((1, 2), (1, 0))))
    c = RNG.standard_normal((5, 4, 2))
    np.testing.assert_allclose(ops.dot(Tensor(a), Tensor(c)).asnumpy(), np.dot(a, c))
    p, q = RNG.standard_normal((3, 2, 4)), RNG.standard_normal((3, 4, 5))
    np.testing.assert_allclose(ops.batch_dot(Tensor(p), Tensor(q)).asnumpy(), p @ q)


def test_cummin_ties_take_the_later_index():
    values, idx = ops.cummin(Tensor([2.0, 1.0, 1.0, 3.0, 1.0]), 0)
    assert idx.dtype == ms.int32 and idx.asnumpy().tolist() == [0, 1, 2, 2, 4]
    assert values.asnumpy().tolist() == [2.0, 1.0, 1.0, 1.0, 1.0]


def test_random_samplers_follow_the_seed():
    ms.set_seed(3)
    a = ops.gamma((3, 1), Tensor([1.0, 2.0]), Tensor([1.0]), seed=4)
    ms.set_seed(3)
    b = ops.gamma((3, 1), Tensor([1.0, 2.0]), Tensor([1.0]), seed=4)
    assert a.shape == (3, 2) and a.dtype == ms.float32 and (a.asnumpy() > 0).all()
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    counts = ops.poisson((2000,), Tensor(4.0), seed=1).asnumpy()
    assert counts.dtype == np.float32 and abs(counts.mean() - 4.0) < 0.3
    lap = ops.laplace((4000,), Tensor(1.0), Tensor(2.0), seed=2).asnumpy()
    assert abs(np.median(lap) - 1.0) < 0.2 and abs(np.mean(np.abs(lap - 1.0)) - 2.0) < 0.2
    with pytest.raises(TypeError, match="'alpha' must be a Tensor"):
        ops.gamma((2,), 1.0, Tensor([1.0]))


def test_functional_module_holds_the_names():
    for name in ("partial", "tuple_to_array", "identity", "scalar_to_tensor", "einsum",
                 "make_range", "reduce_sum", "reduce_mean", "assign_add", "addn", "tuple_len",
                 "tensor_mul", "mixed_precision_cast", "tensor_scatter_elements"):
        assert getattr(F, name) is getattr(ops, name), name


# ---- against PyTorch ----
def test_against_torch():
    torch = pytest.importorskip("torch")
    a = RNG.standard_normal((2, 3, 4))
    b = RNG.standard_normal((2, 4, 5))
    cases = [
        ("bij,bjk->bik", (a, b)), ("bij->bj", (a,)), ("ii->i", (a[0, :3, :3],)),
        ("bij,bkj->bik", (a, a)),
    ]
    for eq, arrays in cases:
        ms_in = [Tensor(x) for x in arrays]
        th_in = [torch.tensor(x, requires_grad=True) for x in arrays]
        out = ops.einsum(eq, *ms_in)
        want = torch.einsum(eq, *th_in)
        np.testing.assert_allclose(out.asnumpy(), want.detach().numpy(), rtol=1e-10)
        grads = ms.grad(lambda *xs, eq=eq: (ops.einsum(eq, *xs) ** 2).sum(),
                        tuple(range(len(arrays))))(*ms_in)
        grads = grads if isinstance(grads, tuple) else (grads,)
        (want ** 2).sum().backward()
        for g, t in zip(grads, th_in):
            np.testing.assert_allclose(g.asnumpy(), t.grad.numpy(), rtol=1e-8, atol=1e-10)
    x = RNG.standard_normal((3, 4))
    tx = torch.tensor(x, requires_grad=True)
    out = ops.logsumexp(Tensor(x), 1)
    want = torch.logsumexp(tx, 1)
    np.testing.assert_allclose(out.asnumpy(), want.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(ms.grad(lambda t: ops.logsumexp(t, 1).sum())(Tensor(x)).asnumpy(),
                               torch.autograd.grad(want.sum(), tx)[0].numpy(), rtol=1e-10)
    np.testing.assert_array_equal(ops.roll(Tensor(x), (1, 2), (0, 1)).asnumpy(),
                                  torch.roll(tx, (1, 2), (0, 1)).detach().numpy())
    vals, idx = ops.cummin(Tensor(x), 1)
    tv, ti = torch.cummin(tx, 1)
    np.testing.assert_allclose(vals.asnumpy(), tv.detach().numpy())
    np.testing.assert_array_equal(idx.asnumpy(), ti.numpy())
    index = np.array([[0, 2, 1, 0]])
    np.testing.assert_allclose(
        ops.tensor_scatter_elements(Tensor(x), Tensor(index), Tensor(x[:1]), 0, "add").asnumpy(),
        tx.detach().scatter_add(0, torch.tensor(index), torch.tensor(x[:1])).numpy())
