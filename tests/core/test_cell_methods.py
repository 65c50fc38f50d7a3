"""Cell methods of MindSpore 2.10 real code uses (nn/_state.py); cell_methods.py replays the
same calls recorded from MindSpore."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)))
        self.k = Parameter(Tensor(np.array(3, np.int32)), requires_grad=False)

    def construct(self, x):
        return x * self.w


class Root(nn.Cell):
    def __init__(self):
        super().__init__()
        self.leaf = Leaf()
        self.seq = nn.SequentialCell([Leaf()])
        self.register_buffer("stat", Tensor(np.zeros(2, np.float32)))

    def construct(self, x):
        return self.seq(self.leaf(x)) + self.stat


def test_state_dict_keys_are_attribute_paths_and_values_the_objects():
    net = Root()
    sd = net.state_dict()
    assert list(sd) == ["stat", "leaf.w", "leaf.k", "seq.0.w", "seq.0.k"]
    assert sd["leaf.w"] is net.leaf.w and sd["stat"] is net.stat
    assert list(net.state_dict(prefix="m.")) == ["m." + k for k in sd]


def test_load_state_dict_copies_into_the_same_parameters():
    src, dst = Root(), Root()
    src.leaf.w.set_data(Tensor([5.0, 6.0]))
    w = dst.leaf.w
    result = dst.load_state_dict(src.state_dict())
    assert repr(result) == "<All keys matched successfully>" and dst.leaf.w is w
    assert w.asnumpy().tolist() == [5.0, 6.0]
    r = dst.load_state_dict({"leaf.w": Tensor([1, 2], ms.int64), "junk.x": Tensor(1.0)},
                            strict=False)
    assert (w.dtype, w.asnumpy().tolist()) == (ms.float32, [1.0, 2.0])
    assert r.unexpected_keys == ["junk.x"] and "seq.0.w" in r.missing_keys
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "junk.x"'):
        dst.load_state_dict({**src.state_dict(), "junk.x": Tensor(1.0)})
    with pytest.raises(TypeError, match="dict-like"):
        dst.load_state_dict([("leaf.w", w)])


def test_buffers_are_attributes_traversed_and_guarded():
    net = Root()
    net.leaf.register_buffer("tmp", Tensor([1.0]), persistent=False)
    assert [n for n, _ in net.named_buffers()] == ["stat", "leaf.tmp"]
    assert "leaf.tmp" not in net.state_dict()
    assert net.leaf.tmp.asnumpy().tolist() == [1.0]
    net.leaf.tmp = None
    assert [n for n, _ in net.named_buffers()] == ["stat"]
    with pytest.raises(TypeError, match="Buffer 'stat' already exists"):
        net.stat = Tensor([1.0, 1.0])
    with pytest.raises(KeyError, match="attribute 'leaf' already exists"):
        net.register_buffer("leaf", Tensor(1.0))
    assert net.get_buffer("stat") is net.stat and net.get_sub_cell("seq.0") is net.seq[0]
    with pytest.raises(AttributeError, match="`w` is not a buffer"):
        net.get_buffer("leaf.w")
    with pytest.raises(AttributeError, match="Leaf has no attribute `nope`"):
        net.get_sub_cell("leaf.nope")
    del net.stat
    assert list(net.buffers()) == [] and not hasattr(net, "stat")


def test_to_casts_float_parameters_in_place_and_buffers():
    net = Root()
    w = net.leaf.w
    assert net.to(ms.float64) is net and net.leaf.w is w and w.dtype == ms.float64
    assert net.leaf.k.dtype == ms.int32 and net.stat.dtype == ms.float64
    assert net.to(Tensor([1.0], ms.float16)).leaf.w.dtype == ms.float16
    assert net.to("CPU", dtype=ms.float32).leaf.w.dtype == ms.float32
    with pytest.raises(TypeError, match="floating point or complex dtypes.*Int32"):
        net.to(ms.int32)
    with pytest.raises(ValueError, match="'Cell.to'.*CPU only.*'Ascend'"):
        net.to("Ascend")
    out = ms.grad(lambda x: net(x).sum())(Tensor([1.0, 1.0]))
    assert out.asnumpy().tolist() == [1.0, 4.0]  # d(x * w * w)/dx


def test_recorded_settings():
    net = Root()
    d = net.init_parameters_data()
    assert len(d) == 4 and all(k is v for k, v in d.items())
    dyn = Tensor(shape=[None, 2], dtype=ms.float32)
    assert net.get_inputs() is None and net.set_inputs(dyn) is None
    assert net.get_inputs() == (dyn,)
    assert net.shard(((1, 1),), ((1,),)) is None
    assert net.__dict__["_shard_request"] == (((1, 1),), ((1,),), None)
    assert net.set_comm_fusion(2) is net and net.leaf.w.comm_fusion == 2
    assert net.leaf.k.comm_fusion == 1  # not trainable
    with pytest.raises(ValueError, match="must be int and must >= 0"):
        net.set_comm_fusion(True)
    assert net.set_broadcast_flag() is net and net.seq[0].broadcast_flag is True
    assert net.compile(Tensor([1.0, 2.0])) is None
    with pytest.raises(TypeError, match="parameters number of the function is 1, but the number "
                                        "of provided arguments is 0"):
        net.compile()
