"""Gradients of `cellgrad.numpy`'s array functions: every differentiable one gradchecked in
float64 (one line each), a few second orders, and forward values and gradients against PyTorch
where torch has the op (skipped without torch).

Where MindSpore 2.10's own gradient is wrong, ours is the true one (gradcheck holds it to finite
differences): `pad` in 'reflect'/'symmetric' mode and `select` with a list of Tensors (MindSpore
returns [1, 2, 2] for `grad(pad(x, 2, 'reflect').sum())` at x of size 3, and zeros for select);
MindSpore fails to differentiate flip and rot90 at all ("The int value(-1) is less than 0")."""

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import Tensor
from cellgrad.testing import gradcheck, gradgradcheck


@dataclass
class Case:
    name: str
    fn: Callable
    shapes: tuple
    eps: float = 1e-6  # float32 inside (as in MindSpore) needs a coarser difference

    def args(self):
        rng = np.random.default_rng(sum(map(len, self.shapes)) * 11 + len(self.name))
        return [Tensor(rng.uniform(0.5, 2.0, s)) for s in self.shapes]


# MindSpore computes flip, roll, rot90, diag of a matrix and the reflecting pads in Float32
# unless the input is Float16/Float32; these are linear, so a coarse difference is exact
F32 = 1e-2


def c(name, fn, *shapes, eps=1e-6):
    return Case(name, fn, shapes, eps)


def _mask(shape, seed=0):
    return Tensor(np.random.default_rng(seed).uniform(size=shape) > 0.4)


def _pad_fn(vector, width, iaxis, kwargs):
    return mnp.concatenate((vector[width[0]:vector.shape[0] - width[1]] * 2.0,
                            vector[:width[0] + width[1]] + 1.0))


