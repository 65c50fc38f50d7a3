"""nn.Cell and the containers: the seeds' examples, parameter naming (semantics §11), print
format (§13), train mode, to_float, the call fast path and the hooks slot."""

import re
from collections import OrderedDict

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, ParameterTuple, Tensor, nn, ops
from cellgrad.common.initializer import initializer


def f32(*v):
    return Tensor(np.array(v, np.float32))


class Dense(nn.Cell):
    """A stand-in for nn.Dense (which lives in cellgrad-ops-nn) with MindSpore's repr."""

    def __init__(self, in_channels, out_channels, has_bias=True, activation=None):
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.has_bias = has_bias
        self.weight = Parameter(initializer("ones", [out_channels, in_channels]), name="weight")
        if has_bias:
            self.bias = Parameter(initializer("zeros", [out_channels]), name="bias")
        self.activation = activation

    def construct(self, x):
        y = ops.matmul(x, self.weight.T)
        if self.has_bias:
            y = y + self.bias
        return self.activation(y) if self.activation is not None else y

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation is not None:
            s += f", activation={self.activation}"
        return s


class ReLU(nn.Cell):
    def construct(self, x):
        return ops.maximum(x, 0.0)


class Dropout(nn.Cell):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def construct(self, x):
        return x

    def extend_repr(self):
        return f"p={self.p}"


def names(cell):
    return [(k, p.name) for k, p in cell.parameters_and_names()]


# ---- the seeds' examples ----
class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(15).reshape(5, 3), ms.float32), name="w")
        self.b = Parameter(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32), name="b")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


def test_seed_network_parameters():
    net = Network()
    assert [repr(p) for p in net.trainable_params()] == [
        "Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True)",
        "Parameter (name=b, shape=(3,), dtype=Float32, requires_grad=True)"]
    assert names(net) == [("w", "w"), ("b", "b")]
    gen = net.get_parameters()
    assert iter(gen) is gen and [p.name for p in gen] == ["w", "b"]
    assert list(net.parameters_dict()) == ["w", "b"]
    assert net.parameters_dict()["w"] is net.w
    assert net.untrainable_params() == []
    net.b.set_data(Tensor([3, 4, 5]))
    assert net.b.asnumpy().tolist() == [3.0, 4.0, 5.0]
    net.b[0] = 1.0
    assert net.b.asnumpy().tolist() == [1.0, 4.0, 5.0]
    out = net(ops.ones((1, 5), ms.float32))
    assert out.asnumpy().tolist() == [[31.0, 39.0, 45.0]]


def test_seed_network_gradients():
    net = Network()
    x = Tensor(np.ones((2, 5), np.float32))
    loss, (gw, gb) = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    assert float(loss) == 2 * (30 + 35 + 40) + 2 * 6
    assert gw.asnumpy().tolist() == [[2.0] * 3] * 5
    assert gb.asnumpy().tolist() == [2.0] * 3


class Threshold(nn.Cell):
    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, inputs):
        cond = ops.gt(inputs, self.threshold)
        value = ops.fill(inputs.dtype, inputs.shape, self.value)
        return ops.select(cond, inputs, value)


def test_seed_threshold_cell():
    m = Threshold(0.1, 20)
    out = m(Tensor([0.1, 0.2, 0.3], ms.float32))
    assert repr(out) == ("Tensor(shape=[3], dtype=Float32, value= [ 2.00000000e+01,  "
                         "2.00000003e-01,  3.00000012e-01])")
    assert m.threshold == 0.1 and names(m) == []


def test_set_train_and_phase():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Dropout()

    net = Outer()
    assert net.phase == "train" and net.training is False and net.inner.training is False
    assert net.set_train() is net
    assert (net.phase, net.training, net.inner.training) == ("train", True, True)
    net.set_train(False)
    assert (net.phase, net.training, net.inner.training) == ("predict", False, False)
    assert net.inner.phase == "train"  # MindSpore 2.10 sets phase on the called cell only
    net.phase = "custom"
    assert net.phase == "custom"
    with pytest.raises(TypeError, match="'phase' must be string type"):
        net.phase = 1


