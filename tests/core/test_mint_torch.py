"""Every mint name that PyTorch has, against PyTorch: values, shapes and dtypes (skipped
without torch). Names are grouped by how they are called."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import mint

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
A = RNG.uniform(0.2, 0.9, (3, 4))
B = RNG.uniform(0.2, 0.9, (3, 4))
IA = RNG.integers(1, 9, (3, 4))
IB = RNG.integers(1, 9, (3, 4))
IDX = np.array([[0, 1], [2, 0], [1, 1]])
RENAMED = {"arccos": "acos", "arcsin": "asin", "arctan": "atan", "negative": "neg",
           "arcsinh": "asinh", "arctanh": "atanh", "fix": "trunc", "arctan2": "atan2"}


def ours_and_torch(name, *arrays_and_args):
    """mint.name and torch.name on the same inputs (numpy arrays become tensors)."""
    def convert(make, value):
        if isinstance(value, np.ndarray):
            return make(value)
        if isinstance(value, list):
            return [convert(make, v) for v in value]
        return value
    ours = getattr(mint, name)(*(convert(ms.Tensor, v) for v in arrays_and_args))
    theirs = getattr(torch, RENAMED.get(name, name))(
        *(convert(torch.tensor, v) for v in arrays_and_args))
    return ours, theirs


def assert_same(ours, theirs):
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            assert_same(o, t)
        return
    o = ours.asnumpy() if hasattr(ours, "asnumpy") else np.asarray(ours)
    t = theirs.numpy() if hasattr(theirs, "numpy") else np.asarray(theirs)
    assert o.shape == t.shape
    np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-6, equal_nan=True)
    assert str(o.dtype) == str(t.dtype).replace("torch.", "")


UNARY = ("abs acos arccos asin atan arctan ceil cos cosh exp exp2 expm1 floor log log10 log1p "
         "log2 logical_not neg negative reciprocal rsqrt sigmoid sign sin sinh square tanh "
         "isfinite isinf trunc fix sqrt isnan tan arcsinh asinh atanh arctanh isneginf ravel "
         "frac sinc t clone").split()
BINARY = ("arctan2 atan2 greater gt le less_equal logical_and logical_or logical_xor maximum "
          "minimum ne not_equal eq ge lt less greater_equal floor_divide remainder mul logaddexp "
          "logaddexp2 fmod float_power pow div divide add sub xlogy").split()


@pytest.mark.parametrize("name", UNARY)
def test_unary(name):
    assert_same(*ours_and_torch(name, A))


def test_acosh():
    assert_same(*ours_and_torch("acosh", A + 1))


@pytest.mark.parametrize("name", BINARY)
def test_binary(name):
    assert_same(*ours_and_torch(name, A, B))


@pytest.mark.parametrize("name", "bitwise_and bitwise_or bitwise_xor gcd".split())
def test_integer_binary(name):
    assert_same(*ours_and_torch(name, IA, IB))


@pytest.mark.parametrize("name, args", [
    ("all", (1,)), ("any", (0, True)), ("argmax", (1,)), ("argmin", (1, True)),
    ("logsumexp", (1,)), ("sum", (1,)), ("prod", (1,)), ("nansum", (0,)), ("std", (1,)),
    ("var", (0,)), ("cumsum", (1,)), ("cumprod", (1,)), ("cummin", (1,)), ("cummax", (0,)),
    ("argsort", (1,)), ("topk", (2,)), ("mean", (1,)), ("amax", (1,)), ("amin", (0,)),
    ("median", (1,)), ("std_mean", (1,)), ("var_mean", (1,)), ("count_nonzero", (1,)),
    ("norm", ()), ("softmax", (1,)), ("max", (1,)), ("min", (0,)), ("kthvalue", (2,)),
    ("flatten", ()), ("flip", ((0,),)), ("roll", (1, 1)), ("swapaxes", (0, 1)),
    ("transpose", (0, 1)), ("permute", ((1, 0),)), ("unsqueeze", (1,)), ("tril", (1,)),
    ("triu", (-1,)), ("unbind", (1,)), ("chunk", (2, 1)), ("split", (2, 1)),
    ("narrow", (1, 1, 2)), ("select", (1, 2)), ("tile", ((2, 1),)),
    ("repeat_interleave", (2, 0)), ("diff", ()), ("reshape", ((4, 3),)),
    ("broadcast_to", ((2, 3, 4),)), ("trace", ()), ("nonzero", ()), ("diag", (1,)),
    ("histc", (4,)),
])
def test_one_tensor_with_arguments(name, args):
    assert_same(*ours_and_torch(name, A, *args))


def test_integer_reductions_and_counts():
    assert_same(*ours_and_torch("sum", IA.astype(np.int32)))
    assert_same(*ours_and_torch("bincount", IA.ravel()))
    assert_same(*ours_and_torch("unique", IA, True, True, True))


@pytest.mark.filterwarnings("ignore:torch.meshgrid:UserWarning")  # torch's "ij" default note
@pytest.mark.parametrize("name, args", [
    ("cat", ([A, B], 1)), ("stack", ([A, B], 1)), ("hstack", ([A, B],)), ("dstack", ([A, B],)),
    ("gather", (A, 1, IDX)), ("scatter", (A, 1, IDX, B[:, :2].copy())),
    ("scatter_add", (A, 1, IDX, B[:, :2].copy())), ("index_select", (A, 1, np.array([3, 0]))),
    ("take", (A, np.array([5, 0]))), ("masked_select", (A, A > 0.5)),
    ("where", (A > 0.5, A, B)), ("clamp", (A, 0.3, 0.6)), ("mm", (A, B.T.copy())),
    ("bmm", (A[None], B.T.copy()[None])), ("matmul", (A, B.T.copy())), ("outer", (A[0], B[0])),
    ("dot", (A[0], B[0])), ("vdot", (A[0], B[0])), ("mv", (A, B[0])),
    ("inverse", (A[:, :3] + np.eye(3),)), ("einsum", ("ij,kj->ik", A, B)),
    ("isclose", (A, A + 1e-9)), ("searchsorted", (np.sort(A, 1), B)),
    ("meshgrid", (A[0], B[0])), ("addcdiv", (A, A, B)), ("allclose", (A, B)),
    ("lerp", (A, B, 0.3)), ("addcmul", (A, A, B)), ("cdist", (A, B)),
    ("addmv", (A[:, 0].copy(), A, B[0])), ("full_like", (A, 3)), ("ones_like", (IA,)),
    ("zeros_like", (A,)), ("eye", (3, 4)), ("full", ((2, 3), 1.5)), ("full", ((2, 3), 2)),
    ("arange", (1, 7, 2)), ("linspace", (0, 1, 4)), ("nan_to_num", (np.array([np.nan, -1.0]),)),
])
def test_several_arguments(name, args):
    assert_same(*ours_and_torch(name, *args))


@pytest.mark.parametrize("name, args, kwargs", [
    ("vector_norm", (A,), {}), ("vector_norm", (A, 3, 1, True), {}),
    ("vector_norm", (A, float("inf")), {}), ("vector_norm", (A, 0), {}),
    ("matrix_norm", (A,), {}), ("matrix_norm", (A, 1), {}), ("matrix_norm", (A, -1), {}),
    ("matrix_norm", (A, float("inf")), {"keepdim": True}),
    ("norm", (A,), {}), ("norm", (A, 1, 1), {}), ("norm", (A, "fro"), {}),
    ("norm", (A[0], 3), {}), ("inv", (A[:, :3] + np.eye(3),), {}),
])
def test_linalg(name, args, kwargs):
    ours = getattr(mint.linalg, name)(*(ms.Tensor(a) if isinstance(a, np.ndarray) else a
                                        for a in args), **kwargs)
    theirs = getattr(torch.linalg, name)(*(torch.tensor(a) if isinstance(a, np.ndarray) else a
                                           for a in args), **kwargs)
    assert_same(ours, theirs)


@pytest.mark.parametrize("name", "exp2 expm1 log1p round sinc erfc".split())
def test_special(name):
    if name == "erfc" and not hasattr(mint.special, "erfc"):
        pytest.skip("mint.special.erfc comes from cellgrad-ops-nn")
    assert_same(getattr(mint.special, name)(ms.Tensor(A * 3)),
                getattr(torch.special, name)(torch.tensor(A * 3)))


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5), (2, 4, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(shape, mode):
    a = np.random.default_rng(1).standard_normal(shape)
    ours, theirs = mint.linalg.qr(ms.Tensor(a), mode), torch.linalg.qr(torch.tensor(a), mode)
    assert_same(ours, theirs)


def test_qr_gradients():
    a = np.random.default_rng(2).standard_normal((4, 3))
    w = np.random.default_rng(3).standard_normal((4, 3))
    x = torch.tensor(a, requires_grad=True)
    q, r = torch.linalg.qr(x)
    ((q * torch.tensor(w)).sum() + (r * torch.tensor(w[:3])).sum()).backward()
    ours = ms.grad(lambda v: mint.sum(mint.linalg.qr(v)[0] * ms.Tensor(w))
                   + mint.sum(mint.linalg.qr(v)[1] * ms.Tensor(w[:3])))(ms.Tensor(a))
    np.testing.assert_allclose(ours.asnumpy(), x.grad.numpy(), rtol=1e-6, atol=1e-9)
