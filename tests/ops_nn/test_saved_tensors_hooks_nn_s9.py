"""ms.saved_tensors_hooks around nn layers: every saved tensor goes through the hooks (the
layers' shortcuts dispatch while the hooks watch) and the gradients stay exact."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn


def _cases():
    labels = ms.Tensor(np.array([1, 0, 4], np.int32))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    return {
        "dense": (nn.Dense(4, 3), (2, 4)),
        "conv2d": (nn.Conv2d(2, 3, 3), (1, 2, 5, 5)),
        "batchnorm": (nn.BatchNorm2d(2), (3, 2, 4, 4)),
        "lstm": (lambda x, net=nn.LSTM(4, 3, batch_first=True): net(x)[0], (2, 5, 4)),
        "layernorm": (nn.LayerNorm((4,)), (2, 4)),
        "cross_entropy": (lambda x: loss(x, labels), (3, 5)),
    }


@pytest.mark.parametrize("name", sorted(_cases()))
def test_layers_save_through_the_hooks_with_exact_gradients(name):
    ms.set_seed(1)
    net, shape = _cases()[name]
    x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    packs, unpacks = [], []

    def plain(x):
        return net(x).sum()

    def hooked(x):
        with ms.saved_tensors_hooks(lambda t: (packs.append(t.shape), t.asnumpy().copy())[1],
                                    lambda a: (unpacks.append(a.shape), ms.Tensor(a))[1]):
            return net(x).sum()

    expected = ms.grad(plain)(x).asnumpy()
    got = ms.grad(hooked)(x).asnumpy()
    np.testing.assert_array_equal(got, expected)
    assert packs and sorted(packs) == sorted(unpacks)


def test_float16_packing_compresses_the_saved_activations():
    ms.set_seed(2)
    net = nn.SequentialCell([nn.Dense(8, 16), nn.Tanh(), nn.Dense(16, 1)])
    x = ms.Tensor(np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32))
    sizes = []

    def pack(t):
        half = t.asnumpy().astype(np.float16)
        sizes.append((t.asnumpy().nbytes, half.nbytes))
        return half

    def unpack(half):
        return ms.Tensor(half.astype(np.float32))

    def hooked(x):
        with ms.saved_tensors_hooks(pack, unpack):
            return net(x).sum()

    exact = ms.grad(lambda x: net(x).sum())(x).asnumpy()
    approx = ms.grad(hooked)(x).asnumpy()
    assert all(small * 2 == full for full, small in sizes)
    np.testing.assert_allclose(approx, exact, rtol=2e-2, atol=2e-3)
    assert not np.array_equal(approx, exact)      # the float16 copies were what backward used


def test_parameter_gradients_see_the_hooks_too(tmp_path):
    ms.set_seed(3)
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.random.default_rng(2).standard_normal((5, 3)).astype(np.float32))
    files = []

    def pack(t):                     # spill every saved tensor to a file
        path = tmp_path / f"{len(files)}.npy"
        np.save(path, t.asnumpy())
        files.append(path)
        return path

    def unpack(path):
        return ms.Tensor(np.load(path))

    def loss(x):
        with ms.saved_tensors_hooks(pack, unpack):
            return (net(x) ** 2).sum()

    weights = net.trainable_params()
    expected = ms.grad(lambda x: (net(x) ** 2).sum(), None, weights)(x)
    got = ms.grad(loss, None, weights)(x)
    assert files and all(p.exists() for p in files)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())


def test_cell_register_saved_tensors_hooks_wraps_construct_until_cleared():
    net = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")
    x = ms.Tensor(np.array([[1.0, -2.0]], np.float32))
    log = []
    net.register_saved_tensors_hooks(lambda t: (log.append("p"), t * 2)[1],
                                     lambda t: (log.append("u"), t)[1])
    net.register_saved_tensors_hooks(lambda t: (log.append("p2"), t * 2)[1],
                                     lambda t: (log.append("u2"), t)[1])   # the latest pair
    assert net(x).shape == (1, 3) and log == []      # nothing is saved outside a gradient
    assert ms.grad(net)(x).asnumpy().tolist() == [[6.0, 6.0]]
    assert sorted(set(log)) == ["p2", "u2"]
    log.clear()
    net.register_saved_tensors_hooks(None, None)
    assert ms.grad(net)(x).asnumpy().tolist() == [[3.0, 3.0]] and log == []