CASES = [
    # ---- creation ----
    c("array", lambda x: mnp.array(x) * x, (3,)),
    c("array_ndmin", lambda x: mnp.array(x, ndmin=3), (2, 3)),
    c("asarray", lambda x: mnp.asarray(x) * 2.0, (3,)),
    c("asfarray", lambda x: mnp.asfarray(x, ms.float64), (3,)),
    c("full", lambda x: mnp.full((2, 3), x), (3,)),
    c("full_like_tensor_fill", lambda x, y: mnp.full_like(x, y), (2, 3), (3,)),
    c("linspace", lambda a, b: mnp.linspace(a, b, 5, dtype=ms.float64), (), ()),
    c("linspace_axis", lambda a, b: mnp.linspace(a, b, 4, False, dtype=ms.float64, axis=-1),
      (2,), (2,)),
    c("linspace_retstep", lambda a, b: mnp.linspace(a, b, 4, retstep=True, dtype=ms.float64),
      (), ()),
    # MindSpore's logspace and histogram_bin_edges compute in float32 whatever the input
    c("logspace", lambda a, b: mnp.logspace(a, b, 4, dtype=ms.float64), (), (), eps=1e-2),
    c("geomspace", lambda a, b: mnp.geomspace(a, b, 4, dtype=ms.float64), (2,), (2,)),
    c("tril", lambda m: mnp.tril(m, -1), (3, 4)),
    c("tril_batch", lambda m: mnp.tril(m, 1), (2, 3, 3)),
    c("tril_1d", lambda x: mnp.tril(x), (3,)),
    c("triu", lambda m: mnp.triu(m, 1), (4, 3)),
    c("triu_1d", lambda x: mnp.triu(x, 1), (3,)),
    c("diag_1d", lambda x: mnp.diag(x, 1), (3,)),
    c("diag_2d", lambda m: mnp.diag(m, -1), (3, 4), eps=F32),
    c("diagflat", lambda m: mnp.diagflat(m, -2), (2, 2)),
    c("diagonal", lambda m: mnp.diagonal(m, 1, 2, 0), (3, 2, 4)),
    c("trace", lambda m: mnp.trace(m, 1), (3, 4)),
    c("trace_batch", lambda m: mnp.trace(m, 0, 1, 2), (2, 3, 3)),
    c("vander", lambda x: mnp.vander(x, 4), (3,)),
    c("vander_increasing", lambda x: mnp.vander(x, 3, True), (4,)),
    c("meshgrid", lambda x, y: mnp.meshgrid(x, y), (3,), (2,)),
    c("meshgrid_ij_sparse", lambda x, y: mnp.meshgrid(x, y, sparse=True, indexing="ij"),
      (3,), (2,)),
    c("ix_", lambda x, y: mnp.ix_(x, y), (3,), (2,)),
    c("histogram_bin_edges", lambda x: mnp.histogram_bin_edges(x, 4), (5,), eps=1e-2),
    c("pad_constant", lambda m: mnp.pad(m, ((1, 0), (2, 1)), constant_values=3), (2, 3)),
    c("pad_edge", lambda m: mnp.pad(m, ((1, 2), (2, 1)), mode="edge"), (2, 3)),
    c("pad_wrap", lambda m: mnp.pad(m, (4, 3), mode="wrap"), (2, 3)),
    c("pad_reflect", lambda x: mnp.pad(x, (5, 4), mode="reflect"), (3,), eps=F32),
    c("pad_reflect_odd", lambda m: mnp.pad(m, 3, mode="reflect", reflect_type="odd"), (2, 3),
      eps=F32),
    c("pad_symmetric", lambda m: mnp.pad(m, (3, 2), mode="symmetric"), (2, 3), eps=F32),
    c("pad_symmetric_odd", lambda x: mnp.pad(x, (5, 4), mode="symmetric", reflect_type="odd"),
      (3,), eps=F32),
    c("pad_mean", lambda m: mnp.pad(m, 2, mode="mean"), (2, 3)),
    c("pad_maximum", lambda x: mnp.pad(x, (2, 3), mode="maximum", stat_length=2), (4,)),
    c("pad_minimum", lambda m: mnp.pad(m, ((1, 1), (0, 2)), mode="minimum"), (2, 3)),
    c("pad_linear_ramp", lambda m: mnp.pad(m, 2, mode="linear_ramp", end_values=(1, 2)), (2, 3)),
    c("pad_empty", lambda m: mnp.pad(m, 1, mode="empty"), (2, 3)),
    c("pad_function", lambda x: mnp.pad(x, (1, 2), mode=_pad_fn), (3,)),
    # ---- manipulation ----
    c("append", lambda x, y: mnp.append(x, y), (2, 3), (4,)),
    c("append_axis", lambda x, y: mnp.append(x, y, 0), (2, 3), (1, 3)),
    c("apply_along_axis", lambda m: mnp.apply_along_axis(lambda v: v * v.sum(), 1, m), (2, 3)),
    c("apply_along_axis_matrix", lambda m: mnp.apply_along_axis(mnp.diag, 0, m), (2, 3)),
    c("apply_over_axes", lambda m: mnp.apply_over_axes(lambda x, axis: x.sum(axis=axis), m,
                                                       (0, 2)), (2, 3, 2)),
    c("array_split", lambda x: mnp.array_split(x, 3), (7,)),
    c("array_split_list", lambda m: mnp.array_split(m, [1, -1], 1), (2, 4)),
    c("atleast_1d", lambda x, y: mnp.atleast_1d(x, y), (), (2,)),
    c("atleast_2d", lambda x: mnp.atleast_2d(x), (3,)),
    c("atleast_3d", lambda x, y: mnp.atleast_3d(x, y), (3,), (2, 3)),
    c("broadcast_arrays", lambda x, y: mnp.broadcast_arrays(x, y), (3,), (2, 1)),
    c("broadcast_to", lambda x: mnp.broadcast_to(x, (2, 4, 3)), (4, 1)),
    c("choose", lambda x, y: mnp.choose(Tensor([[0, 1, 1], [1, 0, 3]]), (x, y)), (3,), (2, 3)),
    c("choose_tensor", lambda m: mnp.choose(Tensor([2, 0, 1]), m, mode="wrap"), (3, 3)),
    c("column_stack", lambda x, y: mnp.column_stack((x, y)), (3,), (3, 2)),
    c("concatenate", lambda x, y: mnp.concatenate((x, y), 1), (2, 3), (2, 1)),
    c("concatenate_none", lambda x, y: mnp.concatenate([x, y], None), (2, 3), (4,)),
    c("concatenate_tensor", lambda m: mnp.concatenate(m, 1), (2, 3, 4)),
    c("dsplit", lambda m: mnp.dsplit(m, [1]), (1, 2, 3)),
    c("dstack", lambda x, y: mnp.dstack((x, y)), (2, 3), (2, 3)),
    c("expand_dims", lambda m: mnp.expand_dims(m, (0, -1)), (2, 3)),
    c("flip", lambda m: mnp.flip(m), (2, 3), eps=F32),
    c("fliplr", lambda m: mnp.fliplr(m), (2, 3), eps=F32),
    c("flipud", lambda m: mnp.flipud(m), (2, 3), eps=F32),
    c("hsplit", lambda m: mnp.hsplit(m, 2), (2, 4)),
    c("hstack", lambda x, y: mnp.hstack((x, y)), (2, 3), (2, 1)),
    c("moveaxis", lambda m: mnp.moveaxis(m, (0, 2), (1, 0)), (2, 3, 4)),
    c("piecewise", lambda x: mnp.piecewise(x, [x < 1.0, x > 1.5], [lambda v: v * v,
                                                                   lambda v: -v, 2.0]), (6,)),
    c("ravel", lambda m: mnp.ravel(m), (2, 3)),
    c("repeat", lambda m: mnp.repeat(m, [1, 0, 3], 1), (2, 3)),
    c("repeat_flat", lambda m: mnp.repeat(m, 2), (2, 3)),
    c("reshape", lambda m: mnp.reshape(m, (3, -1)), (2, 3)),
    c("roll", lambda m: mnp.roll(m, (1, -2), (0, 1)), (2, 3), eps=F32),
    c("roll_flat", lambda m: mnp.roll(m, 4), (2, 3), eps=F32),
    c("rollaxis", lambda m: mnp.rollaxis(m, 2), (2, 3, 4)),
    c("rot90", lambda m: mnp.rot90(m), (2, 3), eps=F32),
    c("rot90_3", lambda m: mnp.rot90(m, 3, (2, 1)), (2, 3, 4), eps=F32),
    c("select", lambda x, y: mnp.select([_mask(3, 1), _mask(3, 2)], mnp.stack((x, y)), 0.5),
      (3,), (3,)),
    # a list of Tensors is narrowed to Float32, as MindSpore converts such a list
    c("select_list", lambda x, y: mnp.select([_mask(3, 1), _mask(3, 2)], [x, y]), (3,), (3,),
      eps=1e-2),
    c("select_tensor_default", lambda x, d: mnp.select(Tensor(np.array([[True, False]])),
                                                       x[None], d), (2,), (2,)),
    c("split", lambda m: mnp.split(m, 3, 1), (2, 3)),
    c("squeeze", lambda m: mnp.squeeze(m), (1, 3, 1)),
    c("stack", lambda x, y: mnp.stack((x, y), -1), (2, 3), (2, 3)),
    c("stack_tensor", lambda m: mnp.stack(m, 1), (2, 3)),
    c("swapaxes", lambda m: mnp.swapaxes(m, 0, 2), (2, 3, 4)),
    c("take", lambda m: mnp.take(m, Tensor([[0, 5], [5, 9]])), (2, 3)),
    c("take_axis_wrap", lambda m: mnp.take(m, Tensor([-1, 3, 0]), 1, "wrap"), (2, 3)),
    c("take_along_axis", lambda m: mnp.take_along_axis(m, Tensor([[0, 0, 2]]), 1), (2, 3)),
    c("tile", lambda m: mnp.tile(m, (2, 1, 2)), (2, 3)),
    c("transpose", lambda m: mnp.transpose(m, (1, 2, 0)), (2, 3, 4)),
    c("unique", lambda x: mnp.unique(mnp.concatenate((x, x[:2])))[0] * 1.0, (4,)),
    c("vsplit", lambda m: mnp.vsplit(m, [1]), (3, 2)),
    c("vstack", lambda x, y: mnp.vstack((x, y)), (3,), (2, 3)),
    c("where", lambda x, y: mnp.where(x > 1.2, x, y), (2, 3), (3,)),
    c("where_scalar", lambda x: mnp.where(x > 1.2, 0.0, x), (2, 3)),
]


