# nn.RNN / nn.LSTM / nn.GRU and their cells: parameter names, outputs, final states and
# gradients with respect to the input, the initial states and every weight.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn

np.set_printoptions(precision=5, suppress=True, threshold=100000, linewidth=120)


def set_weights(net, seed):
    rng = np.random.default_rng(seed)
    for name, p in net.parameters_and_names():
        p.set_data(Tensor(rng.uniform(-0.6, 0.6, p.shape).astype(np.float32)))
        print("param", name, p.shape)


def arr(shape, seed):
    return Tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32))


def show(name, t):
    print(name, t.shape, t.dtype)
    print(t.asnumpy())


def run(name, net, x, *rest):
    set_weights(net, 7)
    out = net(x, *rest)
    show(name + " out", out[0])
    states = out[1] if isinstance(out[1], tuple) else (out[1],)
    for k, s in enumerate(states):
        show(f"{name} state{k}", s)
    wo = arr(out[0].shape, 11)
    ws = [arr(s.shape, 12 + k) for k, s in enumerate(states)]

    def loss(x, *rest):
        o = net(x, *rest)
        st = o[1] if isinstance(o[1], tuple) else (o[1],)
        total = (o[0] * wo).sum()
        for s, w in zip(st, ws):
            total = total + (s * w).sum()
        return total

    params = net.trainable_params()
    positions = (0, 1) if rest and rest[0] is not None and not isinstance(rest[0], tuple) else 0
    gx, gw = ms.grad(loss, positions, params)(x, *rest)
    for k, g in enumerate(gx if isinstance(gx, tuple) else (gx,)):
        show(f"{name} grad input{k}", g)
    for p, g in zip(params, gw):
        show(f"{name} grad {p.name}", g)


run("lstm2bi", nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True), arr((2, 5, 3), 1))
run("gru_bi_seq", nn.GRU(3, 4, bidirectional=True), arr((5, 3, 3), 2), None,
    Tensor(np.array([5, 2, 3], np.int32)))
run("rnn_relu_h0", nn.RNN(3, 4, 2, nonlinearity="relu"), arr((4, 2, 3), 3), arr((2, 2, 4), 4))
run("rnn_tanh_seq_nobias", nn.RNN(3, 4, has_bias=False, batch_first=True), arr((3, 4, 3), 5),
    None, Tensor(np.array([4, 1, 3], np.int64)))
run("lstm_seq_h0", nn.LSTM(3, 4), arr((4, 2, 3), 6), (arr((1, 2, 4), 7), arr((1, 2, 4), 8)),
    Tensor(np.array([2, 4], np.int32)))
run("gru2_h0", nn.GRU(3, 4, 2, batch_first=True), arr((2, 4, 3), 9), arr((2, 2, 4), 10))
run("lstm_bi_seq", nn.LSTM(3, 4, bidirectional=True, has_bias=False), arr((4, 3, 3), 21),
    None, Tensor(np.array([1, 4, 3], np.int32)))


def run_cell(name, cell, x, hx):
    set_weights(cell, 8)
    out = cell(x, hx)
    for k, o in enumerate(out if isinstance(out, tuple) else (out,)):
        show(f"{name} out{k}", o)
    states = hx if isinstance(hx, tuple) else (hx,)

    def loss(x, *states):
        o = cell(x, states if len(states) == 2 else states[0])
        o = o if isinstance(o, tuple) else (o,)
        return sum((t * arr(t.shape, 30 + k)).sum() for k, t in enumerate(o))

    params = cell.trainable_params()
    gx, gw = ms.grad(loss, tuple(range(1 + len(states))), params)(x, *states)
    for k, g in enumerate(gx):
        show(f"{name} grad input{k}", g)
    for p, g in zip(params, gw):
        show(f"{name} grad {p.name}", g)


run_cell("lstmcell", nn.LSTMCell(3, 4), arr((2, 3), 40), (arr((2, 4), 41), arr((2, 4), 42)))
run_cell("grucell", nn.GRUCell(3, 4), arr((2, 3), 43), arr((2, 4), 44))
run_cell("rnncell", nn.RNNCell(3, 4, nonlinearity="relu"), arr((2, 3), 45), arr((2, 4), 46))
run_cell("rnncell_nobias", nn.RNNCell(3, 4, has_bias=False), arr((2, 3), 47), arr((2, 4), 48))
print(nn.LSTM(3, 4, 2))
print(nn.GRU(3, 4))
print(nn.RNN(3, 4, nonlinearity="relu"))
print(nn.RNN(3, 4))
