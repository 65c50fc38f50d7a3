"""The Primitive base (`cellgrad.ops.primitive`, mirroring `mindspore.ops.primitive`):
names, attributes, reprs, prim_attr_register, user-defined primitives, constexpr."""

import copy
import inspect

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.ops.primitive as primitive_module
from cellgrad import Tensor, ops
from cellgrad.ops import (
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_arg_register,
    prim_attr_register,
)


def test_module_path_and_names_mirror_mindspore():
    from cellgrad.ops.primitive import Primitive as P2

    assert P2 is Primitive is ops.Primitive
    assert set(primitive_module.__all__) >= {"Primitive", "PrimitiveWithInfer",
                                             "PrimitiveWithCheck", "prim_attr_register",
                                             "prim_arg_register", "constexpr"}
    assert list(inspect.signature(Primitive).parameters) == ["name"]
    assert list(inspect.signature(PrimitiveWithInfer).parameters) == ["name"]


def test_primitive_by_name_runs_the_cellgrad_primitive_of_that_name():
    add = Primitive("Add")
    assert (add.name, add.attrs, repr(add)) == ("Add", {}, "Prim[Add]")
    np.testing.assert_array_equal(add(Tensor([1.0]), Tensor([2.0])).asnumpy(), [3.0])
    mm = Primitive("MatMul").add_prim_attr("transpose_b", True)
    out = mm(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 3), np.float32)))
    assert out.shape == (2, 4)


def test_primitive_without_a_kernel_says_so():
    with pytest.raises(RuntimeError, match=r"Unsupported op \[NoSuchOp\] on CPU.*__call__"):
        Primitive("NoSuchOp")(Tensor([1.0]))
    with pytest.raises(TypeError, match="name"):
        Primitive()


def test_attributes_add_delete_repr_and_lookup():
    a = ops.Add()
    assert a.add_prim_attr("attr", 1) is a
    assert (a.attrs, a.attr, repr(a)) == ({"attr": 1}, 1, "Prim[Add]<attr=1>")
    a.del_prim_attr("attr")
    assert a.attrs == {} and repr(a) == "Prim[Add]"
    a.del_prim_attr("never-added")  # a no-op, as MindSpore's
    with pytest.raises(AttributeError, match="'Add' object has no attribute 'missing'"):
        _ = a.missing
    a.init_prim_io_names(["x", "y"], ["sum"])
    assert (a.input_names, a.output_names) == (["x", "y"], ["sum"])
    assert repr(a) == "Prim[Add]"  # io names are left out of the repr
    assert a.set_prim_instance_name("add").instance_name == "add"
    assert a.set_device("CPU").primitive_target == "CPU"
    assert repr(a.set_stage(0)) == "Prim[Add]<primitive_target=CPU, stage=0>"
    assert a.shard(((1, 1), (1, 1))).in_strategy == ((1, 1), (1, 1))
    with pytest.raises(TypeError, match="'in_strategy' should be a tuple"):
        a.shard([1])
    assert a.recompute().recompute is True and a.update_parameter is False
    assert a.check_elim(1) == (False, None)


def test_builtin_primitives_record_their_arguments_as_mindspore_does():
    assert repr(ops.MatMul(transpose_b=True)) == \
        "Prim[MatMul]<transpose_a=False, transpose_b=True>"
    assert ops.MatMul(transpose_b=True).attrs == {"transpose_a": False, "transpose_b": True}
    assert repr(ops.StridedSlice(1, 2)) == ("Prim[StridedSlice]<begin_mask=1, end_mask=2, "
                                            "ellipsis_mask=0, new_axis_mask=0, "
                                            "shrink_axis_mask=0>")
    assert repr(ops.ReduceSum()) == "Prim[ReduceSum]<keep_dims=False, skip_mode=False>"
    assert repr(ops.Print()) == "Prim[Print]<side_effect_io=True>"
    assert repr(ops.ArgMaxWithValue()) == "Prim[ArgMaxWithValue]<axis=0, keep_dims=False>"
    assert repr(ops.TensorAdd()) == "Prim[Add]"
    assert repr(ops.GatherV2()) == "Prim[GatherV2]<batch_dims=0>"
    assert repr(ops.ScatterNdUpdate()) == \
        "Prim[ScatterNdUpdate]<use_locking=True, side_effect_mem=True>"
    assert repr(ops.ReverseV2(axis=[0])) == "Prim[ReverseV2]<axis=(0,)>"
    assert repr(ops.Depend()) == "Prim[Depend]<side_effect_propagate=1>"
    assert repr(ops.Squeeze(0)) == "Prim[Squeeze]<axis=0>"
    assert inspect.signature(ops.Identity).parameters == {}


class MyOp(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, k=2, flag=False):
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def infer_shape(self, x):
        raise AssertionError("PyNative does not infer a primitive that defines __call__")

    def __call__(self, x):
        return x * self.k


def test_user_defined_primitive_with_infer():
    m = MyOp(3)
    assert (m.name, m.k, m.flag) == ("MyOp", 3, False)
    assert m.attrs == {"k": 3, "flag": False, "input_names": ["x"], "output_names": ["y"]}
    assert m.init_attrs == {"k": 3, "flag": False}
    assert repr(m) == "Prim[MyOp]<k=3, flag=False>"
    np.testing.assert_array_equal(m(Tensor([1.0, 2.0])).asnumpy(), [3.0, 6.0])
    clone = copy.deepcopy(m)
    assert type(clone) is MyOp and clone.attrs == m.attrs and clone is not m
    assert inspect.signature(MyOp).parameters.keys() == {"k", "flag"}
    assert MyOp.__init__.decorated_func.__name__ == "__init__"