@pytest.mark.parametrize("case", CASES, ids=[k.name for k in CASES])
def test_gradcheck(case):
    tol = 1e-5 if case.eps < 1e-3 else 1e-3
    assert gradcheck(case.fn, *case.args(), eps=case.eps, atol=tol, rtol=tol)


SECOND_ORDER = ["diagflat", "diag_2d", "pad_reflect_odd", "pad_wrap", "take", "roll", "where",
                "linspace", "vander", "repeat", "choose"]


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_gradgradcheck(name):
    case = next(k for k in CASES if k.name == name)

    def squared(*xs):
        out = case.fn(*xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return tuple(o * o for o in outs)

    tol = 1e-4 if case.eps < 1e-3 else 1e-2
    assert gradgradcheck(squared, *case.args(), eps=case.eps, atol=tol, rtol=tol)


def test_every_differentiable_name_is_gradchecked():
    differentiable = {
        "array", "asarray", "asfarray", "full", "full_like", "linspace", "logspace", "geomspace",
        "tril", "triu", "diag", "diagflat", "diagonal", "trace", "vander", "meshgrid", "ix_",
        "histogram_bin_edges", "pad", "append", "apply_along_axis", "apply_over_axes",
        "array_split", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays",
        "broadcast_to", "choose", "column_stack", "concatenate", "dsplit", "dstack",
        "expand_dims", "flip", "fliplr", "flipud", "hsplit", "hstack", "moveaxis", "piecewise",
        "ravel", "repeat", "reshape", "roll", "rollaxis", "rot90", "select", "split", "squeeze",
        "stack", "swapaxes", "take", "take_along_axis", "tile", "transpose", "unique", "vsplit",
        "vstack", "where"}
    checked = {n for n in differentiable for k in CASES if k.name == n or
               k.name.startswith(n + "_")}
    assert differentiable - checked == set()


def test_integer_and_logic_results_carry_no_gradient():
    x = Tensor(np.array([1.0, 2.0, 3.0]))

    def f(x):
        return (mnp.isclose(x, x).astype(ms.float64) + mnp.argwhere(x > 1).sum()
                + mnp.intersect1d(x, x) * 0 + x).sum()

    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), np.ones(3))


