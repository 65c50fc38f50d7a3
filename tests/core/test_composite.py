"""`cellgrad.ops.composite` (mindspore.ops.composite): MultitypeFuncGraph's dispatch on
MindSpore's type lattice, HyperMap/Map over nested sequences, ones_like/zeros_like, add_flags.
MindSpore's own output is replayed from ms_programs/composite.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops
from cellgrad.ops import composite as C
from cellgrad.ops import functional as F


def test_module_path_and_names():
    import importlib

    mod = importlib.import_module("cellgrad.ops.composite")
    assert mod is C and ops.composite is C
    for name in ("MultitypeFuncGraph", "HyperMap", "Map", "add_flags", "GradOperation"):
        assert getattr(ops, name) is getattr(C, name), name
    for name in C.__all__:
        assert callable(getattr(C, name)), name
    assert C.dot is ops.dot and C.tensor_dot is ops.tensor_dot and C.mm is ops.mm
    assert C.clip_by_value is ops.clip_by_value  # MindSpore's composite module holds it too
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        C.nope  # noqa: B018


class _Twice(nn.Cell):
    def construct(self, v):
        return v * 2


def _dispatcher():
    f = C.MultitypeFuncGraph("f")
    for name in ("Bool", "Int", "Float", "Number", "Tensor", "String", "None", "Tuple", "List",
                 "Function", "TypeType", "Dictionary"):
        f.register(name)(lambda v, name=name: name)
    return f


@pytest.mark.parametrize("value,expected", [
    (True, "Bool"), (3, "Int"), (np.int8(1), "Int"), (np.uint8(1), "Number"), (2.5, "Float"),
    (np.float16(1), "Float"), (Tensor([1]), "Tensor"), (Parameter(Tensor([1.0]), name="w"),
                                                        "Tensor"),
    ("s", "String"), (None, "None"), ((1,), "Tuple"), ([1], "List"), (len, None),
    (lambda: 0, "Function"), (_Twice(), "Function"), (ops.Mul(), "Function"),
    (ms.float32, "TypeType"), (int, "Int"), (float, "Float"),
])
def test_dispatch_on_runtime_types_in_registration_order(value, expected):
    f = _dispatcher()
    if expected is None:  # MindSpore has no type for builtins
        with pytest.raises(NotImplementedError, match="cannot be converted to MindSpore type"):
            f(value)
    else:
        assert f(value) == expected


def test_specific_dtypes_and_registration_errors():
    f = C.MultitypeFuncGraph("f")
    f.register("Int32")(lambda v: "int32")
    f.register(ms.float64)(lambda v: "float64 by dtype")
    f.register("Number")(lambda v: "number")
    assert f(np.int32(1)) == "int32" and f(1) == "number" and f(1.0) == "float64 by dtype"
    with pytest.raises(RuntimeError, match="Unsupported type name: Foo!"):
        f.register("Foo")
    with pytest.raises(TypeError, match="register only support str"):
        f.register(3)


def test_no_match_error_lists_the_entries():
    f = C.MultitypeFuncGraph("f")

    @f.register("Number", "Tensor")
    def _nt(a, b):
        return a

    f.register("Tensor")(lambda a: a)
    with pytest.raises(ValueError) as err:
        f(Tensor([1.0]), 2)
    msg = str(err.value)
    assert msg.startswith("For 'MultitypeFuncGraph', cannot find fn match given args. Got")
    assert "((mindspore.number, mindspore.tensor), <function" in msg
    assert msg.endswith("and (dtype, args): (mindspore.tensor[float32], mindspore.int64).")
    with pytest.raises(TypeError, match="can not be numpy.ndarray"):
        f(np.ones(2), 1)


def test_single_registration_is_called_without_a_type_check():
    f = C.MultitypeFuncGraph("f")
    f.register("Tensor")(lambda v: ("called", v))
    assert f("not a tensor") == ("called", "not a tensor")
    f.register("Number")(lambda v: v)
    with pytest.raises(ValueError, match="cannot find fn match"):
        f("not a tensor")


def test_hypermap_with_and_without_leading_function():
    sq = C.MultitypeFuncGraph("sq")
    sq.register("Tensor")(lambda v: v * v)
    sq.register("Number")(lambda v: v * v)
    nested = (Tensor([2.0]), [3, (Tensor([4.0]),)])
    for out in (C.HyperMap()(sq, nested), C.HyperMap(sq)(nested)):
        assert isinstance(out, tuple) and isinstance(out[1], tuple)
        assert out[0].asnumpy().tolist() == [4.0] and out[1][0] == 9
        assert out[1][1][0].asnumpy().tolist() == [16.0]
    assert C.HyperMap()(lambda a, b: a - b, [5, (6,)], (1, [2])) == (4, (4,))
    assert C.HyperMap()(lambda a, b: a + b, (1, 2, 3), (10, 20)) == (11, 22)  # as zip
    assert C.HyperMap()(lambda a: -a, 5) == -5
    with pytest.raises(RuntimeError, match="'ops' must be a MultitypeFuncGraph or None"):
        C.HyperMap(lambda a: a)


def test_map_is_one_level_deep():
    assert C.Map()(lambda a: a * 2, (1, (2,))) == (2, (2, 2))
    assert C.Map()(lambda a, b: a + b, [1, 2], (3, 4)) == (4, 6)
    with pytest.raises(TypeError, match="'ops' must be a MultitypeFuncGraph or None"):
        C.Map(lambda a: a)


def test_hypermap_in_an_optimizer_step():
    """The pattern real optimizers write: a MultitypeFuncGraph over (grads, params)."""
    update = C.MultitypeFuncGraph("update")

    @update.register("Number", "Tensor", "Tensor")
    def _update(lr, grad, param):
        return F.assign(param, param - lr * grad)

    params = (Parameter(Tensor([1.0, 2.0]), name="a"), Parameter(Tensor([3.0]), name="b"))
    grads = (Tensor([0.5, 0.5]), Tensor([1.0]))
    C.HyperMap()(F.partial(update, 0.1), grads, params)
    np.testing.assert_allclose(params[0].asnumpy(), [0.95, 1.95])
    np.testing.assert_allclose(params[1].asnumpy(), [2.9])


def test_ones_like_and_zeros_like():
    x = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    ones = C.ones_like((x, [Tensor([1.5])], 3, None))
    assert ones[0].dtype == ms.int32 and ones[0].asnumpy().tolist() == [[1, 1, 1]] * 2
    assert ones[1][0].asnumpy().tolist() == [1.0] and ones[2:] == (1, None)
    with pytest.raises(ValueError, match="ScalarCast"):
        C.ones_like(2.5)
    assert C.zeros_like(x).asnumpy().sum() == 0 and C.zeros_like(x).dtype == ms.int32
    assert (C.zeros_like(3), C.zeros_like(2.5), C.zeros_like(True), C.zeros_like((x,))) == (
        0, 0.0, False, 0)
    with pytest.raises(NotImplementedError, match="<class 'dict'> cannot be converted"):
        C.zeros_like({"a": 2.0})  # MindSpore 2.10 has no PyNative type for a dict either
    with pytest.raises(ValueError, match="cannot find fn match"):
        C.zeros_like([x])


def test_hyper_add_adds_nested_leaves():
    out = C.hyper_add((1, (Tensor([1.0]), None)), (2, [Tensor([2.0]), None]))
    assert out[0] == 3 and out[1][0].asnumpy().tolist() == [3.0] and out[1][1] is None
    with pytest.raises(ValueError, match="cannot find fn match"):
        C.hyper_add(("a",), ("b",))
    assert C.repeat_interleave is ops.repeat_interleave


def test_add_flags():
    def fn(x):
        return x

    assert C.add_flags(fn, a=True) is fn and fn._func_graph_flags == {"a": True}
    deco = C.add_flags(b=2)
    assert deco(fn) is fn and fn._func_graph_flags == {"a": True, "b": 2}


def test_composite_matmul_casts_the_result():
    a = Tensor(np.ones((2, 3), np.float32))
    out = C.matmul(a, a.T, ms.float16)
    assert out.dtype == ms.float16 and out.asnumpy().tolist() == [[3.0, 3.0]] * 2
    assert C.matmul(Tensor([[1, 2]]), Tensor([[1], [2]])).dtype == ms.int64


def test_grad_operation_from_composite():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    g = C.GradOperation(get_all=True)(lambda a, b: (a * b).sum())(x, x * 3)
    np.testing.assert_allclose(g[0].asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(g[1].asnumpy(), [1.0, 2.0])
