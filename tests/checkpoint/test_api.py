"""Arguments and errors as MindSpore has them, encryption, the converters, the exports."""

import io
import os
import pickle
import sys

import numpy as np
import pytest
from ckpt_helpers import FIXTURES, KEY, Bare, assert_same_params

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_checkpoint import crypto


@pytest.mark.parametrize("kwargs, error, message", [
    ({"format": "pt"}, ValueError,
     "For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got pt."),
    ({"save_obj": 3}, TypeError,
     "For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
     "<class 'int'>."),
    ({"ckpt_file_name": 3}, TypeError, "'ckpt_file_name' must be string, but got <class 'int'>"),
    ({"async_save": "fork"}, ValueError, "the argument 'async_save' can only be 'process' or "
                                         "'thread', but got fork."),
    ({"integrated_save": 1}, TypeError, "'integrated_save' must be bool"),
    ({"enc_key": "0123456789abcdef"}, TypeError, "'enc_key' must be NoneType or bytes"),
    ({"crc_check": 1}, TypeError, "'crc_check' must be bool"),
    ({"format": "safetensors", "enc_key": KEY}, ValueError,
     "For 'save_checkpoint', when format is 'safetensors', the parameter 'enc_key' must be set "
     "to default value 'None', but got "),
    ({"format": "safetensors", "global_step_num": 5}, ValueError,
     "the parameter 'global_step_num' must be set to default value 'None', but got '5'"),
    ({"integrity": "yes"}, TypeError, "'integrity' must be bool"),
    ({"integrty": False}, TypeError, "unexpected keyword arguments ['integrty']"),
    ({"save_obj": [{"name": "w", "data": np.ones(2)}]}, TypeError,
     "the data in dict should be parameter, but got <class 'numpy.ndarray'>"),
    ({"save_obj": [Tensor([1.0])]}, TypeError,
     "the param should be parameter, but got <class 'cellgrad.common.tensor.Tensor'> at index 0"),
    ({"save_obj": {"w": 3}}, TypeError, "'w' is int"),
    ({"format": "safetensors", "append_dict": {"note": "x"}}, TypeError,
     "format='safetensors' cannot hold the str value of 'note'"),
])
def test_save_argument_errors(tmp_path, kwargs, error, message):
    args = {"save_obj": Bare(), "ckpt_file_name": str(tmp_path / "x.ckpt")}
    args.update(kwargs)
    with pytest.raises(error) as info:
        ms.save_checkpoint(**args)
    assert message in str(info.value)
    assert os.listdir(tmp_path) == []


def test_load_argument_errors(tmp_path):
    missing = tmp_path / "none.ckpt"
    with pytest.raises(ValueError) as info:
        ms.load_checkpoint(str(missing))
    assert str(info.value) == (f"For 'load_checkpoint', the checkpoint file: {missing} does not "
                               f"exist, please check whether the 'ckpt_file_name' is correct.")
    with pytest.raises(ValueError, match="the checkpoint file format must same with 'format', "
                                         "but got file_name:'st.safetensors', format:'ckpt'"):
        ms.load_checkpoint("st.safetensors")
    with pytest.raises(TypeError, match="ckpt don't support BytesIO as input type"):
        ms.load_checkpoint(io.BytesIO(b""))
    with pytest.raises(ValueError, match="when format is 'safetensors', the parameter 'dec_key'"):
        ms.load_checkpoint("a.safetensors", format="safetensors", dec_key=KEY)
    with pytest.raises(ValueError, match="can't include ''"):
        ms.load_checkpoint("a.ckpt", filter_prefix=["a", ""])
    with pytest.raises(TypeError, match="the element in it must be string, but got <class 'int'> "
                                        "at index 0"):
        ms.load_checkpoint("a.ckpt", specify_prefix=[1])
    with pytest.raises(TypeError, match="'dec_key' must be NoneType or bytes"):
        ms.load_checkpoint("a.ckpt", dec_key="k")


def test_paths_may_be_pathlike(tmp_path):
    ms.save_checkpoint(Bare(), tmp_path / "p.ckpt")
    assert list(ms.load_checkpoint(tmp_path / "p.ckpt")) == ["weight", "bias"]


def test_checkpoint_error_carries_where_and_pickles():
    err = ms.CheckpointError("/x/a.ckpt", "bad bytes", offset=12, entry="fc.weight")
    assert str(err) == ("Failed to read the checkpoint file /x/a.ckpt: bad bytes (entry "
                        "'fc.weight', byte offset 12)")
    again = pickle.loads(pickle.dumps(err))
    assert (again.path, again.offset, again.entry, str(again)) == \
        ("/x/a.ckpt", 12, "fc.weight", str(err))
    assert isinstance(err, ValueError)


def test_exports_in_both_namespaces():
    from cellgrad import load_checkpoint
    from cellgrad.train import safetensors_to_ckpt

    assert load_checkpoint is ms.load_checkpoint
    assert safetensors_to_ckpt is ms.safetensors_to_ckpt
    for name in ("save_checkpoint", "load_checkpoint", "load_param_into_net",
                 "ckpt_to_safetensors", "safetensors_to_ckpt", "CheckpointError"):
        assert getattr(ms, name) is getattr(ms.train, name)


# ---- encryption ----

@pytest.fixture
def crypto_ok():
    pytest.importorskip("cryptography")


@pytest.mark.parametrize("mode, key", [("AES-GCM", KEY), ("AES-GCM", KEY * 2),
                                       ("AES-CBC", KEY), ("AES-CBC", KEY[:8] * 3),
                                       ("SM4-CBC", KEY)])
