"""Update Primitives whose MindSpore CPU kernel has no Float64 version update a Float64 variable
in Float32 (values recorded from MindSpore 2.10 in ms_programs/apply_prims_float64.py; the
replay's tolerance cannot see float32 rounding, so it is asserted exactly here)."""

import numpy as np

from cellgrad import Parameter, Tensor, ops

BASE = np.array([0.5902195612345678, 0.6402413123456789, 0.2680325234567891])


def _run(dtype):
    var = Parameter(Tensor(BASE.astype(dtype)), name="var")
    accum = Parameter(Tensor((BASE + 0.37).astype(dtype)), name="accum")
    grad = Tensor(np.array([0.123456789, -0.987654321, 0.5555555551]).astype(dtype))
    out = ops.ApplyAdagradV2(1e-6)(var, accum, Tensor(np.array(0.01, dtype)), grad)
    return out, var, accum


def test_float64_variable_updated_in_float32():
    (v, a), var, accum = _run(np.float64)
    (v32, a32), _, _ = _run(np.float32)
    assert v.dtype == var.dtype and str(v.dtype) == "Float64"
    np.testing.assert_array_equal(v.asnumpy(), v32.asnumpy().astype(np.float64))
    np.testing.assert_array_equal(a.asnumpy(), a32.asnumpy().astype(np.float64))
    np.testing.assert_array_equal(var.asnumpy(), v.asnumpy())
    exact = BASE[0] + 0.37 + 0.123456789 ** 2
    assert a.asnumpy()[0] == np.float64(np.float32(exact)) != exact


def test_other_prims_keep_float64():
    var = Parameter(Tensor(BASE), name="var")
    out = ops.ApplyGradientDescent()(var, Tensor(np.array(0.01)), Tensor(BASE / 3))
    np.testing.assert_array_equal(out.asnumpy(), BASE - 0.01 * (BASE / 3))


def test_adam_float32_bit_exact_with_mindspore():
    # MindSpore 2.10's CPU kernel: m += (g - m)(1 - beta1) and v += (g*g - v)(1 - beta2) as
    # fused multiply-adds; recorded after 3 steps from this seed (bit-exact, all 5 entries)
    rng = np.random.default_rng(0)
    g = rng.normal(size=(5,)).astype(np.float32)
    var = Parameter(Tensor(rng.normal(size=(5,)).astype(np.float32)), name="v")
    m = Parameter(Tensor((rng.normal(size=(5,)) * 0.1).astype(np.float32)), name="m")
    v = Parameter(Tensor((rng.random(5) * 0.01).astype(np.float32)), name="vv")

    def f(a):
        return Tensor(np.array(a, np.float32))

    for step in range(3):
        ops.Adam()(var, m, v, f(0.9 ** (step + 1)), f(0.999 ** (step + 1)), f(0.01), f(0.9),
                   f(0.999), f(1e-8), Tensor(g * (step + 1)))
    expected_m = np.array([0.025097964, -0.07109818, 0.18978247, 0.042899065, -0.39133748],
                          np.float32)
    expected_v = np.array([0.0019725075, 0.008850136, 0.011137827, 0.0031421252, 0.008229615],
                          np.float32)
    expected_var = np.array([0.3644952, 1.3067317, 0.94953877, -0.7052919, -1.2408838],
                            np.float32)
    np.testing.assert_array_equal(var.asnumpy(), expected_var)
    np.testing.assert_array_equal(m.asnumpy(), expected_m)
    np.testing.assert_array_equal(v.asnumpy(), expected_v)
