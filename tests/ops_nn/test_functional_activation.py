"""Activations: gradcheck (float64, first and second order), values, dtypes, errors, torch."""

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import ops
from cellgrad.plugins import apply
from cellgrad_nn.functional._math import ERF, erf

CASES = [
    Case("relu", ops.relu, [(3, 4)], away_from=(0,)),
    Case("relu6", ops.relu6, [(3, 4)], low=-2, high=8, away_from=(0, 6)),
    Case("leaky_relu", lambda x: ops.leaky_relu(x, 0.1), [(3, 4)], away_from=(0,)),
    Case("elu", ops.elu, [(3, 4)], away_from=(0,)),
    Case("elu", lambda x: ops.elu(x, 0.5), [(5,)], away_from=(0,), tag="alpha"),
    Case("gelu", ops.gelu, [(3, 4)], low=-4, high=4),
    Case("gelu", lambda x: ops.gelu(x, "tanh"), [(3, 4)], low=-4, high=4, tag="tanh"),
    Case("nn_erf", lambda x: apply(ERF, (x,)), [(7,)], low=-3, high=3),
    Case("silu", ops.silu, [(3, 4)], low=-6, high=6),
    Case("softplus", ops.softplus, [(3, 4)], low=-6, high=6),
    Case("softplus", lambda x: ops.softplus(x, 2, 4), [(12,)], low=-4, high=4,
         away_from=(2,), tag="threshold"),
    Case("hardswish", ops.hardswish, [(3, 4)], low=-5, high=5, away_from=(-3, 3)),
    Case("hardsigmoid", ops.hardsigmoid, [(3, 4)], low=-5, high=5, away_from=(-3, 3)),
]
GRADCHECKED = names(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


@pytest.mark.parametrize("case", [c for c in CASES if c.second_order],
                         ids=[c.id for c in CASES if c.second_order])
def test_gradgradcheck(case):
    check_second_order(case)


X = np.array([-4.0, -1.0, 0.5, 2.0, 4.0], np.float32)


@pytest.mark.parametrize("fn, expected", [
    # values printed by MindSpore 2.10 for X (float32)
    (ops.hardswish, [0.0, -0.33333334, 0.29166666, 1.6666666, 4.0]),
    (ops.hardsigmoid, [0.0, 0.33333334, 0.5833333, 0.8333333, 1.0]),
    (ops.silu, [-0.07194477, -0.26894155, 0.3112297, 1.7615943, 3.928055]),
    (ops.gelu, [-1.2668821e-04, -0.15865526, 0.34573123, 1.9544997, 3.9998734]),
    (lambda x: ops.gelu(x, approximate="tanh"),
     [-7.0214272e-05, -0.158808, 0.345714, 1.9545977, 3.9999297]),
    (ops.leaky_relu, [-0.8, -0.2, 0.5, 2.0, 4.0]),
    (ops.relu6, [0.0, 0.0, 0.5, 2.0, 4.0]),
])
def test_values_match_mindspore_and_keep_float32(fn, expected):
    out = fn(ms.Tensor(X))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=2e-6, atol=1e-7)


def test_erf_is_float64_accurate_and_keeps_the_dtype():
    import math

    x = np.concatenate([np.linspace(-7, 7, 2001), np.logspace(-300, 0.7, 50), [0.0]])
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(erf(x), expected, rtol=1e-14, atol=1e-300)
    assert erf(x.astype(np.float32)).dtype == np.float32


def test_softplus_is_stable_and_linear_past_threshold():
    x = ms.Tensor(np.array([-1.0, 2.0, 30.0, -100.0, 1000.0], np.float32))
    out = ops.softplus(x, beta=2, threshold=10).asnumpy()
    np.testing.assert_allclose(out[:3], [0.06346397, 2.0090754, 30.0], rtol=1e-6)
    assert out[3] == 0.0 and out[4] == 1000.0 and np.isfinite(out).all()


