"""vmap, vjp, jvp, jacrev, jacfwd: semantics against numpy and PyTorch (MindSpore's printed
behaviour is replayed by ms_programs/functional_transforms)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops

RNG = np.random.default_rng(0)


def T(a):
    return ms.Tensor(np.asarray(a))


def test_vmap_maps_the_given_axes_and_stacks_at_out_axes():
    m = RNG.normal(size=(2, 3)).astype(np.float32)
    v = RNG.normal(size=(3, 4)).astype(np.float32)

    def matvec(a, b):
        return ops.matmul(a, b)

    # Slice i of axis 1 is v[:, i]; results stack at axis 0: (m @ v).T. (MindSpore 2.10's
    # MatMul batching rule returns m @ v here, ignoring out_axes: README, differs on purpose.)
    out = ms.vmap(matvec, in_axes=(None, 1))(T(m), T(v))
    np.testing.assert_allclose(out.asnumpy(), (m @ v).T, rtol=1e-6)
    out = ms.vmap(matvec, in_axes=(None, 1), out_axes=1)(T(m), T(v))
    np.testing.assert_allclose(out.asnumpy(), m @ v, rtol=1e-6)
    nested = ms.vmap(ms.vmap(lambda a: a * a + 1))(T(m))
    np.testing.assert_allclose(nested.asnumpy(), m * m + 1, rtol=1e-6)
    neg = ms.vmap(lambda a: a.sum(), in_axes=-1)(T(m))
    np.testing.assert_allclose(neg.asnumpy(), m.sum(0), rtol=1e-6)


def test_vmap_structures_and_gradients_through_it():
    x = RNG.normal(size=(4, 3))
    out = ms.vmap(lambda p: (p[0] * 2, p[1] - 1), in_axes=((0, 1),))(
        (T(x), T(x.T)))
    np.testing.assert_allclose(out[0].asnumpy(), 2 * x)
    np.testing.assert_allclose(out[1].asnumpy(), x - 1)
    g = ms.grad(lambda a: ms.vmap(lambda r: (ops.sin(r) * r).sum())(a).sum())(T(x))
    np.testing.assert_allclose(g.asnumpy(), np.cos(x) * x + np.sin(x), rtol=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda f, a, b: ms.vmap(f, in_axes=(3, 0))(a, a), "out of range"),
    (lambda f, a, b: ms.vmap(f)(a, b), "one size"),
    (lambda f, a, b: ms.vmap(f, in_axes=None)(a, a), "every axis is None"),
    (lambda f, a, b: ms.vmap(f, in_axes=(0, 0, 0))(a, a), "one entry per argument"),
    (lambda f, a, b: ms.vmap(lambda x: (x, x), out_axes=(0, None))(a), "out_axes None"),
])
def test_vmap_errors_are_runtime_errors_naming_the_problem(call, message):
    a, b = T(np.ones((2, 3), np.float32)), T(np.ones((3, 4), np.float32))
    with pytest.raises(RuntimeError, match=message):
        call(lambda p, q: p * q, a, b)


def f(a, c):
    return ops.exp(a).sum(axis=1) * ops.tanh(c).sum()


def test_vjp_jvp_and_jacobians_agree_with_each_other_in_float64():
    a, c = RNG.normal(size=(2, 3)), RNG.normal(size=(3,))
    jac_a, jac_c = ms.jacrev(f, grad_position=(0, 1))(T(a), T(c))
    fa, fc = ms.jacfwd(f, grad_position=(0, 1))(T(a), T(c))
    np.testing.assert_allclose(jac_a.asnumpy(), fa.asnumpy())
    np.testing.assert_allclose(jac_c.asnumpy(), fc.asnumpy())
    assert jac_a.shape == (2, 2, 3) and jac_c.shape == (2, 3)
    u = RNG.normal(size=(2,))
    out, fn = ms.vjp(f, T(a), T(c))
    ga, gc = fn(T(u))
    np.testing.assert_allclose(ga.asnumpy(), np.einsum("i,ijk->jk", u, jac_a.asnumpy()))
    np.testing.assert_allclose(gc.asnumpy(), u @ jac_c.asnumpy())
    va, vc = RNG.normal(size=(2, 3)), RNG.normal(size=(3,))
    out2, tangent = ms.jvp(f, (T(a), T(c)), (T(va), T(vc)))
    np.testing.assert_allclose(out2.asnumpy(), out.asnumpy())
    expected = np.einsum("ijk,jk->i", jac_a.asnumpy(), va) + jac_c.asnumpy() @ vc
    np.testing.assert_allclose(tangent.asnumpy(), expected, rtol=1e-12)
    # finite differences pin the Jacobian itself
    eps = 1e-6
    fd = (f(T(a), T(c + eps * vc)).asnumpy() - f(T(a), T(c - eps * vc)).asnumpy()) / (2 * eps)
    np.testing.assert_allclose(jac_c.asnumpy() @ vc, fd, rtol=1e-6)


def test_against_pytorch():
    torch = pytest.importorskip("torch")
    a, c = RNG.normal(size=(2, 3)), RNG.normal(size=(3,))

    def tf(x, y):
        return torch.exp(x).sum(dim=1) * torch.tanh(y).sum()

    ja, jc = torch.autograd.functional.jacobian(tf, (torch.tensor(a), torch.tensor(c)))
    ours = ms.jacrev(f, grad_position=(0, 1))(T(a), T(c))
    np.testing.assert_allclose(ours[0].asnumpy(), ja.numpy(), rtol=1e-12)
    np.testing.assert_allclose(ours[1].asnumpy(), jc.numpy(), rtol=1e-12)
    va, vc = RNG.normal(size=(2, 3)), RNG.normal(size=(3,))
    _, tj = torch.func.jvp(tf, (torch.tensor(a), torch.tensor(c)),
                           (torch.tensor(va), torch.tensor(vc)))
    _, ours = ms.jvp(f, (T(a), T(c)), (T(va), T(vc)))
    np.testing.assert_allclose(ours.asnumpy(), tj.numpy(), rtol=1e-12)


def test_bad_tangents_and_positions():
    x = T(np.ones(3))
    with pytest.raises(ValueError, match="one tangent per input"):
        ms.jvp(lambda a, b: a * b, (x, x), (x,))
    with pytest.raises(ValueError, match="one shape"):
        ms.jvp(lambda a: a, x, T(np.ones(2)))
    with pytest.raises(ValueError, match="out of range"):
        ms.jacrev(lambda a: a, grad_position=2)(x)
    assert ms.ops.vmap is ms.vmap and ms.ops.jacfwd is ms.jacfwd
