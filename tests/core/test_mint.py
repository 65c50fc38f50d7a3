"""cellgrad.mint (core names): torch-style arguments, returns and dtypes, gradients, errors,
and the list of what MindSpore 2.10's mint has against what cellgrad provides."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import mint
from cellgrad.testing import gradcheck

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "signatures" /
                      "mindspore-2.10.json").read_text())["namespaces"]
X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)
RNG = np.random.default_rng(0)


def t(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def test_import_cellgrad_does_not_import_mint():
    code = "import sys, cellgrad; assert 'cellgrad.mint' not in sys.modules; cellgrad.mint.ones"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_core_name_of_mindspore_mint_is_provided():
    # conv2d and erf/erfc/erfinv need cellgrad-ops-nn; polar/triangular_solve/conv_tbc missing
    needs_nn = {"conv2d", "conv_tbc", "erf", "erfc", "erfinv"}
    missing = sorted(n for n in FIXTURE["mint"] if n not in needs_nn and n not in mint.__all__)
    assert missing == []
    assert len(mint.__all__) >= 200


def test_max_min_follow_torch():
    x = t(X)
    assert mint.max(x).shape == () and float(mint.max(x)) == 6.0
    values, indices = mint.max(x, 1)
    np.testing.assert_array_equal(values.asnumpy(), [5.0, 6.0])
    np.testing.assert_array_equal(indices.asnumpy(), [1, 2])
    assert indices.dtype == ms.int64
    values, indices = mint.min(x, dim=0, keepdim=True)
    assert values.shape == (1, 3) and indices.asnumpy().tolist() == [[0, 1, 0]]
    np.testing.assert_array_equal(mint.max(x, t(np.full((2, 3), 3.0, np.float32))).asnumpy(),
                                  np.maximum(X, 3.0))
    with pytest.raises(TypeError, match="mint.max.*'dim' must be an int"):
        mint.max(x, 1.5)


def test_creation_dtypes():
    assert mint.ones((2, 3)).dtype == ms.float32 and mint.ones(2).shape == (2,)
    assert mint.zeros((2, 3)).shape == (2, 3) and mint.zeros(4).dtype == ms.float32
    assert mint.ones(2, dtype=ms.int32).dtype == ms.int32
    assert mint.arange(5).dtype == ms.int64
    assert mint.arange(0, 1, 0.25).dtype == ms.float32
    np.testing.assert_allclose(mint.arange(0, 1, 0.25).asnumpy(), [0, 0.25, 0.5, 0.75])
    assert mint.rand(2, 3).shape == (2, 3) and mint.rand(2, 3).dtype == ms.float32
    assert mint.randn((4,)).dtype == ms.float32
    r = mint.randint(3, (100,))
    assert r.dtype == ms.int64 and 0 <= int(r.min()) and int(r.max()) < 3
    np.testing.assert_allclose(mint.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    np.testing.assert_array_equal(mint.empty(2, 2).asnumpy(), np.zeros((2, 2)))
    with pytest.raises(TypeError, match="mint.ones.*'size'"):
        mint.ones((2, 1.5))
    with pytest.raises(TypeError, match="mint.rand.*'generator' is not supported"):
        mint.rand(2, generator=object())


def test_random_functions():
    ms.set_seed(0)
    p = t(np.array([0.0, 1.0, 0.0, 2.0], np.float32))
    drawn = mint.multinomial(p, 2)  # without replacement by default, as torch
    assert drawn.dtype == ms.int64 and sorted(drawn.asnumpy().tolist()) == [1, 3]
    coin = mint.bernoulli(t(np.array([0.0, 1.0], np.float32)))
    assert coin.dtype == ms.float32 and coin.asnumpy().tolist() == [0.0, 1.0]
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    like = mint.randint_like(t(np.zeros(50, np.float32)), 2, 4)
    assert like.dtype == ms.float32 and set(like.asnumpy().tolist()) <= {2.0, 3.0}
    assert mint.normal(t(np.zeros((2, 2), np.float32)), 1.0).shape == (2, 2)
    assert mint.normal(0.0, 1.0, (3,)).dtype == ms.float32
    with pytest.raises(TypeError, match="mint.randint.*expected"):
        mint.randint(1)


def test_reductions_and_renamed_arguments():
    x = t(X)
    np.testing.assert_allclose(mint.sum(x, dim=1, keepdim=True).asnumpy(), X.sum(1, keepdims=True))
    assert mint.sum(t(X.astype(np.int32))).dtype == ms.int64
    np.testing.assert_allclose(mint.mean(x, 0).asnumpy(), X.mean(0))
    np.testing.assert_allclose(mint.std(x, 1).asnumpy(), X.std(1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(mint.var(x, 1, correction=0).asnumpy(), X.var(1), rtol=1e-6)
    np.testing.assert_allclose(mint.amax(x).asnumpy(), 6.0)
    np.testing.assert_allclose(mint.logsumexp(x, 1).asnumpy(),
                               np.log(np.exp(X).sum(1)), rtol=1e-6)
    assert mint.argmax(x, dim=1).asnumpy().tolist() == [1, 2]
    assert mint.count_nonzero(t([[0.0, 1.0], [2.0, 0.0]]), 1).asnumpy().tolist() == [1, 1]
    assert mint.count_nonzero(x).dtype == ms.int64
    values, indices = mint.sort(x, dim=1, descending=True)
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-X, 1))
    values, indices = mint.topk(x, 2)
    np.testing.assert_array_equal(values.asnumpy(), [[5, 3], [6, 4]])
    assert float(mint.median(t([3.0, 1.0, 4.0, 2.0]))) == 2.0  # the lower median, as torch
    values, indices = mint.kthvalue(x, 2, 1)
    assert values.asnumpy().tolist() == [3, 4] and indices.asnumpy().tolist() == [2, 0]
    values, indices = mint.cummax(t([1.0, 3.0, 2.0, 5.0]), 0)
    assert values.asnumpy().tolist() == [1, 3, 3, 5] and indices.asnumpy().tolist() == [0, 1, 1, 3]


def test_shapes_and_joins():
    x = t(X)
    assert [p.shape for p in mint.split(x, [1, 2], dim=1)] == [(2, 1), (2, 2)]
    assert [p.shape for p in mint.split(x, 2, 1)] == [(2, 2), (2, 1)]
    assert mint.cat([x, x], dim=1).shape == (2, 6) and mint.stack([x, x], -1).shape == (2, 3, 2)
    np.testing.assert_array_equal(mint.narrow(x, 1, 1, 2).asnumpy(), X[:, 1:3])
    with pytest.raises(ValueError, match="mint.narrow"):
        mint.narrow(x, 1, 2, 5)
    assert mint.transpose(x, 0, 1).shape == (3, 2) and mint.t(x).shape == (3, 2)
    np.testing.assert_array_equal(mint.select(x, 1, -1).asnumpy(), X[:, -1])
    with pytest.raises(ValueError, match="mint.select.*'index' must be in \\[-3, 3\\)"):
        mint.select(x, 1, 3)
    assert mint.flatten(t(np.zeros((2, 3, 4)))).shape == (24,)
    a, b = mint.meshgrid(t([1, 2]), t([3, 4, 5]))
    assert a.shape == (2, 3)  # "ij" by default, as torch
    idx = mint.where(x > 3)
    assert [i.asnumpy().tolist() for i in idx] == [[0, 1, 1], [1, 0, 2]]
    out, inverse, counts = mint.unique_consecutive(t([1, 1, 2, 2, 3, 1]), True, True)
    assert out.asnumpy().tolist() == [1, 2, 3, 1]
    assert inverse.asnumpy().tolist() == [0, 0, 1, 1, 2, 3] and counts.dtype == ms.int64
    out = mint.unique_consecutive(t([[1, 2], [1, 2], [3, 4]]), dim=0)
    assert out.asnumpy().tolist() == [[1, 2], [3, 4]]
    assert mint.searchsorted(t([1.0, 3.0, 5.0]), t([3.0, 6.0]), right=True).asnumpy().tolist() \
        == [2, 3]
    np.testing.assert_array_equal(mint.histc(t([0.5, 1.5, 1.7, 3.0]), 3, 0, 3).asnumpy(),
                                  [1, 2, 1])


def test_compositions_match_numpy():
    a, b, c = (RNG.standard_normal((3, 3)).astype(np.float32) for _ in range(3))
    np.testing.assert_allclose(mint.addmm(t(a), t(b), t(c), beta=0.5, alpha=2).asnumpy(),
                               0.5 * a + 2 * b @ c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mint.addcmul(t(a), t(b), t(c), value=3).asnumpy(),
                               a + 3 * b * c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mint.lerp(t(a), t(b), 0.25).asnumpy(), a + 0.25 * (b - a),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mint.add(t(a), t(b), alpha=2).asnumpy(), a + 2 * b, rtol=1e-6)
    np.testing.assert_allclose(mint.sub(t(a), t(b), alpha=2).asnumpy(), a - 2 * b, rtol=1e-6)
    np.testing.assert_allclose(mint.xlogy(t([0.0, 2.0]), t([0.0, 3.0])).asnumpy(),
                               [0.0, 2 * np.log(3.0)], rtol=1e-6)
    np.testing.assert_allclose(mint.sinc(t([0.0, 0.5])).asnumpy(), [1.0, 2 / np.pi], rtol=1e-6)
    np.testing.assert_allclose(mint.frac(t([1.5, -1.25])).asnumpy(), [0.5, -0.25])
    np.testing.assert_allclose(mint.tan(t(a)).asnumpy(), np.tan(a), rtol=1e-5)
    np.testing.assert_allclose(mint.cdist(t(a), t(b)).asnumpy(),
                               np.linalg.norm(a[:, None] - b[None], axis=-1), rtol=1e-5)
    special = t(np.array([np.nan, np.inf, 1.0], np.float32))
    np.testing.assert_allclose(mint.nan_to_num(special).asnumpy(),
                               [0.0, np.finfo(np.float32).max, 1.0])
    assert mint.allclose(t(a), t(a + 1e-9)) is True


def test_complex_results_are_complex_tensors():
    z = mint.polar(t(X), t(X))
    assert z.dtype == ms.complex64
    np.testing.assert_allclose(z.asnumpy(), X * np.exp(1j * X), rtol=1e-6)
    assert mint.real(z).dtype == ms.float32 and mint.imag(t(X)).asnumpy().tolist() == \
        np.zeros_like(X).tolist()


def test_norms_needing_singular_values_say_so():
    with pytest.raises(ValueError, match="matrix_norm.*'nuc', 2 and -2 need singular values"):
        mint.linalg.matrix_norm(t(X), "nuc")
    with pytest.raises(ValueError, match="mint.norm.*p='nuc' needs singular values"):
        mint.norm(t(X), "nuc")


def test_linalg_and_special_names():
    assert sorted(n for n in FIXTURE["mint.linalg"] if not hasattr(mint.linalg, n)) == []
    assert {"exp2", "expm1", "log1p", "round", "sinc"} <= set(dir(mint.special))


def test_wrong_arguments_name_the_function():
    with pytest.raises(TypeError, match=r"'mint.cat', 'out' is not supported.*\(tensors, dim=0\)"):
        mint.cat([t(X)], out=t(X))
    with pytest.raises(TypeError, match="'mint.sum', .*unexpected keyword argument 'axis'"):
        mint.sum(t(X), axis=0)


def test_ascend_only_names_say_so():
    with pytest.raises(RuntimeError, match="npu_gelu runs only on Ascend.*gelu"):
        mint.npu_gelu(t(X))
    with pytest.raises(RuntimeError, match="batch_norm_stats runs only on Ascend"):
        mint.batch_norm_stats(t(X), 1e-5)


@pytest.mark.parametrize("fn, args", [
    (lambda x: mint.max(x, 1)[0], (X,)),
    (lambda x: mint.sum(x, dim=0), (X,)),
    (lambda x: mint.mean(x, 1, True), (X,)),
    (lambda x: mint.std(x, 1), (X,)),
    (lambda x: mint.cat([x, x * 2], dim=1), (X,)),
    (lambda x: mint.split(x, [1, 2], dim=1)[1], (X,)),
    (lambda x: mint.narrow(x, 1, 1, 2), (X,)),
    (lambda x: mint.select(x, 0, 1), (X,)),
    (lambda x: mint.softmax(x, 1), (X / 3,)),
    (lambda x: mint.linalg.qr(x)[0], (X.T.copy(),)),
    (lambda x: mint.linalg.qr(x)[1], (X.T.copy(),)),
    (lambda b, a: mint.triangular_solve(b, a, upper=False)[0],
     (X[:, :2].T.copy(), np.array([[2.0, 0.0], [0.5, 3.0]]))),
    (lambda a, b, c: mint.addmm(a, b, c, beta=0.5, alpha=2), (X[:, :2], X[:, :2], X[:2, :2])),
    (lambda a, b: mint.xlogy(a, b), (X, X + 1)),
    (lambda a, b: mint.lerp(a, b, 0.3), (X, X * 2)),
    (lambda x: mint.sinc(x), (X / 7,)),
    (lambda x: mint.kthvalue(x, 2, 1)[0], (X,)),
    (lambda x: mint.cummax(x, 1)[0], (X,)),
    (lambda x: mint.tan(x), (X / 10,)),
    (lambda x: mint.acosh(x), (X + 1,)),
    (lambda x: mint.norm(x), (X,)),
    (lambda a, b: mint.cdist(a, b), (X, X[::-1] * 0.5)),
    (lambda x, s: mint.index_add(x, 0, ms.Tensor(np.array([1, 0, 1])), s), (X, X[[0, 1, 0]])),
])
def test_gradients(fn, args):
    assert gradcheck(fn, *(t(a.astype(np.float64)) for a in args))


@pytest.mark.filterwarnings("ignore:torch.triangular_solve is deprecated:UserWarning")
def test_against_torch():
    torch = pytest.importorskip("torch")
    a = RNG.standard_normal((3, 4))
    b = RNG.standard_normal((4, 5))
    c = RNG.standard_normal((3, 5))
    cases = [
        (mint.addmm(t(c), t(a), t(b), beta=0.5, alpha=2),
         torch.addmm(torch.tensor(c), torch.tensor(a), torch.tensor(b), beta=0.5, alpha=2)),
        (mint.cdist(t(a), t(a[::-1].copy()), p=1.0),
         torch.cdist(torch.tensor(a), torch.tensor(a[::-1].copy()), p=1.0)),
        (mint.xlogy(t(np.abs(a)), t(np.abs(a) + 1)),
         torch.xlogy(torch.tensor(np.abs(a)), torch.tensor(np.abs(a) + 1))),
        (mint.norm(t(a), 3, 1), torch.norm(torch.tensor(a), 3, 1)),
        (mint.median(t(a), 1)[0], torch.median(torch.tensor(a), 1)[0]),
        (mint.triangular_solve(t(c), t(a[:, :3]), transpose=True, unitriangular=True)[0],
         torch.triangular_solve(torch.tensor(c), torch.tensor(a[:, :3]), transpose=True,
                                unitriangular=True)[0]),
        (mint.index_add(t(a), 1, t(np.array([0, 0, 2])), t(a[:, :3])),
         torch.index_add(torch.tensor(a), 1, torch.tensor([0, 0, 2]), torch.tensor(a[:, :3]))),
    ]
    for ours, theirs in cases:
        np.testing.assert_allclose(ours.asnumpy(), theirs.numpy(), rtol=1e-6, atol=1e-9)
    x = torch.tensor(a, requires_grad=True)
    torch.sinc(x).sum().backward()
    ours = ms.grad(lambda v: mint.sum(mint.sinc(v)))(t(a))
    np.testing.assert_allclose(ours.asnumpy(), x.grad.numpy(), rtol=1e-6, atol=1e-9)
