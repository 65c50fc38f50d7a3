"""Tensor methods accept every overload form MindSpore 2.10's CPU build runs (values and
errors checked against MindSpore 2.10)."""

import numpy as np
import pytest

import cellgrad as ms


@pytest.fixture
def t():
    return ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def close(out, expected):
    np.testing.assert_allclose(out.asnumpy(), np.asarray(expected), rtol=1e-6)


def test_add_sub_alpha_and_spellings(t):
    close(t.add(t, alpha=2), [[0, 3, 6], [9, 12, 15]])
    close(t.add(other=1, alpha=2), t.asnumpy() + 2)
    close(ms.Tensor([1, 2]).sub(ms.Tensor([1, 2]), alpha=2), [-1, -2])
    assert t.sub(y=t).asnumpy().sum() == 0
    with pytest.raises(TypeError, match="floating alpha need floating input and other"):
        ms.Tensor([1, 2]).add(ms.Tensor([1, 2]), alpha=2.5)


def test_inplace_dunders_give_new_tensors(t):
    a = t
    a -= 1
    assert a is not t and t.asnumpy()[0, 0] == 0 and a.asnumpy()[0, 0] == -1
    close(t.__isub__(t, alpha=2), -t.asnumpy())
    close(t.__iadd__(1, alpha=3), t.asnumpy() + 3)
    close(t.__imul__(2), t.asnumpy() * 2)
    close(t.__itruediv__(2, rounding_mode="floor"), np.floor(t.asnumpy() / 2))
    close(t.__ifloordiv__(4), t.asnumpy() // 4)
    close(t.__imod__(4), t.asnumpy() % 4)
    b = ms.Tensor(np.arange(3, dtype=np.int32))
    b /= 2
    assert b.dtype == ms.float32


def test_keyword_spellings(t):
    assert t.expand_as(x=ms.Tensor(np.ones((2, 2, 3)))).shape == (2, 2, 3)
    close(t.remainder(divisor=2), t.asnumpy() % 2)
    close(t.cumsum(dim=1, dtype=ms.float64), np.cumsum(t.asnumpy(), 1))
    assert t.cumsum(dim=1, dtype=ms.float64).dtype == ms.float64
    close(t.matmul(tensor2=t.T), t.asnumpy() @ t.asnumpy().T)
    close(t.logical_and(y=t), t.asnumpy().astype(bool))
    assert t.unsqueeze(axis=0).shape == (1, 2, 3)
    assert t.tile(reps=(2,)).shape == (2, 6)
    assert t.isclose(x2=t).asnumpy().all()
    close(t.where(t > 2, other=0.0), [[0, 0, 0], [3, 4, 5]])
    close(t.where(t > 2, y=0.0), [[0, 0, 0], [3, 4, 5]])
    close(t.take(index=ms.Tensor([0, 5])), [0, 5])
    assert t.permute(dims=(1, 0)).shape == (3, 2)


def test_sort_and_argsort_dim_forms(t):
    values, indices = t.sort(dim=0, descending=True, stable=True)
    close(values, [[3, 4, 5], [0, 1, 2]])
    assert indices.dtype == ms.int32
    close(t.argsort(1, True, True), [[2, 1, 0], [2, 1, 0]])


def test_flatten_forms(t):
    assert t.flatten().shape == (6,)
    assert t.flatten(1).shape == (2, 3)
    assert t.flatten(0, 1).shape == (6,)
    close(t.flatten("F"), [0, 3, 1, 4, 2, 5])


def test_view_forms(t):
    assert t.view(shape=(3, 2)).shape == (3, 2)
    out = t.view(ms.int32)
    assert out.dtype == ms.int32 and out.asnumpy()[0, 1] == 1065353216
    assert t.view(dtype=ms.float16).shape == (2, 6)


def test_gather_both_forms(t):
    close(t.gather(1, ms.Tensor([[0, 1], [1, 0]])), [[0, 1], [4, 3]])
    close(t.gather(index=ms.Tensor([[0, 1], [1, 0]]), dim=1), [[0, 1], [4, 3]])
    close(t.gather(ms.Tensor([1, 0]), 0), [[3, 4, 5], [0, 1, 2]])
    close(t.gather(ms.Tensor([1, 0]), axis=0), [[3, 4, 5], [0, 1, 2]])


def test_select_forms():
    x = ms.Tensor([2.0, 3.0])
    cond = ms.Tensor([True, False])
    close(x.select(cond, ms.Tensor([1.0, 2.0])), [2, 2])
    close(x.select(cond, 1.0), [2, 1])
    close(ms.Tensor([[2, 3, 4, 5], [3, 2, 4, 5]], ms.float32).select(1, 3), [5, 5])
    with pytest.raises(TypeError, match="'y' is int, then the tensor type should be int32 but "
                                        "got Float32"):
        x.select(cond, 1)
    with pytest.raises(TypeError, match="'y' is float, then the tensor type should be float32"):
        ms.Tensor([2, 3], ms.int32).select(cond, 1.0)
    with pytest.raises(TypeError, match="Failed calling select"):
        x.select(1, x)


def test_reduction_forms(t):
    b = ms.Tensor(np.array([[True, False], [False, False]]))
    assert b.any(axis=(), keep_dims=True).shape == (1, 1)
    close(b.any(dim=0, keepdim=True), [[True, False]])
    assert b.all(dim=None).asnumpy() == np.False_
    out = t.prod(dim=1, keepdim=True, dtype=ms.float64)
    assert out.dtype == ms.float64 and out.shape == (2, 1)
    close(t.std(dim=1, correction=1), [1, 1])
    close(t.std(dim=1), [0.81649661, 0.81649661])
    close(t.var(1, 0, True), [[2 / 3], [2 / 3]])
    lo, hi = t.aminmax(axis=None)
    assert lo.shape == () and float(lo) == 0 and float(hi) == 5
    lo, hi = t.aminmax(axis=None, keepdims=True)
    assert lo.shape == (1, 1)
    values, indices = t.median(dim=0)
    close(values, [0, 1, 2])
    assert indices.dtype == ms.int64
    with pytest.raises(TypeError, match="Failed calling min"):
        t.min(axis=0, where=None)
    with pytest.raises(TypeError, match="'return_indices' must be bool but got int"):
        t.min(0, False, initial=9, where=ms.Tensor([False, True]), return_indices=1)


def test_clamp_needs_a_bound(t):
    close(t.clip(min=1, max=3), np.clip(t.asnumpy(), 1, 3))
    with pytest.raises(ValueError, match="at least one of 'min' or 'max' must not be None"):
        t.clip(None, None)
    with pytest.raises(ValueError, match="at least one of 'min' or 'max' must not be None"):
        t.clamp()


def test_swapaxes_checks(t):
    assert t.swapaxes(-1, -2).shape == (3, 2)
    assert t.swapdims(0, 1).shape == (3, 2)
    with pytest.raises(TypeError, match="the axis argument must be integer"):
        t.swapaxes(0, (1,))
    with pytest.raises(ValueError, match=r"must be in the range of \[-2, 2\), but got 3"):
        t.swapdims(0, 3)


def test_transpose_forms():
    x = ms.Tensor(np.ones((2, 2, 3), np.float32))
    assert x.transpose(0, 2).shape == (3, 2, 2)
    assert x.transpose(dim0=-1, dim1=0).shape == (3, 2, 2)
    assert x.transpose(2, 0, 1).shape == (3, 2, 2)
    assert x.transpose().shape == (3, 2, 2)
    with pytest.raises(ValueError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-3, 3\), but got 3\)"):
        x.transpose((0, 3, 4))
    with pytest.raises(ValueError, match="size of perm should equal to rank of x, but got 2 and 3"):
        x.transpose((0, 1))
    with pytest.raises(ValueError, match="perms should all be unique dim"):
        x.transpose((0, 1, 1))
    with pytest.raises(ValueError, match="the number of axes must be equal to the dimension"):
        x.transpose(0, 2.0)


