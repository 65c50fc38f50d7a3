"""Tensor: construction and dtype inference, MindSpore promotion (semantics §15), reprs,
conversions, zero-copy exchange."""

import importlib.util

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops

BF16 = importlib.util.find_spec("ml_dtypes") is not None  # bfloat16 needs cellgrad-core[bfloat16]
needs_bf16 = pytest.mark.skipif(not BF16, reason="needs ml_dtypes (cellgrad-core[bfloat16])")


def T(values, dtype):
    return Tensor(np.array(values, dtype))


@pytest.mark.parametrize(
    "data, dtype",
    [
        ([1, 2], ms.int64),
        ([1.0], ms.float32),
        (np.array([1.0]), ms.float64),
        (np.array([1]), ms.int64),
        (True, ms.bool_),
        (3.0, ms.float32),
        (3, ms.int64),
        ([[1, 2.5], [3, 4]], ms.float32),
        ([True, False], ms.bool_),
        ([True, 2], ms.int64),
        (np.float64(1.5), ms.float64),
        ((1, 2), ms.int64),
    ],
)
def test_dtype_inference(data, dtype):
    assert Tensor(data).dtype is dtype


def test_explicit_dtype_and_tensor_input():
    t = Tensor([1.7, -2.2], ms.int32)
    assert t.dtype is ms.int32 and t.tolist() == [1, -2]
    u = Tensor(t, dtype=ms.float64)
    assert u.dtype is ms.float64 and u.tolist() == [1.0, -2.0]
    v = Tensor(t)
    assert v.tolist() == [1, -2] and v.asnumpy() is not t.asnumpy()


def test_numpy_input_is_copied_from_numpy_is_not():
    a = np.zeros(3, np.float32)
    t, s = Tensor(a), ms.from_numpy(a)
    a[0] = 5
    assert t.tolist()[0] == 0 and s.tolist()[0] == 5


