"""ops.TensorDump / tensordump / DumpGradient, mindspore.set_dump and the jit helper functions,
checked against what MindSpore 2.10's CPU build does (file names, values, errors)."""

import re

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def _dumped(folder, stem):
    """{id: path} of the files `<stem>_<dtype>_<id>.npy` in `folder`."""
    found = {}
    for p in folder.iterdir():
        m = re.fullmatch(re.escape(stem) + r"_([a-z0-9]+)_(\d+)\.npy", p.name)
        if m:
            found[int(m.group(2))] = (m.group(1), p)
    return found


def test_tensordump_writes_named_npy_with_increasing_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert ops.TensorDump()("add", Tensor(x)) is None
    ops.TensorDump("in")("add", Tensor(x + 1))   # stand-alone: no `_in` in the name
    ops.tensordump("sub/ints.npy", Tensor(np.array([1, 2], np.int32)))
    got = _dumped(tmp_path, "add")
    (i0, (d0, p0)), (i1, (d1, p1)) = sorted(got.items())
    assert i1 == i0 + 1 and d0 == d1 == "float32"
    np.testing.assert_array_equal(np.load(p0), x)
    np.testing.assert_array_equal(np.load(p1), x + 1)
    ints = _dumped(tmp_path / "sub", "ints")
    ((i2, (d2, p2)),) = ints.items()
    assert i2 == i1 + 1 and d2 == "int32" and np.load(p2).dtype == np.int32


def test_tensordump_bool_and_bfloat16_names(tmp_path):
    pytest.importorskip("ml_dtypes")  # bfloat16 is the core's [bfloat16] extra
    ops.tensordump(str(tmp_path / "b"), Tensor(np.array([True, False])))
    ops.tensordump(str(tmp_path / "h"), Tensor(np.array([1.5], np.float32)).astype(ms.bfloat16))
    ((_, (db, pb)),) = _dumped(tmp_path, "b").items()
    ((_, (dh, ph)),) = _dumped(tmp_path, "h").items()
    assert db == "bool" and np.load(pb).tolist() == [True, False]
    assert dh == "bfloat16" and np.load(ph).dtype == np.float32 and np.load(ph)[0] == 1.5


@pytest.mark.parametrize("call, err, msg", [
    (lambda x: ops.TensorDump("all"), ValueError,
     "The 'input_output' argument should be one of ['in', 'out'], but got: all"),
    (lambda x: ops.TensorDump()(1, x), TypeError,
     "For 'TensorDump', the type of 'file' should be 'str', but got type 'int'."),
    (lambda x: ops.TensorDump()("", x), ValueError,
     "For 'TensorDump', the input argument[file] cannot be an empty string."),
    (lambda x: ops.TensorDump()("a", 1), TypeError,
     "For 'TensorDump', the type of 'input_x' should be 'Tensor', but got type 'int'."),
    (lambda x: ops.tensordump("q", x, "all"), ValueError,
     "Argument [mode] has been not supported value of 'all'."),
    (lambda x: ops.tensordump("q", x, "bad"), ValueError,
     "Parameter mode should in ['out', 'in'], but got bad"),
    (lambda x: ops.tensordump(1, x), TypeError,
     "Parameter file_name should only be build_in str type but got: <class 'int'>"),
    (lambda x: ops.tensordump("q", 1), TypeError,
     "Parameter tensor should only be Tensor type, but got: <class 'int'>"),
])
def test_dump_errors(call, err, msg, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(err) as e:
        call(Tensor(np.ones(2, np.float32)))
    assert str(e.value) == msg
    assert not list(tmp_path.iterdir())


def test_tensordump_repr():
    assert repr(ops.TensorDump()) == ("Prim[TensorDump]<input_output=out, side_effect_io=True, "
                                      "channel_name=ms_tensor_dump>")
    assert repr(ops.DumpGradient()) == "Prim[DumpGradient]"


def test_dump_gradient_saves_the_gradient_reaching_x(tmp_path):
    dg = ops.DumpGradient()
    stem = str(tmp_path / "x_dout.npy")
    w = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)

    def f(x, y):
        return (dg(stem, x, "out") * y * Tensor(w)).sum()

    x = Tensor(np.ones((2, 2), np.float32))
    y = Tensor(np.full((2, 2), 2.0, np.float32))
    out = dg(stem, x, "out")
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    assert not _dumped(tmp_path, "x_dout")       # nothing written in the forward
    gx, gy = ms.grad(f, grad_position=(0, 1))(x, y)
    ((_, (dtype, path)),) = _dumped(tmp_path, "x_dout").items()
    assert dtype == "float32"
    np.testing.assert_allclose(np.load(path), 2.0 * w)
    np.testing.assert_allclose(gx.asnumpy(), 2.0 * w)
    np.testing.assert_allclose(gy.asnumpy(), w)
    assert dg(stem, 3, "out") == 3                # a non-Tensor passes through


