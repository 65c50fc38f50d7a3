"""Hostile files: shapes numpy cannot hold and files that are not regular files raise
CheckpointError naming the file (and the entry), never numpy's errors or a hang."""

import json
import os
import struct
import subprocess
import sys
import textwrap

import pytest

import cellgrad as ms
from cellgrad_checkpoint import wire


def _record(tag, tensor_fields):
    value = wire.len_field(1, tag) + wire.len_field(2, b"".join(tensor_fields))
    return wire.len_field(1, value)


def _dims(*dims):
    return [b"\x08" + wire.varint(d) for d in dims]


def _packed(*dims):
    return [wire.len_field(1, b"".join(wire.varint(d) for d in dims))]


_FLOAT32 = wire.len_field(2, b"Float32")


@pytest.mark.parametrize("fields, message", [
    (_dims(*[1] * 100) + [_FLOAT32, wire.len_field(3, bytes(4))],
     "more than 64 dimensions"),
    (_packed(*[1] * 100) + [_FLOAT32, wire.len_field(3, bytes(4))],
     "more than 64 dimensions"),
    (_packed(*[1] * 1_000_000) + [_FLOAT32, wire.len_field(3, bytes(4))],
     "more than 64 dimensions"),
    (_dims(0, 2**62) + [_FLOAT32, wire.len_field(3, b"")],
     "shape [0, 4611686018427387904] cannot be an array"),
    (_dims(2**62, 0, 2**62) + [_FLOAT32, wire.len_field(3, b"")],
     "cannot be an array"),
])
def test_hostile_shapes_raise_checkpoint_error_naming_file_and_entry(tmp_path, fields, message):
    path = tmp_path / "hostile.ckpt"
    path.write_bytes(_record(b"evil", fields))
    with pytest.raises(ms.CheckpointError) as info:
        ms.load_checkpoint(str(path))
    assert type(info.value) is ms.CheckpointError
    assert message in str(info.value)
    assert str(path) in str(info.value)
    assert info.value.entry == "evil"
    assert len(str(info.value)) < 400  # a million dimensions are not printed


@pytest.mark.parametrize("shape, message", [
    ([1] * 100, "100 dimensions, more than the 64"),
    ([0, 2**62], "cannot be an array"),
])
def test_hostile_safetensors_shapes_raise_checkpoint_error(tmp_path, shape, message):
    header = json.dumps({"evil": {"dtype": "F32", "shape": shape,
                                  "data_offsets": [0, 0 if 0 in shape else 4]}}).encode()
    header += b" " * (-len(header) % 8)
    path = tmp_path / "hostile.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + bytes(0 if 0 in shape else 4))
    with pytest.raises(ms.CheckpointError) as info:
        ms.load_checkpoint(str(path), format="safetensors")
    assert str(path) in str(info.value)
    assert message in str(info.value)
    assert info.value.entry == "evil"


_FIFO_CHILD = textwrap.dedent("""
    import sys
    import cellgrad as ms
    try:
        ms.load_checkpoint(sys.argv[1], format=sys.argv[2])
    except ms.CheckpointError as e:
        print("refused:", e)
""")


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_a_fifo_is_refused_without_blocking(tmp_path, fmt):
    fifo = tmp_path / f"pipe.{fmt}"
    os.mkfifo(fifo)
    # in a child: a regression would block forever in open(), which no timeout can interrupt
    done = subprocess.run([sys.executable, "-c", _FIFO_CHILD, str(fifo), fmt],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "refused:" in done.stdout
    assert "a FIFO (named pipe), not a regular file" in done.stdout
    assert str(fifo) in done.stdout


def test_a_directory_named_ckpt_is_refused(tmp_path):
    directory = tmp_path / "dir.ckpt"
    directory.mkdir()
    with pytest.raises(ms.CheckpointError, match="a directory, not a regular file"):
        ms.load_checkpoint(str(directory))