def test_set_grad_returns_the_cell_and_changes_nothing():
    runs = []

    class Net(nn.Cell):
        def construct(self, x):
            runs.append(1)
            return (x * x).sum()

    net = Net()
    assert net.requires_grad is False
    assert net.set_grad() is net and net.requires_grad is True
    x = f32(1.0, 2.0)
    net(x)
    assert ms.grad(net)(x).asnumpy().tolist() == [2.0, 4.0]
    assert len(runs) == 2  # one forward per call: no replay, no reused tape
    assert net.set_grad(False) is net and net.requires_grad is False


# ---- §11 naming, one test per row ----
class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2, np.float32)))
        self.v = Parameter(Tensor(np.ones(2, np.float32)), name="explicit")


class Mid(nn.Cell):
    def __init__(self):
        super().__init__()
        self.leaf = Leaf()
        self.fc = Dense(2, 2)
        self.b = Parameter(Tensor(np.zeros(1, np.float32)), name="b")


class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mid = Mid()


class NoPrefix(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.fc = Dense(2, 2)
        self.inner = nn.SequentialCell([Dense(2, 2)])
        self.p = Parameter(Tensor(np.ones(1, np.float32)), name="explicit_p")


def test_naming_leaf():
    assert names(Leaf()) == [("w", "w"), ("v", "explicit")]


def test_unnamed_parameter_takes_the_attribute_name():
    p = Parameter(1.0)
    assert p.name.startswith("Parameter#")
    leaf = Leaf()
    leaf.q = p
    assert p.name == "q"


def test_naming_nested_own_parameters_first():
    assert names(Top()) == [("mid.b", "mid.b"), ("mid.leaf.w", "mid.leaf.w"),
                            ("mid.leaf.v", "mid.leaf.v"), ("mid.fc.weight", "mid.fc.weight"),
                            ("mid.fc.bias", "mid.fc.bias")]


def test_naming_auto_prefix_false():
    assert names(NoPrefix()) == [("p", "explicit_p"), ("fc.weight", "weight"),
                                 ("fc.bias", "bias"), ("inner.0.weight", "0.weight"),
                                 ("inner.0.bias", "0.bias")]


def test_naming_auto_prefix_false_nested_in_a_normal_parent():
    class Parent(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = NoPrefix()

    expected = ["body.p", "body.fc.weight", "body.fc.bias", "body.inner.0.weight",
                "body.inner.0.bias"]
    assert names(Parent()) == list(zip(expected, expected))


def test_naming_sequential_list_counts_every_cell():
    seq = nn.SequentialCell([Dense(2, 3), ReLU(), Dense(3, 1)])
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "2.weight",
                                                       "2.bias"]


def test_naming_sequential_ordered_dict():
    seq = nn.SequentialCell(OrderedDict(fc1=Dense(2, 3), act=ReLU(), fc2=Dense(3, 1)))
    assert [p.name for p in seq.get_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight",
                                                       "fc2.bias"]


def test_naming_nested_containers():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.SequentialCell([Dense(2, 2), nn.SequentialCell([Dense(2, 2)])])
            self.heads = nn.CellList([Dense(2, 1), Dense(2, 1)])

    assert [p.name for p in Net().get_parameters()] == [
        "body.0.weight", "body.0.bias", "body.1.0.weight", "body.1.0.bias",
        "heads.0.weight", "heads.0.bias", "heads.1.weight", "heads.1.bias"]


def test_naming_append():
    cl = nn.CellList([Dense(2, 2)])
    cl.append(Dense(2, 2))
    assert [p.name for p in cl.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]
    seq = nn.SequentialCell([Dense(2, 2)])
    seq.append(Dense(2, 2))
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "1.weight",
                                                       "1.bias"]


def test_naming_append_keeps_the_parent_prefix():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.SequentialCell([Dense(2, 2)])
            self.body.append(Dense(2, 2))
            self.heads = nn.CellList([Dense(2, 2)])
            self.heads.append(Dense(2, 2))

    assert [p.name for p in Net().get_parameters()] == [
        "body.0.weight", "body.0.bias", "body.1.weight", "body.1.bias",
        "heads.0.weight", "heads.0.bias", "heads.1.weight", "heads.1.bias"]


def test_naming_cell_dict():
    cd = nn.CellDict({"a": Dense(2, 2), "b": Dense(2, 2)})
    assert [p.name for p in cd.get_parameters()] == ["a.weight", "a.bias", "b.weight", "b.bias"]


