"""A gradient whose sensitivity the caller passes (`vjp`'s cotangent, `sens_param`, a
`TrainOneStepCell` sens, `sens=`) replays with the value given at each call, not the traced
call's value nor ones."""

import numpy as np

import cellgrad as ms
from cellgrad import nn, ops


def test_vjp_inside_jit_takes_each_calls_cotangent():
    @ms.jit
    def back(d):
        _, fn = ms.vjp(lambda x: x[1:] * 3, ops.zeros((3,), d.dtype))
        return fn(d)[0]

    for v in ([1.0, 2.0], [5.0, 7.0], [9.0, -11.0]):
        got = back(ms.Tensor(np.array(v, np.float32)))
        np.testing.assert_array_equal(got.asnumpy(), [0.0] + [3 * x for x in v])
    assert back.jit_stats.replays == 2


def _train_one_step(sens):
    ms.set_seed(0)
    net = nn.Dense(4, 2)
    loss = nn.WithLossCell(net, nn.MSELoss())
    return nn.TrainOneStepCell(loss, nn.SGD(net.trainable_params(), 0.1), sens=sens), net


def test_train_one_step_with_a_sens_equals_eager():
    x = ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    y = ms.Tensor(np.zeros((3, 2), np.float32))
    eager, net_e = _train_one_step(8.0)
    jitted, net_j = _train_one_step(8.0)
    step = ms.jit(jitted)
    for _ in range(4):
        le, lj = eager(x, y), step(x, y)
        np.testing.assert_array_equal(le.asnumpy(), lj.asnumpy())
    for a, b in zip(net_e.get_parameters(), net_j.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_sens_param_tensor_and_number():
    grad_fn = ms.ops.GradOperation(sens_param=True)
    f = lambda x: x * x  # noqa: E731

    @ms.jit
    def with_tensor(x, s):
        return grad_fn(f)(x, s)

    @ms.jit
    def with_number(x):
        return ms.grad(f)(x) * 0 + grad_fn(f)(x, ms.Tensor(2.0, ms.float32))

    x = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    for s in ([1.0, 1.0, 1.0], [0.5, 2.0, -1.0], [3.0, 0.0, 4.0]):
        got = with_tensor(x, ms.Tensor(np.array(s, np.float32)))
        np.testing.assert_allclose(got.asnumpy(), 2 * x.asnumpy() * np.array(s))
    for _ in range(3):
        np.testing.assert_allclose(with_number(x).asnumpy(), 4 * x.asnumpy())
