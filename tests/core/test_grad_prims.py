"""The backward Primitives of `ops.operations._grad_ops` that MindSpore's CPU tests call directly
(InvGrad, SqrtGrad, EluGrad, SoftplusGrad, HShrinkGrad, SoftShrinkGrad, DropoutGrad,
LayerNormGrad, KLDivLossGrad) and MindSpore's CPU 'Shift' kernel reached through a user
PrimitiveWithInfer. Expected values come from numpy references or MindSpore 2.10."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.ops import PrimitiveWithInfer, prim_attr_register
from cellgrad.ops.operations import _grad_ops as G
from cellgrad.testing import gradcheck

T = ms.Tensor
RNG = np.random.default_rng(7)


def _np(t):
    return t.asnumpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32])
def test_inv_grad_is_minus_grad_times_y_squared(dtype):
    y = np.array([[-1, 1, 12], [5, 3, 6]]).astype(dtype)
    dy = np.array([[29, 1, 5], [2, -1, 2]]).astype(dtype)
    out = G.InvGrad()(T(y), T(dy))
    assert out.dtype == T(y).dtype
    np.testing.assert_allclose(_np(out), -dy * y * y, rtol=1e-6)


def test_inv_grad_complex_has_no_conjugate():
    # MindSpore 2.10: InvGrad()([1+2j, .5-1j], [1+1j, 2-3j]) = [7-1j, 4.5-.25j]
    y = T(np.array([1 + 2j, 0.5 - 1j], np.complex64))
    d = T(np.array([1 + 1j, 2 - 3j], np.complex64))
    np.testing.assert_allclose(_np(G.InvGrad()(y, d)), [7 - 1j, 4.5 - 0.25j], rtol=1e-6)


def test_inv_and_sqrt_grad_match_autograd_of_the_forward():
    x = T(RNG.uniform(0.5, 2.0, (3, 4)))
    d = T(RNG.standard_normal((3, 4)))
    expect_inv = _np(ms.grad(lambda a: (ops.reciprocal(a) * d).sum())(x))
    np.testing.assert_allclose(_np(G.InvGrad()(ops.reciprocal(x), d)), expect_inv, rtol=1e-12)
    # SqrtGrad takes y = sqrt(x) first (MindSpore's bprop calls sqrt_grad(out, dout))
    np.testing.assert_allclose(_np(G.SqrtGrad()(ops.sqrt(x), d)),
                               _np(d) / (2 * np.sqrt(_np(x))), rtol=1e-12)


def test_sqrt_grad_values_from_mindspore_test():
    y = np.array([[-1, 1, 10], [5.9, 6.1, 6], [10, 1, -1]], np.float32)
    d = np.array([[1, 1, 1], [2, 2, 2], [3, 3, 3]], np.float32)
    expect = [[-0.5, 0.5, 0.05], [0.16949153, 0.16393442, 0.16666667], [0.15, 1.5, -1.5]]
    np.testing.assert_allclose(_np(G.SqrtGrad()(T(y), T(d))), expect, rtol=1e-6)


def test_elu_grad_values():
    dy = np.array([[-11, 2, 4], [-1, 1, -1], [-4, 4, -4]], np.float32)
    y = np.array([[-0.3, 1, 2], [1, -0.6, 1], [2, 1, -2]], np.float32)
    expect = np.where(y > 0, dy, dy * (y + 1))
    np.testing.assert_allclose(_np(G.EluGrad()(T(dy), T(y))), expect, rtol=1e-6)
    np.testing.assert_allclose(_np(G.EluGrad()(T(dy), T(y))),
                               [[-7.7, 2, 4], [-1, 0.4, -1], [-4, 4, 4]], rtol=1e-6)


def test_softplus_grad_values_and_second_order():
    dy, x = RNG.standard_normal((2, 5)), RNG.standard_normal((2, 5))
    out = G.SoftplusGrad()(T(dy), T(x))
    np.testing.assert_allclose(_np(out), dy / (1 + np.exp(-x)), rtol=1e-12)
    dout = RNG.standard_normal((2, 5))
    gx = ms.grad(lambda a, b: (G.SoftplusGrad()(a, b) * T(dout)).sum(), 1)(T(dy), T(x))
    np.testing.assert_allclose(_np(gx), dy * dout / (np.exp(-x) + 2 + np.exp(x)), rtol=1e-10)


@pytest.mark.parametrize("name", ["HShrinkGrad", "SoftShrinkGrad"])
def test_shrink_grads_pass_gradient_outside_lambd(name):
    grad = RNG.random((4, 5)).astype(np.float32)
    x = RNG.uniform(-1, 1, (4, 5)).astype(np.float32)
    for lambd in (0.5, 0.2):
        out = getattr(G, name)(lambd)(T(grad), T(x))
        np.testing.assert_array_equal(_np(out), np.where(np.abs(x) > lambd, grad, 0))
    # the boundary itself is inside: |x| == lambd gives 0 (MindSpore 2.10)
    out = getattr(G, name)(0.5)(T(np.float32([2, 3, 4, 5])), T(np.float32([-0.5, 0.5, 0.6, -0.7])))
    np.testing.assert_array_equal(_np(out), [0, 0, 4, 5])
    assert getattr(G, name)().lambd == 0.5 and getattr(G, name)(1).lambd == 1.0
    with pytest.raises(TypeError, match=f"For '{name}', the type of 'lambd'"):
        getattr(G, name)("a")


def test_dropout_grad_scales_by_keep_prob():
    dy = np.array([[[3., 1., 2.]], [[4., 1., 4.]]], np.float16)
    mask = np.array([[[1., 0, 0]], [[0., 0., 1.]]], np.float16)
    out = G.DropoutGrad(0.3333333333)(T(dy), T(mask))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(_np(out), [[[9., 0., 0.]], [[0., 0., 12.]]])
    out = G.DropoutGrad(0.25)(T(np.float32([2, 3, 4, 5])), T(np.float16([1, 0, 1, 0.5])))
    np.testing.assert_array_equal(_np(out), [8, 0, 16, 10])


def test_dropout_grad_differentiates_in_dy_only():
    # MindSpore 2.10's bprop: sens * mask / keep_prob for dy, zeros for the mask
    dy, mask, sens = T(np.float32([[1, 2]])), T(np.float32([[0.5, -1]])), T(np.float32([[1, 2]]))
    gdy, gmask = ms.grad(lambda a, b: (G.DropoutGrad(0.5)(a, b) * sens).sum(), (0, 1))(dy, mask)
    np.testing.assert_array_equal(_np(gdy), [[1, -4]])
    np.testing.assert_array_equal(_np(gmask), [[0, 0]])


def test_dropout_grad_rejects_keep_prob():
    with pytest.raises(TypeError, match="'keep_prob' must be 'float',  but got 'int'"):
        G.DropoutGrad(1)
    with pytest.raises(ValueError, match=r"must be in range of \(0, 1\], but got 0.0"):
        G.DropoutGrad(0.)


def test_binary_grads_reject_mixed_dtypes():
    with pytest.raises(TypeError, match="For 'EluGrad', the dtype of two args should be same"):
        G.EluGrad()(T(np.float32([1])), T(np.float64([1])))


def _layer_norm_grad_np(x, dy, gamma, mean, var, norm, params, eps=1e-7):
    axes = tuple(range(norm, x.ndim))
    n = np.prod(x.shape[norm:])
    g = gamma.reshape((1,) * params + gamma.shape)
    c = x - mean
    inv = (var + eps) ** -0.5
    sum1 = np.sum(-0.5 * dy * g * c * (var + eps) ** -1.5, axis=axes, keepdims=True)
    sum2 = np.sum(dy * g, axis=axes, keepdims=True)
    sum3 = np.sum(-2.0 * c, axis=axes, keepdims=True)
    dx = dy * g * inv + sum1 * 2.0 / n * c + (-inv * sum2 + sum1 * sum3 / n) / n
    lead = tuple(range(params))
    return dx, np.sum(dy * c * inv, axis=lead), np.sum(dy, axis=lead)


@pytest.mark.parametrize("norm, params, shape", [(1, 1, (6, 5)), (-1, -1, (2, 3, 4)),
                                                 (2, 1, (3, 2, 4, 5)), (0, 0, (3, 4))])
def test_layer_norm_grad_values(norm, params, shape):
    x = RNG.standard_normal(shape)
    dy = RNG.standard_normal(shape)
    n, p = norm % len(shape), params % len(shape)
    gamma = RNG.standard_normal(shape[p:])
    mean = x.mean(tuple(range(n, len(shape))), keepdims=True)
    var = x.var(tuple(range(n, len(shape))), keepdims=True)
    dx, dg, db = G.LayerNormGrad(norm, params)(T(x), T(dy), T(var), T(mean), T(gamma))
    for got, want in zip((dx, dg, db), _layer_norm_grad_np(x, dy, gamma, mean, var, n, p)):
        assert got.shape == want.shape
        np.testing.assert_allclose(_np(got), want, rtol=1e-9, atol=1e-12)


def test_layer_norm_grad_matches_autograd_of_layer_norm():
    x, dy = RNG.standard_normal((4, 6)), RNG.standard_normal((4, 6))
    gamma, beta = RNG.standard_normal(6), RNG.standard_normal(6)

    def layer_norm(a, g, b):
        mu = a.mean(-1, keep_dims=True)
        v = ((a - mu) ** 2).mean(-1, keep_dims=True)
        return (a - mu) / ops.sqrt(v + 1e-7) * g + b

    grads = ms.grad(lambda a, g, b: (layer_norm(a, g, b) * T(dy)).sum(), (0, 1, 2))(
        T(x), T(gamma), T(beta))
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    got = G.LayerNormGrad(1, 1)(T(x), T(dy), T(var), T(mean), T(gamma))
    for a, b in zip(got, grads):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-8, atol=1e-10)


def test_layer_norm_grad_uses_mindspores_epsilon_and_gamma_dtype():
    # MindSpore 2.10 CPU, variance 0: the kernel's epsilon is 1e-7
    x = T(np.float32([[1, 2, 3]]))
    dx, dg, db = G.LayerNormGrad(1, 1)(x, T(np.float32([[1, 0, 0]])), T(np.float32([[0.]])),
                                       T(np.float32([[2.]])), T(np.float32([1, 1, 1])))
    np.testing.assert_allclose(_np(dx), [[-1.05409239e+10, -1.05409253e+03, 1.05409249e+10]],
                               rtol=1e-5)
    np.testing.assert_allclose(_np(dg), [-3.16227759e+03, 0, 0], rtol=1e-6)
    np.testing.assert_array_equal(_np(db), [1, 0, 0])
    x64 = RNG.standard_normal((2, 3))
    out = G.LayerNormGrad(1, 1)(T(x64), T(x64), T(np.ones((2, 1), np.float32)),
                                T(np.zeros((2, 1), np.float32)), T(np.ones(3, np.float32)))
    assert [o.dtype for o in out] == [ms.float64, ms.float32, ms.float32]


def test_layer_norm_grad_rejects_gamma_shape():
    x = T(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="For 'LayerNormGrad'"):
        G.LayerNormGrad(1, 1)(x, x, x, x, T(np.zeros(4, np.float32)))


@pytest.mark.parametrize("reduction, dy, expect", [
    ("none", [[-1, 0], [1, 1]], [[-1, 0], [-1, 1]]),
    ("mean", [-1], [[-0.25, 0.25], [0.25, -0.25]]),
    ("sum", [-1], [[-1, 1], [1, -1]]),
    ("batchmean", [-1], [[-0.5, 0.5], [0.5, -0.5]]),
])
def test_kl_div_loss_grad_values(reduction, dy, expect):
    x = T(np.float32([[0.3, 0.7], [0.5, 0.5]]))
    target = T(np.float32([[-1, 1], [1, -1]]))
    out = G.KLDivLossGrad(reduction)(T(np.float32(dy)), x, target)
    assert out.shape == (2, 2)
    np.testing.assert_allclose(_np(out), expect)


def test_kl_div_loss_grad_matches_autograd_and_shapes():
    x, y = RNG.standard_normal((3, 4)), RNG.uniform(0.1, 1, (3, 4))

    def loss(a):
        return (T(y) * (ops.log(T(y)) - a)).sum() / 3

    gx = ms.grad(loss)(T(x))
    np.testing.assert_allclose(_np(G.KLDivLossGrad("batchmean")(T(np.ones(1)), T(x), T(y))),
                               _np(gx), rtol=1e-12)
    out = G.KLDivLossGrad("mean")(T(np.float32([-1])), T(np.float32(0.3)), T(np.float32(2)))
    assert out.shape == () and float(out) == 2.0


@pytest.mark.parametrize("reduction", ["error", 1.0])
def test_kl_div_loss_grad_rejects_reduction(reduction):
    with pytest.raises(ValueError, match="For 'KLDivLossGrad', the 'reduction' must be str and "
                                         "must be in"):
        G.KLDivLossGrad(reduction)


@pytest.mark.parametrize("build, inputs", [
    (lambda: G.InvGrad(), [(2, 3), (2, 3)]),
    (lambda: G.SqrtGrad(), [(2, 3), (2, 3)]),
    (lambda: G.SoftplusGrad(), [(2, 3), (2, 3)]),
    (lambda: G.EluGrad(), [(2, 3), (2, 3)]),
    (lambda: G.KLDivLossGrad("none"), [(2, 3), (2, 3), (2, 3)]),
    (lambda: G.KLDivLossGrad("mean"), [(1,), (2, 3), (2, 3)]),
])
def test_grad_prims_differentiate_again(build, inputs):
    prim = build()
    args = [T(RNG.uniform(0.5, 2.0, s)) for s in inputs]
    assert gradcheck(lambda *a: prim(*a), *args)


def test_layer_norm_grad_gradcheck():
    x, dy = T(RNG.standard_normal((3, 4))), T(RNG.standard_normal((3, 4)))
    gamma = T(RNG.standard_normal(4))
    mean, var = T(RNG.standard_normal((3, 1))), T(RNG.uniform(0.5, 1.5, (3, 1)))
    prim = G.LayerNormGrad(1, 1)
    assert gradcheck(lambda *a: prim(*a), x, dy, var, mean, gamma, positions=(0, 1, 4))


def test_grads_match_torch():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((3, 4))
    dy = RNG.standard_normal((3, 4))
    for fn, prim, takes_out in ((torch.nn.functional.elu, G.EluGrad(), True),
                                (torch.nn.functional.softplus, G.SoftplusGrad(), False),
                                (lambda t: torch.nn.functional.hardshrink(t, 0.5),
                                 G.HShrinkGrad(0.5), False),
                                (lambda t: torch.nn.functional.softshrink(t, 0.5),
                                 G.SoftShrinkGrad(0.5), False)):
        tx = torch.tensor(x, requires_grad=True)
        out = fn(tx)
        out.backward(torch.tensor(dy))
        second = out.detach().numpy() if takes_out else x
        np.testing.assert_allclose(_np(prim(T(dy), T(second))), tx.grad.numpy(), rtol=1e-10)


class Shift(PrimitiveWithInfer):
    """The user primitive of MindSpore's tests/st/ops/cpu/test_shift_op.py."""

    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.init_prim_io_names(inputs=['x', 'fill_value'], outputs=['output'])

    def __infer__(self, x, fill_value):
        return {'shape': tuple(x['shape']), 'dtype': x['dtype'], 'value': None}