def test_naming_parameter_tuple_attribute():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ps = ParameterTuple([Parameter(1.0, name="p0"), Parameter(2.0, name="p1")])

    net = Net()
    assert names(net) == [("p0", "p0"), ("p1", "p1")]
    assert type(net.ps) is ParameterTuple and net.p0 is net.ps[0]


def test_naming_parameter_added_after_construction():
    leaf = Leaf()
    leaf.extra = Parameter(Tensor(np.ones(1, np.float32)))
    assert names(leaf)[-1] == ("extra", "extra")


def test_naming_parameter_added_to_a_sub_cell_after_construction():
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sub = Leaf()

    top = Holder()
    top.sub.z = Parameter(Tensor(np.ones(1, np.float32)))
    assert names(top)[-1] == ("sub.z", "z")


def test_naming_duplicate_explicit_names_are_both_listed():
    class Twin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1 = Parameter(1.0, name="same")
            self.w2 = Parameter(2.0, name="same")

        def construct(self, x):
            return x * self.w1 * self.w2

    net = Twin()
    assert names(net) == [("w1", "same"), ("w2", "same")]
    # MindSpore's first call checks names and replaces duplicates by the parameter paths.
    net(f32(1.0))
    assert names(net) == [("w1", "w1"), ("w2", "w2")]


def test_naming_shared_parameter_listed_once():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Dense(2, 2)
            self.b = Dense(2, 2)
            self.b.weight = self.a.weight

    net = Net()
    assert [p.name for p in net.get_parameters()] == ["a.weight", "a.bias", "b.bias"]
    assert net.b.weight is net.a.weight


def test_naming_non_string_name_is_rejected():
    with pytest.raises(ValueError, match=re.escape(
            "The type of the Parameter's name should be 'string' or 'None', but got "
            "<class 'int'>.")):
        Parameter(Tensor([1.0]), name=3)


def test_naming_dotted_user_name_is_kept():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(1.0, name="a.b")

    assert names(Net()) == [("w", "a.b")]


def test_naming_update_parameters_name():
    d = Dense(2, 2)
    d.update_parameters_name("pre.")
    assert [p.name for p in d.get_parameters()] == ["pre.weight", "pre.bias"]
    with pytest.raises(ValueError, match="prefix 'bad name.' is illegal"):
        d.update_parameters_name("bad name.")


# ---- registration rules ----
def test_parameters_before_init_are_an_error():
    class Early(nn.Cell):
        def __init__(self):
            self.w = Parameter(1.0)
            super().__init__()

    with pytest.raises(AttributeError, match="can not assign params before Cell.__init__"):
        Early()


def test_cell_without_super_init_fails_clearly_on_call():
    class NoInit(nn.Cell):
        def __init__(self):
            pass

        def construct(self, x):
            return x

    with pytest.raises(AttributeError, match="'NoInit' object does not inherit attribute from "
                                             "'Cell'. Please use 'super\\(\\).__init__\\(\\)'"):
        NoInit()(f32(1.0))


def test_construct_must_be_defined():
    with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
        nn.Cell()(f32(1.0))


def test_assigning_to_parameter_names():
    net = Dense(2, 2)
    w = net.weight
    net.weight = Tensor(np.full((2, 2), 5.0, np.float32))
    assert net.weight is w and w.asnumpy().tolist() == [[5.0, 5.0], [5.0, 5.0]]
    with pytest.raises(TypeError, match="Parameter 'weight' already exists in network, can not "
                                        "assign this type: 'int'"):
        net.weight = 3
    net.bias = None
    assert net.bias is None and [p.name for p in net.get_parameters()] == ["weight"]
    del net.weight
    assert list(net.get_parameters()) == []
    with pytest.raises(AttributeError, match="The 'Dense' object has no attribute 'weight'."):
        _ = net.weight


def test_assigning_to_cell_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = Dense(2, 2)

    net = Net()
    with pytest.raises(TypeError, match="Sub cell 'fc' already exists in network"):
        net.fc = 1
    with pytest.raises(TypeError, match="'fc' is a child Cell; it can not be replaced by a "
                                        "Parameter"):
        net.fc = Parameter(1.0)
    net.fc = None
    assert net.fc is None and list(net.cells()) == [] and names(net) == []
    with pytest.raises(TypeError, match="'p' is a Parameter; it can not be replaced by a Cell"):
        net.p = Parameter(1.0)
        net.p = Dense(1, 1)


