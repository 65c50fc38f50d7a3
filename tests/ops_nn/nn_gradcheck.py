"""Shared test helpers for ops-nn: one gradcheck line per op (`Case`), the check that a line
records its op, second order through the rule, and comparison with torch on the same inputs.

A test file lists `CASES` and exports `GRADCHECKED = names(CASES)`; the meta-test
`test_nn_op_registry.py` collects every file's `GRADCHECKED`.
"""

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import cellgrad as ms
from cellgrad.testing import gradcheck, gradgradcheck


@dataclass
class Case:
    """One gradcheck line: `fn(*inputs, *extra)`, inputs of `shapes` drawn from [low, high)."""

    op: str
    fn: Callable
    shapes: list
    low: float = -2.0
    high: float = 2.0
    extra: tuple = ()  # non-differentiable trailing arguments (labels, masks)
    away_from: tuple = ()  # kinks the inputs keep 0.05 away from (0 for relu, ±3 hardswish)
    second_order: bool = True
    tag: str = field(default="")

    @property
    def id(self):
        return self.op + (f"-{self.tag}" if self.tag else "")


def names(cases):
    return {c.op for c in cases}


def inputs(case, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed + 17 * len(case.shapes))
    out = []
    for shape in case.shapes:
        v = rng.uniform(case.low, case.high, shape)
        for k in case.away_from:
            near = np.abs(v - k) < 0.05
            v = np.where(near, k + np.where(v >= k, 0.05, -0.05) + (v - k), v)
        out.append(ms.Tensor(np.asarray(v, dtype)))
    return out


def recorded_ops(fn, args):
    """The op names recorded on the tape by one call of `fn` inside a gradient transform."""
    seen = set()

    def probe(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        stack = [o._node for o in outs if isinstance(o, ms.Tensor) and o._node is not None]
        visited = set()
        while stack:
            node = stack.pop()
            if node.op is not None and id(node) not in visited:
                visited.add(id(node))
                seen.add(node.name)
                stack.extend(n for n in node.next_nodes if n is not None)
        floats = [o for o in outs if isinstance(o, ms.Tensor) and o.dtype.is_floating]
        return sum((o.sum() for o in floats[1:]), floats[0].sum())

    ms.grad(probe, tuple(range(len(args))))(*args)
    return seen


def _bound(case):
    def f(*xs):
        return case.fn(*xs, *case.extra)

    f.__name__ = case.id
    return f


def _squared(fn):
    """`fn` followed by a square, so second order differentiates the op's rule on Tensors."""

    def f(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(o * o for o in outs if o.dtype.is_floating)

    f.__name__ = f"square∘{fn.__name__}"
    return f


def check_first_order(case):
    args = inputs(case, 0)
    fn = _bound(case)
    assert case.op in recorded_ops(fn, args), f"{case.id} does not record '{case.op}'"
    assert gradcheck(fn, *args)


def check_second_order(case):
    args = inputs(case, 1)
    assert gradgradcheck(_squared(_bound(case)), *args)


def torch_compare(torch, shapes, ms_fn, torch_fn, *, low=-2.0, high=2.0, dtype=np.float64,
                  atol=1e-6, rtol=1e-5, extra=(), torch_extra=None, seed=0):
    """Same inputs into both; outputs (values, shape, dtype) and input gradients must agree."""
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(rng.uniform(low, high, s), dtype) for s in shapes]
    ms_in = [ms.Tensor(a) for a in arrays]
    th_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    th_extra = extra if torch_extra is None else torch_extra
    ms_out = ms_fn(*ms_in, *extra)
    th_out = torch_fn(*th_in, *th_extra)
    assert tuple(ms_out.shape) == tuple(th_out.shape)
    assert ms_out.asnumpy().dtype == dtype
    np.testing.assert_allclose(ms_out.asnumpy(), th_out.detach().numpy(), atol=atol, rtol=rtol)
    w = rng.standard_normal(tuple(th_out.shape)).astype(dtype)
    ms_grads = ms.grad(lambda *xs: (ms_fn(*xs, *extra) * ms.Tensor(w)).sum(),
                       tuple(range(len(ms_in))))(*ms_in)
    ms_grads = ms_grads if isinstance(ms_grads, tuple) else (ms_grads,)
    th_grads = torch.autograd.grad((th_out * torch.tensor(w)).sum(), th_in)
    for g, tg in zip(ms_grads, th_grads):
        assert g.asnumpy().dtype == dtype
        np.testing.assert_allclose(g.asnumpy(), tg.numpy(), atol=atol * 10, rtol=rtol * 10)
