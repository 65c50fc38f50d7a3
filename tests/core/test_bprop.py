"""Cell.bprop (semantics §6, §7, §18): MindSpore's form, cellgrad's extensions, Parameter
gradients, the seeds' Dropout2d and MySampler cells, and analytic checks."""

import re
import warnings

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops
from cellgrad.nn import BpropParameterWarning


def f32(*v):
    return Tensor(np.array(v, np.float32))


def val(t):
    if isinstance(t, tuple):
        return tuple(val(x) for x in t)
    return t.asnumpy().tolist()


X = f32(1.0, 2.0)
Y = f32(3.0, 4.0)


def grads(cell, *args, positions=(0, 1), **kwargs):
    return val(ms.grad(cell, grad_position=positions)(*args, **kwargs))


def two_input_cell(bprop):
    """A cell `x * y` whose bprop is `bprop`."""
    return type("Cell2", (nn.Cell,), {"construct": lambda self, x, y: x * y, "bprop": bprop})()


def one_input_cell(bprop, construct=lambda self, x: x * 2):
    return type("Cell1", (nn.Cell,), {"construct": construct, "bprop": bprop})()


# ---- §6: MindSpore's form ----
def test_basic_bprop_replaces_the_gradient():
    runs = []

    class Basic(nn.Cell):
        def construct(self, x, y):
            runs.append("construct")
            return x * y

        def bprop(self, x, y, out, dout):
            runs.append(val(out) + val(dout))
            return dout * 100, dout * 200

    assert grads(Basic(), X, Y) == ([100.0, 100.0], [200.0, 200.0])
    assert runs == ["construct", [3.0, 8.0, 1.0, 1.0]]  # construct ran once


def test_forward_runs_with_the_tape_paused():
    seen = []

    class Probe(nn.Cell):
        def construct(self, x):
            y = x * 2
            seen.append(y._node is None)
            return y

        def bprop(self, x, out, dout):
            return (dout,)

    ms.grad(Probe())(X)
    assert seen == [True]


def test_without_a_gradient_transform_bprop_is_not_involved():
    class Never(nn.Cell):
        def construct(self, x):
            return x + 1

        def bprop(self, x, out, dout):
            raise AssertionError("bprop must not run")

    assert val(Never()(X)) == [2.0, 3.0]


def test_one_input_bare_tensor():
    assert val(ms.grad(one_input_cell(lambda self, x, out, dout: dout * 7))(X)) == [7.0, 7.0]


def test_three_gradients_for_two_inputs_extra_is_ignored():
    cell = two_input_cell(lambda self, x, y, out, dout: (dout, dout * 2, dout * 3))
    assert grads(cell, X, Y) == ([1.0, 1.0], [2.0, 2.0])


def test_none_is_a_zero_gradient():
    cell = two_input_cell(lambda self, x, y, out, dout: (dout, None))
    assert grads(cell, X, Y) == ([1.0, 1.0], [0.0, 0.0])


def test_gradient_is_cast_to_the_input_dtype():
    cell = two_input_cell(lambda self, x, y, out, dout: (dout.astype(ms.int32), dout))
    g = ms.grad(cell, (0, 1))(X, Y)
    assert g[0].dtype == ms.float32 and val(g[0]) == [1.0, 1.0]


def test_python_number_for_a_0d_input():
    for value, expected in ((2.5, 2.5), (2, 2.0)):
        cell = one_input_cell(lambda self, x, out, dout, v=value: v)
        g = ms.grad(cell)(Tensor(3.0))
        assert g.dtype == ms.float32 and g.shape == () and g.item() == expected


def test_too_few_gradients_is_an_error_naming_the_cell_and_inputs():
    cell = two_input_cell(lambda self, x, y, out, dout: dout)
    message = (r"For 'Cell2.bprop', expected 2 gradients \(one per input it receives; only "
               r"non-Tensor inputs may be left out\), but got 1. Inputs: x: Tensor\(shape=\(2,\), "
               r"dtype=Float32\), y: Tensor\(shape=\(2,\), dtype=Float32\).")
    with pytest.raises(ValueError, match=message):
        ms.grad(cell, (0, 1))(X, Y)
    cell = two_input_cell(lambda self, x, y, out, dout: (dout,))
    with pytest.raises(ValueError, match="expected 2 gradients"):
        ms.grad(cell, (0, 1))(X, Y)