def test_plain_parameter_lists_are_not_registered_but_names_are_checked():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.internal_params = [Parameter(1.0, name="x")]

    assert names(Net()) == []
    net = Net()
    net.internal_params = [net.internal_params[0]]  # the same object again is fine
    with pytest.raises(ValueError, match="its name 'x' already exists"):
        net.more = [Parameter(2.0, name="x")]


def test_insert_param_to_cell():
    net = Leaf()
    p = Parameter(Tensor([1.0, 2.0, 3.0]))
    net.insert_param_to_cell("bias", p)
    assert net.bias is p and p.name == "bias"
    with pytest.raises(KeyError, match="should not contain '.'"):
        net.insert_param_to_cell("a.b", Parameter(1.0))
    with pytest.raises(KeyError, match="the construct parameter already exists"):
        net.insert_param_to_cell("construct", Parameter(1.0))
    with pytest.raises(TypeError, match="must be 'Parameter' if not None"):
        net.insert_param_to_cell("t", Tensor(1.0))
    with pytest.raises(KeyError, match="should not be None or empty"):
        net.insert_param_to_cell("", Parameter(1.0))


def test_insert_child_to_cell():
    relu = ReLU()
    relu.insert_child_to_cell("child", Dense(2, 2))
    assert str(relu) == ("ReLU(\n  (child): Dense(input_channels=2, output_channels=2, "
                         "has_bias=True)\n)")
    with pytest.raises(KeyError, match="can not be empty and can not contain '.'"):
        relu.insert_child_to_cell("a.b", ReLU())
    with pytest.raises(TypeError, match="must be 'Cell' if not None"):
        relu.insert_child_to_cell("x", 3)
    with pytest.raises(TypeError, match="'child_name' must be str"):
        relu.insert_child_to_cell(1, ReLU())


def test_cells_and_names_name_cells_cells_and_apply():
    net = Top()
    assert [n for n, _ in net.cells_and_names()] == ["", "mid", "mid.leaf", "mid.fc"]
    assert list(net.mid.name_cells()) == ["leaf", "fc"]
    assert list(net.mid.cells()) == [net.mid.leaf, net.mid.fc]
    seen = []
    assert net.apply(lambda c: seen.append(type(c).__name__)) is net
    assert seen == ["Leaf", "Dense", "Mid", "Top"]


def test_shared_cell_listed_once():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Dense(2, 2)
            self.b = self.a

    net = Net()
    assert [n for n, _ in net.cells_and_names()] == ["", "a"]
    assert list(net.name_cells()) == ["a"]
    assert len(list(net.get_parameters())) == 2


# ---- containers ----
def test_sequential_cell_runs_in_order_and_indexes():
    seq = nn.SequentialCell(Dense(2, 3), ReLU(), Dense(3, 1))
    out = seq(f32(1.0, -3.0).reshape(1, 2))
    assert out.asnumpy().tolist() == [[0.0]]
    assert len(seq) == 3 and isinstance(seq[1], ReLU) and seq[-1] is seq[2]
    part = seq[0:2]
    assert type(part) is nn.SequentialCell and len(part) == 2 and part[0] is seq[0]
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "2.weight",
                                                       "2.bias"]  # slicing renames nothing
    with pytest.raises(IndexError, match="must be a number in range \\[-3, 3\\), but got 3"):
        seq[3]
    with pytest.raises(TypeError, match="'args\\[0\\]' must be Cell, list or OrderedDict"):
        nn.SequentialCell(3)
    with pytest.raises(TypeError, match="each cell must be subclass of Cell, but got int"):
        nn.SequentialCell([Dense(1, 1), 5])
    assert len(nn.SequentialCell(ReLU())) == 1


def test_sequential_cell_delete_insert_and_set():
    seq = nn.SequentialCell([Dense(1, 1), Dense(1, 1), Dense(1, 1)])
    third = seq[2]
    del seq[1]
    assert len(seq) == 2 and seq[1] is third
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "1.weight",
                                                       "1.bias"]
    first = Dense(1, 1)
    seq.insert(0, first)
    assert seq[0] is first and seq[2] is third
    assert [p.name for p in seq.get_parameters()][::2] == ["0.weight", "1.weight", "2.weight"]
    new = Dense(1, 1)
    seq[1] = new
    assert seq[1] is new and new.weight.name == "1.weight"


