"""Complex inputs to MindSpore's elementwise Primitives (Inv, Atan, ACos, Acosh, ...): values
against numpy, gradients against PyTorch (same convention: d/dx + i d/dy of a real loss) except
Inv's, which is MindSpore's unconjugated InvGrad; float gradients by gradcheck; and the
"Failed calling" TypeError MindSpore raises for input types a primitive's signature lacks."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.ops import operations as P
from cellgrad.testing import gradcheck

Z = np.array([1 + 2j, -0.5 + 0.25j, 0.3 - 0.7j, 2.5 + 0.1j])
NAMES = {"Atan": "arctan", "Asin": "arcsin", "ACos": "arccos", "Sinh": "sinh", "Cosh": "cosh",
         "Log1p": "log1p", "Expm1": "expm1", "Acosh": "arccosh", "Asinh": "arcsinh",
         "Atanh": "arctanh", "Tan": "tan", "Inv": "reciprocal"}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(NAMES))
def test_complex_values_match_numpy(name, dtype):
    out = getattr(P, name)()(Tensor(Z.astype(dtype)))
    assert out.dtype == ms.complex64 if dtype == np.complex64 else ms.complex128
    tol = 1e-5 if dtype == np.complex64 else 1e-12
    np.testing.assert_allclose(out.asnumpy(), getattr(np, NAMES[name])(Z), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(set(NAMES) - {"Inv"}))
def test_complex_grad_matches_torch(name):
    torch = pytest.importorskip("torch")
    fn = {"ACos": "acos", "Asin": "asin", "Atan": "atan", "Acosh": "acosh", "Asinh": "asinh",
          "Atanh": "atanh"}.get(name, name.lower())
    w = np.array([0.3 - 1j, 2 + 0.5j, -1 + 0j, 0.7j])
    got = ops.grad(lambda v: ops.real(ops.sum(getattr(P, name)()(v) * Tensor(w))))(Tensor(Z))
    t = torch.tensor(Z, requires_grad=True)
    (getattr(torch, fn)(t) * torch.tensor(w)).sum().real.backward()
    np.testing.assert_allclose(got.asnumpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_inv_complex_grad_is_mindspores_unconjugated_invgrad():
    got = ops.grad(P.Inv())(Tensor(Z))
    np.testing.assert_allclose(got.asnumpy(), -1 / Z ** 2, rtol=1e-12)
    # ops.reciprocal keeps the usual convention: the conjugate
    np.testing.assert_allclose(ops.grad(ops.reciprocal)(Tensor(Z)).asnumpy(),
                               np.conj(-1 / Z ** 2), rtol=1e-12)


@pytest.mark.parametrize("fn", [ops.inv, ops.acosh])
def test_float_grads(fn):
    x = Tensor(np.array([1.5, 2.0, 3.5, 7.0]))
    assert gradcheck(fn, x)
    assert gradcheck(lambda v: ops.grad(fn)(v), x)


def test_inv_rejects_bool_and_keeps_int():
    assert ops.inv(Tensor(np.array([2, -1], np.int32))).asnumpy().tolist() == [0, -1]
    with pytest.raises(TypeError, match=r"primitive\[Inv\]"):
        P.Inv()(Tensor(np.array([True])))


@pytest.mark.parametrize("call, text", [
    (lambda: ops.acos("s"), 'Failed calling ACos with "ACos()(input=string)".\nThe valid calling '
                            'should be: \n"ACos()(input=<Tensor>)".'),
    (lambda: P.ACos()(None), 'Failed calling ACos with "ACos()(input=None)"'),
    (lambda: ops.exp([1, 2]), 'Failed calling Exp with "Exp()(input=List<int, int>)"'),
    (lambda: ops.sqrt((1.5,)), 'Failed calling Sqrt with "Sqrt()(x=Tuple<float>)"'),
    (lambda: ops.add("a", Tensor([1.0])),
     '"Add()(input=<Number, Tensor>, other=<Number, Tensor>)"'),
    (lambda: ops.mul(Tensor([1.0]), None), 'Mul()(input=Tensor, other=None)'),
    (lambda: ops.diagonal(1.0, 1, 1, -3),
     'Failed calling Diagonal with "Diagonal(offset=int, dim1=int, dim2=int)(input=float)".\n'
     'The valid calling should be: \n'
     '"Diagonal(offset=<int>, dim1=<int>, dim2=<int>)(input=<Tensor>)".'),
    (lambda: ops.tan("x"), 'Failed calling Tan with "Tan()(input=string)"'),
])
def test_failed_calling_message(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert text in str(info.value)


def test_dtype_errors_inside_keep_their_message():
    with pytest.raises(TypeError, match="Select CPU operator\\[Tan\\]"):
        ops.tan(Tensor(np.array([1, 2], np.int32)))


def test_grad_prims_divide_by_the_conjugate_for_complex():
    # MindSpore 2.10's _grad_ops kernels (checked): dout / conj(f'(x)^-1)
    from cellgrad.ops.operations import _grad_ops as G

    x, d = np.array([0.3 + 0.4j, -0.5 + 0.2j]), np.array([1 + 0.3j, -0.2 + 1j])
    cases = {"AtanGrad": d / np.conj(1 + x * x), "AsinGrad": d / np.conj(np.sqrt(1 - x * x)),
             "ACosGrad": -d / np.conj(np.sqrt(1 - x * x)), "AsinhGrad": d / np.conj(np.cosh(x)),
             "AcoshGrad": d / np.conj(np.sinh(x))}
    for name, expected in cases.items():
        got = getattr(G, name)()(Tensor(x), Tensor(d))
        np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-12, err_msg=name)
    real = G.AtanGrad()(Tensor(np.array([0.5, 2.0])), Tensor(np.array([1.0, 1.0])))
    np.testing.assert_allclose(real.asnumpy(), [0.8, 0.2])