def test_encrypted_round_trip_over_several_frames(tmp_path, monkeypatch, crypto_ok, mode, key):
    monkeypatch.setattr(crypto, "BLOCK", 100)  # several frames even for a tiny body
    net = Bare(np.arange(6, dtype=np.float32).reshape(2, 3))
    path = str(tmp_path / "e.ckpt")
    ms.save_checkpoint(net, path, enc_key=key, enc_mode=mode, crc_check=True,
                       append_dict={"note": "secret"})
    data = open(path, "rb").read()
    assert data.count(crypto.MAGICS[mode].to_bytes(4, "little")) >= 3
    assert b"weight" not in data and b"secret" not in b"".join(data.split(b"\x00"))
    loaded = ms.load_checkpoint(path, dec_key=key, dec_mode=mode, crc_check=True)
    assert loaded["note"] == "secret"
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    with pytest.raises(ms.CheckpointError, match="wrong dec_key"):
        ms.load_checkpoint(path, dec_key=bytes(len(key)), dec_mode=mode)


def test_encryption_errors(tmp_path, crypto_ok):
    path = str(tmp_path / "e.ckpt")
    with pytest.raises(ValueError, match="the key for AES-GCM must be 16 or 24 or 32 bytes long, "
                                         "but got 5 bytes"):
        ms.save_checkpoint(Bare(), path, enc_key=b"short")
    with pytest.raises(ValueError, match="the mode must be one of AES-GCM, AES-CBC, SM4-CBC"):
        ms.save_checkpoint(Bare(), path, enc_key=KEY, enc_mode="DES")
    ms.save_checkpoint(Bare(), path, enc_key=KEY, enc_mode="AES-CBC")
    with pytest.raises(ms.CheckpointError, match="expected an AES-GCM frame, found AES-CBC data"):
        ms.load_checkpoint(path, dec_key=KEY)
    with pytest.raises(ms.CheckpointError, match="not encrypted|no checkpoint entries|expected"):
        ms.load_checkpoint(str(FIXTURES / "dense.ckpt"), dec_key=KEY)
    assert os.listdir(tmp_path) == ["e.ckpt"]


def test_missing_cryptography_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers", None)
    with pytest.raises(ImportError, match=r"pip install 'cellgrad-checkpoint\[crypto\]'"):
        ms.save_checkpoint(Bare(), str(tmp_path / "e.ckpt"), enc_key=KEY)
    with pytest.raises(ImportError, match=r"cellgrad-checkpoint\[crypto\]"):
        ms.load_checkpoint(str(FIXTURES / "dense_aesgcm.ckpt"), dec_key=KEY)
    assert os.listdir(tmp_path) == []


# ---- converters ----

def _params(fill):
    return {"a.w": Parameter(Tensor(np.full((2, 2), fill, np.float32)), name="a.w"),
            "b": Parameter(Tensor(np.array([1, 2], np.int8)), name="b"),
            "h": Parameter(Tensor(np.array([0.5], np.float32), dtype=ms.bfloat16), name="h")}


def test_convert_one_file_both_ways(tmp_path):
    src = tmp_path / "m.ckpt"
    ms.save_checkpoint(_params(1.5), str(src))
    ms.ckpt_to_safetensors(str(src))
    st = ms.load_checkpoint(str(tmp_path / "m.safetensors"), format="safetensors")
    assert_same_params(st, dict(sorted(_params(1.5).items())))
    out = tmp_path / "out"
    ms.safetensors_to_ckpt(str(tmp_path / "m.safetensors"), save_path=str(out),
                           name_map={"a.w": "renamed"})
    back = ms.load_checkpoint(str(out / "m.ckpt"))
    assert list(back) == ["renamed", "b", "h"]
    np.testing.assert_array_equal(back["renamed"].asnumpy(), np.full((2, 2), 1.5, np.float32))


def test_convert_rank_directories(tmp_path):
    for rank in (0, 1):
        (tmp_path / f"rank{rank}").mkdir()
        ms.save_checkpoint(_params(rank), str(tmp_path / f"rank{rank}" / f"net_{rank}.ckpt"))
    (tmp_path / "rank1" / "skip.txt").write_text("not a checkpoint")
    ms.ckpt_to_safetensors(str(tmp_path), save_path=str(tmp_path / "st"), processes_num=2)
    assert sorted(os.listdir(tmp_path / "st")) == ["rank0", "rank1"]
    loaded = ms.load_checkpoint(str(tmp_path / "st" / "rank1" / "net_1.safetensors"),
                                format="safetensors")
    assert loaded["a.w"].asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    ms.safetensors_to_ckpt(str(tmp_path / "st"), file_name_regex="net_0")
    assert sorted(os.listdir(tmp_path / "st" / "rank0")) == ["net_0.ckpt", "net_0.safetensors"]
    assert os.listdir(tmp_path / "st" / "rank1") == ["net_1.safetensors"]


@pytest.mark.parametrize("call, message", [
    (lambda p: ms.ckpt_to_safetensors(str(p / "nothing")), "must be a valid path or file"),
    (lambda p: ms.ckpt_to_safetensors(str(p), save_path=str(p / "x.st")),
     "the save_path must be a directory"),
    (lambda p: ms.ckpt_to_safetensors(str(p), name_map=[("a", "b")]),
     "the type of 'name_map' must be a directory"),
    (lambda p: ms.ckpt_to_safetensors(str(p)), "no directories starting with 'rank' found"),
    (lambda p: ms.safetensors_to_ckpt(str(p / "f.ckpt")), "must be a .safetensors file"),
])
def test_converter_errors(tmp_path, call, message):
    ms.save_checkpoint(_params(0), str(tmp_path / "f.ckpt"))
    with pytest.raises(ValueError, match=message):
        call(tmp_path)
