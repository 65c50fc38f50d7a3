"""Damaged files: truncation at every offset, every bit flipped, random bytes, lying lengths.

Files cellgrad writes must never load wrong values: any damage raises CheckpointError (or,
for bytes nothing depends on, loads the original values). Files without cellgrad's marks
(MindSpore's) may load silently changed data bytes, but only ever raise CheckpointError.
"""

import tracemalloc
import warnings

import numpy as np
import pytest
from ckpt_helpers import FIXTURES, KEY, assert_same_params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_checkpoint import wire

TMP_OK = [HealthCheck.function_scoped_fixture]


def _params():
    return {"weight": Parameter(Tensor(np.array([[0.5, -1.25, 2.0], [0.1, 0.2, -0.3]],
                                                np.float32)), name="weight"),
            "bias": Parameter(Tensor(np.array([0.25, -0.75], np.float32)), name="bias"),
            "h": Parameter(Tensor(np.array([1.5, 2.5], np.float16)), name="h")}


def _saved(tmp_path, **options):
    path = tmp_path / "good.ckpt"
    ms.save_checkpoint(_params(), str(path), append_dict={"epoch": 3, "note": "hé"}, **options)
    return path.read_bytes()


def _load(tmp_path, data, name="bad.ckpt", **kwargs):
    path = tmp_path / name
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ms.load_checkpoint(str(path), **kwargs)


@pytest.mark.stress
@pytest.mark.parametrize("options", [{}, {"crc_check": True}])
def test_truncation_at_every_offset_is_detected(tmp_path, options):
    data = _saved(tmp_path, **options)
    for cut in range(len(data)):
        with pytest.raises(ms.CheckpointError) as info:
            _load(tmp_path, data[:cut])
        assert info.value.offset is not None, cut


@pytest.mark.stress
def test_truncation_of_an_encrypted_file_is_detected(tmp_path):
    pytest.importorskip("cryptography")
    data = _saved(tmp_path, enc_key=KEY)
    for cut in range(len(data)):
        with pytest.raises(ms.CheckpointError):
            _load(tmp_path, data[:cut], dec_key=KEY)


@pytest.mark.stress
def test_every_single_bit_flip_is_detected(tmp_path):
    data = _saved(tmp_path)
    for i in range(len(data)):
        for bit in range(8):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            with pytest.raises(ms.CheckpointError):
                _load(tmp_path, bytes(bad))


@pytest.mark.stress
@pytest.mark.parametrize("options", [{"crc_check": True}, {"integrity": False}])
def test_bit_flips_never_load_wrong_values(tmp_path, options):
    # crc_check without crc on load: the footer verifies, the CRC value itself is not read;
    # integrity=False: MindSpore's bytes, where a data byte flip is undetectable
    data = _saved(tmp_path, **options)
    good = _load(tmp_path, data)
    undetected = 0
    for i in range(len(data)):
        for bit in range(8):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            try:
                loaded = _load(tmp_path, bytes(bad))
            except ms.CheckpointError:
                continue
            undetected += 1
            if options.get("crc_check"):
                assert_same_params(loaded, good)
    if options.get("crc_check"):
        assert 0 < undetected <= 8 * 10  # only the trailer's CRC digits go unread
    if options.get("crc_check") is True:
        for i in range(len(data) - 10, len(data)):
            bad = bytearray(data)
            bad[i] ^= 1
            with pytest.raises(ms.CheckpointError, match="CRC-32"):
                _load(tmp_path, bytes(bad), crc_check=True)


@pytest.mark.stress
@pytest.mark.parametrize("name", ["dense", "dtypes", "dense_append_str", "dense_crc"])
def test_damaged_mindspore_fixtures_only_raise_checkpoint_error(tmp_path, name):
    data = (FIXTURES / f"{name}.ckpt").read_bytes()
    for cut in range(len(data)):
        try:
            _load(tmp_path, data[:cut])
        except ms.CheckpointError:
            pass
    rng = np.random.default_rng(0)
    for _ in range(300):
        bad = bytearray(data)
        for i in rng.integers(0, len(data), size=rng.integers(1, 4)):
            bad[i] ^= 1 << int(rng.integers(0, 8))
        try:
            _load(tmp_path, bytes(bad))
        except ms.CheckpointError:
            pass