def test_number_for_a_shaped_input_is_a_shape_error():
    for result in (2.5, (2.5,)):
        cell = one_input_cell(lambda self, x, out, dout, r=result: r)
        with pytest.raises(RuntimeError, match=r"For 'Cell1.bprop', the gradient for 'x' has "
                                               r"shape \(\) \(dtype float\), but the "
                                               r"input has shape \(2,\) \(dtype Float32\)"):
            ms.grad(cell)(X)


def test_wrong_shape_is_an_error():
    cell = two_input_cell(lambda self, x, y, out, dout: (ops.ones(5), dout))
    with pytest.raises(RuntimeError, match=r"gradient for 'x' has shape \(5,\) \(dtype "
                                           r"Float32\), but the input has shape \(2,\)"):
        ms.grad(cell, (0, 1))(X, Y)


@pytest.mark.parametrize("xshape, gshape, expected", [
    ((3,), (2, 3), [5.0, 7.0, 9.0]),
    ((2, 1), (2, 3), [[6.0], [15.0]]),  # MindSpore drops the size-1 axis: shape (2,)
    ((1,), (5,), [15.0]),
    ((), (3,), 6.0),
    ((2, 3), (2, 2, 3), [[8.0, 10.0, 12.0], [14.0, 16.0, 18.0]]),
])
def test_broadcast_gradient_is_summed_back_to_the_input_shape(xshape, gshape, expected):
    grad = np.arange(np.prod(gshape), dtype=np.float32).reshape(gshape) + 1
    cell = one_input_cell(lambda self, x, out, dout: (ms.Tensor(grad),))
    g = ms.grad(cell)(ms.Tensor(np.ones(xshape, np.float32)))
    assert g.shape == xshape and g.dtype == ms.float32
    np.testing.assert_array_equal(g.asnumpy(), expected)


@pytest.mark.parametrize("xshape, gshape", [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (4,))])
def test_gradient_the_input_does_not_broadcast_to_is_an_error(xshape, gshape):
    cell = one_input_cell(lambda self, x, out, dout: (ops.ones(gshape, ms.float64),))
    message = (rf"For 'Cell1.bprop', the gradient for 'x' has shape {re.escape(str(gshape))} "
               rf"\(dtype Float64\), but the input has shape {re.escape(str(xshape))} \(dtype "
               r"Float32\)")
    with pytest.raises(RuntimeError, match=message):
        ms.grad(cell)(ms.Tensor(np.ones(xshape, np.float32)))


def test_non_tensor_gradient_is_a_type_error():
    cell = one_input_cell(lambda self, x, out, dout: ("no",))
    with pytest.raises(TypeError, match="the gradient for 'x' must be a Tensor, a number or None, "
                                        "but got str"):
        ms.grad(cell)(X)


# ---- §6: keyword arguments ----
class KW(nn.Cell):
    seen = []

    def construct(self, x, y=None, scale=2.0):
        return x * scale if y is None else x * y * scale

    def bprop(self, x, y, scale, out, dout):
        KW.seen.append((type(y).__name__, scale))
        return dout * 11, dout * 13, 0.0


def test_defaults_and_keywords_are_bound_positionally():
    KW.seen.clear()
    assert val(ms.grad(KW(), (0, 1))(X, y=Y)) == ([11.0, 11.0], [13.0, 13.0])
    assert val(ms.grad(KW())(X)) == [11.0, 11.0]
    assert KW.seen == [("Tensor", 2.0), ("NoneType", 2.0)]


def test_trailing_non_tensor_gradients_may_be_left_out():
    class KW2(KW):
        def bprop(self, x, y, scale, out, dout):
            return dout * 11, dout * 13  # MindSpore: "Grad size ... 2 vs 3"

    assert val(ms.grad(KW2(), (0, 1))(X, y=Y)) == ([11.0, 11.0], [13.0, 13.0])


def test_gradients_for_just_the_tensor_inputs():
    class Mixed(nn.Cell):
        def construct(self, x, k, y):
            return x * y * k

        def bprop(self, x, k, y, out, dout):
            return dout * y * k, dout * x * k  # no entry for the int k

    assert val(ms.grad(Mixed(), (0, 2))(X, 3, Y)) == ([9.0, 12.0], [3.0, 6.0])


def test_keyword_only_construct_with_a_bprop_naming_x():
    class KWOnly(nn.Cell):
        def construct(self, x, *, scale=2.0):
            return x * scale

        def bprop(self, x, out, dout):  # MindSpore: TypeError, 4 positional but 5 given
            return (dout * 11,)

    assert val(ms.grad(KWOnly())(X)) == [11.0, 11.0]
    assert val(ms.grad(KWOnly())(X, scale=3.0)) == [11.0, 11.0]