def test_cell_list():
    cl = nn.CellList([Dense(1, 1)])
    cl.extend([Dense(1, 1), ReLU()])
    cl += [ReLU()]
    assert len(cl) == 4 and [type(c).__name__ for c in cl] == ["Dense", "Dense", "ReLU", "ReLU"]
    second = cl[1]
    del cl[0]
    assert cl[0] is second and second.weight.name == "0.weight"
    cl.insert(0, Dense(1, 1))
    assert second.weight.name == "1.weight" and cl[1] is second
    assert len(cl[1:]) == 3 and second.weight.name == "1.weight"
    with pytest.raises(NotImplementedError):
        cl(f32(1.0))
    with pytest.raises(TypeError, match="should be instance of list, but got tuple"):
        cl.extend((ReLU(),))
    assert not nn.CellList() and bool(cl)


def test_cell_dict():
    cd = nn.CellDict([("a", Dense(1, 1)), ("b", ReLU())])
    assert list(cd.keys()) == ["a", "b"] and "a" in cd and len(cd) == 2
    assert isinstance(cd["b"], ReLU) and list(cd) == ["a", "b"]
    popped = cd.pop("a")
    assert isinstance(popped, Dense) and list(cd.keys()) == ["b"]
    with pytest.raises(KeyError, match="key can not be empty or contain '.'"):
        cd["x.y"] = ReLU()
    with pytest.raises(TypeError, match="a Cell other than CellDict, CellList or SequentialCell"):
        cd["s"] = nn.SequentialCell()
    with pytest.raises(KeyError, match="can not be same with the attributes of Cell"):
        cd["construct"] = ReLU()
    cd.clear()
    assert len(cd) == 0


# ---- §13 print format ----
def test_print_sequential_cell():
    seq = nn.SequentialCell([Dense(3, 4), ReLU(), Dense(4, 2, has_bias=False), Dropout(p=0.5)])
    assert str(seq) == (
        "SequentialCell(\n"
        "  (0): Dense(input_channels=3, output_channels=4, has_bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Dense(input_channels=4, output_channels=2)\n"
        "  (3): Dropout(p=0.5)\n"
        ")")
    assert repr(seq) == str(seq)


def test_print_nested_with_extend_repr_and_children():
    seq = nn.SequentialCell(OrderedDict(fc1=Dense(3, 4, activation=ReLU()),
                                        out=Dense(4, 2)))
    assert str(seq) == (
        "SequentialCell(\n"
        "  (fc1): Dense(\n"
        "    input_channels=3, output_channels=4, has_bias=True, activation=ReLU()\n"
        "    (activation): ReLU()\n"
        "  )\n"
        "  (out): Dense(input_channels=4, output_channels=2, has_bias=True)\n"
        ")")


def test_print_custom_cells():
    class Empty(nn.Cell):
        pass

    assert str(Empty()) == "Empty()"
    assert str(Top()) == (
        "Top(\n"
        "  (mid): Mid(\n"
        "    (leaf): Leaf()\n"
        "    (fc): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "  )\n"
        ")")
    assert str(nn.CellList([ReLU()])) == "CellList(\n  (0): ReLU()\n)"
    print(Top())  # print works (no exception)


# ---- to_float ----
def test_to_float_casts_inputs_and_parameters():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = Dense(2, 2)
            self.head = Dense(2, 1)

        def construct(self, x):
            return self.head(self.fc(x))

    net = Net()
    assert net.to_float(ms.float16) is net
    assert net.fp16 is True and net.fc.fp16 is True
    x = Tensor(np.ones((1, 2), np.float32))
    assert net(x).dtype == ms.float16
    assert type(net.fc.weight) is Parameter and net.fc.weight.dtype == ms.float32
    net.head.to_float(ms.float32)
    assert net(x).dtype == ms.float32
    gw = ms.grad(lambda x: net(x).sum(), None, net.fc.trainable_params())(x)
    assert [g.dtype for g in gw] == [ms.float32, ms.float32]
    assert gw[0].asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    ints = Tensor(np.ones((1, 2), np.int32))
    assert Dense(2, 2).to_float(ms.float16)(ints).dtype == ms.float16  # int input kept
    with pytest.raises(ValueError, match="'dst_type' must be mstype.float32, mstype.float16 or "
                                         "mstype.bfloat16"):
        net.to_float(ms.int32)


