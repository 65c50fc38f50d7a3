"""Parameter and ParameterTuple (semantics §11, §12, §14; the seeds' Network example)."""

import copy
import re

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, ParameterTuple, Tensor, nn, ops
from cellgrad.common.initializer import initializer


def test_parameter_from_tensor_array_and_scalars():
    p = Parameter(Tensor(np.ones((5, 3), np.float32)), name="w")
    assert (p.name, p.shape, p.dtype, p.requires_grad) == ("w", (5, 3), ms.float32, True)
    a = Parameter(np.arange(3, dtype=np.int32), name="a")
    assert a.dtype == ms.int32 and a.asnumpy().tolist() == [0, 1, 2]
    s = Parameter(2.0)
    assert s.shape == () and s.dtype == ms.float32 and s.item() == 2.0
    # MindSpore makes Python ints Int32 parameters (Tensor(2) is Int64) and refuses bools.
    assert Parameter(2).dtype == ms.int32 and Tensor(2).dtype == ms.int64
    assert Parameter(True).dtype == ms.bool_ and Parameter(True).item() is True
    assert Parameter(np.float64(2.0)).dtype == ms.float32  # a float subclass, as in MindSpore
    assert Parameter(np.int64(3)).dtype == ms.int64  # numpy scalars keep their dtype
    assert Parameter([1, 2]).dtype == ms.int64 and Parameter([1.0, 2.0]).dtype == ms.float32


def test_parameter_copies_its_tensor():
    t = Tensor(np.ones(2, np.float32))
    p = Parameter(t, name="p")
    t.asnumpy()[0] = 5
    assert p.asnumpy().tolist() == [1.0, 1.0]


def test_parameter_from_initializer():
    p = Parameter(initializer("ones", [2, 3], ms.float16), name="w")
    assert p.shape == (2, 3) and p.dtype == ms.float16
    assert p.asnumpy().tolist() == [[1.0] * 3] * 2
    with pytest.raises(TypeError, match="no shape.*initializer\\(init, shape, dtype\\)"):
        Parameter(ms.common.initializer.Normal())


def test_repr_matches_mindspore():
    p = Parameter(Tensor(np.ones((5, 3), np.float32)), name="w")
    assert repr(p) == "Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True)"
    assert str(p) == repr(p)
    q = Parameter(Tensor(np.ones(2, np.int32)), name="q", requires_grad=False)
    assert repr(q) == "Parameter (name=q, shape=(2,), dtype=Int32, requires_grad=False)"
    u = Parameter(2.0)
    assert re.fullmatch(r"Parameter \(name=Parameter#\d+, shape=\(\), dtype=Float32, "
                        r"requires_grad=True\)", repr(u))


def test_unnamed_parameters_get_distinct_generated_names():
    a, b = Parameter(1.0), Parameter(1.0)
    assert a.name.startswith("Parameter#") and b.name.startswith("Parameter#")
    assert a.name != b.name


def test_name_must_be_a_string():
    with pytest.raises(ValueError, match=re.escape(
            "The type of the Parameter's name should be 'string' or 'None', but got "
            "<class 'int'>.")):
        Parameter(Tensor([1.0]), name=3)
    p = Parameter(1.0, name="p")
    with pytest.raises(ValueError, match="'string' or 'None'"):
        p.name = 4
    p.name = "renamed"
    assert p.name == "renamed"


def test_requires_grad_is_settable_and_checked():
    p = Parameter(1.0, name="p")
    p.requires_grad = False
    assert p.requires_grad is False
    p.requires_grad = True
    assert p.requires_grad is True
    with pytest.raises(TypeError, match="Parameter 'p': requires_grad must be a bool"):
        p.requires_grad = 1


def test_data_init_data_and_value():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    assert type(p.data) is Tensor and p.data._data is p._data  # MindSpore 2.10: a Tensor view
    assert p.init_data() is p
    v = p.value()
    assert type(v) is Tensor and v.asnumpy().tolist() == [1.0, 1.0]
    v.asnumpy()[0] = 9
    assert p.asnumpy().tolist() == [1.0, 1.0]