def test_relu_keeps_integer_dtype_and_rejects_bool():
    out = ops.relu(ms.Tensor(np.array([-1, 2], np.int32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [0, 2]
    with pytest.raises(TypeError, match="For 'relu', 'input' must be a numeric Tensor, got "
                       r"Tensor\(shape=\(2,\), dtype=Bool\)"):
        ops.relu(ms.Tensor(np.array([True, False])))


@pytest.mark.parametrize("fn, arg", [(ops.relu6, "x"), (ops.silu, "input"),
                                     (ops.elu, "input_x"), (ops.gelu, "input")])
def test_integer_input_is_a_type_error_naming_op_and_argument(fn, arg):
    with pytest.raises(TypeError, match=rf"For '{fn.__name__}', '{arg}' must be a floating "
                       r"Tensor .* got Tensor\(shape=\(2,\), dtype=Int32\)"):
        fn(ms.Tensor(np.array([-1, 2], np.int32)))


def test_bad_arguments():
    x = ms.Tensor(X)
    with pytest.raises(ValueError, match="For 'gelu', 'approximate' must be 'none' or 'tanh', "
                                         "got 'fast'"):
        ops.gelu(x, approximate="fast")
    with pytest.raises(TypeError, match="For 'leaky_relu', 'alpha' must be a int or float, got "
                                        "str 'a'"):
        ops.leaky_relu(x, "a")
    with pytest.raises(ValueError, match="For 'softplus', 'beta' must not be 0"):
        ops.softplus(x, beta=0)
    with pytest.raises(TypeError, match="For 'relu', 'input' must be a Tensor, got list"):
        ops.relu([1.0])


def test_relu_inplace_writes_into_the_input():
    x = ms.Tensor(np.array([-1.0, 2.0], np.float32))
    out = ops.relu(x, inplace=True)
    assert x.asnumpy().tolist() == [0.0, 2.0] and out.asnumpy().tolist() == [0.0, 2.0]
    g = ms.grad(lambda t: (ops.relu(t * 1, inplace=True) * 3).sum())(ms.Tensor(X))
    assert g.asnumpy().tolist() == [0.0, 0.0, 3.0, 3.0, 3.0]


TORCH_LINES = [
    ("relu", lambda x: ops.relu(x), lambda F, x: F.relu(x)),
    ("relu6", lambda x: ops.relu6(x * 4), lambda F, x: F.relu6(x * 4)),
    ("leaky_relu", lambda x: ops.leaky_relu(x, 0.3), lambda F, x: F.leaky_relu(x, 0.3)),
    ("elu", lambda x: ops.elu(x, 0.7), lambda F, x: F.elu(x, 0.7)),
    ("gelu", lambda x: ops.gelu(x * 3), lambda F, x: F.gelu(x * 3)),
    ("gelu-tanh", lambda x: ops.gelu(x * 3, "tanh"),
     lambda F, x: F.gelu(x * 3, approximate="tanh")),
    ("silu", lambda x: ops.silu(x * 5), lambda F, x: F.silu(x * 5)),
    ("softplus", lambda x: ops.softplus(x * 8, 2, 5), lambda F, x: F.softplus(x * 8, 2, 5)),
    ("hardswish", lambda x: ops.hardswish(x * 4), lambda F, x: F.hardswish(x * 4)),
    # torch's float64 hardsigmoid backward uses a float32 1/6: compare at float32 precision
    ("hardsigmoid", lambda x: ops.hardsigmoid(x * 4), lambda F, x: F.hardsigmoid(x * 4), 1e-7),
]


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("line", TORCH_LINES, ids=[t[0] for t in TORCH_LINES])
def test_against_torch(torch, line, dtype):
    name, ms_fn, th_fn, *f64_tol = line
    F = torch.nn.functional
    tol = (f64_tol or [1e-12])[0] if dtype == np.float64 else 1e-6
    torch_compare(torch, [(4, 5)], ms_fn, lambda x: th_fn(F, x), dtype=dtype, atol=tol,
                  rtol=tol * 10)


# ---- the composed activations (activation_extra): built from recorded ops ----
XE = np.array([-3.0, -0.4, 0.3, 2.5], np.float32)
EXTRA = [
    # name, call, MindSpore 2.10's output for XE
    ("selu", lambda x: ops.selu(x), [-1.6705687, -0.5796101, 0.3152103, 2.6267526]),
    ("celu", lambda x: ops.celu(x), [-0.95021296, -0.32967997, 0.3, 2.5]),
    ("celu2", lambda x: ops.celu(x, 2.0), [-1.5537397, -0.3625385, 0.3, 2.5]),
    ("mish", lambda x: ops.mish(x), [-0.14564738, -0.18891637, 0.20800132, 2.4713924]),
    ("softsign", lambda x: ops.softsign(x), [-0.75, -0.2857143, 0.23076925, 0.71428573]),
    ("hardtanh", lambda x: ops.hardtanh(x, -1.0, 2.0), [-1.0, -0.4, 0.3, 2.0]),
    ("logsigmoid", lambda x: ops.logsigmoid(x), [-3.048587, -0.9130143, -0.55435455,
                                                 -0.07888955]),
    ("softmin", lambda x: ops.softmin(x), [0.8966652, 0.0665985, 0.03307182, 0.00366446]),
    ("hardshrink", lambda x: ops.hardshrink(x, 0.35), [-3.0, -0.4, 0.0, 2.5]),
    ("softshrink", lambda x: ops.softshrink(x, 0.35), [-2.65, -0.05000001, 0.0, 2.15]),
    ("tanhshrink", lambda x: ops.tanhshrink(x), [-2.0049443, -0.020051, 0.00868738, 1.5133855]),
    ("threshold", lambda x: ops.threshold(x, 0.5, 9.0), [9.0, 9.0, 9.0, 2.5]),
    ("fast_gelu", lambda x: ops.fast_gelu(x), [-0.01807131, -0.13443312, 0.18748415, 2.465014]),
    ("prelu", lambda x: ops.prelu(x, ms.Tensor(np.array([0.25], np.float32))),
     [-0.75, -0.1, 0.3, 2.5]),
    ("Mish", lambda x: ops.Mish()(x), [-0.14564738, -0.18891637, 0.20800132, 2.4713924]),
    ("FastGeLU", lambda x: ops.FastGeLU()(x), [-0.01807131, -0.13443312, 0.18748415, 2.465014]),
    ("Softsign", lambda x: ops.Softsign()(x), [-0.75, -0.2857143, 0.23076925, 0.71428573]),
]


@pytest.mark.parametrize("name, fn, expected", EXTRA, ids=[e[0] for e in EXTRA])
def test_composed_activations_match_mindspore(name, fn, expected):
    out = fn(ms.Tensor(XE))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=3e-6, atol=1e-7)
    assert not np.signbit(out.asnumpy()[out.asnumpy() == 0]).any()  # no -0.0


@pytest.mark.parametrize("name, fn, expected", EXTRA, ids=[e[0] for e in EXTRA])
def test_composed_activations_gradcheck(name, fn, expected):
    from cellgrad.testing import gradcheck, gradgradcheck

    x = ms.Tensor(np.array([-2.6, -1.3, -0.7, -0.2, 0.15, 0.45, 0.8, 1.4, 2.9]))
    assert gradcheck(fn, x)
    assert gradgradcheck(lambda t: fn(t) * fn(t), x)


def test_prelu_per_channel_and_errors():
    x = ms.Tensor(-np.ones((2, 3, 2), np.float32))
    out = ops.prelu(x, ms.Tensor(np.array([0.1, 0.2, 0.3], np.float32)))
    np.testing.assert_allclose(out.asnumpy()[1, :, 0], [-0.1, -0.2, -0.3], rtol=1e-6)
    with pytest.raises(ValueError, match=r"For 'prelu', 'weight' must be 1-D with 1 or 3 "
                                         r"\(channel\) values"):
        ops.prelu(x, ms.Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match=r"For 'hardtanh', 'min_val' \(2.0\) must not exceed"):
        ops.hardtanh(x, 2.0, 1.0)


EXTRA_TORCH = [
    ("selu", lambda x: ops.selu(x), lambda F, x: F.selu(x)),
    ("celu", lambda x: ops.celu(x, 1.5), lambda F, x: F.celu(x, 1.5)),
    ("mish", lambda x: ops.mish(x * 3), lambda F, x: F.mish(x * 3)),
    ("softsign", lambda x: ops.softsign(x), lambda F, x: F.softsign(x)),
    ("hardtanh", lambda x: ops.hardtanh(x, -0.5, 0.7), lambda F, x: F.hardtanh(x, -0.5, 0.7)),
    ("logsigmoid", lambda x: ops.logsigmoid(x * 5), lambda F, x: F.logsigmoid(x * 5)),
    ("softmin", lambda x: ops.softmin(x, 0), lambda F, x: F.softmin(x, 0)),
    ("hardshrink", lambda x: ops.hardshrink(x, 0.6), lambda F, x: F.hardshrink(x, 0.6)),
    ("softshrink", lambda x: ops.softshrink(x, 0.6), lambda F, x: F.softshrink(x, 0.6)),
    ("tanhshrink", lambda x: ops.tanhshrink(x), lambda F, x: F.tanhshrink(x)),
    ("threshold", lambda x: ops.threshold(x, 0.3, -2.0), lambda F, x: F.threshold(x, 0.3, -2.0)),
    ("prelu", lambda x: ops.prelu(x, ms.Tensor(np.array([0.1, 0.2, 0.3, 0.4, 0.5], x.asnumpy()
                                                        .dtype))),
     lambda F, x: F.prelu(x, x.new_tensor([0.1, 0.2, 0.3, 0.4, 0.5]))),
]


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("line", EXTRA_TORCH, ids=[t[0] for t in EXTRA_TORCH])
def test_composed_activations_against_torch(torch, line, dtype):
    name, ms_fn, th_fn = line
    tol = 1e-12 if dtype == np.float64 else 1e-6
    torch_compare(torch, [(4, 5)], ms_fn, lambda x: th_fn(torch.nn.functional, x), dtype=dtype,
                  atol=tol, rtol=tol * 10)


def test_glu_and_rrelu():
    x = ms.Tensor(np.array([[0.2, -1.5, 3.0, 1.0], [1.0, 0.5, -0.25, 2]], np.float32))
    np.testing.assert_allclose(ops.glu(x).asnumpy(), [[0.19051483, -1.0965884],
                                                      [0.43782353, 0.44039857]], rtol=2e-6)
    with pytest.raises(ValueError, match=r"For 'glu', dimension 1 of 'x' \(2, 3\) must be even"):
        ops.glu(ms.Tensor(np.ones((2, 3), np.float32)))
    from cellgrad.testing import gradcheck

    assert gradcheck(lambda t: ops.glu(t, 0), ms.Tensor(np.linspace(-2, 2, 12).reshape(4, 3)))
    ms.set_seed(0)
    r = ops.rrelu(ms.Tensor(np.array([1.0, -2.0, -4.0, 3.0], np.float32))).asnumpy()
    assert r[0] == 1.0 and r[3] == 3.0
    assert (-2 / 3 - 1e-6 <= r[1] <= -2 / 8 + 1e-6) and (-4 / 3 - 1e-6 <= r[2] <= -0.5 + 1e-6)


@pytest.mark.torch
def test_glu_against_torch(torch):
    torch_compare(torch, [(4, 6)], lambda x: ops.glu(x), lambda x: torch.nn.functional.glu(x))
