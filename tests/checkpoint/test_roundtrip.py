"""Round trips: every dtype and shape, both formats, every way of giving `save_obj`."""

import warnings

import numpy as np
import pytest
from ckpt_helpers import Bare, assert_same_params
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad_checkpoint import ckpt_writer
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.save import write_file

NUMPY = {ms.bool_: np.bool_, ms.int8: np.int8, ms.int16: np.int16, ms.int32: np.int32,
         ms.int64: np.int64, ms.uint8: np.uint8, ms.float16: np.float16,
         ms.float32: np.float32, ms.float64: np.float64, ms.bfloat16: np.float32}
shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
TMP_OK = [HealthCheck.function_scoped_fixture]  # tmp_path is reused: each example overwrites


@st.composite
def tensors(draw):
    dtype = draw(st.sampled_from(sorted(NUMPY, key=str)))
    arr = draw(hnp.arrays(NUMPY[dtype], shapes))
    return Tensor(arr, dtype=dtype)


def _same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    x, y = a.asnumpy(), b.asnumpy()
    assert x.dtype == y.dtype and x.tobytes() == y.tobytes()  # bfloat16's bits too


@settings(max_examples=60, deadline=None, suppress_health_check=TMP_OK)
@given(values=st.lists(tensors(), min_size=1, max_size=5),
       options=st.sampled_from([{}, {"integrity": False}, {"crc_check": True},
                                {"crc_check": True, "integrity": False}]))
def test_ckpt_round_trip_every_dtype_and_shape(tmp_path, values, options):
    params = {f"p{i}.w": Parameter(v, name=f"p{i}.w") for i, v in enumerate(values)}
    path = str(tmp_path / "x.ckpt")
    ms.save_checkpoint(params, path, **options)
    loaded = ms.load_checkpoint(path, crc_check=options.get("crc_check", False))
    assert list(loaded) == list(params)
    for name in params:
        _same(loaded[name], params[name])
        assert loaded[name].name == name and loaded[name].requires_grad


@settings(max_examples=40, deadline=None, suppress_health_check=TMP_OK)
@given(values=st.lists(tensors(), min_size=1, max_size=4), crc=st.booleans())
def test_safetensors_round_trip(tmp_path, values, crc):
    params = {f"t{i}": Parameter(v, name=f"t{i}") for i, v in enumerate(values)}
    # MindSpore's CRC covers bytes(n) for a 0-d integer n: no CRC exists for n < 0
    assume(not crc or not any(v.ndim == 0 and v.dtype.kind == 1 and int(v) < 0 for v in values))
    path = str(tmp_path / "x.safetensors")
    ms.save_checkpoint(params, path, format="safetensors", crc_check=crc)
    loaded = ms.load_checkpoint(path, format="safetensors", crc_check=crc)
    assert list(loaded) == sorted(params)
    for name in params:
        _same(loaded[name], params[name])


def test_zero_size_tensors_are_kept_unlike_mindspore(tmp_path):
    # MindSpore silently drops them from .ckpt files (its writer loops over no bytes)
    params = {"empty": Parameter(Tensor(np.zeros((0, 3), np.float32)), name="empty"),
              "flat": Parameter(Tensor(np.zeros((0,), np.int32)), name="flat"),
              "w": Parameter(Tensor(np.ones(2, np.float32)), name="w")}
    path = str(tmp_path / "z.ckpt")
    ms.save_checkpoint(params, path)
    loaded = ms.load_checkpoint(path)
    assert [(k, v.shape, str(v.dtype)) for k, v in loaded.items()] == [
        ("empty", (0, 3), "Float32"), ("flat", (0,), "Int32"), ("w", (2,), "Float32")]


def test_append_dict_values(tmp_path, dense_params):
    path = str(tmp_path / "a.ckpt")
    extra = {"epoch": 2**40, "lr": 0.01, "done": False, "note": "∑ héllo", "t": Tensor([1, 2]),
             "neg": -5}
    ms.save_checkpoint(dense_params, path, append_dict=extra)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["weight", "bias", "epoch", "lr", "done", "note", "t", "neg"]
    assert (str(loaded["epoch"].dtype), loaded["epoch"].shape, int(loaded["epoch"])) == \
        ("Int64", (), 2**40)
    assert float(loaded["lr"]) == float(np.float32(0.01)) and loaded["lr"].dtype == ms.float32
    assert loaded["done"].dtype == ms.bool_ and not bool(loaded["done"])
    assert loaded["note"] == "∑ héllo"
    assert loaded["t"].asnumpy().tolist() == [1, 2] and int(loaded["neg"]) == -5


@pytest.mark.parametrize("bad, error", [
    ({"x": [1, 2]}, TypeError), ({1: 2}, TypeError), ({"big": 2**63}, ValueError)])
def test_append_dict_rejects_what_mindspore_rejects(tmp_path, dense_params, bad, error):
    with pytest.raises(error, match="save_checkpoint"):
        ms.save_checkpoint(dense_params, str(tmp_path / "a.ckpt"), append_dict=bad)


def test_save_obj_forms_give_the_same_file(tmp_path):
    net = Bare(np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1, 2], np.float32))
    forms = {
        "cell": net,
        "params": [net.weight, net.bias],
        "dicts": [{"name": "weight", "data": net.weight}, {"name": "bias", "data": net.bias}],
        "mapping": {"weight": net.weight, "bias": Tensor(net.bias.asnumpy())},
        "arrays": {"weight": net.weight.asnumpy(), "bias": net.bias.asnumpy()},
    }
    files = {}
    for label, obj in forms.items():
        ms.save_checkpoint(obj, str(tmp_path / f"{label}.ckpt"))
        files[label] = (tmp_path / f"{label}.ckpt").read_bytes()
    assert len(set(files.values())) == 1


