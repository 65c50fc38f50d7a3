"""Fuzzing the tensor buffer and indexing against numpy (hypothesis).

Whatever the input, the result is numpy's (with MindSpore's dtype inference for Python data)
or a Python IndexError/ValueError/TypeError — never a crash or another exception type.
"""

import importlib.util
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cellgrad as ms
from cellgrad import Tensor

BF16 = importlib.util.find_spec("ml_dtypes") is not None  # bfloat16 needs cellgrad-core[bfloat16]
needs_bf16 = pytest.mark.skipif(not BF16, reason="needs ml_dtypes (cellgrad-core[bfloat16])")

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
EXPECTED_ERRORS = (IndexError, ValueError, TypeError)

SUPPORTED = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64"]
UNSUPPORTED = ["U2", "datetime64[s]"]
MS_NAME = {"bool": "Bool", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
           "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
           "float16": "Float16", "float32": "Float32", "float64": "Float64",
           "complex64": "Complex64", "complex128": "Complex128"}
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)


# ---- construction ----
scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(-1e6, 1e6, width=32),
    st.sampled_from([float("nan"), float("inf"), -float("inf")]),
)


@st.composite
def nested_lists(draw):
    """A (possibly ragged, possibly mixed-kind) nested list and the shape it was built for."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3))
    n = int(np.prod(shape))
    kind = draw(st.sampled_from(["bool", "int", "float", "mixed"]))
    elem = {"bool": st.booleans(), "int": st.integers(-(2**40), 2**40),
            "float": st.floats(-1e6, 1e6, width=32), "mixed": scalars}[kind]
    flat = draw(st.lists(elem, min_size=n, max_size=n))
    data = np.array(flat, dtype=object).reshape(shape).tolist()
    ragged = draw(st.booleans()) and len(shape) > 1 and shape[1] > 0 and shape[0] > 1
    if ragged:
        data[0] = data[0][:-1]
    return data, ragged


def _expected_from_list(data):
    """MindSpore's inference: any float -> Float32, else any int -> Int64, else Bool."""
    flat = np.array(data, dtype=object).ravel().tolist()
    if any(isinstance(v, float) for v in flat):
        return np.array(data, dtype=np.float64).astype(np.float32), "Float32"
    if any(isinstance(v, int) and not isinstance(v, bool) for v in flat):
        return np.array(data, dtype=np.int64), "Int64"
    return np.array(data, dtype=bool if flat else np.float32), "Bool" if flat else "Float32"


@FUZZ
@given(nested_lists())
def test_tensor_from_nested_lists(case):
    data, ragged = case
    if ragged:
        with pytest.raises(ValueError, match="ragged"):
            Tensor(data)
        return
    expected, name = _expected_from_list(data)
    got = Tensor(data)
    assert str(got.dtype) == name and got.shape == expected.shape
    np.testing.assert_array_equal(got.asnumpy(), expected)


@FUZZ
@given(scalars)
def test_tensor_from_python_scalar(v):
    got = Tensor(v)
    assert got.shape == ()
    name = "Bool" if isinstance(v, bool) else "Int64" if isinstance(v, int) else "Float32"
    assert str(got.dtype) == name
    np.testing.assert_array_equal(got.asnumpy(), np.array(v).astype(got.asnumpy().dtype))


@FUZZ
@given(st.sampled_from(SUPPORTED + ["complex64", "complex128"] + UNSUPPORTED).flatmap(
    lambda dt: hnp.arrays(np.dtype(dt), shapes)))
def test_tensor_from_numpy_array(arr):
    if arr.dtype.name not in MS_NAME:
        with pytest.raises(TypeError, match=re.escape(str(arr.dtype))):
            Tensor(arr)
        return
    got = Tensor(arr)
    assert str(got.dtype) == MS_NAME[arr.dtype.name] and got.shape == arr.shape
    np.testing.assert_array_equal(got.asnumpy(), arr)
    shared = ms.from_numpy(arr)
    view = np.asarray(memoryview(got))  # the buffer protocol exports the same memory
    assert view.shape == arr.shape and view.dtype == arr.dtype
    np.testing.assert_array_equal(np.from_dlpack(got), arr)
    if arr.size:  # empty arrays share no memory with anything
        assert not np.shares_memory(got.asnumpy(), arr)  # Tensor(ndarray) copies ...
        assert np.shares_memory(shared.asnumpy(), arr)  # ... from_numpy does not
        assert np.shares_memory(view, got.asnumpy())


@FUZZ
@given(hnp.arrays(np.float32, shapes, elements=st.floats(-100, 100, width=32)),
       st.sampled_from(SUPPORTED + (["bfloat16"] if BF16 else [])))
