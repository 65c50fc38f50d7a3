"""Gradients through sparse tensors, gradchecked in float64: the sparse x dense product with
respect to the values and the dense operand (all adjoints), conversions, sparse arithmetic;
and PyTorch's torch.sparse for the product (skipped without torch)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import COOTensor, CSRTensor, Tensor, ops
from cellgrad.testing import gradcheck, gradgradcheck

ROWS, COLS = [0, 1, 2, 1, 0], [1, 2, 0, 2, 3]  # (1, 2) twice: duplicates add up
IDX = Tensor(np.stack([ROWS, COLS], 1).astype(np.int64))
INDPTR, CSR_COLS = Tensor([0, 2, 3, 4], ms.int32), Tensor([1, 3, 2, 0], ms.int32)


def _rand(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape))


@pytest.mark.parametrize("adjoint_st, adjoint_dt", [(False, False), (True, False),
                                                    (False, True), (True, True)])
def test_sparse_tensor_dense_matmul_gradcheck(adjoint_st, adjoint_dt):
    prim = ops.SparseTensorDenseMatmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)
    inner = 3 if adjoint_st else 4
    dense = _rand(*((2, inner) if adjoint_dt else (inner, 2)), seed=1)
    fn = lambda v, d: prim(IDX, v, (3, 4), d)  # noqa: E731
    assert gradcheck(fn, _rand(5), dense)
    assert gradgradcheck(fn, _rand(5), dense)


def test_matmul_equals_the_dense_product():
    v, d = _rand(5), _rand(4, 3, seed=1)
    dense_a = np.zeros((3, 4))
    np.add.at(dense_a, (ROWS, COLS), v.asnumpy())
    out = ops.SparseTensorDenseMatmul()(IDX, v, (3, 4), d)
    np.testing.assert_allclose(out.asnumpy(), dense_a @ d.asnumpy(), rtol=1e-12)


def test_matmul_errors():
    prim = ops.SparseTensorDenseMatmul()
    with pytest.raises(TypeError, match=r"For primitive\[SparseTensorDenseMatmul\], the input "
                                        "type must be same."):
        prim(IDX, _rand(5), (3, 4), Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(ValueError, match=r"out of bounds index, row range: \[0, 3\), col range:"
                                         r" \[0, 4\), but got row: 0, col: 9"):
        prim(Tensor([[0, 9]]), Tensor([1.0]), (3, 4), Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(TypeError, match="'adjoint_st' should be bool"):
        ops.SparseTensorDenseMatmul(adjoint_st=1)


def test_csr_products_gradcheck():
    csr = lambda v: CSRTensor(INDPTR, CSR_COLS, v, (3, 4))  # noqa: E731
    assert gradcheck(lambda v, d: csr(v).mm(d), _rand(4), _rand(4, 2, seed=1))
    assert gradcheck(lambda v, d: ops.csr_mv(csr(v), d), _rand(4), _rand(4, 1, seed=1))
    assert gradcheck(lambda v, d: (csr(v) * d).values, _rand(4), _rand(3, 4, seed=1))
    assert gradcheck(lambda v, d: ops.csr_div(csr(v), d).values, _rand(4),
                     _rand(4, seed=1) + 3.0)
    assert gradcheck(lambda v: ops.csr_reduce_sum(csr(v), 1), _rand(4))
    assert gradcheck(lambda v: ops.csr_softmax(csr(v), ms.float64).values, _rand(4))
    assert gradcheck(lambda v: csr(v).to_dense(), _rand(4))
    assert gradcheck(lambda v: csr(v).to_coo().to_dense(), _rand(4))
    assert gradcheck(lambda a, b: ops.csr_add(csr(a), csr(b), Tensor(2.0), Tensor(-0.5)).values,
                     _rand(4), _rand(4, seed=1))


def test_coo_gradcheck():
    idx = Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64))
    coo = lambda v: COOTensor(idx, v, (3, 4))  # noqa: E731
    assert gradcheck(lambda v: coo(v).to_dense(), _rand(3))
    assert gradcheck(lambda v: COOTensor(IDX, v, (3, 4)).to_dense(), _rand(5))  # duplicates
    assert gradcheck(lambda v, d: (coo(v) * d).values, _rand(3), _rand(3, 4, seed=1))
    assert gradcheck(lambda v, d: coo(v) + d, _rand(3), _rand(3, 4, seed=1))
    assert gradcheck(lambda v, d: coo(v) - d, _rand(3), _rand(3, 4, seed=1))
    other = COOTensor(Tensor(np.array([[0, 1], [2, 3]], np.int64)), _rand(2), (3, 4))
    assert gradcheck(lambda a, b: ops.coo_add(coo(a), COOTensor(other.indices, b, (3, 4)),
                                              Tensor(0.0)).values, _rand(3), _rand(2, seed=1))
    assert gradcheck(lambda v: COOTensor(IDX, v, (3, 4)).coalesce().values, _rand(5))
    assert gradcheck(lambda v: ops.coo_concat((coo(v), coo(v * 2)), 1).values, _rand(3))
    assert gradcheck(lambda v: ops.coo_sigmoid(coo(v)).values, _rand(3))
    idx32 = Tensor(np.array([[2, 0], [0, 3], [0, 1]], np.int32))
    assert gradcheck(lambda v: COOTensor(idx32, v, (3, 4)).to_csr().values, _rand(3))
    assert gradcheck(lambda d: ops.dense_to_sparse_coo(d).values, _rand(2, 3) + 5.0)
    assert gradcheck(lambda d: ops.csr_gather(INDPTR, CSR_COLS, d, (3, 4)), _rand(3, 4))


def test_rowtensor_values_carry_gradients():
    def scaled(v):
        row = ms.common.sparse_tensor.RowTensorInner(Tensor([0, 2]), v, (3, 2))
        return row.values * 3.0

    assert gradcheck(scaled, _rand(2, 2))


def test_matmul_matches_torch_sparse():
    torch = pytest.importorskip("torch")
    v, d = np.random.default_rng(3).standard_normal(5), np.random.default_rng(4).standard_normal(
        (4, 3))
    w = np.random.default_rng(5).standard_normal((3, 3))
    tv = torch.tensor(v, requires_grad=True)
    td = torch.tensor(d, requires_grad=True)
    sp = torch.sparse_coo_tensor(torch.tensor([ROWS, COLS]), tv, (3, 4),
                                 check_invariants=True)
    (torch.sparse.mm(sp, td) * torch.tensor(w)).sum().backward()
    prim = ops.SparseTensorDenseMatmul()
    out = prim(IDX, Tensor(v), (3, 4), Tensor(d))
    gv, gd = ms.grad(lambda a, b: (prim(IDX, a, (3, 4), b) * Tensor(w)).sum(), (0, 1))(
        Tensor(v), Tensor(d))
    np.testing.assert_allclose(out.asnumpy(), torch.sparse.mm(sp, td).detach().numpy(),
                               rtol=1e-12)
    np.testing.assert_allclose(gv.asnumpy(), tv.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gd.asnumpy(), td.grad.numpy(), rtol=1e-12)


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
def test_csr_mm_matches_torch_sparse_csr():
    torch = pytest.importorskip("torch")
    v, d = np.random.default_rng(6).standard_normal(4), np.random.default_rng(7).standard_normal(
        (4, 2))
    tv = torch.tensor(v, requires_grad=True)
    td = torch.tensor(d, requires_grad=True)
    sp = torch.sparse_csr_tensor(torch.tensor([0, 2, 3, 4]), torch.tensor([1, 3, 2, 0]), tv,
                                 (3, 4), check_invariants=True)
    (sp @ td).sum().backward()
    gv, gd = ms.grad(lambda a, b: CSRTensor(INDPTR, CSR_COLS, a, (3, 4)).mm(b).sum(), (0, 1))(
        Tensor(v), Tensor(d))
    np.testing.assert_allclose(gv.asnumpy(), tv.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gd.asnumpy(), td.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name, low", [("relu", -2.0), ("relu6", -2.0), ("softsign", -2.0),
                                       ("tan", -1.0), ("asinh", -2.0), ("acosh", 1.5),
                                       ("atanh", -0.5), ("inv", 1.0), ("sqrt", 0.5)])
def test_unary_value_functions_gradcheck(name, low):
    # values kept off the kinks (0 and 6 for relu/relu6)
    vals = Tensor(np.array([low, low + 0.37, low + 0.81]) + np.array([0.0, 0.0, 7.0]) * (
        name == "relu6"))
    idx = Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64))
    fn = getattr(ops, "coo_" + name)
    assert gradcheck(lambda v: fn(COOTensor(idx, v, (3, 4))).values, vals)
    csr = getattr(ops, "csr_" + name)
    assert gradcheck(lambda v: csr(CSRTensor(INDPTR, CSR_COLS, v, (3, 4))).values,
                     Tensor(np.resize(vals.asnumpy(), 4) + np.array([0, 0, 0, 0.05])))


def test_cell_parameter_values_get_gradients():
    class SparseLinear(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.values = ms.Parameter(Tensor(np.array([1.0, -2.0, 0.5, 3.0])), name="values")

        def construct(self, x):
            return CSRTensor(INDPTR, CSR_COLS, self.values, (3, 4)).mm(x)

    net = SparseLinear()
    x = _rand(4, 2, seed=2)
    (gw,) = ms.grad(lambda a: net(a).sum(), None, net.trainable_params())(x)
    expected = x.asnumpy()[CSR_COLS.asnumpy()].sum(1)  # d(sum)/d(value_k) = sum_j x[col_k, j]
    np.testing.assert_allclose(gw.asnumpy(), expected, rtol=1e-12)
