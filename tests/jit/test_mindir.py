"""MINDIR: cellgrad runs files MindSpore 2.10 wrote (fixtures/make_fixtures.py), MindSpore
runs files cellgrad writes (recorded by mindspore_reads_ours.py), and bad files are refused."""

import hashlib
import json
import os

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops

pytest.importorskip("google.protobuf")
pytest.importorskip("cellgrad_jit")
from jit_models import MLP, Lambda  # noqa: E402

from cellgrad_jit import MindIRFormatError, UnsupportedOpError  # noqa: E402
from cellgrad_jit.mindir.proto import messages  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
MODELS = ["mlp", "lenet_bn", "small_cnn", "mixed"]


def fixture(name):
    return os.path.join(FIXTURES, name + ".mindir"), np.load(os.path.join(FIXTURES,
                                                                          name + ".npz"))


@pytest.mark.parametrize("name", MODELS)
def test_graphcell_runs_mindspore_files_with_mindspores_outputs(name):
    path, data = fixture(name)
    graph = ms.load(path)
    cell = nn.GraphCell(graph)
    y = cell(ms.Tensor(data["x"]))
    assert y.dtype == ms.float32 and y.shape == data["y"].shape
    np.testing.assert_allclose(y.asnumpy(), data["y"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), data["y_graph"], rtol=1e-5, atol=1e-5)


def test_loaded_graph_prints_primitives_and_exposes_named_parameters():
    path, _ = fixture("lenet_bn")
    graph = ms.load(path)
    text = str(graph)
    assert "(mindspore ops)" in text and "input  %x: Float32[2, 1, 32, 32]" in text
    assert "# Default/bn1-BatchNorm2d" in text and "= BatchNorm(" in text
    assert "= Conv2D(%x, " in text and "pad_mode='valid'" in text
    cell = nn.GraphCell(graph)
    names = [n for n, _ in cell.parameters_and_names()]
    assert names[:2] == ["conv1.weight", "bn1.gamma"] and len(names) == 16
    assert cell.parameters_dict()["bn1.moving_mean"].shape == (6,)


def test_params_init_replaces_weights():
    path, data = fixture("mlp")
    graph = ms.load(path)
    bias = ms.Tensor(np.full(4, 10.0, np.float32))
    base = nn.GraphCell(graph)(ms.Tensor(data["x"])).asnumpy()
    cell = nn.GraphCell(graph, params_init={"fc2.bias": bias})
    y = cell(ms.Tensor(data["x"])).asnumpy()
    old = base - graph.params["fc2.bias"].data
    np.testing.assert_allclose(y, old + 10.0, rtol=1e-6, atol=1e-5)
    with pytest.raises(ValueError, match=r"'params_init' names \['nope'\], which the graph "
                                         r"does not have"):
        nn.GraphCell(graph, params_init={"nope": bias})
    with pytest.raises(ValueError, match=r"'params_init\['fc2.bias'\]' must have shape \[4\]"):
        nn.GraphCell(graph, params_init={"fc2.bias": ms.Tensor(np.ones(3, np.float32))})


def test_graphcell_bad_arguments():
    path, data = fixture("mlp")
    graph = ms.load(path)
    with pytest.raises(TypeError, match="For 'GraphCell', the argument 'graph' must be a "
                                        "FuncGraph loaded from MindIR, but got type <class "
                                        "'int'>."):
        nn.GraphCell(3)
    with pytest.raises(NotImplementedError, match="obfuscated"):
        nn.GraphCell(graph, obf_random_seed=1)
    cell = nn.GraphCell(graph)
    x = ms.Tensor(data["x"])
    with pytest.raises(RuntimeError, match="The input number of parameters is not Compatible"):
        cell(x, x)
    with pytest.raises(TypeError, match="input 0 must be Float32 .* but got Float64"):
        cell(ms.Tensor(data["x"].astype(np.float64)))
    with pytest.raises(ValueError, match=r"input 0 must have shape \[3, 8\], but got \[3, 5\]"):
        cell(ms.Tensor(np.ones((3, 5), np.float32)))
    # another batch size runs (MindSpore's GraphCell does too)
    assert cell(ms.Tensor(np.ones((5, 8), np.float32))).shape == (5, 4)