def test_contiguous_views_and_offload():
    x = ms.Tensor([[1, 2, 3], [4, 5, 6]], dtype=ms.float32)
    y = ms.ops.transpose(x, (1, 0))
    assert not y.is_contiguous() and not x[:, 1].is_contiguous()
    z = y.contiguous()
    assert z.is_contiguous() and z is not y and x.contiguous() is x
    close(z, x.asnumpy().T)
    assert x._offload() is None


def test_tensor_buffers_pickle():
    import pickle

    from cellgrad._c_expression import TensorPy

    src = ms.Tensor(np.ones((3, 3)))
    buf = TensorPy()  # the Cython base class, as MindSpore's `_c_expression.TensorPy`
    buf._data, buf._dtype = src._data, src._dtype
    out = pickle.loads(pickle.dumps(buf))
    assert out.dtype == ms.float64
    close(out, np.ones((3, 3)))


def test_to_forms(t):
    out = t.to(ms.float16)
    assert out.dtype == ms.float16
    assert t.to(ms.float32) is not t and t.to().dtype == ms.float32
    assert t.to("cpu", ms.int32, False, False).dtype == ms.int32
    assert t.to(ms.Tensor([1], ms.int8)).dtype == ms.int8
    assert t.to(device="CPU", dtype=ms.float64).dtype == ms.float64
    with pytest.raises(ValueError, match="Failed to convert the value \"gpu\" of input 'device'"):
        t.to("gpu")
    with pytest.raises(RuntimeError, match="cellgrad computes on the CPU"):
        t.to("Ascend")
    with pytest.raises(TypeError, match="Failed calling to"):
        t.to(1)


