import mindspore as ms
import numpy as np
from mindspore import ops

rng = np.random.default_rng(7)


def blob(n):
    return ms.Tensor((rng.standard_normal((n, 1, 1)) * 0.5).astype(np.float32))


def state(n, b, h):
    return ms.Tensor(rng.standard_normal((n, b, h)).astype(np.float32))


x = ms.Tensor(rng.standard_normal((4, 2, 3)).astype(np.float32))
for layers, bidirectional, has_bias in [(1, False, True), (1, True, True), (1, False, False)]:
    d = 2 if bidirectional else 1
    n = d * 4 * 2 * (3 + 2) + (d * 4 * 2 if has_bias else 0)
    lstm = ops.LSTM(3, 2, layers, has_bias, bidirectional, 0.0)
    w, h, c = blob(n), state(d, 2, 2), state(d, 2, 2)
    out, h_n, c_n, _, _ = lstm(x, h, c, w)
    print(out.shape, np.round(out.asnumpy(), 5))
    print(np.round(h_n.asnumpy(), 5), np.round(c_n.asnumpy(), 5))
    gx, gw = ms.grad(lambda a, b, lstm=lstm, h=h, c=c: lstm(a, h, c, b)[0].sum(),
                     grad_position=(0, 1))(x, w)
    print(np.round(gx.asnumpy(), 5), gw.shape, np.round(gw.asnumpy()[:8, 0, 0], 5))

x2 = ms.Tensor(rng.standard_normal((3, 2, 2)).astype(np.float32))
lstm = ops.LSTM(2, 2, 3, True, False, 0.0)
w, h, c = blob(3 * (4 * 2 * 4 + 8)), state(3, 2, 2), state(3, 2, 2)
out, h_n, c_n, _, _ = lstm(x2, h, c, w)
print(np.round(out.asnumpy(), 5), np.round(h_n.asnumpy(), 5), np.round(c_n.asnumpy(), 5))

for bad in [dict(input_size=2.0), dict(input_size=0), dict(dropout=1), dict(dropout=2.0),
            dict(has_bias=1), dict(proj_size=5)]:
    kw = dict(input_size=3, hidden_size=2, num_layers=1, has_bias=True, bidirectional=False,
              dropout=0.0)
    kw.update(bad)
    try:
        ops.LSTM(**kw)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
