"""ms.jit without a compiler (cellgrad-jit not installed): the function runs eagerly, exactly
as without jit; and the core's tracer interface (`cellgrad._jit_hook`)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import _jit_hook, nn, plugins


@pytest.fixture
def no_compiler(monkeypatch):
    """As with the core alone: no plugin registers a compiler."""
    monkeypatch.setattr(_jit_hook, "_compiler", None)
    monkeypatch.setattr(plugins, "state", lambda: None)


def test_jit_runs_eagerly_without_a_compiler(no_compiler):
    assert _jit_hook.compiler() is None
    calls = []

    @ms.jit
    def f(x):
        calls.append(1)
        if x.sum() > 0:  # a Python branch on a value: fine eagerly
            return x * 2
        return x - 1

    pos, neg = ms.Tensor(np.ones(3, np.float32)), ms.Tensor(-np.ones(3, np.float32))
    np.testing.assert_array_equal(f(pos).asnumpy(), [2, 2, 2])
    np.testing.assert_array_equal(f(neg).asnumpy(), [-2, -2, -2])
    assert len(calls) == 2 and f.__name__ == "f"
    assert not hasattr(f, "jit_stats")

    g = ms.jit(capture_mode="bytecode", jit_level="O1")(lambda x: x + 1)
    np.testing.assert_array_equal(g(pos).asnumpy(), [2, 2, 2])


def test_jit_on_a_cell_and_construct_without_a_compiler(no_compiler):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.full(2, 3.0, np.float32)), name="w")

        @ms.jit
        def construct(self, x):
            return x * self.w

    net = Net()
    assert ms.jit(net) is net
    x = ms.Tensor(np.ones(2, np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), [3, 3])
    np.testing.assert_array_equal(ms.grad(net, None, net.trainable_params())(x)[0].asnumpy(),
                                  [1, 1])


def test_jit_bad_arguments():
    with pytest.raises(ValueError, match="'capture_mode' must be one of"):
        ms.jit(lambda x: x, capture_mode="graph")
    with pytest.raises(ValueError, match="'jit_level' must be one of"):
        ms.jit(lambda x: x, jit_level="O9")
    with pytest.raises(TypeError, match="decorated object must be a function or a Cell, but "
                                        "got str"):
        ms.jit("f")


def test_register_compiler_checks_and_uses_the_target(monkeypatch):
    monkeypatch.setattr(_jit_hook, "_compiler", None)
    with pytest.raises(TypeError, match="'target' must be a callable or 'module:attr'"):
        _jit_hook.register_compiler(3)
    made = []

    def make(function, settings):
        made.append(settings)
        return lambda *a: ("compiled", function(*a))

    _jit_hook.register_compiler(make)
    f = ms.jit(lambda x: x, fullgraph=True)
    assert f(1) == ("compiled", 1)
    assert made[0]["fullgraph"] is True and made[0]["capture_mode"] == "ast"


class _Events:
    def __init__(self):
        self.events = []

    def value_read(self, tensor, how):
        self.events.append(("read", how))

    def random_draw(self, kernel, seed):
        self.events.append(("draw", kernel))

    def grad_begin(self, pairs):
        self.events.append(("grad_begin", len(pairs)))

    def grad_end(self, roots, sens, targets, results, given):
        self.events.append(("grad_end", len(roots), len(targets), len(results)))
        assert given == [None]  # the default sensitivity (ones)


def test_tracer_events():
    rec = _Events()
    x = ms.Tensor(np.ones(2, np.float32))
    w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    previous = _jit_hook.set_tracer(rec)
    try:
        x.asnumpy()
        float(x[0])
        bool(x[0])
        x.tolist()
        x.__array__()  # np.asarray takes the buffer protocol (pyx), which is not hooked
        ms.context.generator("Dropout", 0)
        ms.grad(lambda a: (a * w).sum(), 0, [w])(x)
    finally:
        assert _jit_hook.set_tracer(previous) is rec
    reads = [e[1] for e in rec.events if e[0] == "read"]
    assert reads == ["asnumpy", "float", "bool", "tolist", "__array__"]
    assert ("draw", "Dropout") in rec.events
    assert ("grad_begin", 2) in rec.events and ("grad_end", 1, 2, 2) in rec.events
    assert _jit_hook.tape_place(x) is None
    assert not _jit_hook.has_grad_hooks(x)
    assert not _jit_hook.recording()
    assert _jit_hook.rule_namespace().IS_TENSOR is False


def test_cell_set_jit_config(capsys):
    class Net(nn.Cell):
        def construct(self, x):
            return x * 2

    net = Net()
    net.set_jit_config(ms.JitConfig(jit_level="O1"))
    assert net._jit_config_dict["jit_level"] == "O1"
    net.set_jit_config(ms.JitConfig(jit_level="O0"))  # set once, as MindSpore: ignored
    assert net._jit_config_dict["jit_level"] == "O1"
    assert "jit config can only be set once" in capsys.readouterr().err
    with pytest.raises(TypeError, match="'jit_config' must be a JitConfig, but got dict"):
        net.set_jit_config({"jit_level": "O1"})