def test_keyword_only_construct_with_mindspore_form():
    class KWOnly(nn.Cell):
        def construct(self, x, *, scale=2.0):
            return x * scale

        def bprop(self, x, scale, out, dout):
            assert scale == 2.0
            return (dout * 11,)  # MindSpore: "1 vs 2"; scale is not a Tensor

    assert val(ms.grad(KWOnly())(X)) == [11.0, 11.0]


def test_var_keyword_construct_and_var_positional_bprop():
    got = []

    class VarKw(nn.Cell):
        def construct(self, x, **kw):
            return x * kw["scale"]

        def bprop(self, *args):
            got.append([type(a).__name__ for a in args])
            return args[-1] * args[1]

    assert val(ms.grad(VarKw())(X, scale=3.0)) == [3.0, 3.0]
    assert got == [["Tensor", "float", "Tensor", "Tensor"]]


def test_var_positional_construct_and_bprop():
    class Star(nn.Cell):
        def construct(self, *xs):
            return xs[0] * xs[1]

        def bprop(self, *args):
            a, b, out, dout = args
            return dout * b, dout * a

    assert grads(Star(), X, Y) == ([3.0, 4.0], [1.0, 2.0])


# ---- cellgrad: a bprop gets what its signature asks for ----
def test_fewer_arguments_by_name():
    cell = two_input_cell(lambda self, x, dout: (dout * 3,))  # MindSpore: TypeError
    assert grads(cell, X, Y) == ([3.0, 3.0], [0.0, 0.0])


def test_without_out():
    cell = two_input_cell(lambda self, x, y, dout: (dout * y, dout * x))
    assert grads(cell, X, Y) == ([3.0, 4.0], [1.0, 2.0])


def test_names_in_any_order_and_keyword_only():
    def bprop(self, dout, y, *, x):
        return dout * 2, dout * 3  # for y, then x: the order bprop names them

    assert grads(two_input_cell(bprop), X, Y) == ([3.0, 3.0], [2.0, 2.0])


def test_reordered_names_bind_by_name_other_names_by_position():
    by_name = two_input_cell(lambda self, y, x, out, dout: (dout * x, dout * y * 10))
    assert grads(by_name, X, Y) == ([30.0, 40.0], [1.0, 2.0])  # gradients for (y, x)
    by_position = two_input_cell(lambda self, a, b, out, dout: (dout * b, dout * a * 10))
    assert grads(by_position, X, Y) == ([3.0, 4.0], [10.0, 20.0])


def test_unknown_bprop_parameter_is_an_error():
    cell = two_input_cell(lambda self, x, y, z, out, dout: (dout, dout, dout))
    with pytest.raises(TypeError, match=r"For 'Cell2.bprop', the parameter 'z' is neither an "
                                        r"input of construct \(x, y\) nor 'out'/'dout'"):
        ms.grad(cell, (0, 1))(X, Y)


def test_construct_argument_errors_name_the_cell():
    cell = two_input_cell(lambda self, x, y, out, dout: (dout, dout))
    with pytest.raises(TypeError, match="For 'Cell2.construct': missing a required argument"):
        ms.grad(cell)(X)


# ---- tuple outputs: the seeds' Dropout2d ----
class Dropout2d(nn.Cell):
    """The seeds' Dropout2d with a fixed channel mask (ops.Dropout2D lives in ops-nn)."""

    def __init__(self, keep_prob, mask):
        super().__init__()
        self.keep_prob = keep_prob
        self.mask = mask

    def construct(self, x):
        mask = Tensor(np.broadcast_to(self.mask, x.shape).copy())
        return x * mask.astype(x.dtype) / self.keep_prob, mask

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        if self.keep_prob != 0:
            dy = dy * (1 / self.keep_prob)
        dy = mask.astype(ms.float32) * dy
        return (dy.astype(x.dtype),)


def test_seed_dropout2d_tuple_output_and_mask():
    channel_mask = np.array([True, False, True]).reshape(1, 3, 1, 1)
    drop = Dropout2d(0.8, channel_mask)
    drop.bprop_debug = True
    assert drop.bprop_debug is True
    x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2))
    y, mask = drop(x)
    assert mask.dtype == ms.bool_ and y.shape == x.shape

    def loss(x):
        y, _ = drop(x)
        return (y * 2).sum()

    g = ms.grad(loss)(x)
    expected = np.broadcast_to(channel_mask, x.shape) * 2 / 0.8
    np.testing.assert_allclose(g.asnumpy(), expected, rtol=1e-6)
    with pytest.raises(TypeError, match="'bprop_debug' must be bool"):
        drop.bprop_debug = 1


