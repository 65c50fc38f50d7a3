"""Every MindSpore 2.10 fixture reads back to its sidecar, and saving its values reproduces it."""

import io
import json
import struct

import pytest
from ckpt_helpers import FIXTURES, KEY, expected, sidecar, values

import cellgrad as ms
from cellgrad_checkpoint import integrity

CKPT = ["dense", "sequential", "dtypes", "dense_crc", "dense_append", "dense_append_str",
        "dense_truncated_at_boundary"]


@pytest.mark.parametrize("name", CKPT)
def test_fixture_reads_back_to_its_sidecar(name):
    side = sidecar(f"{name}.ckpt")
    loaded = ms.load_checkpoint(str(FIXTURES / f"{name}.ckpt"))
    want = side["load_checkpoint"]["default"]["entries"]
    assert list(loaded) == [e["name"] for e in want]
    for entry in want:
        assert values(loaded[entry["name"]]) == expected(entry), entry["name"]


def test_loaded_values_are_parameters_named_after_their_entry():
    loaded = ms.load_checkpoint(str(FIXTURES / "dense_append_str.ckpt"))
    assert repr(loaded["weight"]) == ("Parameter (name=weight, shape=(2, 3), dtype=Float32, "
                                      "requires_grad=True)")
    assert loaded["note"] == "héllo" and type(loaded["note"]) is str
    assert repr(loaded["flag"]) == "Parameter (name=flag, shape=(), dtype=Bool, requires_grad=True)"
    assert type(loaded) is dict


def test_bfloat16_fixture_loads_into_cellgrads_bfloat16_exactly():
    loaded = ms.load_checkpoint(str(FIXTURES / "dtypes.ckpt"))
    bf16 = loaded["bf16"]
    assert bf16.dtype == ms.bfloat16
    assert bf16.asnumpy().tolist() == [1.0, -3.5, 0.10009765625]


@pytest.mark.parametrize("name", ["dense", "sequential", "dtypes", "dense_crc"])
def test_saving_a_fixtures_values_reproduces_it_byte_for_byte(tmp_path, name):
    params = ms.load_checkpoint(str(FIXTURES / f"{name}.ckpt"))
    out = tmp_path / f"{name}.ckpt"
    ms.save_checkpoint(params, str(out), integrity=False, crc_check=name == "dense_crc")
    assert out.read_bytes() == (FIXTURES / f"{name}.ckpt").read_bytes()


@pytest.mark.parametrize("name, extra", [
    ("dense_append", {"epoch": 3, "lr": 0.01}),
    ("dense_append_str", {"note": "héllo", "flag": True}),
])
def test_append_dict_reproduces_mindspores_bytes(tmp_path, dense_params, name, extra):
    out = tmp_path / "x.ckpt"
    ms.save_checkpoint(dense_params, str(out), append_dict=extra, integrity=False)
    assert out.read_bytes() == (FIXTURES / f"{name}.ckpt").read_bytes()


def test_default_save_is_the_fixture_between_cellgrads_header_and_footer(tmp_path, dense_params):
    out = tmp_path / "dense.ckpt"
    ms.save_checkpoint(dense_params, str(out))
    data, body = out.read_bytes(), (FIXTURES / "dense.ckpt").read_bytes()
    head = integrity.HEADER_SIZE
    assert data[head:head + len(body)] == body
    assert data[:head] == integrity.header(len(data), 2)
    assert data[head + len(body):].endswith(integrity.FOOTER_MAGIC)
    assert len(data) == head + len(body) + integrity.footer_size(2)


def test_crc_fixture_loads_with_and_without_crc_check():
    for kwargs in ({}, {"crc_check": True}):
        loaded = ms.load_checkpoint(str(FIXTURES / "dense_crc.ckpt"), **kwargs)
        assert values(loaded["weight"]) == expected(sidecar("dense_crc.ckpt")
                                                    ["expected_entries_in_file_order"][0])


@pytest.mark.parametrize("crc_check", [False, True])
def test_flipped_crc_fixture_is_refused_even_without_crc_check(crc_check):
    # MindSpore loads it silently (weight[0][0] = 0.125) unless crc_check=True.
    path = str(FIXTURES / "dense_crc_flipped.ckpt")
    with pytest.raises(ms.CheckpointError, match="CRC-32 of the body is .* its trailer says "
                                                 "4173584408") as info:
        ms.load_checkpoint(path, crc_check=crc_check)
    assert info.value.path == path and info.value.offset == 82


def test_truncated_fixture_names_the_cut_entry_and_offset():
    with pytest.raises(ms.CheckpointError) as info:
        ms.load_checkpoint(str(FIXTURES / "dense_truncated.ckpt"))
    assert (info.value.entry, info.value.offset) == ("bias", 51)
    assert "claims 29 bytes but only 8 remain" in str(info.value)
    assert isinstance(info.value, ValueError)  # MindSpore raises ValueError


def test_encrypted_fixture(tmp_path):
    path = str(FIXTURES / "dense_aesgcm.ckpt")
    pytest.importorskip("cryptography")
    loaded = ms.load_checkpoint(path, dec_key=KEY)
    for entry in sidecar("dense_aesgcm.ckpt")["expected_entries_in_file_order"]:
        assert values(loaded[entry["name"]]) == expected(entry)
    with pytest.raises(ms.CheckpointError, match=r"encrypted \(AES-GCM\); pass its key as "
                                                 r"dec_key"):
        ms.load_checkpoint(path)
    with pytest.raises(ms.CheckpointError, match="wrong dec_key"):
        ms.load_checkpoint(path, dec_key=b"fedcba9876543210")


@pytest.mark.parametrize("name, kwargs", [("dense.safetensors", {}),
                                          ("dense_crc.safetensors", {"crc_check": True})])
def test_safetensors_fixtures(name, kwargs):
    loaded = ms.load_checkpoint(str(FIXTURES / name), format="safetensors", **kwargs)
    want = sidecar(name)["expected_entries_in_file_order"]
    assert list(loaded) == [e["name"] for e in want]  # sorted, as MindSpore returns them
    for entry in want:
        assert values(loaded[entry["name"]]) == expected(entry)


def test_safetensors_from_bytesio():
    data = io.BytesIO((FIXTURES / "dense.safetensors").read_bytes())
    loaded = ms.load_checkpoint(data, format="safetensors")
    assert values(loaded["bias"]) == ("Float32", [2], [0.25, -0.75])


def _header(data):
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + n]), data[8 + n:]


def test_safetensors_save_matches_mindspores_file(tmp_path, dense_params):
    out = tmp_path / "dense.safetensors"
    ms.save_checkpoint(dense_params, str(out), format="safetensors", integrity=False)
    assert out.read_bytes() == (FIXTURES / "dense.safetensors").read_bytes()
    # with crc_num the metadata order is the safetensors package's (a Rust HashMap: random),
    # so MindSpore's own files differ run to run; compare the header as JSON and the data
    out = tmp_path / "crc.safetensors"
    ms.save_checkpoint(dense_params, str(out), format="safetensors", integrity=False,
                       crc_check=True)
    assert _header(out.read_bytes()) == _header((FIXTURES / "dense_crc.safetensors").read_bytes())
