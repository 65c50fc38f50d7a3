"""The `tensor_type` strings of a .ckpt file, their byte layout, and cellgrad's dtypes.

In the file every tensor is raw little-endian elements; `BFloat16` is the top 16 bits of a
binary32, held here as uint16 bit patterns (numpy has no bfloat16). cellgrad stores bfloat16
as float32 holding bfloat16 values, so loading shifts the bits into a float32 exactly.
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
}

# cellgrad has no unsigned dtypes wider than 8 bits: load them into the signed dtype that
# holds every value exactly (UInt64 only when every value fits).
WIDENED = {"UInt16": "Int32", "UInt32": "Int64", "UInt64": "Int64"}

# safetensors dtype codes (header) and the names its TensorSpec takes
SAFETENSORS_CODES = {
    "Bool": "BOOL", "Int8": "I8", "Int16": "I16", "Int32": "I32", "Int64": "I64",
    "UInt8": "U8", "UInt16": "U16", "UInt32": "U32", "UInt64": "U64",
    "Float16": "F16", "Float32": "F32", "Float64": "F64", "BFloat16": "BF16",
}
FROM_SAFETENSORS = {code: name for name, code in SAFETENSORS_CODES.items()}
SPEC_NAMES = {name: ("bfloat16" if name == "BFloat16" else FILE_DTYPES[name].name)
              for name in FILE_DTYPES}


def bf16_bits_to_float32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 bit patterns -> float32 with the same values (exact)."""
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def float32_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bit patterns, rounding to nearest even; NaN stays NaN."""
    values = c_contiguous(values, np.float32)
    bits = values.view(np.uint32)
    wide = bits.astype(np.uint64)
    # numpy 1.26 promotes uint64 with a Python int to float64: every constant is a uint64.
    u16, u1 = np.uint64(16), np.uint64(1)
    rounded = np.asarray((wide + np.uint64(0x7FFF) + ((wide >> u16) & u1)) >> u16, np.uint16)
    nan = np.isnan(values)
    if nan.any():  # rounding could carry a NaN's mantissa into the exponent (an inf)
        rounded[nan] = np.asarray((bits[nan] >> np.uint32(16)) | np.uint32(0x0040), np.uint16)
    return rounded.reshape(values.shape)


def tensor_to_file(tensor) -> tuple:
    """(tensor_type, C-contiguous little-endian array in the file's layout) of a Tensor."""
    dtype = tensor.dtype
    arr = tensor.asnumpy()
    name = str(dtype)
    if name == "BFloat16":
        return name, float32_to_bf16_bits(arr)
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
    if tensor_type == "BFloat16":
        return bf16_bits_to_float32(arr), cellgrad.bfloat16
    wide = WIDENED.get(tensor_type)
    if wide is not None:
        arr = _widen(name, tensor_type, wide, arr, path)
        tensor_type = wide
    dtype = getattr(cellgrad, {"Bool": "bool_"}.get(tensor_type, tensor_type.lower()))
    native = dtype.np_dtype
    if arr.dtype != native:  # a big-endian machine: the file is little-endian
        arr = arr.astype(native)
    return arr, dtype


def _widen(name, tensor_type, wide, arr, path):
    from cellgrad_checkpoint.errors import CheckpointError, warn

    if tensor_type == "UInt64" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise CheckpointError(path, "the UInt64 tensor holds values above the Int64 range, and "
                                    "cellgrad has no UInt64 dtype", entry=name)
    warn(f"load_checkpoint: '{name}' is {tensor_type} in the file; cellgrad has no "
         f"{tensor_type} dtype, so it is loaded as {wide} (every value is kept).")
    return arr.astype(FILE_DTYPES[wide].newbyteorder("="))