def test_tuple_output_dout_is_a_tuple_with_zeros_for_unused_outputs():
    seen = []

    class Two(nn.Cell):
        def construct(self, x):
            return x * 2, x * 3

        def bprop(self, x, out, dout):
            seen.append((type(out).__name__, val(dout[0]), val(dout[1])))
            return (dout[0] * 2 + dout[1] * 3,)

    assert val(ms.grad(lambda x: Two()(x)[1].sum())(X)) == [3.0, 3.0]
    assert seen == [("tuple", [0.0, 0.0], [1.0, 1.0])]


def test_non_tensor_elements_of_a_tuple_output():
    class WithCount(nn.Cell):
        def construct(self, x):
            return x * 2, 7

        def bprop(self, x, out, dout):
            assert out[1] == 7 and dout[1] is None
            return (dout[0] * 2,)

    def f(x):
        y, n = WithCount()(x)
        return y.sum() * n

    assert val(ms.grad(f)(X)) == [14.0, 14.0]


# ---- the seeds' MySampler with UnsortedSegmentSum ----
class MySampler(nn.Cell):
    """Picks `max_num` values > 0.5 per row with numpy; bprop scatters the gradient back."""

    def __init__(self, max_num):
        super().__init__()
        self.max_num = max_num
        self.last_indices = None

    def random_positive(self, x):
        pos = np.where(x > 0.5)[0]
        return np.random.choice(pos, self.max_num)

    def construct(self, x):
        pos_value, pos_indice = [], []
        for i in range(x.shape[0]):
            a = x[i].asnumpy()
            pos_ind = self.random_positive(a)
            pos_value.append(Tensor(a[pos_ind], ms.float32))
            pos_indice.append(Tensor(pos_ind, ms.int32))
        pos_values = ops.stack(pos_value, axis=0)
        pos_indices = ops.stack(pos_indice, axis=0)
        self.last_indices = pos_indices.asnumpy().copy()
        return pos_values, pos_indices

    def bprop(self, x, out, dout):
        pos_indices = out[1]
        grad_x = dout[0]
        dx = [ops.UnsortedSegmentSum()(grad_x[i], pos_indices[i], x.shape[1])
              for i in range(x.shape[0])]
        return ops.stack(dx, axis=0)


def test_seed_my_sampler():
    ms.set_seed(1)
    x = Tensor(np.random.uniform(0, 3, (2, 5)), ms.float32)
    sampler = MySampler(3).set_grad()
    pos_values, pos_indices = sampler(x)
    assert pos_values.shape == (2, 3) and pos_indices.dtype == ms.int32
    dx = ms.grad(sampler, grad_position=0)(x)
    idx = sampler.last_indices
    expected = np.stack([np.bincount(row, minlength=5) for row in idx]).astype(np.float32)
    np.testing.assert_array_equal(dx.asnumpy(), expected)
    assert dx.dtype == ms.float32 and dx.asnumpy().sum() == 6.0


# ---- §7: Parameters inside a bprop cell ----
class P(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([3.0, 4.0], np.float32)), name="w")

    def construct(self, x):
        return x * self.w

    def bprop(self, x, out, dout):
        return (dout * self.w,)


def test_parameter_without_a_gradient_is_zero_and_warned():
    net = P()
    with pytest.warns(BpropParameterWarning, match="Cell 'P' has a custom bprop that gives no "
                                                   "gradient for Parameter 'w'; it gets zero"):
        g = ms.grad(net, grad_position=None, weights=net.trainable_params())(X)
    assert val(g) == ([0.0, 0.0],)


def test_no_warning_when_the_weight_is_not_requested():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert val(ms.grad(P())(X)) == [3.0, 4.0]


def test_internal_params_weight_form():
    class PDict(P):
        def __init__(self):
            super().__init__()
            self.internal_params = [self.w]

        def bprop(self, x, out, dout):
            return (dout * self.w,), {self.w: dout * x * 10}

    n = PDict()
    assert val(ms.grad(n, grad_position=0, weights=n.trainable_params())(X)) == (
        [3.0, 4.0], ([10.0, 20.0],))


