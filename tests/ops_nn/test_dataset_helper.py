"""DatasetHelper / connect_network_with_dataset: batches as lists of Tensors without sinking
(as MindSpore prints them), sink_size batches per call with sinking (MindSpore refuses on a
CPU; the numbers are those of the same steps run one by one)."""

import numpy as np
import pytest

pytest.importorskip("cellgrad_dataset")

import cellgrad as ms  # noqa: E402
from cellgrad import nn  # noqa: E402

X = np.arange(12, dtype=np.float32).reshape(6, 2)
Y = np.arange(6, dtype=np.float32).reshape(6, 1)


def data():
    return ms.dataset.NumpySlicesDataset((X, Y), column_names=["x", "y"],
                                         shuffle=False).batch(2)


def test_without_sinking_each_batch_is_a_list_of_tensors():
    helper = ms.DatasetHelper(data(), dataset_sink_mode=False)
    items = list(helper)
    assert [type(i) for i in items] == [list] * 3
    np.testing.assert_array_equal(items[1][0].asnumpy(), X[2:4])
    assert ms.connect_network_with_dataset(nn.Dense(2, 1), helper).__class__ is nn.Dense
    assert ms.train.DatasetHelper is ms.DatasetHelper


def _net():
    ms.set_seed(0)
    net = nn.Dense(2, 1)
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(),
                                                                            0.01)), net


def test_with_sinking_one_call_runs_sink_size_steps_as_the_steps_one_by_one():
    step, net = _net()
    helper = ms.DatasetHelper(data(), dataset_sink_mode=True, sink_size=3)
    assert helper.sink_size() == 3
    connected = ms.connect_network_with_dataset(step, helper)
    losses = [connected(*inputs) for inputs in helper for _ in range(2)]  # 2 epochs' worth
    ref_step, ref_net = _net()
    ref = [ref_step(ms.Tensor(X[i:i + 2]), ms.Tensor(Y[i:i + 2])) for _ in range(2)
           for i in (0, 2, 4)]
    assert len(losses) == 2
    np.testing.assert_allclose([float(v.asnumpy()) for v in losses],
                               [float(ref[2].asnumpy()), float(ref[5].asnumpy())], rtol=1e-6)
    np.testing.assert_allclose(net.weight.asnumpy(), ref_net.weight.asnumpy(), rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive"):
        ms.DatasetHelper(data(), sink_size=0)
    with pytest.raises(TypeError, match="must be a mindspore.dataset Dataset"):
        ms.DatasetHelper([1, 2])
    with pytest.raises(TypeError, match="must be a DatasetHelper"):
        ms.connect_network_with_dataset(nn.Dense(2, 1), data())
