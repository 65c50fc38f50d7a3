"""`Cell.recompute()`: construct runs again in the backward walk, keeping only the inputs;
gradients are bit-for-bit those of the plain cell."""

import tracemalloc

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops


class Block(nn.Cell):
    def __init__(self, n, seed, noise=False):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w = Parameter(Tensor(rng.uniform(-1, 1, (n, n)).astype(np.float32)))
        self.b = Parameter(Tensor(rng.uniform(-1, 1, n).astype(np.float32)))
        self.noise = noise
        self.runs = 0

    def construct(self, x):
        self.runs += 1
        h = ops.tanh(ops.matmul(x, self.w) + self.b)
        if self.noise:  # a random op: the re-run must draw the same values
            h = h * ops.rand_like(h)
        return h + x


class Chain(nn.Cell):
    def __init__(self, k, n=6, recompute=False, noise=False):
        super().__init__()
        self.blocks = nn.CellList([Block(n, i, noise) for i in range(k)])
        if recompute:
            for blk in self.blocks:
                blk.recompute()

    def construct(self, x):
        for blk in self.blocks:
            x = blk(x)
        return (x * x).sum()


X = Tensor(np.random.default_rng(9).uniform(-1, 1, (4, 6)).astype(np.float32))


def _grads(net, x=X):
    return ms.value_and_grad(net, 0, net.trainable_params())(x)


def _same(a, b):
    (la, (gxa, gwa)), (lb, (gxb, gwb)) = a, b
    return (np.array_equal(la.asnumpy(), lb.asnumpy())
            and np.array_equal(gxa.asnumpy(), gxb.asnumpy())
            and all(np.array_equal(p.asnumpy(), q.asnumpy()) for p, q in zip(gwa, gwb)))


def test_gradients_bit_for_bit_and_forward_runs_twice():
    plain, again = Chain(3), Chain(3, recompute=True)
    assert _same(_grads(plain), _grads(again))
    assert [b.runs for b in plain.blocks] == [1, 1, 1]
    assert [b.runs for b in again.blocks] == [2, 2, 2]
    again(X)  # outside a gradient transform: one plain run
    assert [b.runs for b in again.blocks] == [3, 3, 3]


def test_random_ops_draw_the_same_values_in_the_re_run():
    ms.set_seed(5)
    a = _grads(Chain(2, noise=True))
    ms.set_seed(5)
    b = _grads(Chain(2, recompute=True, noise=True))
    assert _same(a, b)


def test_the_tape_keeps_one_node_per_recomputed_call():
    net = Chain(2, recompute=True)
    seen = {}

    def f(x):
        out = net.blocks[1](net.blocks[0](x))
        seen["node"] = out._node
        return out.sum()

    ms.grad(f)(X)
    node = seen["node"]
    assert node.name == "Cell.recompute"
    inner = node.next_nodes[0]
    assert inner.name == "Cell.recompute"  # the previous block's node: no ops in between
    assert node.saved is None  # freed by the walk


def test_peak_memory_is_lower():
    def peak(recompute):
        net = Chain(12, n=64, recompute=recompute)
        x = Tensor(np.ones((256, 64), np.float32))
        step = ms.value_and_grad(net, None, net.trainable_params())
        step(x)
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        step(x)
        used = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        return used

    assert peak(True) < 0.75 * peak(False)


def test_kwargs_tuple_outputs_frozen_parameters():
    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor([1.5, -2.0]))
            self.frozen = Parameter(Tensor([3.0, 1.0]), requires_grad=False)

        def construct(self, x, scale=None, *, shift):
            return x * self.w * scale, ops.sin(x + shift) * self.frozen

    def loss(net):
        def f(x, s, t):
            a, b = net(x, s, shift=t)
            return (a * b).sum()
        return f

    args = (Tensor([0.3, 0.7]), Tensor([2.0, -1.0]), Tensor([0.1, 0.2]))
    plain, again = Two(), Two()
    again.recompute()
    ga = ms.grad(loss(plain), (0, 1, 2), plain.trainable_params())(*args)
    gb = ms.grad(loss(again), (0, 1, 2), again.trainable_params())(*args)
    flat = lambda g: [t.asnumpy() for t in (*g[0], *g[1])]  # noqa: E731
    assert all(np.array_equal(a, b) for a, b in zip(flat(ga), flat(gb)))


def test_second_order_runs_the_cell_plainly():
    net = Chain(1, recompute=True)
    plain = Chain(1)
    x = Tensor(np.full((1, 6), 0.3, np.float32))

    def first(n):
        return lambda v: ms.grad(n)(v).sum()

    assert np.allclose(ms.grad(first(net))(x).asnumpy(), ms.grad(first(plain))(x).asnumpy())


def test_configured_once_and_mindspore_errors():
    net = Chain(2)
    net.recompute(mp_comm_recompute=True)
    assert net.get_flags() == {"output_recompute": False}
    net.blocks[0].recompute()  # a sub-cell of a recomputed cell stays part of it
    assert not net.blocks[0].__dict__.get("_recompute")
    with pytest.raises(ValueError, match="keyword 'bad' is not recognized"):
        Chain(1).recompute(bad=1)
    with pytest.raises(TypeError, match="'output_recompute' must be a bool"):
        Chain(1).recompute(output_recompute=1)


def test_fast_call_path_unchanged_for_other_cells():
    net = Chain(1)
    net(X)
    assert net.__dict__["_fast"] is True
    net.recompute()
    assert net.__dict__["_fast"] is False
