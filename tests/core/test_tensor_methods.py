"""Tensor methods added for real MindSpore code (common/_tensor_methods.py) and the ops they
need (ops/_tm_array.py): what MindSpore 2.10's CPU build cannot show (tensor_methods.py replays
the rest), signatures, in-place writes, errors, float64 gradchecks and PyTorch comparisons."""

import inspect

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.common import _tensor_methods
from cellgrad.testing import gradcheck, gradgradcheck

X = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))


def test_table_methods_have_mindspore_signatures():
    assert str(inspect.signature(Tensor.diagonal)) == "(self, offset=0, axis1=0, axis2=1)"
    assert str(inspect.signature(Tensor.tensor_split)) == "(self, indices_or_sections, axis=0)"
    assert str(inspect.signature(Tensor.multiply)) == "(self, value)"
    assert str(inspect.signature(Tensor.div)) == "(self, other, *, rounding_mode=None)"
    assert str(inspect.signature(X.gather_elements)) == "(dim, index)"
    for name in _tensor_methods.THIN:
        assert callable(getattr(Tensor, name)), name
    assert Tensor.exp.__qualname__ == "Tensor.exp"


def test_clone_copies_and_passes_gradients():
    c = X.clone()
    assert c.asnumpy().tolist() == X.asnumpy().tolist() and c._data is not X._data
    g = ms.grad(lambda x: (x.clone() * 3).sum())(X)
    assert g.asnumpy().tolist() == np.full((3, 4), 3.0).tolist()


def test_unique_as_the_tensor_method_documents():
    t = Tensor([3, 1, 3, 2])
    assert t.unique().asnumpy().tolist() == [1, 2, 3]
    values, inverse, counts = t.unique(return_inverse=True, return_counts=True)
    assert inverse.asnumpy().tolist() == [2, 0, 2, 1] and counts.asnumpy().tolist() == [1, 1, 2]
    assert (inverse.dtype, counts.dtype) == (ms.int64, ms.int64)
    rows = Tensor([[1, 2], [1, 2], [0, 1]]).unique(dim=0)
    assert rows.asnumpy().tolist() == [[0, 1], [1, 2]]
    v, i = ops.unique(Tensor([3.0, 1.0, 3.0, 2.0]))  # first-appearance order, Int32 indices
    assert v.asnumpy().tolist() == [3.0, 1.0, 2.0] and i.asnumpy().tolist() == [0, 1, 0, 2]
    assert i.dtype == ms.int32 and ops.unique(Tensor([1, 1]))[1].dtype == ms.int64


def test_in_place_methods_write_the_tensor_memory():
    y = X.copy()
    view = y.asnumpy()
    assert y.masked_fill_(X > 5, 0.0) is y and view[2].tolist() == [0.0] * 4
    assert y.clamp_(1, 4) is y and view[0].tolist() == [1.0, 1.0, 2.0, 3.0]
    z = ops.zeros((2, 3))
    assert z.scatter_(1, Tensor([[0], [2]]), Tensor([[1.0], [2.0]])) is z
    assert z.asnumpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    z.scatter_(1, Tensor([[1], [1]]), value=7.0)
    assert z.asnumpy()[:, 1].tolist() == [7.0, 7.0]
    a = Tensor([3.0, 5.0])
    assert a.assign_value(Tensor([1, 2], ms.int32)) is a and a.dtype == ms.int32


def test_in_place_write_inside_grad_is_recorded():
    def f(x):
        y = x * 2
        y.clamp_(None, 5.0)
        return y.sum()

    g = ms.grad(f)(Tensor([1.0, 2.0, 3.0]))
    assert g.asnumpy().tolist() == [2.0, 2.0, 0.0]


def test_normal_follows_the_global_seed():
    ms.set_seed(3)
    a = Tensor(np.zeros(4, np.float32)).normal_(1.0, 0.5)
    ms.set_seed(3)
    b = Tensor(np.zeros(4, np.float32)).normal_(1.0, 0.5)
    assert a.asnumpy().tolist() == b.asnumpy().tolist() and len(set(a.asnumpy().tolist())) == 4
    with pytest.raises(TypeError, match="'Tensor.normal_'.*float type.*Int64"):
        Tensor([1, 2]).normal_()


def test_scatter_reduce_add_and_index_and_take_modes():
    out = ops.ones((2, 3)).scatter(1, Tensor([[0, 0], [1, 2]]), Tensor(np.ones((2, 2), np.float32)),
                                   reduce="add")
    assert out.asnumpy().tolist() == [[3.0, 1.0, 1.0], [1.0, 2.0, 2.0]]
    assert X.index((Tensor([0, 2]),)).shape == (2, 4)
    with pytest.raises(IndexError, match="'Tensor.take'"):
        X.take(Tensor([20]), mode="raise")
    assert X.take(Tensor([-1]), mode="raise").asnumpy().tolist() == [11.0]