def test_choice_func_and_order_of_nested_cells(tmp_path):
    seq = nn.SequentialCell([Bare(), Bare()])
    path = str(tmp_path / "s.ckpt")
    ms.save_checkpoint(seq, path)
    assert list(ms.load_checkpoint(path)) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    ms.save_checkpoint(seq, path, choice_func=lambda name: name.endswith("weight"))
    assert list(ms.load_checkpoint(path)) == ["0.weight", "1.weight"]


def test_shared_parameter_saved_once_and_duplicate_names_keep_the_later_value(tmp_path):
    a = Parameter(Tensor(np.ones(2, np.float32)), name="same")
    b = Parameter(Tensor(np.full(2, 7, np.float32)), name="same")
    c = Parameter(Tensor(np.zeros(1, np.float32)), name="other")
    path = str(tmp_path / "d.ckpt")
    ms.save_checkpoint([a, c, b], path)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["same", "other"]
    assert loaded["same"].asnumpy().tolist() == [7.0, 7.0]


def test_load_filters(tmp_path):
    seq = nn.SequentialCell([Bare(), Bare()])
    path = str(tmp_path / "s.ckpt")
    ms.save_checkpoint(seq, path)
    assert list(ms.load_checkpoint(path, specify_prefix="1.")) == ["1.weight", "1.bias"]
    assert list(ms.load_checkpoint(path, filter_prefix=["1.", "0.b"])) == ["0.weight"]
    assert list(ms.load_checkpoint(path, choice_func=lambda n: "bias" in n)) == \
        ["0.bias", "1.bias"]
    # the prefixes replace choice_func, as in MindSpore
    assert list(ms.load_checkpoint(path, specify_prefix="0.", choice_func=lambda n: False)) == \
        ["0.weight", "0.bias"]
    with pytest.raises(ValueError, match="The loaded parameter dict is empty after filter"):
        ms.load_checkpoint(path, choice_func=lambda n: False)


def test_safetensors_crc_of_zero_d_integers_follows_mindspores_quirk(tmp_path):
    path = str(tmp_path / "q.safetensors")
    ms.save_checkpoint({"w": Tensor([1.0])}, path, format="safetensors", crc_check=True,
                       append_dict={"epoch": 3, "step": 2**40})
    loaded = ms.load_checkpoint(path, format="safetensors", crc_check=True)
    assert int(loaded["step"]) == 2**40
    with pytest.raises(ValueError, match="fails for a negative 0-d integer"):
        ms.save_checkpoint({"w": Tensor([1.0])}, path, format="safetensors", crc_check=True,
                           append_dict={"epoch": -1})


def test_large_tensors_are_chunked_like_mindspore(tmp_path, monkeypatch):
    monkeypatch.setattr(ckpt_writer, "CHUNK", 100)
    arr = np.arange(99, dtype=np.float32).reshape(3, 33)  # 396 bytes: chunks 100,100,100,96
    params = {"big": Parameter(Tensor(arr), name="big"),
              "small": Parameter(Tensor(np.ones(3, np.int8)), name="small")}
    for marks in (True, False):
        path = str(tmp_path / f"c{marks}.ckpt")
        ms.save_checkpoint(params, path, integrity=marks)
        data = (tmp_path / f"c{marks}.ckpt").read_bytes()
        assert data.count(b"\n\x03big") == 4  # four records with the same tag
        loaded = ms.load_checkpoint(path)
        np.testing.assert_array_equal(loaded["big"].asnumpy(), arr)
        assert list(loaded) == ["big", "small"]


def test_later_nonadjacent_duplicate_replaces_the_earlier_in_its_place(tmp_path):
    entries = [Entry("a", "Int32", (1,), np.array([1], np.int32)),
               Entry("b", "Int32", (1,), np.array([2], np.int32)),
               Entry("a", "Int32", (1,), np.array([3], np.int32))]
    path = str(tmp_path / "dup.ckpt")
    write_file(path, entries)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["a", "b"] and loaded["a"].asnumpy().tolist() == [3]


def test_unsigned_dtypes_load_as_themselves(tmp_path):
    entries = [Entry("u16", "UInt16", (2,), np.array([0, 65535], "<u2")),
               Entry("u32", "UInt32", (1,), np.array([2**32 - 1], "<u4")),
               Entry("u64", "UInt64", (1,), np.array([2**64 - 1], "<u8"))]
    path = str(tmp_path / "u.ckpt")
    write_file(path, entries)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = ms.load_checkpoint(path)
    assert [(str(v.dtype), v.asnumpy().tolist()) for v in loaded.values()] == [
        ("UInt16", [0, 65535]), ("UInt32", [2**32 - 1]), ("UInt64", [2**64 - 1])]


def test_a_loaded_dict_saves_back_to_the_same_file(tmp_path):
    net = Bare(np.arange(6, dtype=np.float32).reshape(2, 3))
    first, second = str(tmp_path / "1.ckpt"), str(tmp_path / "2.ckpt")
    ms.save_checkpoint(net, first, append_dict={"note": "x", "step": 3})
    ms.save_checkpoint(ms.load_checkpoint(first), second)
    assert (tmp_path / "1.ckpt").read_bytes() == (tmp_path / "2.ckpt").read_bytes()
    assert_same_params(ms.load_checkpoint(first), ms.load_checkpoint(second))
