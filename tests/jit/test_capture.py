"""The graph IR captured from one eval-mode run: ops, attributes, values, Cell scopes."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops

pytest.importorskip("cellgrad_jit")
from jit_models import MLP, LeNetBN, randomize_bn  # noqa: E402

from cellgrad_jit import Graph, capture  # noqa: E402


def test_mlp_graph_has_dense_ops_parameters_and_scopes():
    net = MLP()
    x = ms.Tensor(np.ones((3, 8), np.float32))
    g = capture(net, x)
    assert isinstance(g, Graph) and g.dialect == "cellgrad"
    assert [n.op for n in g.nodes] == ["dense", "relu", "dense"]
    assert [n.scope for n in g.nodes] == ["Default/fc1-Dense", "Default/relu-ReLU",
                                          "Default/fc2-Dense"]
    assert [n.name for n in g.nodes][0] == "Default/fc1-Dense/dense-op0"
    assert list(g.params) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    first = g.nodes[0]
    assert first.inputs[0] is g.inputs[0]
    assert first.inputs[1] is g.params["fc1.weight"]
    assert g.nodes[1].inputs[0] is first.outputs[0]
    assert g.outputs == [g.nodes[2].outputs[0]]
    assert first.outputs[0].shape == (3, 16) and first.outputs[0].dtype == ms.float32
    np.testing.assert_array_equal(g.params["fc2.bias"].data, net.fc2.bias.asnumpy())


def test_print_is_readable():
    g = capture(randomize_bn(LeNetBN()), ms.Tensor(np.ones((2, 1, 32, 32), np.float32)))
    text = str(g)
    lines = text.splitlines()
    assert lines[0] == "graph LeNetBN (cellgrad ops) {"
    assert "  input  %x: Float32[2, 1, 32, 32]" in lines
    assert "  param  %bn1.moving_mean: Float32[6]" in lines
    assert "  # Default/bn1-BatchNorm2d" in lines
    assert any(line.startswith("  %1: Float32[2, 6, 28, 28] = conv2d(%x, %conv1.weight) "
                               "{pads=(0, 0, 0, 0), stride=(1, 1)") for line in lines)
    # the moving statistics are the Parameters, not numbers of this run
    assert any("nn_normalize(" in line and "mean=%bn1.moving_mean, var=%bn1.moving_variance"
               in line for line in lines)
    # two BatchNorms take their (C,) weight and bias as they are (no reshape nodes)
    assert lines[-2] == "  return %14" and lines[-1] == "}"


class WithConst(nn.Cell):
    def __init__(self):
        super().__init__()
        self.offset = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))  # not a Parameter
        self.head = nn.Dense(3, 2)

    def construct(self, x, y):
        return self.head(x + self.offset) * y, ops.exp(y)


def test_constants_several_inputs_tuple_outputs_and_train_mode_restored():
    net = WithConst()
    net.set_train(True)
    x, y = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 2), np.float32))
    g = capture(net, x, y)
    assert net.training is True
    assert [v.name for v in g.inputs] == ["x0", "x1"]
    assert len(g.consts) == 1 and g.consts[0].data.tolist() == [1.0, 2.0, 3.0]
    assert g.nodes[0].op == "add" and g.nodes[0].inputs[1] is g.consts[0]
    assert g.outputs_tuple and len(g.outputs) == 2
    assert "return (%" in str(g)


def test_eval_mode_is_used_for_the_trace():
    net = nn.SequentialCell([nn.Dense(4, 4), nn.Dropout(p=0.5), nn.BatchNorm1d(4)])
    net.set_train(True)
    g = capture(net, ms.Tensor(np.ones((3, 4), np.float32)))
    ops_seen = [n.op for n in g.nodes]
    assert "dropout" not in ops_seen
    norm = [n for n in g.nodes if n.op == "nn_normalize"][0]
    assert norm.attrs["training"] is False
    assert net.training is True and net[2].training is True
    net[2].set_train(False)  # a frozen BatchNorm in a training network stays frozen
    capture(net, ms.Tensor(np.ones((3, 4), np.float32)))
    assert net.training is True and net[1].training is True and net[2].training is False


def test_none_batch_placeholder_marks_the_batch_dynamic():
    g = capture(MLP(), ms.Tensor(shape=[None, 8], dtype=ms.float32))
    assert g.inputs[0].shape == (None, 8) and g.batch == 2
    text = str(g)
    assert "input  %x: Float32[?, 8]" in text
    assert "  %1: Float32[?, 16] = dense(%x, %fc1.weight, %fc1.bias)" in text
    assert g.dynamic[id(g.nodes[2].outputs[0])] == {0: 3}  # traced again at batch 3


def test_bad_inputs_and_outputs():
    with pytest.raises(TypeError, match="export: input 0 must be a Tensor, but got list"):
        capture(MLP(), [1.0] * 8)
    with pytest.raises(ValueError, match="needs at least one input"):
        capture(MLP())
    with pytest.raises(ValueError, match=r"only the first \(batch\) dimension may be dynamic"):
        capture(MLP(), ms.Tensor(shape=[2, None], dtype=ms.float32))

    class Scalar(nn.Cell):
        def construct(self, x):
            return x.sum().asnumpy()

    with pytest.raises(TypeError, match="'Scalar' returned ndarray; expected a Tensor"):
        capture(Scalar(), ms.Tensor(np.ones(3, np.float32)))