# ---- against PyTorch ----

@pytest.fixture(scope="module")
def th():
    return pytest.importorskip("torch")


TORCH_CASES = [
    ("tril", lambda m: mnp.tril(m, -1), lambda t, m: t.tril(m, -1), [(3, 4)]),
    ("triu", lambda m: mnp.triu(m, 1), lambda t, m: t.triu(m, 1), [(4, 3)]),
    ("diag", lambda x: mnp.diag(x, 1), lambda t, x: t.diag(x, 1), [(3,)]),
    ("diag_2d", lambda m: mnp.diag(m, -1), lambda t, m: t.diag(m, -1), [(3, 4)]),
    ("diagflat", lambda m: mnp.diagflat(m, 2), lambda t, m: t.diagflat(m, 2), [(2, 2)]),
    ("diagonal", lambda m: mnp.diagonal(m, 1, 2, 0), lambda t, m: t.diagonal(m, 1, 2, 0),
     [(3, 2, 4)]),
    ("trace", lambda m: mnp.trace(m), lambda t, m: t.trace(m), [(3, 4)]),
    ("vander", lambda x: mnp.vander(x, 4, True),
     lambda t, x: t.stack([x ** i for i in range(4)], 1), [(3,)]),
    ("meshgrid", lambda x, y: mnp.meshgrid(x, y), lambda t, x, y: t.meshgrid(x, y, indexing="xy"),
     [(3,), (2,)]),
    ("pad_constant", lambda m: mnp.pad(m, ((1, 2), (0, 3))),
     lambda t, m: t.nn.functional.pad(m, (0, 3, 1, 2)), [(2, 3)]),
    ("pad_reflect", lambda m: mnp.pad(m, ((0, 0), (2, 1)), mode="reflect"),
     lambda t, m: t.nn.functional.pad(m, (2, 1), mode="reflect"), [(2, 4)]),
    ("pad_edge", lambda m: mnp.pad(m, ((0, 0), (3, 1)), mode="edge"),
     lambda t, m: t.nn.functional.pad(m, (3, 1), mode="replicate"), [(2, 4)]),
    ("pad_wrap", lambda m: mnp.pad(m, ((0, 0), (2, 3)), mode="wrap"),
     lambda t, m: t.nn.functional.pad(m[None], (2, 3), mode="circular")[0], [(2, 4)]),
    ("concatenate", lambda x, y: mnp.concatenate((x, y), 1), lambda t, x, y: t.cat((x, y), 1),
     [(2, 3), (2, 1)]),
    ("stack", lambda x, y: mnp.stack((x, y), 1), lambda t, x, y: t.stack((x, y), 1),
     [(2, 3), (2, 3)]),
    ("hstack", lambda x, y: mnp.hstack((x, y)), lambda t, x, y: t.hstack((x, y)), [(3,), (2,)]),
    ("vstack", lambda x, y: mnp.vstack((x, y)), lambda t, x, y: t.vstack((x, y)), [(3,), (2, 3)]),
    ("dstack", lambda x, y: mnp.dstack((x, y)), lambda t, x, y: t.dstack((x, y)),
     [(2, 3), (2, 3)]),
    ("column_stack", lambda x, y: mnp.column_stack((x, y)),
     lambda t, x, y: t.column_stack((x, y)), [(3,), (3, 2)]),
    ("atleast_3d", lambda x: mnp.atleast_3d(x), lambda t, x: t.atleast_3d(x), [(3,)]),
    ("flip", lambda m: mnp.flip(m, (0, 1)), lambda t, m: t.flip(m, (0, 1)), [(2, 3)]),
    ("fliplr", lambda m: mnp.fliplr(m), lambda t, m: t.fliplr(m), [(2, 3)]),
    ("flipud", lambda m: mnp.flipud(m), lambda t, m: t.flipud(m), [(2, 3)]),
    ("rot90", lambda m: mnp.rot90(m, 3), lambda t, m: t.rot90(m, 3), [(2, 3)]),
    ("roll", lambda m: mnp.roll(m, (1, -2), (0, 1)), lambda t, m: t.roll(m, (1, -2), (0, 1)),
     [(2, 3)]),
    ("roll_flat", lambda m: mnp.roll(m, 4), lambda t, m: t.roll(m, 4), [(2, 3)]),
    ("tile", lambda m: mnp.tile(m, (2, 1, 2)), lambda t, m: t.tile(m, (2, 1, 2)), [(2, 3)]),
    ("repeat", lambda m: mnp.repeat(m, 2, 1), lambda t, m: t.repeat_interleave(m, 2, 1),
     [(2, 3)]),
    ("take", lambda m: mnp.take(m, Tensor([[0, 5], [4, 1]])),
     lambda t, m: t.take(m, t.tensor([[0, 5], [4, 1]])), [(2, 3)]),
    ("take_along_axis", lambda m: mnp.take_along_axis(m, Tensor([[0, 0, 2], [1, 2, 0]]), 1),
     lambda t, m: t.take_along_dim(m, t.tensor([[0, 0, 2], [1, 2, 0]]), 1), [(2, 3)]),
    ("moveaxis", lambda m: mnp.moveaxis(m, 0, -1), lambda t, m: t.moveaxis(m, 0, -1),
     [(2, 3, 4)]),
    ("swapaxes", lambda m: mnp.swapaxes(m, 0, 2), lambda t, m: t.swapaxes(m, 0, 2), [(2, 3, 4)]),
    ("transpose", lambda m: mnp.transpose(m), lambda t, m: m.permute(2, 1, 0), [(2, 3, 4)]),
    ("broadcast_to", lambda x: mnp.broadcast_to(x, (2, 4, 3)),
     lambda t, x: t.broadcast_to(x, (2, 4, 3)), [(4, 1)]),
    ("expand_dims", lambda m: mnp.expand_dims(m, 1), lambda t, m: t.unsqueeze(m, 1), [(2, 3)]),
    ("squeeze", lambda m: mnp.squeeze(m), lambda t, m: t.squeeze(m), [(1, 3, 1)]),
    ("ravel", lambda m: mnp.ravel(m), lambda t, m: t.ravel(m), [(2, 3)]),
    ("array_split", lambda x: mnp.array_split(x, 3), lambda t, x: t.tensor_split(x, 3), [(7,)]),
    ("split", lambda m: mnp.split(m, [1, 3], 1), lambda t, m: t.tensor_split(m, [1, 3], 1),
     [(2, 4)]),
    ("where", lambda x, y: mnp.where(x > 1.2, x, y), lambda t, x, y: t.where(x > 1.2, x, y),
     [(2, 3), (3,)]),
    ("linspace_values", lambda: mnp.linspace(-1, 3, 7), lambda t: t.linspace(-1, 3, 7), []),
    ("logspace_values", lambda: mnp.logspace(0, 2, 5, base=3.0),
     lambda t: t.logspace(0, 2, 5, base=3.0), []),
    ("eye_values", lambda: mnp.eye(3, 4), lambda t: t.eye(3, 4), []),
    ("arange_values", lambda: mnp.arange(0.5, 3.0, 0.5), lambda t: t.arange(0.5, 3.0, 0.5), []),
    ("tril_indices", lambda: mnp.tril_indices(3, 1, 4),
     lambda t: tuple(t.tril_indices(3, 4, 1)), []),
    ("triu_indices", lambda: mnp.triu_indices(4, -1),
     lambda t: tuple(t.triu_indices(4, 4, -1)), []),
    ("isclose", lambda: mnp.isclose(Tensor([1.0, 2.0]), Tensor([1.05, 2.5]), 0.1, 0.01),
     lambda t: t.isclose(t.tensor([1.0, 2.0]), t.tensor([1.05, 2.5]), 0.1, 0.01), []),
    ("isin", lambda: mnp.isin(Tensor([[0, 1], [2, 5]]), Tensor([1, 2])),
     lambda t: t.isin(t.tensor([[0, 1], [2, 5]]), t.tensor([1, 2])), []),
    ("signbit", lambda: mnp.signbit(Tensor([-1.5, 0.5])), lambda t: t.signbit(
        t.tensor([-1.5, 0.5])), []),
]