@pytest.mark.stress
@settings(max_examples=300, deadline=None, suppress_health_check=TMP_OK)
@given(st.binary(min_size=0, max_size=200))
def test_random_bytes_only_raise_checkpoint_error(tmp_path, data):
    try:
        _load(tmp_path, data)
    except ms.CheckpointError:
        pass


@pytest.mark.stress
@settings(max_examples=150, deadline=None, suppress_health_check=TMP_OK)
@given(st.binary(min_size=0, max_size=120), st.integers(0, 200))
def test_random_safetensors_only_raise_checkpoint_error(tmp_path, data, cut):
    good = (FIXTURES / "dense.safetensors").read_bytes()
    for candidate in (data, good[:cut] + data, good[:cut]):
        try:
            _load(tmp_path, candidate, "bad.safetensors", format="safetensors")
        except ms.CheckpointError:
            pass


def test_safetensors_flipped_data_byte_is_detected(tmp_path):
    path = tmp_path / "x.safetensors"
    ms.save_checkpoint(_params(), str(path), format="safetensors")
    data = bytearray(path.read_bytes())
    data[bytes(data).index(np.float32(2.0).tobytes()) + 3] ^= 0x10
    with pytest.raises(ms.CheckpointError, match="does not match its checksum") as info:
        _load(tmp_path, bytes(data), "bad.safetensors", format="safetensors")
    assert info.value.entry == "weight"


def _record(tag, tensor_fields):
    tensor = b"".join(tensor_fields)
    value = wire.len_field(1, tag) + wire.len_field(2, tensor)
    return wire.len_field(1, value)


def _dims(*dims):
    return [b"\x08" + wire.varint(d) for d in dims]


def test_a_tiny_file_claiming_100_gb_allocates_nothing(tmp_path):
    data = b"\x0a" + wire.varint(100 * 2**30) + b"\x0a\x01w"  # 10 bytes
    assert len(data) == 10
    tracemalloc.start()
    try:
        with pytest.raises(ms.CheckpointError, match="claims 107374182400 bytes but only 3 "
                                                     "remain") as info:
            _load(tmp_path, data)
        assert tracemalloc.get_traced_memory()[1] < 1 << 20
    finally:
        tracemalloc.stop()
    assert (info.value.offset, info.value.entry) == (0, "w")


def test_a_shape_claiming_terabytes_with_24_bytes_of_data(tmp_path):
    data = _record(b"w", _dims(10**6, 10**6) + [wire.len_field(2, b"Float32"),
                                                wire.len_field(3, bytes(24))])
    tracemalloc.start()
    try:
        with pytest.raises(ms.CheckpointError, match=r"the data is 24 bytes, but shape "
                                                     r"\(1000000, 1000000\) of Float32 needs "
                                                     r"4000000000000"):
            _load(tmp_path, data)
        assert tracemalloc.get_traced_memory()[1] < 1 << 20
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fields, message", [
    (_dims(2) + [wire.len_field(2, b"Float32"), wire.len_field(3, bytes(4))],
     "the data is 4 bytes, but shape (2,) of Float32 needs 8"),
    (_dims(2) + [wire.len_field(2, b"Float32"), wire.len_field(3, bytes(12))],
     "the data is 12 bytes, but shape (2,) of Float32 needs 8"),
    (_dims(2) + [wire.len_field(2, b"float32"), wire.len_field(3, bytes(8))],
     "unknown tensor_type 'float32'"),
    (_dims(2) + [wire.len_field(3, bytes(8))], "the entry has no tensor_type"),
    ([b"\x08" + wire.varint(-2), wire.len_field(2, b"Int8"), wire.len_field(3, bytes(2))],
     "negative dimension in shape [-2]"),
    (_dims(4) + [wire.len_field(2, b"Int4"), wire.len_field(3, bytes(2))],
     "Int4 (qint4x2) tensors are not supported by cellgrad"),
])
def test_inconsistent_entries_name_the_entry(tmp_path, fields, message):
    with pytest.raises(ms.CheckpointError) as info:
        _load(tmp_path, _record(b"w", fields))
    assert message in str(info.value)
    assert (info.value.entry, info.value.offset) == ("w", 0)


