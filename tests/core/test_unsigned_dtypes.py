"""uint16/uint32/uint64 as Tensor dtypes (MindSpore's MNIST and CIFAR labels are uint32)."""

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_tensors_hold_them_and_print_as_mindspore(name):
    t = ms.Tensor(np.array([1, 2], getattr(np, name)))
    assert t.dtype is getattr(ms, name) and str(t.dtype) == "U" + name[1:].capitalize()
    assert repr(t) == f"Tensor(shape=[2], dtype={t.dtype}, value= [1, 2])"
    assert t.asnumpy().dtype == np.dtype(name)
    assert ms.tensor([3], getattr(ms, name)).asnumpy().dtype == np.dtype(name)
    assert (t + t).dtype is t.dtype and (t + True).dtype is t.dtype
    assert (t * 1.5).dtype is ms.float32


def test_promotion_with_signed_ints_is_a_signed_type_holding_both():
    u16, u32, u64 = (ms.Tensor(np.array([7], d)) for d in (np.uint16, np.uint32, np.uint64))
    i8, i32, i64 = (ms.Tensor(np.array([-1], d)) for d in (np.int8, np.int32, np.int64))
    assert (u16 + i8).dtype is ms.int32 and (u32 + i32).dtype is ms.int64
    assert (u16 + i64).dtype is ms.int64 and (u64 + i8).dtype is ms.int64
    assert (u32 + ms.Tensor(np.array([1], np.uint8))).dtype is ms.uint32
    assert (u16 + u64).dtype is ms.uint64
    np.testing.assert_array_equal((u32 + i32).asnumpy(), [6])
    assert (ms.Tensor(np.array([3], np.uint8)) + ms.Tensor(np.array([3], np.int8))).dtype \
        is ms.int16  # the uint8 rule is unchanged


def test_mindspore_numpy_names():
    assert mnp.uint is ms.uint32 and mnp.uint16 is ms.uint16
    assert "uint64" in mnp.numeric_types


def test_mindspore_dtype_aliases_and_groups():
    assert (ms.long, ms.int, ms.bool, ms.float, ms.short, ms.ushort) == (
        ms.int64, ms.int32, ms.bool_, ms.float32, ms.int16, ms.uint16)
    assert (ms.byte, ms.ubyte, ms.intc, ms.uintc, ms.intp, ms.uintp) == (
        ms.int8, ms.uint8, ms.int32, ms.uint32, ms.int64, ms.uint64)
    assert int(3.7) == 3 and bool(0) is False  # the builtins are untouched
    from cellgrad.common import dtype as mstype

    assert mstype.int_type == (ms.int8, ms.int16, ms.int32, ms.int64)
    assert ms.uint32 in mstype.number_type and ms.bool_ not in mstype.number_type
    assert repr(mstype.uint_type) == ("(mindspore.uint8, mindspore.uint16, mindspore.uint32, "
                                      "mindspore.uint64)")