@pytest.mark.parametrize(
    "bad, exc, msg",
    [
        ([[1, 2], [3]], ValueError, "ragged"),
        ([1, "a"], TypeError, "unsupported element"),
        (np.array(["a"]), TypeError, "numpy dtype"),
        (np.array([1], "datetime64[s]"), TypeError, "numpy dtype"),
        ({"a": 1}, TypeError, "input_data"),
        ([2**70], TypeError, "Int64"),  # MindSpore: "unsupported element" TypeError
    ],
)
def test_bad_construction(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        Tensor(bad)


def test_unsupported_dtype_argument():
    with pytest.raises(TypeError, match="Unsupported dtype"):
        Tensor([1.0], dtype="datetime64[s]")


def test_metadata():
    t = Tensor(np.zeros((2, 3), np.float32))
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.ndim == 2 and t.size == 6 and len(t) == 2
    assert str(ms.float32) == "Float32" and repr(ms.float32) == "mindspore.float32"
    assert repr(ms.bool_) == "mindspore.bool" and str(ms.bfloat16) == "BFloat16"


@pytest.mark.parametrize(
    "a, b, dtype",
    [
        (T([1], np.int32), T([1.0], np.float32), ms.float32),
        (T([1], np.int64), T([1.0], np.float16), ms.float16),
        (T([1], np.int32), T([1], np.int64), ms.int64),
        (T([1.0], np.float16), T([1.0], np.float32), ms.float32),
        (T([1.0], np.float32), T([1.0], np.float64), ms.float64),
        (T([True], np.bool_), T([1], np.int32), ms.int32),
        (T([True], np.bool_), T([False], np.bool_), ms.bool_),
        (T([1], np.uint8), T([1], np.int8), ms.int16),
        *([(Tensor([1.0], ms.bfloat16), T([1.0], np.float16), ms.float32),
           (Tensor([1.0], ms.bfloat16), T([1.0], np.float32), ms.float32)] if BF16 else []),
        (T([1, 2], np.int32), 1, ms.int32),
        (T([1, 2], np.int32), 1.5, ms.float32),
        (1.5, T([1, 2], np.int32), ms.float32),
        (T([1, 2], np.int64), 2.0, ms.float32),
        (T([1.0], np.float16), 1.5, ms.float16),
        (T([True], np.bool_), 1, ms.int64),
        (T([True], np.bool_), 1.5, ms.float32),
        (T([True], np.bool_), True, ms.bool_),
        (T([1], np.int32), True, ms.int32),
        (T([1.0], np.float32), True, ms.float32),
        (T([1], np.int32), Tensor(np.float32(1.0)), ms.float32),
        (T([1.0], np.float16), Tensor(np.float32(1.0)), ms.float32),
        (T([1.0], np.float16), Tensor(np.float64(1.0)), ms.float64),
        (T([1], np.int8), Tensor(np.int64(1)), ms.int64),
        (T([1.0], np.float32), np.float64(1.5), ms.float32),
    ],
)
def test_add_promotion(a, b, dtype):
    assert (a + b).dtype is dtype


def test_promotion_values():
    assert (T([1, 2], np.int32) + 1.5).tolist() == [2.5, 3.5]
    assert (T([1, 2], np.uint8) + 300).tolist() == [45, 46]
    assert (T([1, 2], np.int8) + 1000).tolist() == [-23, -22]
    assert (T([True, False], np.bool_) + 1).tolist() == [2, 1]
    assert (T([True, False], np.bool_) + T([False, False], np.bool_)).tolist() == [True, False]
    with np.errstate(over="ignore"):
        assert np.isinf((T([1.0, 2.0], np.float16) + 100000.0).asnumpy()).all()


def test_division_and_power_dtypes():
    i = T([1, 2], np.int32)
    assert (i / i).dtype is ms.float32 and (T([1, 2], np.int64) / 2).dtype is ms.float32
    assert (i // 2).dtype is ms.int32 and (i**2).dtype is ms.int32
    assert (i**0.5).dtype is ms.float32
    assert (i == 1.0).dtype is ms.bool_
    assert i.sum().dtype is ms.int64 and T([True], np.bool_).sum().dtype is ms.int64
    m = i.mean()
    assert m.dtype is ms.int32 and m.item() == 1
    assert ops.sqrt(i).dtype is ms.float32


def test_numpy_array_operand_is_rejected():
    with pytest.raises(TypeError, match="Failed calling add"):
        T([1.0], np.float32) + np.array([1.5, 2.5])


def test_reflected_operators_and_comparisons():
    x = T([1.0, 2.0], np.float32)
    assert (2 - x).tolist() == [1.0, 0.0] and (2 / x).tolist() == [2.0, 1.0]
    assert (2**x).tolist() == [2.0, 4.0] and (-x).tolist() == [-1.0, -2.0]
    assert abs(-x).tolist() == [1.0, 2.0] and (7 % x).tolist() == [0.0, 1.0]
    assert (x > 1).tolist() == [False, True] and (x <= 1).tolist() == [True, False]
    assert (x != 1).tolist() == [False, True] and (x == x).dtype is ms.bool_
    assert (x == None) is False and (x != None) is True  # noqa: E711
    m = T([[1.0, 2.0]], np.float32)
    assert (m @ T([[1.0], [1.0]], np.float32)).tolist() == [[3.0]]


def test_broadcast_mismatch_names_op_and_shapes():
    with pytest.raises(ValueError, match=r"'add'.*\(2,\).*\(3,\)"):
        T([1.0, 2.0], np.float32) + T([1.0, 2.0, 3.0], np.float32)


def test_scalar_conversions():
    one = Tensor([2.5])
    assert float(one) == 2.5 and int(one) == 2 and bool(one) and one.item() == 2.5
    assert isinstance(one.item(), float)
    assert [10, 20, 30][Tensor(1)] == 20
    with pytest.raises(ValueError, match="only one element, but got 3"):
        bool(Tensor([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError):
        [1][Tensor(0.0)]
    if Tensor([3.0]) > Tensor([1.0]):
        pass
    else:
        pytest.fail("comparison of one-element tensors must work in `if`")


def test_iteration_and_len():
    t = Tensor([[1, 2], [3, 4]])
    rows = list(t)
    assert len(rows) == 2 and rows[1].tolist() == [3, 4] and isinstance(rows[0], Tensor)
    with pytest.raises(TypeError):
        len(Tensor(1.0))


def test_repr_and_str():
    t = T([1.0, 2.5, -3.0], np.float32)
    assert str(t) == "[ 1.   2.5 -3. ]"
    assert repr(t) == ("Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  "
                       "2.50000000e+00, -3.00000000e+00])")
    assert repr(Tensor(3)) == "Tensor(shape=[], dtype=Int64, value= 3)"
    assert str(Tensor(3.0)) == "3.0"
    assert repr(Tensor([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert str((T([1.0], np.float32), )) == "(" + repr(T([1.0], np.float32)) + ",)"


@needs_bf16
def test_bfloat16_rounds_values():
    t = Tensor([1.0, 1.00390625, 3.14159], ms.bfloat16)
    assert t.dtype is ms.bfloat16
    assert t.tolist() == [1.0, 1.0, 3.140625]
    assert (t * 1.001).dtype is ms.bfloat16
    assert str(Tensor([1.0, 2.0], ms.bfloat16)) == "[1.000000 2.000000]"


def test_methods():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.reshape(3, 2).shape == (3, 2) and t.reshape((6,)).shape == (6,)
    assert t.view(-1).shape == (6,) and t.transpose().shape == (3, 2)
    assert t.transpose(1, 0).shape == (3, 2) and t.expand_dims(0).shape == (1, 2, 3)
    assert t.expand_dims(0).squeeze().shape == (2, 3) and t.flatten().shape == (6,)
    assert t.sum().item() == 15.0 and t.sum(axis=1).tolist() == [3.0, 12.0]
    assert t.mean(axis=0, keep_dims=True).shape == (1, 3)
    assert t.max().item() == 5.0 and t.min(axis=1).tolist() == [0.0, 3.0]
    assert t.argmax().item() == 5 and t.argmin(axis=1).tolist() == [0, 0]
    assert t.argmax().dtype is ms.int64
    assert t.any().item() and not t.all().item()
    assert (-t).abs().tolist() == t.tolist()
    assert t.astype(ms.int32).dtype is ms.int32 and t.copy().tolist() == t.tolist()
    assert t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_setitem_in_place_and_getitem():
    t = Tensor(np.zeros((2, 3), np.float32))
    alias = t
    t[0, 1] = 5.0
    t[1] = Tensor([1.0, 2.0, 3.0])
    t[t > 2] = -1
    assert alias.tolist() == [[0.0, -1.0, 0.0], [1.0, 2.0, -1.0]]
    assert t[1, ::2].tolist() == [1.0, -1.0] and t[Tensor([1, 0])][0].tolist() == t[1].tolist()
    assert t[None].shape == (1, 2, 3) and t[..., 0].tolist() == [0.0, 1.0]


def test_getitem_gradient():
    x = Tensor(np.arange(4, dtype=np.float32))
    g = ms.grad(lambda x: (x[Tensor([0, 0, 3])] * 2).sum() + x[1:3].sum())(x)
    assert g.tolist() == [4.0, 1.0, 1.0, 2.0]


def test_setitem_recorded_inside_grad():
    def fn(x, v):
        y = x * 1
        y[0] = v * 3
        return (y * y).sum()

    gx, gv = ms.grad(fn, (0, 1))(Tensor([1.0, 2.0]), Tensor(2.0))
    assert gx.tolist() == [0.0, 4.0] and gv.item() == 36.0


def test_array_protocols_share_memory():
    t = Tensor(np.arange(3, dtype=np.float32))
    a = np.asarray(t)
    m = memoryview(t)
    assert a.dtype == np.float32 and m.format == "f" and m.shape == (3,)
    a[0] = 7
    assert t.tolist()[0] == 7.0 and m[0] == 7.0
    assert np.array(t, dtype=np.float64).dtype == np.float64


def test_dlpack_roundtrip():
    t = Tensor(np.arange(3, dtype=np.float32))
    back = Tensor.from_dlpack(t)
    t.asnumpy()[1] = 9
    assert back.tolist() == [0.0, 9.0, 2.0] and t.__dlpack_device__() == (1, 0)


def test_torch_takes_tensor_without_copy():
    torch = pytest.importorskip("torch")
    t = Tensor(np.arange(3, dtype=np.float32))
    tt = torch.from_dlpack(t)
    tt[0] = 5
    assert t.tolist()[0] == 5.0
    assert Tensor.from_dlpack(torch.ones(2)).tolist() == [1.0, 1.0]


def test_pickle_roundtrip():
    import pickle

    t = Tensor([1.0, 2.0], ms.bfloat16 if BF16 else ms.float16)
    u = pickle.loads(pickle.dumps(t))
    assert u.dtype is t.dtype and u.tolist() == [1.0, 2.0]


def test_len_of_a_scalar_tensor_is_mindspores_type_error():
    # MindSpore 2.10: TypeError('Not support len of a 0-D tensor')
    with pytest.raises(TypeError, match=r"^Not support len of a 0-D tensor$"):
        len(Tensor(1.0))
    assert len(Tensor(np.zeros((3, 2), np.float32))) == 3
