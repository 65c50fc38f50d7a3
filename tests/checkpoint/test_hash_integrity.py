"""The XXH3-64 hash (footer b"CGCKPTF2", safetensors mark): the damage the legacy `Sum64`
missed is detected, the safetensors header is covered, legacy files still verify."""

import json
import os
import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import safetensors

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_checkpoint import integrity
from cellgrad_checkpoint.safetensors_format import HASHES_KEY, MARK_KEY

F1 = Path(__file__).parent / "fixtures" / "cellgrad-f1"
PIECE = integrity.PIECE
ROW = 8192
_N = 3 * PIECE // 4  # float32 elements: 12 MiB, three pieces

# `CELLGRAD_STRESS_SCALE=N tox -e stress` tries N times as many crafted cases.
SCALE = int(os.environ.get("CELLGRAD_STRESS_SCALE", "1"))


def _big():
    return np.random.default_rng(7).standard_normal(_N).astype(np.float32)


def _save(tmp_path, fmt):
    path = tmp_path / f"big.{fmt}"
    ms.save_checkpoint({"w": Parameter(Tensor(_big()), name="w"),
                        "b": Parameter(Tensor(np.arange(4, dtype=np.float32)), name="b")},
                       str(path), format=fmt)
    data = path.read_bytes()
    start = data.index(_big().tobytes())
    return path, bytearray(data), start


def _load(path, fmt, data):
    path.write_bytes(bytes(data))
    return ms.load_checkpoint(str(path), format=fmt)


