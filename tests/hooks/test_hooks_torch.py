"""Cell hooks against PyTorch's module hooks on the same two-layer network: forward hooks,
full backward hooks (same grad_input/grad_output meaning), backward-pre hooks, tensor hooks."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)
W1, B1 = RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
W2, B2 = RNG.standard_normal((4, 2)).astype(np.float32), RNG.standard_normal(2).astype(np.float32)
X = RNG.standard_normal((5, 3)).astype(np.float32)


class Linear(nn.Cell):
    def __init__(self, w, b):
        super().__init__()
        self.w = Parameter(Tensor(w), name="w")
        self.b = Parameter(Tensor(b), name="b")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = Linear(W1, B1)
        self.l2 = Linear(W2, B2)

    def construct(self, x):
        return self.l2(ops.tanh(self.l1(x)))


def torch_net():
    l1, l2 = torch.nn.Linear(3, 4), torch.nn.Linear(4, 2)
    with torch.no_grad():
        for lin, w, b in ((l1, W1, B1), (l2, W2, B2)):
            lin.weight.copy_(torch.tensor(w.T))
            lin.bias.copy_(torch.tensor(b))
    return l1, l2, torch.nn.Sequential(l1, torch.nn.Tanh(), l2)


def hooks(record, scale):
    def fwd(cell, args, out):
        record.append(("fwd", out.asnumpy().copy() if hasattr(out, "asnumpy")
                       else out.detach().numpy().copy()))
        return out * 2

    def bwd_pre(cell, go):
        record.append(("bwd_pre", _np(go[0])))
        return (go[0] * 3,)

    def bwd(cell, gi, go):
        record.append(("bwd", _np(gi[0]), _np(go[0])))
        return (gi[0] * scale,)

    return fwd, bwd_pre, bwd


def _np(v):
    return v.asnumpy().copy() if hasattr(v, "asnumpy") else v.detach().numpy().copy()


def test_cell_hooks_match_torch_module_hooks():
    ours, theirs = [], []
    net = Net()
    fwd, bwd_pre, bwd = hooks(ours, 0.5)
    for cell in (net.l1, net.l2):
        cell.register_forward_hook(fwd)
        cell.register_backward_pre_hook(bwd_pre)
        cell.register_backward_hook(bwd)
    gx, gws = ms.grad(lambda x: (net(x) ** 2).sum(), 0, net.trainable_params())(Tensor(X))

    l1, l2, seq = torch_net()
    fwd, bwd_pre, bwd = hooks(theirs, 0.5)
    for mod in (l1, l2):
        mod.register_forward_hook(fwd)
        mod.register_full_backward_pre_hook(bwd_pre)
        mod.register_full_backward_hook(bwd)
    x = torch.tensor(X, requires_grad=True)
    (seq(x) ** 2).sum().backward()

    assert [r[0] for r in ours] == [r[0] for r in theirs]
    for a, b in zip(ours, theirs):
        for u, v in zip(a[1:], b[1:]):
            np.testing.assert_allclose(u, v, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gx.asnumpy(), x.grad.numpy(), rtol=1e-4, atol=1e-4)
    expected = [l1.weight.grad.numpy().T, l1.bias.grad.numpy(), l2.weight.grad.numpy().T,
                l2.bias.grad.numpy()]
    for g, e in zip(gws, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-4, atol=1e-4)


def test_tensor_hooks_match_torch():
    def ours(a):
        h = ops.tanh(a * 2)
        h.register_hook(lambda g: g * g)
        return (h * a).sum()

    a = torch.tensor(X, requires_grad=True)
    h = torch.tanh(a * 2)
    h.register_hook(lambda g: g * g)
    (h * a).sum().backward()
    np.testing.assert_allclose(ms.grad(ours)(Tensor(X)).asnumpy(), a.grad.numpy(), rtol=1e-5,
                               atol=1e-6)