def test_tensor_with_explicit_dtype(arr, name):
    dt = getattr(ms, "bool_" if name == "bool" else name)
    got = Tensor(arr, dtype=dt)
    assert got.dtype is dt and got.shape == arr.shape
    if name == "bfloat16":  # 8 significant bits, ties to even (independent of the engine)
        m, e = np.frexp(arr.astype(np.float64))
        expected = np.ldexp(np.round(m * 256) / 256, e).astype(np.float32)
    else:
        with np.errstate(invalid="ignore"):
            expected = arr.astype(name)
    np.testing.assert_array_equal(got.asnumpy(), expected)
    back = Tensor(got)  # Tensor of a Tensor keeps the dtype and copies
    assert back.dtype is dt and not np.shares_memory(back.asnumpy(), got.asnumpy())


@pytest.mark.parametrize("make", [
    lambda: Tensor(2.5, dtype=ms.bfloat16),
    lambda: Tensor(np.float32(1.0), dtype=ms.bfloat16),
    lambda: ms.ops.cast(Tensor(np.float32(1.0)), ms.bfloat16),
])
@needs_bf16
def test_zero_d_bfloat16_keeps_its_shape(make):
    assert make().shape == ()


@FUZZ
@given(st.one_of(st.text(max_size=3), st.dictionaries(st.text(max_size=2), st.integers()),
                 st.lists(st.text(max_size=2), min_size=1, max_size=3),
                 st.just(object()),
                 st.lists(st.none(), min_size=1, max_size=2)))
def test_tensor_from_unsupported_data(data):
    with pytest.raises((TypeError, ValueError)):
        Tensor(data)


# ---- indexing ----
@st.composite
def index_cases(draw):
    """An array and an index mixing basic and advanced parts (sometimes invalid)."""
    arr = draw(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                          elements=st.floats(-10, 10, width=32)))
    style = draw(st.sampled_from(["basic", "int-array", "bool-mask", "mixed", "invalid"]))
    if style == "basic":
        index = draw(hnp.basic_indices(arr.shape, allow_newaxis=True, allow_ellipsis=True))
    elif style == "int-array":
        index = draw(hnp.integer_array_indices(arr.shape, result_shape=hnp.array_shapes(
            min_dims=1, max_dims=2, max_side=3)))
    elif style == "bool-mask":
        dims = draw(st.integers(1, arr.ndim))
        index = draw(hnp.arrays(bool, arr.shape[:dims]))
    elif style == "mixed":
        axis_len = arr.shape[0]
        ints = draw(st.lists(st.integers(-axis_len, axis_len - 1), min_size=1, max_size=3))
        rest = draw(hnp.basic_indices(arr.shape[1:], allow_ellipsis=False)) if arr.ndim > 1 \
            else ()
        rest = rest if isinstance(rest, tuple) else (rest,)
        index = (np.array(ints),) + rest
    else:
        index = draw(st.one_of(
            st.integers(-10, 10),  # out of range for most shapes
            st.tuples(*[st.integers(-2, 2)] * 4),  # too many indices for small ranks
            st.floats(-2, 2),
            st.just("a"),
            st.just((slice(None), [0.5])),
            st.just([[0, 1], [0]]),  # ragged list
        ))
    as_tensor = draw(st.booleans())
    return arr, index, as_tensor


def _to_cellgrad_index(index, as_tensor):
    """The same index with numpy arrays as Tensors (or Python lists)."""
    def part(p):
        if isinstance(p, np.ndarray):
            return Tensor(p) if as_tensor else p.tolist()
        return p

    return tuple(part(p) for p in index) if isinstance(index, tuple) else part(index)


def _numpy_result(fn):
    try:
        return fn(), None
    except (IndexError, ValueError, TypeError) as e:
        return None, e


@FUZZ
@given(index_cases())
def test_getitem_matches_numpy(case):
    arr, index, as_tensor = case
    expected, np_error = _numpy_result(lambda: arr[index])
    t = Tensor(arr)
    idx = _to_cellgrad_index(index, as_tensor)
    if isinstance(idx, list) and not any(i is not False for i in idx):
        np_error = True  # MindSpore refuses to read with an empty or all-False list
    if np_error is not None:
        with pytest.raises(EXPECTED_ERRORS):
            t[idx]
        return
    got = t[idx]
    assert got.shape == np.shape(expected) and str(got.dtype) == "Float32"
    np.testing.assert_array_equal(got.asnumpy(), expected)


