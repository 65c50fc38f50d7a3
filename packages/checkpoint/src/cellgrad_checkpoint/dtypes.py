"""The `tensor_type` strings of a .ckpt file, their byte layout, and cellgrad's dtypes.

In the file every tensor is raw little-endian elements; `BFloat16` is the top 16 bits of a
binary32, held here as uint16 bit patterns. cellgrad stores bfloat16 as ml_dtypes' numpy
bfloat16 (the same 16 bits), so saving and loading reinterpret the bits without conversion.
Complex64/Complex128 are written as MindSpore 2.10 writes them (its own loader refuses them;
cellgrad's reads them back). safetensors has no complex128 (MindSpore's save fails the same way).
"""

from __future__ import annotations

import numpy as np

import cellgrad

STR = "str"  # append_dict strings: UTF-32-LE code units, dims [0]
INT4 = "Int4"  # qint4x2: MindSpore's loader accepts it, cellgrad has no such dtype

# tensor_type -> dtype of the elements as stored in the file
FILE_DTYPES = {
    "Bool": np.dtype(np.bool_),
    "Int8": np.dtype("<i1"), "Int16": np.dtype("<i2"), "Int32": np.dtype("<i4"),
    "Int64": np.dtype("<i8"),
    "UInt8": np.dtype("<u1"), "UInt16": np.dtype("<u2"), "UInt32": np.dtype("<u4"),
    "UInt64": np.dtype("<u8"),
    "Float16": np.dtype("<f2"), "Float32": np.dtype("<f4"), "Float64": np.dtype("<f8"),
    "BFloat16": np.dtype("<u2"),
    "Complex64": np.dtype("<c8"), "Complex128": np.dtype("<c16"),
}

# safetensors dtype codes (header) and the names its TensorSpec takes
SAFETENSORS_CODES = {
    "Bool": "BOOL", "Int8": "I8", "Int16": "I16", "Int32": "I32", "Int64": "I64",
    "UInt8": "U8", "UInt16": "U16", "UInt32": "U32", "UInt64": "U64",
    "Float16": "F16", "Float32": "F32", "Float64": "F64", "BFloat16": "BF16",
    "Complex64": "C64",
}
FROM_SAFETENSORS = {code: name for name, code in SAFETENSORS_CODES.items()}
SPEC_NAMES = {name: ("bfloat16" if name == "BFloat16" else FILE_DTYPES[name].name)
              for name in FILE_DTYPES}


def tensor_to_file(tensor) -> tuple:
    """(tensor_type, C-contiguous little-endian array in the file's layout) of a Tensor."""
    dtype = tensor.dtype
    arr = tensor.asnumpy()
    name = str(dtype)
    if name == "BFloat16":
        return name, c_contiguous(arr, arr.dtype).view(np.uint16)
    want = FILE_DTYPES.get(name)
    if want is None:
        raise TypeError(f"For 'save_checkpoint', the dtype {dtype} cannot be saved.")
    return name, c_contiguous(arr, want)


def c_contiguous(arr, dtype) -> np.ndarray:
    """`arr` as a C-contiguous array of `dtype`, copied only if needed (0-d stays 0-d)."""
    arr = np.asarray(arr, dtype=dtype)
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


def to_cellgrad(name: str, tensor_type: str, arr: np.ndarray, path: str):
    """(array, cellgrad dtype) for a loaded entry's file-layout array."""
    if tensor_type == "BFloat16":  # needs ml_dtypes: a clear ImportError names the extra
        return c_contiguous(arr, arr.dtype).view(cellgrad.bfloat16.np_dtype), cellgrad.bfloat16
    dtype = getattr(cellgrad, {"Bool": "bool_"}.get(tensor_type, tensor_type.lower()))
    native = dtype.np_dtype
    if arr.dtype != native:  # a big-endian machine: the file is little-endian
        arr = arr.astype(native)
    return arr, dtype