def _shift_np(a, periods, axis, fill):
    out = np.full_like(a, fill)
    n = a.shape[axis]
    if periods >= 0:
        src, dst = slice(0, max(n - periods, 0)), slice(min(periods, n), None)
    else:
        src, dst = slice(min(-periods, n), None), slice(0, max(n + periods, 0))
    ia, io = [slice(None)] * a.ndim, [slice(None)] * a.ndim
    ia[axis], io[axis] = src, dst
    out[tuple(io)] = a[tuple(ia)]
    return out


@pytest.mark.parametrize("dtype, fill", [(np.float32, np.nan), (np.float64, -5.5),
                                         (np.int32, 5), (np.int64, 0), (np.bool_, True)])
@pytest.mark.parametrize("periods, axis", [(0, 1), (2, 0), (-3, 1), (7, 1), (-9, 0), (1, -1)])
def test_user_shift_primitive_runs_mindspores_cpu_kernel(dtype, fill, periods, axis):
    a = (RNG.random((4, 6)) * 10).astype(dtype)
    out = Shift(periods, axis)(T(a), fill)
    assert out.dtype == T(a).dtype
    np.testing.assert_array_equal(_np(out), _shift_np(a, periods, axis, fill))


def test_shift_is_not_a_public_op():
    assert not hasattr(ops, "Shift")
    with pytest.raises(TypeError, match=r"For primitive\[Shift\], the input argument\[x\]"):
        Shift(1, 0)(T(np.float16([1, 2])), 0.0)