# ---- mindspore.set_dump ----

def _net():
    from cellgrad import nn  # the core's Cell only: tests/core runs without cellgrad-ops-nn

    class Act(nn.Cell):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def construct(self, x):
            return self.fn(x)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Act(ops.abs)
            self.b = Act(ops.sigmoid)

        def construct(self, x):
            return self.b(self.a(x) * 2.0)

    return Net()


def test_set_dump_flags_and_warns_like_mindspore_cpu():
    net = _net()
    with pytest.warns(UserWarning, match="Current device_target is CPU, which is not supported "
                                         "by set_dump. Only Ascend"):
        ms.set_dump(net.a)
    assert net.a.get_flags() == {"dump": True} and "dump" not in net.get_flags()
    with pytest.warns(UserWarning):
        ms.set_dump(net, False)
    assert net.get_flags()["dump"] is False and net.b.get_flags()["dump"] is False
    p = ops.Add()
    with pytest.warns(UserWarning):
        ms.set_dump(p, False)
    assert repr(p) == "Prim[Add]<dump=false>"
    with pytest.raises(ValueError, match=r'^The "target" parameter must be an instance of Cell or '
                                         r"Primitive, but got an instance of <class 'int'>\.$"):
        ms.set_dump(1)
    with pytest.raises(ValueError, match='^The "enabled" parameter must be bool.$'):
        ms.set_dump(net, 1)


def test_set_dump_writes_each_op_of_marked_cells(tmp_path, monkeypatch):
    import json

    from cellgrad.data_dump import _DumpWatch

    cfg = tmp_path / "dump.json"
    cfg.write_text(json.dumps({"common_dump_settings": {
        "dump_mode": 2, "path": str(tmp_path / "out"), "net_name": "Net", "iteration": "1",
        "input_output": 0}}))
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(cfg))
    net = _net()
    try:
        with pytest.warns(UserWarning):
            ms.set_dump(net.a)
        x0 = np.array([[-1.0, 2.0]], np.float32)
        x1 = np.array([[3.0, -4.0]], np.float32)
        net(Tensor(x0))     # iteration 0: not picked
        net(Tensor(x1))     # iteration 1
    finally:
        _DumpWatch.stop()
    root = tmp_path / "out" / "rank_0" / "Net" / "0"
    assert sorted(p.name for p in root.iterdir()) == ["1"]
    files = sorted((root / "1").iterdir())
    names = [re.fullmatch(r"(\w+)\.\1\.0\.0\.\d+\.(input|output)\.(\d)\.DefaultFormat\.(\w+)\.npy",
                          p.name).group(1, 2, 3, 4) for p in files]
    assert sorted(names) == [("abs", "input", "0", "float32"), ("abs", "output", "0", "float32")]
    by_side = {n[1]: np.load(p) for n, p in zip(names, files)}
    np.testing.assert_array_equal(by_side["input"], x1)
    np.testing.assert_array_equal(by_side["output"], np.abs(x1))


# ---- jit helpers ----

def test_get_obj_module_and_name_info_as_mindspore():
    import math

    assert ms.get_obj_module_and_name_info(np.sum) == ("numpy", "sum", "class")
    assert ms.get_obj_module_and_name_info(len) == ("len", "len", "method or function")
    assert ms.get_obj_module_and_name_info(math.sqrt) == ("sqrt", "sqrt", "method or function")
    assert ms.get_obj_module_and_name_info([].append) == ("list", "list.append",
                                                          "method or function")
    assert ms.get_obj_module_and_name_info(_net) == (__name__, "_net", "method or function")
    assert ms.get_obj_module_and_name_info(3) is None
    assert ms.get_obj_module_and_name_info(np.ndarray.sum) is None


def test_jit_forbidden_modules_and_methods():
    assert ms.is_jit_forbidden_module("mindspore.context")
    assert ms.is_jit_forbidden_module("mindspore.common.initializer")
    assert ms.is_jit_forbidden_module(ms.set_context.__module__)
    assert not ms.is_jit_forbidden_module("numpy")
    t = Tensor([1.0])
    cell = _net()
    f = ms.is_invalid_or_jit_forbidden_method
    assert not f(t, "Tensor", "asnumpy") and f(t, "Tensor", "assign_value")
    assert f(cell, "Net", "to") and f(cell, "Net", "trainable_params")
    assert not f(cell, "Net", "construct")
    assert f(ms.Parameter(t), "Parameter", "set_data")
    with pytest.raises(AttributeError, match="^'Tensor' object has no attribute 'nope'$"):
        f(t, "Tensor", "nope")