def _case(name):
    import mindspore_reads_ours

    return mindspore_reads_ours.cases()[name]


with open(os.path.join(FIXTURES, "mindspore_reads_ours.json")) as f:
    RECORD = json.load(f)


@pytest.mark.parametrize("name", sorted(RECORD))
def test_files_cellgrad_writes_are_the_ones_mindspore_ran(name, tmp_path):
    net, x, traced = _case(name)
    path = str(tmp_path / name)
    traced = ms.Tensor(x) if traced is None else ms.Tensor(shape=traced, dtype=ms.float32)
    ms.export(net, traced, file_name=path, file_format="MINDIR")
    with open(path + ".mindir", "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert digest == RECORD[name]["sha256"], (
        "the MINDIR writer's output changed: re-run tests/jit/mindspore_reads_ours.py with "
        "MindSpore 2.10 to check MindSpore still runs it")
    theirs = np.asarray(RECORD[name]["mindspore_output"], np.float32)
    ours = net(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)
    # and cellgrad runs its own file
    back = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(back, ours, rtol=1e-5, atol=1e-5)


def test_written_file_has_mindspores_layout(tmp_path):
    path = str(tmp_path / "mlp")
    ms.export(MLP(), ms.Tensor(np.ones((2, 8), np.float32)), file_name=path,
              file_format="MINDIR")
    model = messages()["ModelProto"]()
    with open(path + ".mindir", "rb") as f:
        model.ParseFromString(f.read())
    assert model.mind_ir_version == 3 and model.little_endian
    assert [p.ref_key for p in model.graph.parameter] == ["fc1.weight", "fc1.bias",
                                                          "fc2.weight", "fc2.bias"]
    kinds = [n.op_type.split("::")[-1].split(":")[0] for n in model.graph.node
             if n.op_type != "Constant"]
    assert kinds == ["MatMul", "BiasAdd", "ReLU", "MatMul", "BiasAdd"]
    assert model.graph.node[-1].domain.startswith("Default/fc2-Dense/")