def test_relu6_grad_passes_gradient_for_x_in_0_to_6_inclusive():
    # MindSpore 2.10: x == 6 passes the gradient, x == 0 does not
    out = G.ReLU6Grad()(T(np.float32([1, 2, 3, 4, 5, 6, 7])),
                        T(np.float32([0, 6, -1, 5.9, 6.1, 1e-9, 3])))
    np.testing.assert_array_equal(_np(out), [0, 2, 0, 4, 0, 6, 7])


def test_l2_normalize_grad_values():
    # MindSpore 2.10: the norm is clamped below by epsilon (not its square)
    x = np.float32([[0., 0], [3, 4]])
    out = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-4)
    got = G.L2NormalizeGrad(1, 1e-4)(T(x), T(out), T(np.float32([[1, 2], [3, 4]])))
    np.testing.assert_allclose(_np(got), [[10000, 20000], [0, 0]], rtol=1e-6)
    got = G.L2NormalizeGrad(0, 10.)(T(np.float32([3, 4])), T(np.float32([0.6, 0.8])),
                                    T(np.float32([1, 0])))
    np.testing.assert_allclose(_np(got), [0.064, -0.048], rtol=1e-6)
    x = RNG.standard_normal((2, 3, 4))
    dout = RNG.standard_normal((2, 3, 4))
    gx = ms.grad(lambda a: (a / ops.sqrt((a * a).sum(1, keepdims=True)) * T(dout)).sum())(T(x))
    out = x / np.linalg.norm(x, axis=1, keepdims=True)
    np.testing.assert_allclose(_np(G.L2NormalizeGrad(1)(T(x), T(out), T(dout))), _np(gx),
                               rtol=1e-10)


