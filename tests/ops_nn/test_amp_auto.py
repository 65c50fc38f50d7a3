"""amp level 'auto': MindSpore 2.10's per-operator policy (white list to the low dtype, black
list to float32, promote list to the widest input), suspended inside `to_float` cells, on Cells
and functions, with gradients reaching float32 parameters in float32."""

import copy

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, amp, nn, ops
from cellgrad_nn.amp import auto


def f32(*shape):
    return Tensor(np.sin(np.arange(np.prod(shape)) * 0.7).reshape(shape).astype(np.float32))


def test_policy_per_list_on_a_function():
    def fn(a, b):
        m = ops.matmul(a, b)  # white
        return (m, ops.exp(a), ops.softmax(m), ops.sum(m),  # black
                ops.bias_add(m, ops.ones(3, ms.float32)),  # promote: float16 + float32
                ops.sigmoid(m), m * 2.0, m + a)  # unlisted: as their inputs give
    wrapped = amp.auto_mixed_precision(fn, "auto")
    a = f32(3, 3)
    got = [r.dtype for r in wrapped(a, a)]
    assert got == [ms.float16, ms.float32, ms.float32, ms.float32, ms.float32, ms.float16,
                   ms.float16, ms.float32]
    assert all(r.dtype == ms.float32 for r in fn(a, a))  # the function itself is unchanged
    assert wrapped.__name__ == "fn" and wrapped._amp_level == "auto"
    assert not auto.ACTIVE  # the policy ends with the call


def test_values_are_the_float16_rounded_computation():
    wrapped = amp.auto_mixed_precision(lambda a, b: ops.matmul(a, b), "auto")
    a, b = f32(4, 5), f32(5, 2)
    want = (a.asnumpy().astype(np.float16).astype(np.float32) @
            b.asnumpy().astype(np.float16).astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(wrapped(a, b).asnumpy(), want)


def test_cells_bias_is_promoted_and_to_float_cells_keep_their_precision():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 3)
            self.nobias = nn.Dense(3, 3, has_bias=False)
            self.keep = nn.Dense(3, 3, has_bias=False).to_float(ms.float32)
            self.conv = nn.Conv2d(1, 2, 1, has_bias=True)

        def construct(self, x):
            d = self.dense(x)
            n = self.nobias(d)
            return d, n, self.keep(n), self.nobias(n), self.conv(x.reshape(1, 1, 2, 2)), \
                ops.dense(d, self.nobias.weight, self.dense.bias)

    net = amp.auto_mixed_precision(Net(), "auto")
    assert type(net).__name__ == "Net" and net._amp_level == "auto"
    got = [r.dtype for r in net(f32(1, 4))]
    # Dense/Conv2d with a bias: the product in float16, BiasAdd promotes to float32; without
    # one float16 (a float16 input too); to_float(float32) keeps float32; ops.dense is one
    # white-listed primitive (bias included)
    assert got == [ms.float32, ms.float16, ms.float32, ms.float16, ms.float32, ms.float16]


def test_bfloat16_and_the_strategy():
    pytest.importorskip("ml_dtypes")
    net = amp.auto_mixed_precision(nn.Dense(3, 2, has_bias=False), "auto", ms.bfloat16)
    assert net(f32(2, 3)).dtype == ms.bfloat16
    s = net.amp_strategy
    assert repr(s.get_amp_level()) == "AmpLevel.AmpAuto" and s.get_amp_dtype() == ms.bfloat16
    assert s.get_white_list()[0] == ("Conv2D", []) and len(s.get_white_list()) == 20
    assert s.get_black_list()[-1] == ("NLLLoss2d", []) and len(s.get_black_list()) == 46


def test_gradients_reach_float32_parameters_in_float32():
    ms.set_seed(0)
    net = amp.auto_mixed_precision(nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(),
                                                       nn.Dense(4, 2, has_bias=False)]), "auto")
    params = net.trainable_params()

    def loss(x):
        return ops.cast(net(x), ms.float32).sum()

    grads = ms.grad(loss, None, params)(f32(5, 3))
    assert [g.dtype for g in grads] == [ms.float32] * 3
    ref = copy.deepcopy(net)
    assert ref(f32(5, 3)).dtype == ms.float16  # a deep copy runs under its own policy
    plain = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2, has_bias=False)])
    for p, q in zip(plain.trainable_params(), params):
        p.set_data(q.value())
    want = ms.grad(lambda x: plain(x).sum(), None, plain.trainable_params())(f32(5, 3))
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=2e-2, atol=2e-2)


def test_an_error_inside_ends_the_policy():
    def bad(a):
        ops.matmul(a, a)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        amp.auto_mixed_precision(bad, "auto")(f32(2, 2))
    assert not auto.ACTIVE and ops.matmul(f32(2, 2), f32(2, 2)).dtype == ms.float32


def test_build_train_network_and_model_at_auto():
    ms.set_seed(0)
    net = nn.Dense(3, 2, has_bias=False)
    step = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.1), nn.MSELoss(),
                                   "auto")
    before = net.weight.asnumpy().copy()
    loss = step(f32(4, 3), f32(4, 2))
    assert loss.dtype == ms.float32 and not np.array_equal(before, net.weight.asnumpy())
    assert net.weight.dtype == ms.float32 and net._amp_level == "auto"


@pytest.mark.parametrize("bad, error, message", [
    (3, TypeError, r"For amp_level 'auto', the network type should be Cell or function\."),
    ("fn", TypeError, r"For amp_level 'auto', the network type should be Cell or function\."),
])
def test_bad_networks(bad, error, message):
    with pytest.raises(error, match=message):
        amp.auto_mixed_precision(bad, "auto")


@pytest.mark.parametrize("sense, error, message", [
    (3, TypeError, r"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or "
                   r"Tensor, but got 'scale_sense' type: <class 'int'>\."),
    (Tensor(np.ones(2, np.float32)), ValueError,
     r"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be \(1,\) or \(\), "
     r"but got \(2,\)\."),
])
def test_train_one_step_with_loss_scale_checks_scale_sense(sense, error, message):
    net = nn.Dense(2, 2)
    with pytest.raises(error, match=message):
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                         nn.SGD(net.trainable_params()), sense)


def test_the_policy_belongs_to_the_calling_thread():
    import threading

    inside, outside = threading.Event(), threading.Event()
    seen = {}

    def slow(a):
        inside.set()
        outside.wait(10)  # another thread computes meanwhile
        return ops.matmul(a, a)

    def other():
        inside.wait(10)
        seen["other"] = (ops.matmul(f32(2, 2), f32(2, 2)).dtype, nn.Dense(2, 2)(f32(1, 2)).dtype)
        outside.set()

    t = threading.Thread(target=other)
    t.start()
    got = amp.auto_mixed_precision(slow, "auto")(f32(2, 2))
    t.join()
    assert got.dtype == ms.float16 and seen["other"] == (ms.float32, ms.float32)
    assert not auto.ACTIVE