def test_mindir_export_refusals(tmp_path):
    net = Lambda(lambda s, a: ops.cumsum(a, 1))
    with pytest.raises(UnsupportedOpError, match=r"op 'cumsum' \(in Default\) has no MINDIR "
                                                 r"form"):
        ms.export(net, ms.Tensor(np.ones((2, 3), np.float32)), file_name=str(tmp_path / "c"),
                  file_format="MINDIR")
    with pytest.raises(UnsupportedOpError, match="a constant whose size follows the dynamic "
                                                 "batch .* cannot be written as MINDIR"):
        ms.export(nn.LSTM(3, 4, batch_first=True), ms.Tensor(shape=[None, 5, 3],
                                                            dtype=ms.float32),
                  file_name=str(tmp_path / "d"), file_format="MINDIR")
    with pytest.raises(UnsupportedOpError, match=r"op 'nn_normalize' \(in Default\) cannot be "
                                                 r"written as MINDIR: normalisation over its "
                                                 r"own statistics that is not a layer norm"):
        ms.export(nn.GroupNorm(2, 4), ms.Tensor(np.ones((2, 4, 3, 3), np.float32)),
                  file_name=str(tmp_path / "g"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def _corrupt(tmp_path, data, name="bad.mindir"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_load_refuses_garbage_truncated_and_misnamed_files(tmp_path):
    path, _ = fixture("lenet_bn")
    with open(path, "rb") as f:
        good = f.read()
    bad = _corrupt(tmp_path, b"\x00\x01garbage\xff\xff")
    with pytest.raises(MindIRFormatError, match=f"the MindIR file '{bad}' cannot be read"):
        ms.load(bad)
    for cut in (7, len(good) // 10, len(good) // 2, len(good) - 1):
        bad = _corrupt(tmp_path, good[:cut], f"cut{cut}.mindir")
        with pytest.raises(MindIRFormatError, match=f"'{bad}' cannot be read: .*"):
            ms.load(bad)
    empty = _corrupt(tmp_path, b"", "empty.mindir")
    with pytest.raises(MindIRFormatError, match="holds no graph"):
        ms.load(empty)
    assert issubclass(MindIRFormatError, RuntimeError)  # MindSpore: RuntimeError
    onnx_file = _corrupt(tmp_path, b"\x08\x07", "model.onnx")
    with pytest.raises(ValueError, match="should end with '.mindir'.* but got '.*model.onnx'"):
        ms.load(onnx_file)
    with pytest.raises(ValueError, match="does not exist.*missing.mindir"):
        ms.load(str(tmp_path / "missing.mindir"))
    with pytest.raises(TypeError, match="'file_name' must be a str, but got int"):
        ms.load(3)
    with pytest.raises(NotImplementedError, match="'dec_key'"):
        ms.load(path, dec_key=b"0" * 16)


def test_a_file_naming_an_unknown_primitive_is_refused_not_run(tmp_path):
    path, _ = fixture("mlp")
    model = messages()["ModelProto"]()
    with open(path, "rb") as f:
        model.ParseFromString(f.read())
    relu = next(p for p in model.primitives if p.op_type == "ReLU")
    relu.op_type = "PyFunc"  # MindSpore's op that calls back into Python
    bad = _corrupt(tmp_path, model.SerializeToString(), "pyfunc.mindir")
    graph = ms.load(bad)
    with pytest.raises(UnsupportedOpError, match="names the primitive 'PyFunc', which "
                                                 "cellgrad does not run"):
        nn.GraphCell(graph)


def test_load_namespaces():
    assert ms.train.load is ms.load and ms.train.serialization.load is ms.load


def test_mindspore_dynamic_batch_file_runs_at_another_batch():
    path, data = fixture("mlp_dynamic")
    graph = ms.load(path)
    assert graph.inputs[0].shape == (None, 8) and "input  %x: Float32[?, 8]" in str(graph)
    y = nn.GraphCell(graph)(ms.Tensor(data["x"]))
    assert y.shape == (5, 4)
    np.testing.assert_allclose(y.asnumpy(), data["y_graph"], rtol=1e-5, atol=1e-5)


def test_mindspore_file_with_two_inputs_ids_casts_and_ext_ops():
    path, data = fixture("two_inputs")
    graph = ms.load(path)
    assert [v.dtype for v in graph.inputs] == [ms.int32, ms.float32]
    ops_used = {n.op for n in graph.nodes}
    assert {"Gather", "Cast", "Stack", "Split", "Tile", "SumExt"} <= ops_used
    y = nn.GraphCell(graph)(ms.Tensor(data["ids"]), ms.Tensor(data["x"]))
    np.testing.assert_allclose(y.asnumpy(), data["y_graph"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), data["y"], rtol=1e-5, atol=1e-5)


def test_every_mindir_rule_was_run_by_mindspore():
    """Each op the MINDIR writer handles appears in a file MindSpore 2.10 ran
    (mindspore_reads_ours.py): the writer never emits a form MindSpore was not shown."""
    import mindspore_reads_ours

    from cellgrad_jit import capture
    from cellgrad_jit.mindir.write import RULES

    seen = set()
    for net, x, _ in mindspore_reads_ours.cases().values():
        seen |= {n.op for n in capture(net, ms.Tensor(x)).nodes}
    assert set(RULES) <= seen, sorted(set(RULES) - seen)
    assert set(RECORD) == set(mindspore_reads_ours.cases())


def test_graphcell_is_differentiable_like_the_network_it_came_from(tmp_path):
    from jit_models import LeNetBN, randomize_bn

    net = randomize_bn(LeNetBN())
    net.set_train(False)
    x = ms.Tensor(np.random.RandomState(5).randn(2, 1, 32, 32).astype(np.float32))
    ms.export(net, x, file_name=str(tmp_path / "lenet"), file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "lenet.mindir")))

    def loss(m):
        return lambda a: (m(a) ** 2).sum()

    np.testing.assert_allclose(ms.grad(loss(cell))(x).asnumpy(),
                               ms.grad(loss(net))(x).asnumpy(), rtol=1e-5, atol=1e-6)
    weights = net.trainable_params()
    mine = dict(cell.parameters_and_names())
    theirs = ms.grad(loss(net), grad_position=None, weights=weights)(x)
    ours = ms.grad(loss(cell), grad_position=None, weights=[mine[p.name] for p in weights])(x)
    for p, a, b in zip(weights, theirs, ours):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-5, atol=1e-5,
                                   err_msg=p.name)