# ---- freezing ----
class Scale(nn.Cell):
    def __init__(self, stop=False):
        super().__init__()
        self.w = Parameter(Tensor(np.array([3.0, 4.0], np.float32)), name="w")
        self.stop = stop

    def construct(self, x):
        w = ops.stop_gradient(self.w) if self.stop else self.w
        return (x * w).sum()


def test_freezing_with_requires_grad_false():
    net = Scale()
    net.w.requires_grad = False
    assert net.trainable_params() == [] and net.untrainable_params() == [net.w]
    x = f32(1.0, 2.0)
    assert ms.grad(net)(x).asnumpy().tolist() == [3.0, 4.0]  # still used in the forward
    gx, (gw,) = ms.grad(net, 0, [net.w])(x)
    assert gw.asnumpy().tolist() == [0.0, 0.0]
    net.w.requires_grad = True
    assert net.trainable_params() == [net.w]
    assert ms.grad(net, None, [net.w])(x)[0].asnumpy().tolist() == [1.0, 2.0]


def test_freezing_with_stop_gradient():
    net = Scale(stop=True)
    assert net.trainable_params() == [net.w]  # still listed as trainable
    x = f32(1.0, 2.0)
    gx, (gw,) = ms.grad(net, 0, net.trainable_params())(x)
    assert gx.asnumpy().tolist() == [3.0, 4.0] and gw.asnumpy().tolist() == [0.0, 0.0]


# ---- the call path ----
def test_fast_path_after_first_call(monkeypatch):
    net = Dense(2, 2)
    assert net._fast is False
    net(f32(1.0, 1.0))
    assert net._fast is True

    def boom(self, args, kwargs):
        raise AssertionError("slow path taken")

    monkeypatch.setattr(nn.Cell, "_call", boom)
    assert net(f32(1.0, 1.0)).shape == (2,)


def test_keyword_arguments_reach_construct():
    class Net(nn.Cell):
        def construct(self, x, scale=1.0):
            return x * scale

    net = Net()
    assert net(f32(1.0), scale=3.0).asnumpy().tolist() == [3.0]
    assert net(f32(1.0), scale=3.0).asnumpy().tolist() == [3.0]


def test_hooks_need_the_hooks_package(monkeypatch):
    from cellgrad import plugins

    monkeypatch.setenv("CELLGRAD_DISABLE_PLUGIN_AUTOLOAD", "1")
    plugins.reset()
    net = Dense(1, 1)
    for method in ("register_forward_pre_hook", "register_forward_hook",
                   "register_backward_hook", "register_backward_pre_hook"):
        # Not installed: "... pip install cellgrad-hooks"; installed: "... autoloading is off".
        with pytest.raises(ImportError, match=rf"Cell.{method} is provided by (the package )?"
                                              r"cellgrad-hooks"):
            getattr(net, method)(lambda *a: None)
    plugins.reset()


class _Runner:
    """A stand-in for the cellgrad-hooks runner: the protocol the Cell slow path follows."""

    def __init__(self):
        self.log = []

    def register(self, cell, kind, hook, **options):
        self.log.append((kind, options))
        cell._set_hook_runner(self)
        return "handle"

    def run(self, cell, args, kwargs):
        self.log.append("pre")
        out = cell._run_construct(args, kwargs)
        self.log.append("post")
        return out * 10


def test_hook_runner_protocol(monkeypatch):
    from cellgrad import plugins

    runner = _Runner()
    monkeypatch.setattr(plugins, "cell_hook_runner", lambda feature: runner)
    net = Dense(1, 1)
    net(f32(1.0))
    assert net._fast is True
    assert net.register_forward_hook(lambda *a: None, with_kwargs=True) == "handle"
    assert runner.log == [("forward", {"prepend": False, "with_kwargs": True,
                                       "always_call": False})]
    assert net._fast is False
    assert net(f32(2.0)).asnumpy().tolist() == [20.0]
    assert runner.log[1:] == ["pre", "post"]
    net._set_hook_runner(None)
    assert net._fast is True and net(f32(2.0)).asnumpy().tolist() == [2.0]


def test_flags():
    net = Top()
    assert net.add_flags(sink_mode=True) is net and net.sink_mode is True
    net.add_flags_recursive(custom=1)
    assert net.mid.leaf.custom == 1 and net.get_flags()["custom"] == 1
    assert net.cls_name == "Top" and bool(nn.SequentialCell()) is False and bool(net)
