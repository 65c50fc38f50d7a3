"""grad / value_and_grad / GradOperation on outputs and inputs that are not Tensors, and the
GradOperation call forms, as recorded from MindSpore 2.10 PyNative (CPU)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, ParameterTuple, Tensor, nn, ops
from cellgrad.ops import GradOperation

X = Tensor([1.0, 2.0])


def val(t):
    return t.asnumpy().tolist()


class Add(nn.Cell):
    def construct(self, x, y):
        return x + y


class Gt(nn.Cell):
    def construct(self, x, y):
        return x > y


class Const(nn.Cell):
    def construct(self, x, y):
        return 3


# ---- outputs that are not Tensors are constants ----


@pytest.mark.parametrize("net,sens", [(Add(), 7), (Gt(), False)])
def test_scalar_in_scalar_out_gives_empty_tuple(net, sens):
    assert GradOperation(get_all=True, sens_param=True)(net)(3, 4, sens) == ()
    assert GradOperation(get_all=True)(net)(3, 4) == ()
    assert GradOperation()(net)(3, 4) == ()


def test_constant_output_gives_zeros_in_input_dtypes():
    g = GradOperation(get_all=True)(Const())(Tensor([1.0, 2.0]), Tensor(4))
    assert len(g) == 2
    assert val(g[0]) == [0.0, 0.0] and g[0].dtype == ms.float32
    assert val(g[1]) == 0 and g[1].dtype == ms.int64 and g[1].shape == ()
    g = ms.grad(Const())(Tensor([1.0, 2.0]), Tensor(4))
    assert isinstance(g, Tensor) and val(g) == [0.0, 0.0]


def test_value_and_grad_keeps_constant_value():
    v, (g0, g1) = ms.value_and_grad(Const(), (0, 1))(Tensor([1.0, 2.0], ms.float64), Tensor(4))
    assert v == 3 and g0.dtype == ms.float64 and val(g0) == [0.0, 0.0]
    assert g1.dtype == ms.int64 and val(g1) == 0


@pytest.mark.parametrize("fn,expected", [
    (lambda x: {"a": x * 2, "b": 3}, [2.0, 2.0]),
    (lambda x: [x * 2, x * 3], [5.0, 5.0]),
    (lambda x: (x * 2, [x * 3, 1]), [5.0, 5.0]),
    (lambda x: (x * 2, "abc"), [2.0, 2.0]),
    (lambda x: (x * 2, 5), [2.0, 2.0]),
    (lambda x: (x * 2, {"k": x * 4}), [6.0, 6.0]),
    (lambda x: None, [0.0, 0.0]),
    (lambda x: True, [0.0, 0.0]),
])
def test_nested_outputs_sum_their_tensors(fn, expected):
    g = ms.grad(fn)(X)
    assert isinstance(g, Tensor) and val(g) == expected and g.dtype == ms.float32


def test_float_output_of_int_input_gives_int_zeros():
    g = ms.grad(lambda x: 2.5)(Tensor([1, 2]))
    assert g.dtype == ms.int64 and val(g) == [0, 0]


def test_value_and_grad_tuple_with_int():
    (v0, v1), g = ms.value_and_grad(lambda x: (x * 2, 5))(X)
    assert val(v0) == [2.0, 4.0] and v1 == 5 and val(g) == [2.0, 2.0]


def test_dict_sens_pairs_by_order():
    class DicNet(nn.Cell):
        def construct(self, x):
            return {Tensor(True): x * 2}

    x = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]])
    net = DicNet()
    assert np.allclose(GradOperation()(net)(Tensor(x)).asnumpy(), 2 * np.ones_like(x))
    out = net(Tensor(x))
    g = GradOperation(sens_param=True)(net)(Tensor(x), out)
    assert np.allclose(g.asnumpy(), 4 * x)  # sens is the output, 2x


# ---- inputs that are not Tensors are left out ----


class Mixed(nn.Cell):
    def construct(self, a, b, c):
        return a * c + b


def test_non_tensor_inputs_left_out():
    a, c = Tensor([1.0]), Tensor([2.0])
    g = GradOperation(get_all=True)(Mixed())(a, 3, c)
    assert [val(t) for t in g] == [[2.0], [1.0]]
    assert GradOperation()(Mixed())(3, a, c) == ()
    g = ms.grad(Mixed(), (0, 1))(a, 3, c)
    assert isinstance(g, Tensor) and val(g) == [2.0]
    assert ms.grad(Mixed(), 1)(a, 3, c) == ()
    assert len(ms.grad(Mixed(), (0, 1, 2))(a, 3, c)) == 2
    assert GradOperation(get_all=True)(lambda t: t[0] * t[1])((a, c)) == ()
    g = GradOperation(get_all=True)(Add())(Tensor([1.0, 2.0]), 4)
    assert isinstance(g, tuple) and len(g) == 1 and val(g[0]) == [1.0, 1.0]


def test_empty_grad_position_still_refused():
    with pytest.raises(RuntimeError, match="grad_position should not be empty when grad by "
                                           "position!"):
        ms.grad(Mixed(), ())(Tensor([1.0]), 3, Tensor([2.0]))


# ---- GradOperation call forms ----


class PNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([2.0], ms.float32), name="w")
        self.b = Parameter(Tensor([1.0], ms.float32), name="b", requires_grad=False)

    def construct(self, x):
        return x * self.w + self.b


def test_get_by_list_without_weights_uses_trainable_params():
    x = Tensor([3.0], ms.float32)
    g = GradOperation(get_by_list=True)(PNet())(x)
    assert isinstance(g, tuple) and len(g) == 1 and val(g[0]) == [3.0]
    (gx,), (gw,) = GradOperation(get_all=True, get_by_list=True)(PNet())(x)
    assert val(gx) == [2.0] and val(gw) == [3.0]
    assert GradOperation(get_by_list=True)(lambda t: t * 2)(x) == ()
    ins, ws = GradOperation(get_all=True, get_by_list=True)(lambda t: t * 2)(x)
    assert val(ins[0]) == [2.0] and ws == ()
    assert GradOperation(get_by_list=True)(PNet(), [])(x) == ()


def test_no_inputs_with_weights():
    class Net0(nn.Cell):
        def __init__(self):
            super().__init__()
            self.para = Parameter(Tensor([2, 3, 4], ms.float32), name="para")

        def construct(self):
            return self.para * self.para

    n = Net0()
    ins, ws = GradOperation(get_all=True, get_by_list=True)(
        n, ParameterTuple(n.trainable_params()))()
    assert ins == () and val(ws[0]) == [4.0, 6.0, 8.0]
    assert GradOperation(get_all=True)(n)() == ()
    assert GradOperation()(n)() == ()


def _cube(x, scale=1.0):
    return x * x * x * scale


def test_after_grad_keyword_arguments():
    # recorded with ops.gelu(x, approximate="tanh"); a core function here (tests/core has no
    # ops-nn): keywords reach fn, `sens=` is the sensitivity only with sens_param=True
    x = Tensor([1.0, 2.0, 3.0])
    (g,) = GradOperation(get_all=True)(_cube)(x, scale=2.0)
    assert val(g) == [6.0, 24.0, 54.0]
    s = Tensor([1.0, 2.0, 3.0])
    (g1,) = GradOperation(get_all=True, sens_param=True)(_cube)(x, s, scale=2.0)
    (g2,) = GradOperation(get_all=True, sens_param=True)(_cube)(x, sens=s, scale=2.0)
    assert val(g1) == [6.0, 48.0, 162.0] and val(g2) == val(g1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sens'"):
        GradOperation(get_all=True)(_cube)(x, sens=s, scale=2.0)


def test_tensor_keyword_arguments_are_inputs():
    def g2(x, y=None):
        return x * y

    g = GradOperation(get_all=True)(g2)(Tensor([1.0, 2.0]), y=Tensor([3.0, 4.0]))
    assert [val(t) for t in g] == [[3.0, 4.0], [1.0, 2.0]]
    g = GradOperation()(g2)(Tensor([1.0, 2.0]), y=Tensor([3.0, 4.0]))
    assert val(g) == [3.0, 4.0]


@pytest.mark.parametrize("name", ["get_all", "get_by_list", "sens_param"])
def test_flags_must_be_bool(name):
    with pytest.raises(TypeError, match=f"For 'GradOperation', the '{name}' should be bool, but "
                                        "got int"):
        GradOperation(**{name: 2})


def test_fn_not_callable():
    x = Tensor([3.0])
    grad_fn = GradOperation()(None)  # checked when the gradient function runs
    with pytest.raises(TypeError, match="The fn should be callable, but got NoneType"):
        grad_fn(x)
    with pytest.raises(TypeError, match=r"__call__\(\) missing 1 required positional argument"):
        GradOperation()()
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="For 'GradOperation', the first argument must "
                                               "be a 'Function' or 'Cell', but got"):
            grad_fn(x)
    finally:
        ms.set_context(mode=previous)


# ---- jvp and custom functions ----


def test_jvp_non_tensor_inputs():
    class Cube(nn.Cell):
        def construct(self, x):
            return x ** 3

    for x, v in ((1, 1), (Tensor([1.0]), 1), (1, Tensor([1.0]))):
        with pytest.raises(TypeError, match="The inputs type must be a Tensor, tuple or list "
                                            "of Tensors."):
            ops.jvp(Cube(), x, v)


class NonDiff(ms._Function):
    @staticmethod
    def forward(ctx, x, y):
        z = x * x + 1
        ctx.mark_non_differentiable(z)
        return z

    @staticmethod
    def backward(ctx, g):
        return g, g * 2


class NonDiffInput(ms._Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_non_differentiable(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g, g * 2


class NonDiffSecond(ms._Function):
    @staticmethod
    def forward(ctx, x, y):
        a, b = x * 2, y * 3
        ctx.mark_non_differentiable(b)
        return a, b

    @staticmethod
    def backward(ctx, ga, gb):
        assert val(gb) == [0.0, 0.0]  # a non-differentiable output's gradient is zeros
        return ga, gb + 1


@pytest.mark.parametrize("fn,expected", [
    (NonDiff, [[0.0, 0.0], [0.0, 0.0]]),
    (NonDiffInput, [[0.0, 0.0], [0.0, 0.0]]),
    (NonDiffSecond, [[1.0, 1.0], [1.0, 1.0]]),
])
def test_mark_non_differentiable(fn, expected):
    x, y = Tensor([2.0, 2.0]), Tensor([3.0, 3.0])
    g = GradOperation(get_all=True)(fn.apply)(x, y)
    assert [val(t) for t in g] == expected


# ---- vmap of a CellList: model ensembling ----


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = Tensor([k, k], ms.float32)

    def construct(self, x, y):
        return x * self.k + y


def _ensemble():
    return nn.CellList([Scale(1.0), Scale(2.0), Scale(3.0)])


def test_vmap_cell_list_all_in_axes_none():
    y = Tensor([10.0, 20.0])
    out = ms.vmap(_ensemble(), (None, None), 0)(Tensor([1.0, 2.0]), y)
    assert val(out) == [[11.0, 22.0], [12.0, 24.0], [13.0, 26.0]]
    out = ms.vmap(_ensemble(), (None, None), 1)(Tensor([1.0, 2.0]), y)
    assert val(out) == [[11.0, 12.0, 13.0], [22.0, 24.0, 26.0]]


def test_vmap_cell_list_mapped_axis_and_grad():
    x = Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = Tensor([10.0, 20.0])
    out = ms.vmap(_ensemble(), (0, None), 0)(x, y)
    assert val(out) == [[11.0, 22.0], [16.0, 28.0], [25.0, 38.0]]
    g = ms.grad(lambda t: ms.vmap(_ensemble(), (0, None), 0)(t, y).sum())(x)
    assert val(g) == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    with pytest.raises(ValueError, match="but we get axis_size: 2 and the cell size: 3."):
        ms.vmap(_ensemble(), (0, None), 0)(x[:2], y)


# ---- what a custom Function's backward returns is checked (MindSpore's messages) ----


def _function(forward, backward):
    return type("F", (ms._Function,), {"forward": staticmethod(forward),
                                       "backward": staticmethod(backward)})


def _two_outputs(ctx, x, y):
    t = x * x
    return t + y, t


@pytest.mark.parametrize("fn,args,message", [
    (_function(lambda ctx, x, y: x * x + y, lambda ctx, z: z * 3), "xy",
     "Function backward return a wrong number of gradients, expect: 2but: 1"),
    (_function(lambda ctx, x, y: x * y, lambda ctx, g: (g, g, g)), "xy",
     "Input is not tensor, but gradient is not none, position: 2 type: <class "),
    (_function(_two_outputs, lambda ctx, z, t: (z * 3, z * 4)), "x3",
     "Input is not tensor, but gradient is not none, position: 1 type: <class "),
    (_function(_two_outputs, lambda ctx, z, t: (z * 3, 4)), "xy",
     "Gradient should be none or tensor, position: 1 type: <class 'int'>"),
])
def test_function_backward_checks(fn, args, message):
    x, y = Tensor([2.0, 2.0]), Tensor([3.0, 3.0])
    inputs = (x, y) if args == "xy" else (x, 3)
    with pytest.raises(RuntimeError) as err:
        GradOperation(get_all=True)(fn.apply)(*inputs)
    assert message in str(err.value)


@pytest.mark.parametrize("grads,got,expected", [
    (lambda g: (Tensor(np.ones((3, 4), np.int64)), Tensor(np.ones((3, 3), np.int64))),
     "{3, 4}", "{3}"),
    (lambda g: (g, g.sum(0)), "{3}", "{3, 3}"),
])
def test_function_backward_shape_must_reduce_to_input(grads, got, expected):
    fn = _function(lambda ctx, x, y: x + y, lambda ctx, g: grads(g))
    x, y = Tensor([3.0, 3.0, 3.0]), Tensor([[1.0, 2.0, 3.0]] * 3)
    with pytest.raises(RuntimeError) as err:
        GradOperation(get_all=True)(fn.apply)(x, y)
    assert str(err.value) == ("For grad interface or custom function, grad tensor should be "
                              f"broadcast to expected shape, but got [const vector]{got} vs "
                              f"[const vector]{expected}")


# ---- get_by_list without weights: the Parameters the forward used, first use first ----


class Used(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p1 = Parameter(Tensor(2.0, ms.float32), name="p1")
        self.p2 = Parameter(Tensor(3.0, ms.float32), name="p2")
        self.p3 = Parameter(Tensor(5.0, ms.float32), name="p3")

    def construct(self, x):
        return x * self.p2 * 10 + x * self.p1


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Parameter(Tensor(2.0, ms.float32), name="a")
        self.inner = Used()

    def construct(self, x):
        return self.inner(x) * self.a


def test_get_by_list_without_weights_orders_by_first_use():
    x = Tensor(1.0, ms.float32)
    assert [g.item() for g in GradOperation(get_by_list=True)(Used())(x)] == [10.0, 1.0]
    assert [g.item() for g in GradOperation(get_by_list=True)(Outer())(x)] == [20.0, 2.0, 32.0]
    m = Outer()
    g = GradOperation(get_by_list=True)(m, m.trainable_params())(x)
    assert [t.item() for t in g] == [32.0, 2.0, 20.0, 0.0]


def test_parameter_frozen_in_forward_gets_zero():
    class Freeze(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p1 = Parameter(Tensor(2.0, ms.float32), name="p1")
            self.p2 = Parameter(Tensor(3.0, ms.float32), name="p2")

        def construct(self, x):
            z = x * self.p1 * self.p2
            self.p2.requires_grad = False
            return z

    net = Freeze()
    gx, (g1, g2) = ms.grad(net, weights=[net.p1, net.p2])(Tensor([4.0]))
    assert val(gx) == [6.0] and g1.item() == 12.0 and g2.item() == 0.0


def test_set_grad_bprop_cell_returns_new_tensor():
    class Same(nn.Cell):
        def construct(self, x):
            return x

        def bprop(self, *args):
            return Tensor([1.0, 1.0, 1.0])

    x = Tensor([3.0, 3.0, 3.0])
    assert Same()(x) is x
    net = Same()
    net.set_grad()
    out = net(x)
    assert out is not x and val(out) == [3.0, 3.0, 3.0]
    (g,) = GradOperation(get_all=True)(net)(x)
    assert val(g) == [1.0, 1.0, 1.0]


def test_gradient_is_differentiable_in_the_sensitivity():
    # recorded from MindSpore 2.10: [2, 4, 6] and [3, 12, 27]
    x = Tensor([1.0, 2.0, 3.0])

    def h(v):
        _, fn = ms.vjp(lambda t: t ** 2, x)
        return fn(v)[0].sum()

    def k(v):
        return GradOperation(sens_param=True)(lambda t: t ** 3)(x, v).sum()

    assert val(ms.grad(h)(Tensor([1.0, 1.0, 1.0]))) == [2.0, 4.0, 6.0]
    assert val(ms.grad(k)(Tensor([1.0, 1.0, 1.0]))) == [3.0, 12.0, 27.0]


def test_vjp_non_tensor_inputs():
    class Cube(nn.Cell):
        def construct(self, x):
            return x ** 3

    message = "The inputs type must be Tensor."
    with pytest.raises(TypeError, match=message):
        ops.vjp(Cube(), 1)
    with pytest.raises(TypeError, match=message):
        ms.vjp(lambda a, b: a * b, Tensor([1.0]), 2)
    _, fn = ops.vjp(Cube(), Tensor([1.0]))
    with pytest.raises(TypeError, match=message):
        fn(1)
    assert val(fn(Tensor([1.0]))[0]) == [3.0]