def test_diag_broadcast_addmv_scatter_forms(t):
    assert t.diag().shape == (2, 3, 2, 3)
    with pytest.raises(ValueError, match="'diagonal' should be '0', but got 1"):
        t.diag(1)
    for out in (t.broadcast_to(2, 2, 3), t.broadcast_to((2, 2, 3)),
                t.broadcast_to(shape=(2, 2, 3))):
        assert out.shape == (2, 2, 3)
    close(ms.Tensor([1.0, 1.0]).addmv(ms.Tensor(np.ones((2, 3), np.float32)),
                                      ms.Tensor([1.0, 1, 1]), 2, 3), [11, 11])
    index = ms.Tensor([[0], [1]])
    close(t.scatter(1, index, ms.Tensor([[9.0], [9.0]]), "add"), [[9, 1, 2], [3, 13, 5]])
    close(t.scatter(1, index, 7.0, reduce="add"), [[7, 1, 2], [3, 11, 5]])
    close(t.scatter(axis=1, index=index, src=ms.Tensor([[9.0], [9.0]])), [[9, 1, 2], [3, 9, 5]])


def test_setitem_bool_tensor_in_a_tuple_is_its_nonzero_positions():
    y = ms.Tensor(np.zeros((2, 3), np.float32))
    y[ms.Tensor([True, False]), 1] = 5
    close(y, [[0, 5, 0], [0, 0, 0]])
    x = ms.Tensor(np.zeros((2, 3, 4), np.float32))
    b = ms.Tensor([0, 1], ms.bool_)  # shorter than axis 1: MindSpore skips numpy's length check
    x[b, b] = ms.Tensor(np.ones((1, 4), np.float32))
    assert x.asnumpy()[1, 1].sum() == 4 and x.asnumpy().sum() == 4
    with pytest.raises(ValueError, match="shape mismatch"):
        x[b, b] = ms.Tensor(np.arange(8).reshape(2, 4).astype(np.float32))


def test_remainder_gradients_sign_of_nan_and_sgn():
    from cellgrad.testing import gradcheck

    a = ms.Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
    b = ms.Tensor(np.array([2.0, 2.0, -2.0]), ms.float32)
    ga, gb = ms.grad(lambda x, y: x % y, grad_position=(0, 1))(a, b)
    close(ga, [1, 1, 1])
    close(gb, [0, -1, 2])  # MindSpore's FloorMod gradient: -floor(x / y)
    x = ms.Tensor(np.array([[1.3, 2.7, -3.2], [0.4, 5.1, -2.3]]), ms.float64)
    y = ms.Tensor(np.array([2.0, -1.5, 1.1]), ms.float64)
    assert gradcheck(lambda p, q: p % q, x, y)
    assert gradcheck(lambda p, q: p.remainder(q), x, y)
    torch = pytest.importorskip("torch")
    tx = torch.tensor(x.asnumpy(), requires_grad=True)
    ty = torch.tensor(y.asnumpy(), requires_grad=True)
    torch.remainder(tx, ty).sum().backward()
    gx, gy = ms.grad(lambda p, q: (p % q).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy())
    np.testing.assert_allclose(gy.asnumpy(), ty.grad.numpy())


def test_sign_of_nan_is_zero_and_sgn_of_zero():
    close(ms.Tensor([np.nan, -1.0, 0.0, 2.0]).sign(), [0, -1, 0, 1])
    out = ms.Tensor([3 + 4j, 0, 8], ms.complex64).sgn()
    np.testing.assert_allclose(out.asnumpy(), [0.6 + 0.8j, 0, 1], rtol=1e-6)


def test_integer_beyond_int64_is_refused_as_mindspore():
    with pytest.raises(RuntimeError, match="does not fit in Int64"):
        ms.Tensor(2**64, ms.int64)
    with pytest.raises(TypeError, match="does not fit in Int64"):
        ms.Tensor([2**64])