def test_protobuf_freedoms_are_accepted(tmp_path):
    # packed dims, fields in another order, unknown fields at every level (MindSpore accepts all)
    packed = b"\x0a" + wire.varint(2) + wire.varint(2) + wire.varint(1)
    tensor = [wire.len_field(3, np.float32([1, 2]).tobytes()), wire.len_field(9, b"??"),
              wire.len_field(2, b"Float32"), packed]
    value = wire.len_field(2, b"".join(tensor)) + wire.key(7, wire.VARINT) + b"\x05" + \
        wire.len_field(1, b"w")
    data = wire.len_field(2, b"top-level junk") + wire.len_field(1, value)
    loaded = _load(tmp_path, data)
    assert loaded["w"].shape == (2, 1) and loaded["w"].asnumpy().ravel().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("data, message", [
    (b"", "the file is empty (0 bytes)"),
    (wire.len_field(5, b"abc"), "holds no checkpoint entries"),
    (wire.len_field(1, wire.len_field(3, b"")), "has no name"),
    (wire.len_field(1, wire.len_field(1, b"m") + wire.len_field(3, b"")),
     "holds a MapTensor (MindSpore's MapParameter)"),
    (b"\x13\x00", "invalid wire type 3"),
])
def test_structural_problems(tmp_path, data, message):
    with pytest.raises(ms.CheckpointError) as info:
        _load(tmp_path, data)
    assert message in str(info.value)


def test_cellgrads_footer_without_its_header_is_refused(tmp_path):
    data = _saved(tmp_path)
    bad = bytearray(data)
    bad[0] ^= 0x10  # another field number: the header becomes an unknown field
    with pytest.raises(ms.CheckpointError, match="footer but its header is missing"):
        _load(tmp_path, bytes(bad))
    bad = bytearray(data)
    bad[5] ^= 0x01  # inside the header's magic
    with pytest.raises(ms.CheckpointError, match="cellgrad's header is damaged"):
        _load(tmp_path, bytes(bad))


def test_flipped_data_byte_names_the_entry(tmp_path):
    data = bytearray(_saved(tmp_path))
    at = bytes(data).index(np.float32(2.0).tobytes())
    data[at] ^= 0x40
    with pytest.raises(ms.CheckpointError, match="do not match its checksum in cellgrad's "
                                                 "footer") as info:
        _load(tmp_path, bytes(data))
    assert info.value.entry == "weight" and info.value.offset < at


def test_crc_check_on_a_file_without_trailer_warns_and_loads(tmp_path):
    path = str(FIXTURES / "dense.ckpt")
    with pytest.warns(UserWarning, match="the ckpt file do not contain the crc code") as caught:
        loaded = ms.load_checkpoint(path, crc_check=True)
    assert caught[0].filename == __file__
    assert list(loaded) == ["weight", "bias"]


def test_a_file_holding_nothing_but_cellgrads_marks_is_an_empty_checkpoint(tmp_path):
    path = str(tmp_path / "empty.ckpt")
    ms.save_checkpoint([], path)
    with pytest.raises(ValueError, match="The loaded parameter dict is empty") as info:
        ms.load_checkpoint(path)
    assert not isinstance(info.value, ms.CheckpointError)


def test_dims_zero_means_a_scalar_with_one_element_and_an_empty_vector_without(tmp_path):
    # MindSpore turns dims [0] into shape (); cellgrad writes a (0,) tensor as dims [0] and no
    # data, which it reads back as (0,) (MindSpore would make it a 0-d 0.0)
    one = _record(b"s", _dims(0) + [wire.len_field(2, b"Float32"),
                                    wire.len_field(3, np.float32(2.5).tobytes())])
    none = _record(b"v", _dims(0) + [wire.len_field(2, b"Int64"), wire.len_field(3, b"")])
    loaded = _load(tmp_path, one + none)
    assert (loaded["s"].shape, float(loaded["s"])) == ((), 2.5)
    assert loaded["v"].shape == (0,) and loaded["v"].dtype == ms.int64