@pytest.mark.parametrize("call, error, match", [
    (lambda: X.index_select(1, Tensor([[0]])), ValueError, "dimension of `index` must be 1"),
    (lambda: X.index_select(1, Tensor([0]), dim=1), TypeError, "both 'axis' and 'dim'"),
    (lambda: X.chunk(0), ValueError, "'chunks' must be greater than 0"),
    (lambda: X.expand(2.0, 3), TypeError, "'Tensor.expand'.*got float"),
    (lambda: ops.repeat_interleave(X, Tensor([1, 2]), 0), ValueError, "length of 'repeats'"),
    (lambda: ops.scatter(X, 1, Tensor([[9]]), 1.0), IndexError, "'scatter'.*\\[-4, 4\\)"),
    (lambda: ops.index_add(X, Tensor([5]), ops.ones((1, 4)), 0), RuntimeError, "out of range"),
    (lambda: ops.diagonal(Tensor([1.0]), 0), ValueError, "Dimension out of range"),
    (lambda: ops.take(X, Tensor([12])), IndexError, "'take'.*\\[-12, 12\\)"),
    (lambda: ops.inverse(Tensor([[1, 2], [3, 4]])), TypeError, "'inverse'.*Float32 or Float64"),
    (lambda: ops.bitwise_and(X, X), TypeError, "'bitwise_and'.*bool or integer"),
    (lambda: ops.dot(Tensor([1.0]), Tensor([1.0])), ValueError, "'dimension >= 2'"),
])
def test_errors_name_the_function_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


GRADS = [
    ("repeat_interleave", lambda x: x.repeat_interleave(Tensor([1, 2, 0]), 0), [(3, 2)]),
    ("tensor_split", lambda x: x.tensor_split(3, 1), [(2, 5)]),
    ("scatter", lambda x, s: x.scatter(1, Tensor([[0, 2], [1, 1]]), s), [(2, 3), (2, 2)]),
    ("scatter_add", lambda x, s: x.scatter(1, Tensor([[0, 0]]), s, reduce="add"),
     [(1, 3), (1, 2)]),
    ("index_add", lambda x, y: (x * 1).index_add(1, Tensor([2, 0, 2]), y, alpha=2),
     [(2, 3), (2, 3)]),  # x * 1: index_add also writes into its input, as MindSpore's
    ("diagonal", lambda x: x.diagonal(-1, 1, 2), [(2, 3, 4)]),
    ("take", lambda x: ops.take(x, Tensor([[0, -1], [5, 5]])), [(2, 3)]),
    ("index_select", lambda x: x.index_select(0, Tensor([1, 1])), [(2, 3)]),
    ("expand", lambda x: x.expand(3, -1), [(1, 2)]),
    ("dot", lambda a, b: a.dot(b), [(2, 3), (4, 3, 2)]),
    ("inverse", lambda a: (a + Tensor(np.eye(2) * 3)).inverse(), [(3, 2, 2)]),
    ("clone", lambda x: x.clone() * x, [(3,)]),
    ("t", lambda x: x.t(), [(2, 3)]),
]


@pytest.mark.parametrize("name, fn, shapes", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_float64(name, fn, shapes):
    rng = np.random.default_rng(0)
    args = [Tensor(rng.uniform(-1, 1, s)) for s in shapes]
    assert gradcheck(fn, *args)
    assert gradgradcheck(lambda *a: tuple(o * o for o in _tuple(fn(*a))), *args, atol=1e-4)


def _tuple(v):
    return tuple(v) if isinstance(v, tuple) else (v,)


def test_against_pytorch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (3, 4))
    cases = [
        (lambda t: t.repeat_interleave(2, dim=1), lambda t: t.repeat_interleave(2, dim=1)),
        (lambda t: t.tensor_split(3, 1), lambda t: t.tensor_split(3, 1)),
        (lambda t: t.diagonal(1), lambda t: t.diagonal(1)),
        (lambda t: t.scatter(1, Tensor([[0, 2], [1, 3], [3, 0]]), t[:, :2] * 2),
         lambda t: t.scatter(1, torch.tensor([[0, 2], [1, 3], [3, 0]]), t[:, :2] * 2)),
        (lambda t: (t * 1).index_add(0, Tensor([2, 0, 2]), t * 3),
         lambda t: t.index_add(0, torch.tensor([2, 0, 2]), t * 3)),
        (lambda t: t.expand(2, 3, 4), lambda t: t.expand(2, 3, 4)),
        (lambda t: t[:, :3].inverse(), lambda t: t[:, :3].inverse()),
    ]
    for ms_fn, th_fn in cases:
        x = Tensor(a)
        tx = torch.tensor(a, requires_grad=True)
        ours = _tuple(ms_fn(x))
        theirs = _tuple(th_fn(tx))
        for o, t in zip(ours, theirs):
            np.testing.assert_allclose(o.asnumpy(), t.detach().numpy(), rtol=1e-6, atol=1e-8)
        g = ms.grad(lambda v, f=ms_fn: sum((o * o).sum() for o in _tuple(f(v))))(x)
        sum((t * t).sum() for t in theirs).backward()
        np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-6, atol=1e-8)


def test_softmax_method_uses_the_ops_nn_function():
    try:
        getattr(ops, "softmax")  # noqa: B009  (a plugin name: looked up to skip without it)
    except (AttributeError, ImportError):
        pytest.skip("ops.softmax comes from cellgrad-ops-nn")
    out = Tensor([1.0, 2.0]).softmax(0)
    np.testing.assert_allclose(out.asnumpy(), [0.26894142, 0.7310586], rtol=1e-6)
    assert Tensor([1.0, 2.0]).softmax(0, dtype=ms.float16).dtype == ms.float16


def test_index_add_writes_into_x_as_mindspore():
    p = ms.Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p")
    r = ops.index_add(p, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), np.float32)), 0)
    assert r is not p and p.asnumpy().sum() == 4.0 and r.asnumpy().sum() == 4.0
    t = Tensor(np.zeros((3, 2), np.float32))
    t.index_add(0, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), np.float32)))
    assert t.asnumpy()[:, 0].tolist() == [1.0, 0.0, 1.0]
