import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops

ms.set_context(mode=ms.PYNATIVE_MODE)


class Lin(nn.Cell):
    def __init__(self, n, m, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.weight = Parameter(Tensor(rng.uniform(-1, 1, (n, m)).astype(np.float32)))
        self.bias = Parameter(Tensor(np.zeros(m, np.float32)))
        self.steps = Parameter(Tensor(np.array(0, np.int32)), requires_grad=False)

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.weight) + self.bias)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first = Lin(3, 4, 0)
        self.rest = nn.SequentialCell([Lin(4, 4, 1), Lin(4, 2, 2)])
        self.scale = Parameter(Tensor(np.array([2.0, 0.5], np.float32)))

    def construct(self, x):
        return self.rest(self.first(x)) * self.scale


net = Net()
sd = net.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd["rest.0.weight"] is net.rest[0].weight, list(net.state_dict(prefix="m.").keys())[:2])
other = Net()
for p in other.trainable_params():
    p.set_data(ops.zeros_like(p))
print(repr(other.load_state_dict(sd)), other.rest[1].weight.asnumpy()[0])
try:
    other.load_state_dict({"scale": sd["scale"]})
except RuntimeError as e:
    print(str(e).splitlines()[1][:80])
r = other.load_state_dict({"scale": Tensor([1.0, 1.0], ms.float64), "extra": Tensor(1.0)},
                          strict=False)
print(r.unexpected_keys, len(r.missing_keys), other.scale.dtype, other.scale.asnumpy())
try:
    other.load_state_dict({"scale": Tensor([1.0, 2.0, 3.0])}, strict=False)
except RuntimeError as e:
    print(str(e).splitlines()[1])
try:
    net.state_dict(prefix=1)
except TypeError as e:
    print(e)
net.first.register_buffer("running", Tensor([1.0, 2.0]))
net.register_buffer("counter", Tensor(np.array([3], np.int32)))
net.register_buffer("scratch", Tensor([0.0]), persistent=False)
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_buffers(prefix="p")])
print([b.shape for b in net.buffers()], [n for n, _ in net.named_buffers(recurse=False)])
print(net.first.running, net.counter)
for bad in [("a.b", Tensor(1.0)), ("", Tensor(1.0)), ("scale", Tensor(1.0)), ("c", 1.0)]:
    try:
        net.register_buffer(*bad)
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
try:
    net.counter = Tensor([4])
except TypeError as e:
    print("TypeError", str(e).split(",")[0])
del net.scratch
print([n for n, _ in net.named_buffers()], hasattr(net, "scratch"))
print(net.to(ms.float64) is net, net.first.weight.dtype, net.first.steps.dtype,
      net.first.running.dtype, net.counter.dtype)
net.to(dtype=ms.float32)
print(net.first.weight.dtype, net.to(Tensor([1.0], ms.float16)).scale.dtype)
try:
    net.to(ms.int32)
except TypeError as e:
    print(e)
net.to(ms.float32)
d = net.init_parameters_data()
print(len(d), all(k is v for k, v in d.items()))
print(net.get_inputs())
dyn = Tensor(shape=[None, 3], dtype=ms.float32)
net.set_inputs(dyn)
print(net.get_inputs()[0] is dyn)
try:
    net.set_inputs(dyn, x=dyn)
except ValueError as e:
    print("ValueError", str(e)[:50])
print(net.set_comm_fusion(3) is net, net.first.weight.comm_fusion, net.first.steps.comm_fusion)
try:
    net.set_comm_fusion(-1)
except ValueError as e:
    print(e)
print(net.shard(((1, 1),)))
x = Tensor(np.array([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]], np.float32))
net.recompute()
print(net.get_flags())
try:
    net.recompute(bad=1)
except ValueError as e:
    print(str(e)[:45])
print(net(x))
print(ms.grad(net, 0, net.trainable_params())(x))