def test_weight_dict_without_internal_params_and_by_name():
    class ByObject(P):
        def bprop(self, x, out, dout):
            return (dout * self.w,), {self.w: dout * x * 10}

    class ByName(P):
        def bprop(self, x, out, dout):
            return (dout * self.w,), {"w": dout * x}

    n = ByObject()
    assert val(ms.grad(n, None, n.trainable_params())(X)) == ([10.0, 20.0],)
    n = ByName()
    assert val(ms.grad(n, None, n.trainable_params())(X)) == ([1.0, 2.0],)


def test_weight_dict_by_path_in_a_nested_cell():
    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([3.0, 4.0], np.float32)))

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, x):
            return x * self.inner.w

        def bprop(self, x, out, dout):
            return (dout * self.inner.w,), {"inner.w": dout * 5}

    n = Outer()
    assert val(ms.grad(n, None, n.trainable_params())(X)) == ([5.0, 5.0],)


def test_weight_dict_with_an_unknown_key():
    class Bad(P):
        def bprop(self, x, out, dout):
            return (dout,), {"nope": dout}

    n = Bad()
    with pytest.raises(ValueError, match=r"For 'Bad.bprop', the gradient dict names 'nope', which "
                                         r"is not one of the cell's bprop parameters \(w\)"):
        ms.grad(n, None, n.trainable_params())(X)


def test_sibling_parameters_are_unaffected():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = P()
            self.v = Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="v")

        def construct(self, x):
            return (self.p(x) * self.v).sum()

    net = Net()
    with pytest.warns(BpropParameterWarning):
        gp, gv = ms.grad(net, None, net.trainable_params())(X)
    assert [p.name for p in net.trainable_params()] == ["v", "p.w"]
    assert val(gp) == [3.0, 8.0]  # v: x * w
    assert val(gv) == [0.0, 0.0]  # p.w: the bprop gives none


def test_frozen_parameter_in_a_bprop_cell_gets_no_warning():
    net = P()
    net.w.requires_grad = False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert val(ms.grad(net, 0, [net.w])(X)) == ([3.0, 4.0], ([0.0, 0.0],))


# ---- analytic checks through bprop cells ----
class Square(nn.Cell):
    def construct(self, x):
        return x * x

    def bprop(self, x, out, dout):
        return (2 * x * dout,)


def test_chain_through_a_bprop_cell_matches_the_analytic_gradient():
    sq = Square()
    x = f32(0.5, -1.0, 2.0)
    # d/dx sum(sin(x^2) * 3) = 6 x cos(x^2)
    g = ms.grad(lambda x: (ops.sin(sq(x)) * 3).sum())(x)
    xv = x.asnumpy()
    np.testing.assert_allclose(g.asnumpy(), 6 * xv * np.cos(xv * xv), rtol=1e-6)


def test_bprop_cell_used_twice_accumulates():
    sq = Square()
    g = ms.grad(lambda x: (sq(x) + sq(x * 3)).sum())(X)
    assert val(g) == [2 * 1 + 18 * 1, 2 * 2 + 18 * 2]


def test_value_and_grad_with_trainable_params_and_bprop():
    class Linear(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), name="w")

        def construct(self, x):
            return ops.matmul(x, self.w)

        def bprop(self, x, out, dout):
            return (ops.matmul(dout, self.w.T),), {self.w: ops.matmul(x.T, dout)}

    net = Linear()
    x = Tensor(np.array([[1.0, 1.0]], np.float32))
    value, (gx, (gw,)) = ms.value_and_grad(lambda x: (net(x) ** 2).sum(), 0,
                                           net.trainable_params())(x)
    out = x.asnumpy() @ net.w.asnumpy()  # [[4, 6]]
    assert float(value) == 52.0
    np.testing.assert_allclose(gx.asnumpy(), (2 * out) @ net.w.asnumpy().T)
    np.testing.assert_allclose(gw.asnumpy(), x.asnumpy().T @ (2 * out))


def test_grad_of_grad_through_a_bprop_cell():
    sq = Square()
    # f = sum(x^2 * x) = sum(x^3) -> f'' = 6x
    g2 = ms.grad(ms.grad(lambda x: (sq(x) * x).sum()))(f32(1.0, 2.0))
    assert val(g2) == [6.0, 12.0]


def test_bprop_cells_inside_containers_and_to_float():
    seq = nn.SequentialCell([Square(), Square()])
    assert val(ms.grad(lambda x: seq(x).sum())(X)) == [4.0, 32.0]  # d/dx x^4 = 4x^3
    sq = Square().to_float(ms.float16)
    g = ms.grad(lambda x: sq(x).sum())(X)
    assert g.dtype == ms.float32 and val(g) == [2.0, 4.0]
