"""Small dataset names real code imports (issues 28/29): `dataset.Implementation` (also at
`dataset.text.transforms`) and `dataset.core.validator_helpers`' limits, as MindSpore 2.10."""

import enum

import cellgrad.dataset as ds


def test_implementation_is_mindspores_int_enum():
    assert issubclass(ds.Implementation, enum.IntEnum)
    assert [(m.name, m.value) for m in ds.Implementation] == [("C", 0), ("PY", 1)]
    from cellgrad.dataset.text.transforms import Implementation

    assert Implementation is ds.Implementation


def test_validator_helper_limits():
    from cellgrad.dataset.core import validator_helpers as v

    assert (v.INT32_MAX, v.INT32_MIN, v.UINT8_MAX) == (2**31 - 1, -(2**31), 255)
    assert (v.UINT64_MAX, v.FLOAT_MAX_INTEGER, v.DOUBLE_MAX_INTEGER) == (2**64 - 1, 2**24, 2**53)
    assert v.valid_detype[-1] == "string" and len(v.valid_detype) == 13
