"""The private paths MindSpore's own tests import: `ops.auto_generate`, `_c_expression`,
`_extends.parse.standard_method`, `numpy.utils_const` (values recorded from MindSpore are
replayed in ms_programs/private_paths_s9.py; these check cellgrad-side consistency)."""

import inspect

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad._c_expression import CreationType, get_code_extra
from cellgrad._extends.parse import standard_method as sm
from cellgrad.numpy import utils_const as uc
from cellgrad.ops import auto_generate as gen


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, 1.5])
def test_cdist_grad_is_the_gradient_of_cdist(p):
    rng = np.random.default_rng(1)
    x1 = Tensor(rng.normal(size=(2, 3, 4)))
    x2 = Tensor(rng.normal(size=(2, 5, 4)))
    g = Tensor(rng.normal(size=(2, 3, 5)))
    want = ms.grad(lambda a: (ops.cdist(a, x2, p) * g).sum())(x1)
    got = gen.CdistGrad(p)(g, x1, x2, ops.cdist(x1, x2, p))
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-10, atol=1e-12)
    assert got.dtype == ms.float64


def test_cdist_grad_checks_its_inputs():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match=r'CdistGrad\(p=int\)'):
        gen.CdistGrad(2)(x, x, x, x)
    with pytest.raises(ValueError, match="'CdistGrad', expected input_x"):
        gen.CdistGrad(2.0)(x, x, Tensor(np.ones((4, 3), np.float32)), x)


def test_sequence_concat_and_sum_ext():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert gen.SequenceConcat(axis=1)([a, a]).shape == (2, 6)
    with pytest.raises(TypeError, match="'SequenceConcat', 'x' must be a tuple or list"):
        gen.SequenceConcat()(a)
    out = gen.SumExt()(a, 1, True, ms.float64)
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), [[3.0], [12.0]])


def test_auto_generate_names_are_cellgrad_ops():
    assert gen.Pow is ops.Pow and gen.gen_ops_prim.Sqrt is ops.Sqrt
    assert gen.add is ops.add and gen.gen_ops_def.acos is ops.acos
    assert inspect.signature(gen.gen_ops_def.add) == inspect.signature(ops.add)


def test_creation_type_and_code_extra():
    assert [m.name for m in CreationType] == ["DEFAULT", "NO_GRAD_MODE", "MULTI_OUTPUT",
                                              "CUSTOM_BPROP"]
    assert int(CreationType.MULTI_OUTPUT) == 2 and CreationType(3) is CreationType.CUSTOM_BPROP
    assert get_code_extra(test_creation_type_and_code_extra) is None


def test_standard_method_uses_mindspores_signature_and_defaults():
    x = Tensor(np.arange(12.0).reshape(3, 4))
    assert str(inspect.signature(sm.var)) == "(x, axis=None, ddof=0, keepdims=False)"
    # a keyword after a skipped positional: MindSpore's default fills the gap
    np.testing.assert_allclose(sm.var(x, keepdims=True).asnumpy(), [[np.var(np.arange(12.0))]])
    np.testing.assert_allclose(sm.var(x, ddof=1).asnumpy(), np.var(np.arange(12.0), ddof=1))
    assert sm.reshape(x, 2, 6).shape == (2, 6) and sm.max(x).item() == 11.0
    with pytest.raises(TypeError):
        sm.var(x, 0, 0, False, 1)
    assert sm.tensor_bool(Tensor(np.array([0.5]))) is True


def test_utils_const_errors():
    with pytest.raises(ValueError, match=r"duplicate axes in \(1, 1\)"):
        uc._canonicalize_axis((1, -1), 2)
    with pytest.raises(ValueError, match="shape mismatch"):
        uc._broadcast_tuples((1, 2), (1, 2, 3))
    with pytest.raises(ValueError, match="zero shape Tensor"):
        uc._iota(ms.int32, 0)
    assert uc._canonicalize_axis([3, 0, -1], 5) == (0, 3, 4)


def test_pijit_capture_context_compiles_and_can_be_disabled():
    from cellgrad.common._pijit_context import PIJitCaptureContext

    calls = []

    def f(x):
        calls.append(1)
        return x * 2 + 1

    x = Tensor(np.arange(3, dtype=np.float32))
    wrapped = PIJitCaptureContext()(f)
    assert wrapped.__wrapped_by_jit__ and wrapped.__name__ == "f"
    np.testing.assert_array_equal(wrapped(x).asnumpy(), [1.0, 3.0, 5.0])
    plain = PIJitCaptureContext(jit_config={"_disable_pijit": lambda a, k: True})(f)
    n = len(calls)
    np.testing.assert_array_equal(plain(x).asnumpy(), [1.0, 3.0, 5.0])
    assert len(calls) == n + 1  # the plain function ran
    with pytest.raises(TypeError, match="'_disable_pijit' must be callable but got 1"):
        PIJitCaptureContext(jit_config={"_disable_pijit": 1})
