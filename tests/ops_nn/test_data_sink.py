"""`ms.data_sink`: each call runs the step on the dataset's next rows, starting over at its end
(MindSpore 2.10 refuses it on a CPU; the results are those of a plain loop over the data)."""

import numpy as np
import pytest
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import nn

X = np.arange(24, dtype=np.float32).reshape(12, 2) / 10
Y = (np.arange(12) % 3).astype(np.float32)


def _data():
    return NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)


def _trainer():
    ms.set_seed(0)
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.01)
    grad_fn = ms.value_and_grad(lambda x, y: ((net(x)[:, 0] - y) ** 2).mean(), None,
                                opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return net, step


def test_sinking_equals_a_plain_loop_and_wraps_around():
    net, step = _trainer()
    sink = ms.data_sink(step, _data(), sink_size=2)
    losses = [float(sink().asnumpy()) for _ in range(3)]  # 6 batches: the 3 of the data twice
    ref_net, ref_step = _trainer()
    batches = list(_data().create_tuple_iterator(num_epochs=1)) * 2
    ref = [float(ref_step(*b).asnumpy()) for b in batches]
    assert losses == ref[1::2]
    np.testing.assert_array_equal(net.weight.asnumpy(), ref_net.weight.asnumpy())


def test_it_is_also_train_data_sink_and_keeps_the_name():
    _, step = _trainer()
    assert ms.train.data_sink is ms.data_sink
    assert ms.data_sink(step, _data()).__name__ == "step"


@pytest.mark.parametrize("args,error,text", [
    ((3, None), TypeError, "'fn' must be callable"),
    ((len, [1, 2]), TypeError, "must be a mindspore.dataset Dataset"),
    ((len, None, 0), ValueError, "'sink_size' must be positive"),
    ((len, None, 1.5), TypeError, "'sink_size' should be 'int'"),
])
def test_errors(args, error, text):
    fn, data, *rest = args
    with pytest.raises(error) as info:
        ms.data_sink(fn, _data() if data is None else data, *rest)
    assert text in str(info.value)
