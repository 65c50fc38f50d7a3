# mindspore.amp.auto_mixed_precision at 'auto', O1, O2 and O3 (float16): the dtype
# at every cell and operator boundary of one network (conv with bias, BatchNorm, ReLU, Dense,
# LayerNorm, a bias-free Dense, a to_float(float32) cell, functional ops of the auto white,
# black and promote lists and unlisted ones), its output values, and 'auto' on a function and
# inside a training step.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, amp, Tensor


def lin(*shape):
    return Tensor(np.sin(np.arange(np.prod(shape)) * 1.3).reshape(shape).astype(np.float32) / 2)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, has_bias=True, pad_mode="valid",
                              weight_init=lin(4, 2, 3, 3),
                              bias_init=lin(4))
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.dense = nn.Dense(16, 5, weight_init=lin(5, 16), bias_init=lin(5))
        self.ln = nn.LayerNorm((5,))
        self.nobias = nn.Dense(5, 5, has_bias=False, weight_init=lin(5, 5))
        self.keep = nn.Dense(5, 5, has_bias=False, weight_init=lin(5, 5)).to_float(ms.float32)
        self.w = ms.Parameter(Tensor(np.linspace(-1, 1, 15).reshape(5, 3).astype(np.float32)),
                              name="w")

    def construct(self, x):
        seen = []
        a = self.conv(x)
        b = self.bn(a)
        c = self.relu(b)
        d = self.flat(c)
        e = self.dense(d)
        f = self.ln(e)
        g = self.nobias(f)
        h = self.keep(f)
        i = ops.matmul(g, self.w)
        j = ops.exp(i)
        k = i + j
        s = ops.softmax(i)
        t = ops.sigmoid(i)
        u = ops.sum(i)
        m = i * 2.0
        lg = ops.log(ops.abs(i) + 1)
        dn = ops.dense(g, self.w.T)
        # not printed: `x` itself and a bias_add with a float32 Tensor made inside construct.
        # At O2/O3 MindSpore casts every operator's inputs inside a to_float cell (x stays
        # float32, the made Tensor becomes float16); cellgrad casts the cell's inputs and
        # Parameters when it is called (x float16, the made Tensor float32).
        for name, v in (("conv", a), ("bn", b), ("relu", c), ("flatten", d),
                        ("dense", e), ("layernorm", f), ("dense_nobias", g),
                        ("dense_fp32", h), ("matmul", i), ("exp", j), ("add", k),
                        ("softmax", s), ("sigmoid", t), ("sum", u), ("mul_scalar", m),
                        ("log", lg), ("ops_dense", dn)):
            seen.append(name + ":" + str(v.dtype))
        print(" ".join(seen))
        return i


x = Tensor(np.random.default_rng(0).standard_normal((2, 2, 4, 4)).astype(np.float32))
for dtype in (ms.float16,):
    for level in ("auto", "O1", "O2", "O3"):
        ms.set_seed(1)
        net = amp.auto_mixed_precision(Net(), level, dtype)
        # O1: MindSpore returns a rewritten copy (NetOpt), cellgrad the network changed in place
        print(level, dtype, type(net).__name__ if level != "O1" else "", net._amp_level)
        out = net(x)
        print("out", out.dtype, np.round(out.astype(ms.float32).asnumpy(), 2))


def fn(a, b):
    m = ops.matmul(a, b)
    return m, ops.exp(a), ops.bias_add(m, ops.ones(2, ms.float32)), m + a, ops.sigmoid(m)


f = amp.auto_mixed_precision(fn, "auto")
a = Tensor(np.eye(2, dtype=np.float32))
print(f.__name__, f._amp_level, [r.dtype for r in f(a, a)], [r.dtype for r in fn(a, a)])
s = f.amp_strategy
print(s.get_amp_level(), s.get_amp_dtype(), len(s.get_white_list()), len(s.get_black_list()),
      s.get_white_list()[:2], s.get_black_list()[-1])


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(3, 4, weight_init=lin(4, 3), bias_init=lin(4))
        self.d2 = nn.Dense(4, 2, has_bias=False, weight_init=lin(2, 4))

    def construct(self, x):
        return self.d2(ops.relu(self.d1(x)))


ms.set_seed(2)
net = amp.auto_mixed_precision(Small(), "auto")
xs = Tensor(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32))
ys = Tensor(np.linspace(0, 1, 8).reshape(4, 2).astype(np.float32))
loss_fn = nn.MSELoss()


def forward(x, y):
    out = net(x)
    return loss_fn(ops.cast(out, ms.float32), y), out


grad_fn = ms.value_and_grad(forward, None, net.trainable_params(), has_aux=True)
(loss, out), grads = grad_fn(xs, ys)
print("train", out.dtype, loss.dtype, [g.dtype for g in grads],
      [p.dtype for p in net.trainable_params()])
print(np.round(loss.asnumpy(), 3), [np.round(g.asnumpy(), 2).tolist() for g in grads])