def test_checksums_on_a_second_thread_agree(tmp_path, monkeypatch):
    from cellgrad_checkpoint import ckpt_reader, integrity

    monkeypatch.setattr(integrity, "THREADED", 0)  # every save and load sums on the helper thread
    monkeypatch.setattr(integrity, "helper_threads", lambda nbytes: 2)
    monkeypatch.setattr(ckpt_reader, "_SMALL_RECORD", 0)  # and reads data in pieces
    arr = np.arange(3 * integrity.PIECE // 4 + 5, dtype=np.float32)  # three pieces
    path = tmp_path / "t.ckpt"
    ms.save_checkpoint({"a": Parameter(Tensor(arr), name="a")}, str(path))
    np.testing.assert_array_equal(ms.load_checkpoint(str(path))["a"].asnumpy(), arr)
    data = bytearray(path.read_bytes())
    data[-integrity.footer_size(1) - 9] ^= 4  # in the last piece's data
    with pytest.raises(ms.CheckpointError, match="do not match its checksum") as info:
        _load(tmp_path, bytes(data))
    assert info.value.entry == "a"


def test_a_cut_cellgrad_file_says_it_was_truncated(tmp_path):
    data = _saved(tmp_path)
    with pytest.raises(ms.CheckpointError) as info:
        _load(tmp_path, data[:len(data) // 2])
    assert f"the file is {len(data) // 2} bytes long but its header says {len(data)}: it was " \
           f"truncated or extended" in str(info.value)
    assert info.value.offset == len(data) // 2


@pytest.mark.parametrize("helpers", [0, 1, 3])
def test_pieces_read_on_several_threads_are_each_verified(tmp_path, monkeypatch, helpers):
    from cellgrad_checkpoint import ckpt_reader, integrity

    monkeypatch.setattr(integrity, "helper_threads", lambda nbytes: helpers)
    monkeypatch.setattr(ckpt_reader, "_SMALL_RECORD", 0)
    arrays = {name: np.arange(n, dtype=np.float32) * (i + 1)
              for i, (name, n) in enumerate([("a", integrity.PIECE // 2 + 7),
                                             ("b", 5), ("c", integrity.PIECE // 4 * 3)])}
    path = tmp_path / "t.ckpt"
    ms.save_checkpoint({k: Parameter(Tensor(v), name=k) for k, v in arrays.items()}, str(path))
    loaded = ms.load_checkpoint(str(path))
    plain = tmp_path / "plain.ckpt"  # no checksums: pieces read the same way, not summed
    ms.save_checkpoint({k: Parameter(Tensor(v), name=k) for k, v in arrays.items()}, str(plain),
                       integrity=False)
    for name, arr in arrays.items():
        np.testing.assert_array_equal(loaded[name].asnumpy(), arr)
        np.testing.assert_array_equal(ms.load_checkpoint(str(plain))[name].asnumpy(), arr)
    good = path.read_bytes()
    c_data = good.index(arrays["c"].tobytes())
    for where, entry in ((good.index(arrays["a"].tobytes()) + 3 * integrity.PIECE // 2, "a"),
                         (c_data + 5, "c"), (c_data + integrity.PIECE + 11, "c")):
        data = bytearray(good)
        data[where] ^= 0x10
        with pytest.raises(ms.CheckpointError, match="do not match its checksum") as info:
            _load(tmp_path, bytes(data))
        assert info.value.entry == entry


def test_a_read_error_on_a_helper_thread_reaches_the_caller(tmp_path, monkeypatch):
    from cellgrad_checkpoint import ckpt_reader, integrity, sources
    from cellgrad_checkpoint.errors import WireError

    monkeypatch.setattr(integrity, "helper_threads", lambda nbytes: 2)
    monkeypatch.setattr(ckpt_reader, "_SMALL_RECORD", 0)
    arr = np.arange(integrity.PIECE, dtype=np.float32)  # four pieces
    path = tmp_path / "t.ckpt"
    ms.save_checkpoint({"a": Parameter(Tensor(arr), name="a")}, str(path))
    real = sources.FileSource.readinto_at

    def shrinking(self, pos, view):  # as if the file were cut while being read
        if pos > integrity.PIECE * 2:
            raise WireError("the file ends early (was it changed while being read?)", pos)
        real(self, pos, view)

    monkeypatch.setattr(sources.FileSource, "readinto_at", shrinking)
    with pytest.raises(ms.CheckpointError, match="ends early") as info:
        ms.load_checkpoint(str(path))
    assert info.value.offset > integrity.PIECE * 2


@pytest.mark.parametrize("cores, runnable, helpers", [
    (2, 1, 1), (2, 2, 0), (2, 5, 0), (8, 1, 3), (8, 6, 2), (1, 1, 0), (2, None, 0),
    (4, None, 3)])
def test_helper_threads_only_for_idle_cores(monkeypatch, cores, runnable, helpers):
    from cellgrad_checkpoint import integrity

    monkeypatch.setattr(integrity, "_usable_cores", lambda: cores)
    monkeypatch.setattr(integrity, "_runnable", lambda: runnable)
    assert integrity.helper_threads(integrity.THREADED) == helpers
    assert integrity.helper_threads(integrity.THREADED - 1) == 0
