"""Mirrors `mindspore.train.serialization`: names of `cellgrad.train`, `cellgrad`,
`cellgrad.common.initializer`, `cellgrad.communication` and `cellgrad.ops`, the same objects (see
`cellgrad._paths`)."""

import numpy as np

from cellgrad import dtype as _mstype
from cellgrad._namespace import plugin_names as _plugin_names

# A checkpoint's element-type names -> dtypes, as MindSpore's serialization module has them
# (its "Int4" packs two int4 values per byte, a dtype cellgrad does not have).
tensor_to_ms_type = {"Int8": _mstype.int8, "UInt8": _mstype.uint8, "Int16": _mstype.int16,
                     "UInt16": _mstype.uint16, "Int32": _mstype.int32, "UInt32": _mstype.uint32,
                     "Int64": _mstype.int64, "UInt64": _mstype.uint64,
                     "Float16": _mstype.float16, "Float32": _mstype.float32,
                     "Float64": _mstype.float64, "Bool": _mstype.bool_, "str": _mstype.string,
                     "BFloat16": _mstype.bfloat16}
_tensor_to_np_type = {"Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16,
                      "Int32": np.int32, "UInt32": np.uint32, "Int64": np.int64,
                      "UInt64": np.uint64, "Float16": np.float16, "Float32": np.float32,
                      "Float64": np.float64, "Bool": np.bool_, "str": "U"}


def tensor_to_np_type(tensor_type_str):
    """Mirrors `mindspore.train.serialization.tensor_to_np_type`: the numpy type of a
    checkpoint's element-type name ("Float32" -> numpy.float32), None when unknown."""
    if tensor_type_str == "BFloat16":
        return _mstype.bfloat16.np_dtype.type  # ml_dtypes (ImportError without it)
    return _tensor_to_np_type.get(tensor_type_str)


__getattr__, __dir__ = _plugin_names(__name__)
