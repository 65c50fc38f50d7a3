"""`load_mindir`/`save_mindir`: a MINDIR file as its ModelProto, edited and written back
(MindSpore's example: set `user_info`), still runnable, and MindSpore's errors."""

import inspect
import os
import re
import stat

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn

pytest.importorskip("google.protobuf")
pytest.importorskip("cellgrad_jit")
from cellgrad_jit.mindir.proto import messages  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
MLP = os.path.join(FIXTURES, "mlp.mindir")


def test_signatures():
    assert list(inspect.signature(ms.load_mindir).parameters) == ["file_name"]
    assert list(inspect.signature(ms.save_mindir).parameters) == ["model", "file_name"]


def test_reads_mindspores_file_as_model_proto():
    md = ms.load_mindir(MLP)
    assert isinstance(md, messages()["ModelProto"])
    assert (md.ir_version, md.producer_name) == ("1.1", "MindSpore")
    assert dict(md.user_info) == {}
    assert len(md.graph.node) == 16
    with open(MLP, "rb") as f:
        assert md.SerializeToString() == f.read()


def test_edit_round_trip_and_still_runs(tmp_path):
    md = ms.load_mindir(MLP)
    md.user_info["version"] = "pangu v100"
    md.graph.name = "edited"
    target = str(tmp_path / "sub" / "new")  # no suffix, missing folder: both added
    ms.save_mindir(md, target)
    path = target + ".mindir"
    assert stat.S_IMODE(os.stat(path).st_mode) == stat.S_IRUSR
    back = ms.load_mindir(path)
    assert dict(back.user_info) == {"version": "pangu v100"} and back.graph.name == "edited"
    assert back == md
    ms.save_mindir(back, path)  # over its own read-only file, as MindSpore allows
    data = np.load(os.path.join(FIXTURES, "mlp.npz"))
    y = nn.GraphCell(ms.load(path))(ms.Tensor(data["x"]))
    np.testing.assert_allclose(y.asnumpy(), data["y"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, error, message", [
    (5, TypeError, "The '5' must be string, but got <class 'int'>."),
    ("a b.mindir", ValueError, "The 'a b.mindir' is illegal, it must be match regular"),
    ("dir/", ValueError, "The 'dir/' cannot be a directory path."),
    ("nonexist.mindir", ValueError, "No such file or directory"),
])
def test_load_errors(name, error, message):
    with pytest.raises(error, match=re.escape(message)):
        ms.load_mindir(name)


def test_load_rejects_garbage(tmp_path):
    path = tmp_path / "junk.mindir"
    path.write_bytes(b"\xff\xff\xff")
    with pytest.raises(ValueError):
        ms.load_mindir(str(path))


def test_save_rejects_other_objects(tmp_path):
    path = str(tmp_path / "y.mindir")
    with pytest.raises(TypeError, match="For 'save_mindir', the argument 'model' must be "
                                        "ModelProto, but got <class 'dict'>."):
        ms.save_mindir({}, path)
    assert not os.path.exists(path)