def _listed(v):
    return list(v) if isinstance(v, (tuple, list)) else [v]


@pytest.mark.parametrize("name, ours, theirs, shapes", TORCH_CASES,
                         ids=[k[0] for k in TORCH_CASES])
def test_against_torch(th, name, ours, theirs, shapes):
    rng = np.random.default_rng(len(name))
    arrays = [rng.uniform(0.5, 2.0, s) for s in shapes]
    mine = _listed(ours(*[Tensor(a) for a in arrays]))
    leaves = [th.tensor(a, requires_grad=True) for a in arrays]
    ref = _listed(theirs(th, *leaves))
    assert len(mine) == len(ref)
    for m, r in zip(mine, ref):
        assert m.shape == tuple(r.shape)
        np.testing.assert_allclose(m.asnumpy(), r.detach().numpy(), rtol=1e-6, atol=1e-6)
    if not arrays:
        return
    weights = [rng.standard_normal(r.shape) for r in ref]

    def loss(*xs):
        return sum((o * Tensor(w)).sum() for o, w in zip(_listed(ours(*xs)), weights))

    got = ms.grad(loss, tuple(range(len(arrays))))(*[Tensor(a) for a in arrays])
    got = got if isinstance(got, tuple) else (got,)
    sum((r * th.tensor(w)).sum() for r, w in zip(ref, weights)).backward()
    for g, leaf in zip(got, leaves):
        np.testing.assert_allclose(g.asnumpy(), leaf.grad.numpy(), rtol=1e-6, atol=1e-6)