def test_infer_and_check_hooks_are_called_by_their_drivers():
    class Add(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_shape(self, x, y):
            return x

        def infer_dtype(self, x, y):
            return y

    out = Add().__infer__({"shape": [2], "dtype": ms.float32, "value": None},
                          {"shape": [2], "dtype": ms.int32, "value": None})
    assert out == {"dtype": ms.int32, "shape": [2], "value": None}
    np.testing.assert_array_equal(Add()(Tensor([1.0]), Tensor([2.0])).asnumpy(), [3.0])

    seen = []

    class Checked(PrimitiveWithCheck):
        @prim_attr_register
        def __init__(self):
            pass

        def check_shape(self, x):
            seen.append(("shape", x))

        def check_dtype(self, x):
            seen.append(("dtype", x))

    Checked().__check__({"shape": [3], "dtype": ms.float32})
    Checked().__check__({"shape": [-1], "dtype": ms.float16})  # unknown shape: no shape check
    assert seen == [("dtype", ms.float32), ("shape", [3]), ("dtype", ms.float16)]


def test_user_primitive_without_call_has_no_kernel():
    class NoKernel(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

    with pytest.raises(RuntimeError, match=r"Unsupported op \[NoKernel\]"):
        NoKernel()(Tensor([1.0]))


def test_plain_init_and_prim_arg_register():
    class Plain(Primitive):
        def __init__(self, a=1):
            super().__init__("Plain")
            self.a = a

    p = Plain()
    assert (p.name, p.attrs, p.a, repr(p)) == ("Plain", {}, 1, "Prim[Plain]")

    class Args(Primitive):
        @prim_arg_register
        def __init__(self, axis=-1):
            pass

    a = Args(2)
    assert (a.axis, a.attrs, a.init_attrs, a.name) == (2, {"axis": 2}, {"axis": 2}, "Args")

    class Renamed(Primitive):
        substitute_name = "Other"

        @prim_attr_register
        def __init__(self):
            pass

    assert Renamed().name == "Other"


def test_subclass_without_init_takes_no_arguments_and_is_named_after_its_class():
    class NoInit(Primitive):
        def __call__(self, x):
            return x

    assert NoInit().name == "NoInit" and NoInit().init_attrs == {}
    assert list(inspect.signature(NoInit).parameters) == []
    assert copy.deepcopy(NoInit()).name == "NoInit"


def test_constexpr_runs_eagerly_on_python_values():
    calls = []

    @constexpr
    def double(n):
        calls.append(n)
        return 2 * n

    assert isinstance(double, PrimitiveWithInfer) and double.name == "double"
    assert double(21) == 42 and calls == [21]
    assert double.attrs == {"constexpr_prim": True}
    assert double.__infer__({"dtype": None, "shape": None, "value": 4})["value"] == 8

    @constexpr(get_instance=False, name="shape_of", reuse_result=False)
    def shape_of(x):
        return x.shape

    inst = shape_of()
    assert inst.name == "shape_of" and inst.attrs["forbid_reuse_result"] is True
    assert inst(Tensor(np.zeros((2, 3)))) == (2, 3)
    assert ms.ops.constexpr is constexpr


def test_deepcopy_rebuilds_registered_primitives_and_copies_the_others():
    m = ops.MatMul(transpose_b=True).add_prim_attr("extra", 1)
    clone = copy.deepcopy(m)
    assert clone.attrs == {"transpose_a": False, "transpose_b": True}  # as MindSpore: rebuilt

    class Stateful(Primitive):
        def __init__(self, scale):
            super().__init__("Stateful")
            self.scale = [scale]

    s = Stateful(2.0)
    c = copy.deepcopy(s)
    assert type(c) is Stateful and c.scale == [2.0] and c.scale is not s.scale
    assert c.name == "Stateful"


def test_a_primitive_without_call_runs_its_python_infer_as_mindspore_pynative():
    seen = []

    class Folded(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_dtype(self, x):
            seen.append(("dtype", x))
            return x

        def infer_shape(self, x):
            seen.append(("shape", x))
            return x

        def infer_value(self, x):
            seen.append(("value", x))
            return Tensor(np.array([42.0], np.float32))

    out = Folded()(Tensor([1.0]))
    np.testing.assert_array_equal(out.asnumpy(), [42.0])
    assert seen == [("dtype", ms.float32), ("shape", [1]), ("value", None)]
    seen.clear()
    Folded()(3)
    assert seen == [("dtype", ms.int64), ("shape", []), ("value", 3)]

    class Rejects(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_shape(self, x):
            raise ValueError(f"bad shape {x}")

    with pytest.raises(ValueError, match=r"bad shape \[1\]"):
        Rejects()(Tensor([1.0]))

    class Checked(PrimitiveWithCheck):
        @prim_attr_register
        def __init__(self):
            pass

        def check_dtype(self, x):
            raise TypeError(f"no {x}")

    with pytest.raises(TypeError, match="no Float32"):
        Checked()(Tensor([1.0]))
