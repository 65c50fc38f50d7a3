"""Checkpoints keep complex, wide unsigned and bfloat16 tensors: dtype, shape and bits."""

import json
import struct

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_checkpoint.ckpt_reader import read_ckpt

VALUES = {
    "c64": Tensor(np.array([[1 + 2j, -3.5j], [np.inf - 1j, 0j]], np.complex64)),
    "c128": Tensor(np.array([1e300 + 1e-300j, -0.0 + 2j], np.complex128)),
    "u16": Tensor(np.array([0, 65535], np.uint16)),
    "u32": Tensor(np.array([[2**32 - 1]], np.uint32)),
    "u64": Tensor(np.array(2**64 - 1, np.uint64)),
}


def _params(values):
    return {k: Parameter(v, name=k) for k, v in values.items()}


def _assert_same(loaded, values):
    for name, want in values.items():
        got = loaded[name]
        assert got.dtype is want.dtype and got.shape == want.shape, name
        assert got.asnumpy().dtype == want.asnumpy().dtype
        assert got.asnumpy().tobytes() == want.asnumpy().tobytes(), name


def test_ckpt_keeps_complex_and_unsigned(tmp_path):
    path = str(tmp_path / "d.ckpt")
    ms.save_checkpoint(_params(VALUES), path)
    _assert_same(ms.load_checkpoint(path), VALUES)
    # the file holds MindSpore's tensor_type names (MindSpore 2.10 writes the same)
    raw = read_ckpt(path)
    assert {k: raw[k].tensor_type for k in VALUES} == {
        "c64": "Complex64", "c128": "Complex128", "u16": "UInt16", "u32": "UInt32",
        "u64": "UInt64"}


def test_safetensors_keeps_complex64_and_unsigned_with_mindspores_codes(tmp_path):
    values = {k: v for k, v in VALUES.items() if k != "c128"}
    path = tmp_path / "d.safetensors"
    ms.save_checkpoint(_params(values), str(path), format="safetensors")
    _assert_same(ms.load_checkpoint(str(path), format="safetensors"), values)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert {k: header[k]["dtype"] for k in values} == {
        "c64": "C64", "u16": "U16", "u32": "U32", "u64": "U64"}


def test_safetensors_has_no_complex128(tmp_path):
    # safetensors defines no 128-bit complex; MindSpore 2.10's save fails with this error too
    with pytest.raises(Exception, match="complex128"):
        ms.save_checkpoint(_params({"c": VALUES["c128"]}), str(tmp_path / "c.safetensors"),
                           format="safetensors")


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_bfloat16_bits_round_trip(tmp_path, fmt):
    pytest.importorskip("ml_dtypes")
    bits = np.array([0x3FC0, 0xC010, 0x7F80, 0xFF80, 0x7FC1, 0x0001, 0x8000], np.uint16)
    t = Tensor(bits.view(ms.bfloat16.np_dtype))
    assert t.dtype is ms.bfloat16
    path = str(tmp_path / f"b.{fmt}")
    ms.save_checkpoint(_params({"b": t}), path, format=fmt)
    got = ms.load_checkpoint(path, format=fmt)["b"]
    assert got.dtype is ms.bfloat16 and got.asnumpy().dtype.name == "bfloat16"
    assert got.asnumpy().view(np.uint16).tolist() == bits.tolist()  # NaN payloads kept
    assert got.float().asnumpy()[:4].tolist() == [1.5, -2.25, np.inf, -np.inf]