@pytest.mark.stress
@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_two_sign_flips_that_cancel_in_sum64_are_detected(tmp_path, fmt):
    path, good, start = _save(tmp_path, fmt)
    tensor = np.frombuffer(bytes(good[start:start + 4 * _N]), np.float32)
    rng = np.random.default_rng(1)
    for trial in range(10 * SCALE):
        piece = int(rng.integers(3))
        first, second = 2 * rng.choice(PIECE // 8, 2, replace=False) + 1  # odd elements
        bad = bytearray(good)
        for element in (first, second):
            # bit 31 of an odd float32 element is bit 63 of its little-endian u64 word
            bad[start + piece * PIECE + 4 * int(element) + 3] ^= 0x80
        changed = np.frombuffer(bytes(bad[start:start + 4 * _N]), np.float32)
        assert np.count_nonzero(changed != tensor) == 2
        assert integrity.sum64(changed) == integrity.sum64(tensor), "the crafted case"
        with pytest.raises(ms.CheckpointError, match="checksum") as info:
            _load(path, fmt, bad)
        assert info.value.entry == "w", trial


@pytest.mark.stress
@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_two_8kib_rows_swapped_inside_a_piece_are_detected(tmp_path, fmt):
    path, good, start = _save(tmp_path, fmt)
    rng = np.random.default_rng(2)
    for trial in range(10 * SCALE):
        piece = int(rng.integers(3))
        i, j = sorted(rng.choice(PIECE // ROW, 2, replace=False))
        a = start + piece * PIECE + int(i) * ROW
        b = start + piece * PIECE + int(j) * ROW
        bad = bytearray(good)
        bad[a:a + ROW], bad[b:b + ROW] = good[b:b + ROW], good[a:a + ROW]
        assert bad != good
        assert integrity.sum64(bad[start:start + 4 * _N]) == \
            integrity.sum64(good[start:start + 4 * _N]), "the crafted case"
        with pytest.raises(ms.CheckpointError, match="checksum") as info:
            _load(path, fmt, bad)
        assert info.value.entry == "w", trial


@pytest.mark.stress
@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_two_whole_pieces_swapped_are_detected(tmp_path, fmt):
    path, good, start = _save(tmp_path, fmt)
    bad = bytearray(good)
    first, second = slice(start, start + PIECE), slice(start + PIECE, start + 2 * PIECE)
    bad[first], bad[second] = good[second], good[first]
    with pytest.raises(ms.CheckpointError, match="checksum"):
        _load(path, fmt, bad)
    assert _load(path, fmt, good)["w"].asnumpy().tobytes() == _big().tobytes()


def test_data_hash_is_the_same_whole_in_pieces_and_on_a_thread():
    data = np.random.default_rng(3).integers(0, 256, 2 * PIECE + 123, np.uint8)
    whole = integrity.data_hash(data)
    fed = integrity.DataHash()
    fed.update(data[:PIECE])
    fed.update(data[PIECE:])
    with ThreadPoolExecutor(1) as pool:
        threaded = integrity.DataHash()
        threaded.update(data, pool)
        assert threaded.digest() == whole
    assert fed.digest() == whole
    pieces = [integrity.xxh3(data[s:s + PIECE]) for s in range(0, data.size, PIECE)]
    assert integrity.combine(pieces, data.size) == whole
    assert integrity.combine(pieces[::-1], data.size) != whole  # the order counts
    assert integrity.data_hash(b"") != integrity.data_hash(bytes(8))  # the length counts
    with pytest.raises(ValueError, match="only the last piece may be shorter"):
        fed.update(b"x")


def test_new_files_carry_the_f2_footer_and_its_hash_covers_the_header(tmp_path):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint({"b": Parameter(Tensor(np.arange(4, dtype=np.float32)), name="b")},
                       str(path))
    data = bytearray(path.read_bytes())
    assert data.endswith(b"CGCKPTF2")
    count_at = integrity.HEADER_SIZE - 8  # the header's entry count
    data[count_at] ^= 0x02
    with pytest.raises(ms.CheckpointError, match="header"):
        _load(path, "ckpt", data)


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_legacy_f1_files_load_and_are_verified_with_sum64(tmp_path, fmt):
    data = (F1 / f"net.{fmt}").read_bytes()
    if fmt == "ckpt":
        assert data.endswith(b"CGCKPTF1")
    else:
        assert b'"cellgrad.sum64"' in data and MARK_KEY.encode() not in data
    path = tmp_path / f"old.{fmt}"
    loaded = _load(path, fmt, data)
    w = np.random.default_rng(21).standard_normal((300, 256)).astype(np.float32)
    assert loaded["w"].asnumpy().tobytes() == w.tobytes()
    assert loaded["b"].asnumpy().tolist() == list(range(8))
    assert int(loaded["step"].asnumpy()) == 7
    bad = bytearray(data)
    bad[data.index(w.tobytes()) + 1000] ^= 0x01
    with pytest.raises(ms.CheckpointError, match="checksum") as info:
        _load(path, fmt, bad)
    assert info.value.entry == "w"


# ---- the safetensors header ----
def _small_safetensors(tmp_path):
    path = tmp_path / "net.safetensors"
    ms.save_checkpoint({"w": Parameter(Tensor(np.arange(12, dtype=np.float32)), name="w")},
                       str(path), format="safetensors")
    data = bytearray(path.read_bytes())
    (length,) = struct.unpack("<Q", data[:8])
    return path, data, 8 + length


def test_the_mark_covers_every_byte_of_the_safetensors_header(tmp_path):
    path, good, end = _small_safetensors(tmp_path)
    meta = json.loads(good[8:end])["__metadata__"]
    assert set(meta) == {"format", HASHES_KEY, MARK_KEY}
    for pos in range(end):
        for bit in (0x01, 0x80):
            bad = bytearray(good)
            bad[pos] ^= bit
            with pytest.raises(ms.CheckpointError):
                _load(path, "safetensors", bad)
    assert _load(path, "safetensors", good)["w"].asnumpy().tolist() == list(range(12))


@pytest.mark.parametrize("key", [HASHES_KEY, MARK_KEY])
def test_a_flipped_key_name_makes_the_file_damaged_not_unchecked(tmp_path, key):
    path, good, end = _small_safetensors(tmp_path)
    at = good.index(f'"{key}"'.encode()) + 5
    bad = bytearray(good)
    bad[at] ^= 0x01  # one bit in our key's name
    with pytest.raises(ms.CheckpointError, match="written by cellgrad.*damaged"):
        _load(path, "safetensors", bad)
    bad[-3] ^= 0x40  # and a second flip in the data: still not loaded
    with pytest.raises(ms.CheckpointError, match="written by cellgrad.*damaged"):
        _load(path, "safetensors", bad)


def test_our_key_without_a_valid_mark_is_damaged(tmp_path):
    path = tmp_path / "x.safetensors"
    w = np.arange(4, dtype=np.float32)
    spec = {"w": safetensors.TensorSpec(dtype="float32", shape=[4], data_ptr=w.ctypes.data,
                                        data_len=w.nbytes)}
    for metadata in ({"format": "ms", HASHES_KEY: json.dumps({"w": "0" * 16})},
                     {"format": "ms", MARK_KEY: "0" * 16},
                     {"format": "ms", HASHES_KEY: "{}", MARK_KEY: "zz"}):
        safetensors.serialize_file(spec, str(path), metadata=metadata)
        with pytest.raises(ms.CheckpointError, match="written by cellgrad.*damaged"):
            ms.load_checkpoint(str(path), format="safetensors")


def test_a_safetensors_file_of_another_tool_loads_unchecked(tmp_path):
    path = tmp_path / "other.safetensors"
    w = np.arange(4, dtype=np.float32)
    spec = {"w": safetensors.TensorSpec(dtype="float32", shape=[4], data_ptr=w.ctypes.data,
                                        data_len=w.nbytes)}
    safetensors.serialize_file(spec, str(path), metadata={"format": "pt"})
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01  # undetectable without our mark: loads the changed value
    path.write_bytes(bytes(data))
    assert ms.load_checkpoint(str(path), format="safetensors")["w"].asnumpy()[3] != 3.0


def test_safetensors_written_without_marks_are_the_packages_bytes(tmp_path):
    rng = np.random.default_rng(5)
    arrays = {"zeta": rng.standard_normal((2, 3)).astype(np.float32),
              "alpha": np.arange(3, dtype=np.int8), "mid": np.arange(2, dtype=np.float64),
              "step": np.array(3, np.int32), "h": np.ones(3, np.float16),
              "nom\u00e9 \"q\"": np.ones(5, np.uint8), "flag": np.ones(2, np.bool_)}
    path = tmp_path / "plain.safetensors"
    ms.save_checkpoint({k: Parameter(Tensor(v), name=k) for k, v in arrays.items()},
                       str(path), format="safetensors", integrity=False)
    specs = {k: safetensors.TensorSpec(dtype=v.dtype.name, shape=list(v.shape),
                                       data_ptr=v.ctypes.data, data_len=v.nbytes)
             for k, v in arrays.items()}
    assert path.read_bytes() == safetensors.serialize(specs, metadata={"format": "ms"})