def test_slice_grad_places_dy_in_the_slice():
    x = T(np.zeros((3, 2, 3), np.float64))
    dy = np.array([[[3.1, 1.1, 2.2]], [[4.4, 1.2, 4.2]]])
    out = G.SliceGrad()(T(dy), x, (0, 1, 0), (2, 1, 3))
    expect = np.zeros((3, 2, 3))
    expect[0:2, 1:2, 0:3] = dy
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(_np(out), expect)
    with pytest.raises(RuntimeError, match="For 'SliceGrad', the value of size can not be "
                                           "negative"):
        G.SliceGrad()(T(dy), x, (0, 1, 0), (2, -1, 3))
    assert gradcheck(lambda d: G.SliceGrad()(d, x, (0, 1, 0), (2, 1, 3)), T(dy))


def test_strided_slice_grad_takes_flat_dy_and_bool_or_int():
    # MindSpore 2.10's kernel needs only dy's element count, and takes bool and int dy
    out = G.StridedSliceGrad()(T(np.bool_([False, True, False])), (3, 2, 3), (1, 0, 0),
                               (2, 1, 3), (1, 1, 1))
    expect = np.zeros((3, 2, 3), np.bool_)
    expect[1, 0] = [False, True, False]
    assert out.dtype == ms.bool_
    np.testing.assert_array_equal(_np(out), expect)
    out = G.StridedSliceGrad()(T(np.float32([3, 4, 5])), (3, 2, 3), (1, 0, 0), (2, 1, 3),
                               (1, 1, 1))
    np.testing.assert_array_equal(_np(out)[1, 0], [3, 4, 5])
    assert _np(out).sum() == 12
    out = G.StridedSliceGrad()(T(np.int32([[4, 5], [6, 7]])), (3, 3), (0, 0), (3, 3), (2, 2))
    np.testing.assert_array_equal(_np(out), [[4, 0, 5], [0, 0, 0], [6, 0, 7]])
    with pytest.raises(ValueError, match="For 'StridedSliceGrad', 'dy' must have the 4"):
        G.StridedSliceGrad()(T(np.int32([1, 2, 3])), (3, 3), (0, 0), (3, 3), (2, 2))