def test_set_data_keeps_dtype_and_checks_shape():
    b = Parameter(Tensor(np.zeros(3, np.float32)), name="b")
    out = b.set_data(Tensor([3, 4, 5]))
    assert out is b
    assert b.dtype == ms.float32 and b.asnumpy().dtype == np.float32
    assert b.asnumpy().tolist() == [3.0, 4.0, 5.0]
    b.set_data(np.array([1.5, 2.5, 3.5]))
    assert b.asnumpy().tolist() == [1.5, 2.5, 3.5] and b.dtype == ms.float32
    with pytest.raises(ValueError, match=r"shape \(2,\) does not match the shape \(3,\) of "
                                         r"Parameter 'b'; pass slice_shape=True"):
        b.set_data(Tensor([1.0, 2.0]))
    b.set_data(Tensor([1.0, 2.0]), slice_shape=True)
    assert b.shape == (2,)
    with pytest.raises(TypeError, match="must be a Tensor, number or array"):
        b.set_data("abc")


def test_set_data_copies_the_source():
    t = Tensor(np.ones(2, np.float32))
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    p.set_data(t)
    t.asnumpy()[0] = 7
    assert p.asnumpy().tolist() == [1.0, 1.0]


def test_index_assignment_is_in_place():
    b = Parameter(Tensor(np.array([3.0, 4.0, 5.0], np.float32)), name="b")
    arr = b.asnumpy()
    b[0] = 1.0
    assert b.asnumpy().tolist() == [1.0, 4.0, 5.0]
    assert arr[0] == 1.0  # same storage


def test_clone_keeps_name_and_copies_values():
    w = Parameter(Tensor(np.full((2, 2), 3.0, np.float32)), name="weight")
    c = w.clone()
    assert c is not w and c.name == "weight" and c.requires_grad
    assert c.asnumpy().tolist() == w.asnumpy().tolist()
    c[0, 0] = 0.0
    assert w.asnumpy()[0, 0] == 3.0
    ones = w.clone(init="ones")
    assert ones.name == "weight" and ones.asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    frozen = Parameter(1.0, name="f", requires_grad=False).clone()
    assert frozen.requires_grad is False
    d = copy.deepcopy(w)
    assert d is not w and d.name == "weight"


def test_clone_has_its_own_gradient_slot():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    c = w.clone()
    g = ms.grad(lambda x: (x * w * 2 + x * c * 3).sum(), None, [w, c])(Tensor([1.0, 1.0]))
    assert [t.asnumpy().tolist() for t in g] == [[2.0, 2.0], [3.0, 3.0]]


class Network(nn.Cell):
    """The seeds' Network: a 5 -> 3 affine map with Parameters w and b."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(5, 3), ms.float32), name="w")
        self.b = Parameter(Tensor(np.random.randn(3), ms.float32), name="b")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


def test_seed_parameter_tuple_clone():
    net = Network()
    x = ParameterTuple(net.get_parameters())
    y = x.clone(prefix="params_copy")
    assert type(y) is ParameterTuple
    assert [p.name for p in x] == ["w", "b"]
    assert [p.name for p in y] == ["params_copy.w", "params_copy.b"]
    assert repr(y) == ("(Parameter (name=params_copy.w, shape=(5, 3), dtype=Float32, "
                       "requires_grad=True), Parameter (name=params_copy.b, shape=(3,), "
                       "dtype=Float32, requires_grad=True))")
    np.testing.assert_array_equal(y[0].asnumpy(), net.w.asnumpy())
    assert y[0] is not net.w


def test_parameter_tuple_clone_with_init_zeros():
    # semantics §12 with a Dense(2, 3)-shaped weight and bias
    weight = Parameter(Tensor(np.ones((3, 2), np.float32)), name="weight")
    bias = Parameter(Tensor(np.ones(3, np.float32)), name="bias")
    m = ParameterTuple([weight, bias]).clone(prefix="moments", init="zeros")
    assert type(m).__name__ == "ParameterTuple"
    assert [(q.name, q.asnumpy().ravel().tolist()) for q in m] == [
        ("moments.weight", [0.0] * 6), ("moments.bias", [0.0] * 3)]


def test_parameter_tuple_checks_elements_and_names():
    a = Parameter(1.0, name="a")
    with pytest.raises(TypeError, match="every element must be a Parameter, got Tensor"):
        ParameterTuple([a, Tensor(1.0)])
    with pytest.raises(ValueError, match="the name 'a' is used by two different Parameters"):
        ParameterTuple([a, Parameter(2.0, name="a")])
    assert len(ParameterTuple([a, a])) == 2  # the same object twice is fine
    with pytest.raises(ValueError, match="prefix must not be empty"):
        ParameterTuple([a]).clone("")
    with pytest.raises(ValueError, match="prefix 'a b' is illegal"):
        ParameterTuple([a]).clone("a b")