@st.composite
def setitem_cases(draw):
    arr, index, as_tensor = draw(index_cases())
    target, err = _numpy_result(lambda: arr[index])
    shape = np.shape(target) if err is None else ()
    kind = draw(st.sampled_from(["scalar", "full", "broadcast", "wrong"]))
    if kind == "scalar":
        value = draw(st.floats(-5, 5, width=32))
    elif kind == "full":
        value = draw(hnp.arrays(np.float32, shape, elements=st.floats(-5, 5, width=32)))
    elif kind == "broadcast":
        value = draw(hnp.arrays(np.float32, shape[len(shape) // 2:],
                                elements=st.floats(-5, 5, width=32)))
    else:
        value = draw(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=2,
                                                             min_side=5, max_side=6)))
    return arr, index, as_tensor, value


@FUZZ
@given(setitem_cases())
def test_setitem_matches_numpy(case):
    arr, index, as_tensor, value = case
    expected = arr.copy()

    def assign():
        expected[index] = value

    _, np_error = _numpy_result(assign)
    t = Tensor(arr)
    idx = _to_cellgrad_index(index, as_tensor)
    v = Tensor(value) if isinstance(value, np.ndarray) else value
    if np_error is not None:
        with pytest.raises(EXPECTED_ERRORS):
            t[idx] = v
        return
    t[idx] = v
    assert t.shape == arr.shape and str(t.dtype) == "Float32"
    np.testing.assert_array_equal(t.asnumpy(), expected)


@FUZZ
@given(index_cases())
def test_getitem_gradient_is_a_scatter_add(case):
    arr, index, as_tensor = case
    expected, np_error = _numpy_result(lambda: arr[index])
    if np_error is not None:
        return
    idx = _to_cellgrad_index(index, True)
    g = ms.grad(lambda x: x[idx].sum())(Tensor(arr))
    ref = np.zeros_like(arr)
    np.add.at(ref, index, 1.0)
    np.testing.assert_array_equal(g.asnumpy(), ref)


# ---- dtype promotion of binary ops (spec §15's rule, written independently) ----
ALL_NAMES = SUPPORTED + (["bfloat16"] if BF16 else [])
KIND = {"bool": 0, "uint8": 1, "uint16": 1, "uint32": 1, "uint64": 1, "int8": 1, "int16": 1,
        "int32": 1, "int64": 1, "float16": 2, "bfloat16": 2, "float32": 2, "float64": 2}
BITS = {"bool": 8, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 8, "int16": 16,
        "int32": 32, "int64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def _promote(a, b):
    if a == b:
        return a
    if KIND[a] != KIND[b]:
        return a if KIND[a] > KIND[b] else b
    if KIND[a] == 2 and BITS[a] == BITS[b]:  # float16 with bfloat16
        return "float32"
    ua, ub = a.startswith("uint"), b.startswith("uint")
    if ua != ub:  # unsigned with signed: a signed type holding both (int64 at most)
        u, s = (a, b) if ua else (b, a)
        return s if BITS[s] > BITS[u] else f"int{min(2 * BITS[u], 64)}"
    return a if BITS[a] > BITS[b] else b


def _tensor(name, values):
    dt = getattr(ms, "bool_" if name == "bool" else name)
    return Tensor(np.asarray(values).astype("float32" if name == "bfloat16" else name), dt)


@FUZZ
@given(st.sampled_from(ALL_NAMES), st.sampled_from(ALL_NAMES),
       st.sampled_from(["add", "mul", "maximum"]),
       st.lists(st.integers(0, 3), min_size=1, max_size=4))
def test_binary_promotion_between_tensors(a, b, op, values):
    expected = _promote(a, b)
    got = getattr(ms.ops, op)(_tensor(a, values), _tensor(b, values[::-1]))
    assert got.dtype is getattr(ms, "bool_" if expected == "bool" else expected), (a, b)
    def stored(name, vals):  # the input's own values, then cast to the result's storage
        own = np.asarray(vals).astype("float32" if name == "bfloat16" else name)
        return own.astype("float32" if expected == "bfloat16" else expected)

    ref = getattr(np, {"add": "add", "mul": "multiply", "maximum": "maximum"}[op])(
        stored(a, values), stored(b, values[::-1]))
    np.testing.assert_array_equal(got.asnumpy(), ref)


@FUZZ
@given(st.sampled_from(ALL_NAMES), st.one_of(st.booleans(), st.integers(-3, 3),
                                             st.floats(-3, 3, width=16)))
def test_binary_promotion_with_python_scalars(a, scalar):
    kind = 0 if isinstance(scalar, bool) else 1 if isinstance(scalar, int) else 2
    expected = a if kind <= KIND[a] else ("int64" if kind == 1 else "float32")
    got = _tensor(a, [1, 0]) + scalar
    assert str(got.dtype) == MS_NAME.get(expected, "BFloat16"), (a, scalar)
    got = scalar * _tensor(a, [1, 0])  # reflected forms promote the same way
    assert str(got.dtype) == MS_NAME.get(expected, "BFloat16"), (a, scalar)
