"""cellgrad.observe: observers see every dispatch, backward rule and Cell call."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, observe, ops


class Recorder(observe.Observer):
    def __init__(self, tag="", log=None):
        self.tag = tag
        self.log = [] if log is None else log

    def op_begin(self, op, inputs, attrs):
        self.log.append((self.tag + "op_begin", op.name))

    def op_end(self, op, inputs, attrs, result):
        self.log.append((self.tag + "op_end", op.name, tuple(np.shape(result))
                         if isinstance(result, ms.Tensor) else None))

    def op_abort(self, op):
        self.log.append((self.tag + "op_abort", op.name))

    def backward_begin(self, op):
        self.log.append((self.tag + "bw_begin", op.name))

    def backward_end(self, op):
        self.log.append((self.tag + "bw_end", op.name))

    def cell_begin(self, cell, args, kwargs):
        self.log.append((self.tag + "cell_begin", type(cell).__name__))

    def cell_end(self, cell, result):
        self.log.append((self.tag + "cell_end", type(cell).__name__))

    def cell_abort(self, cell):
        self.log.append((self.tag + "cell_abort", type(cell).__name__))


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full((3,), 2.0, np.float32)), name="w")

    def construct(self, x):
        return ops.mul(x, self.w)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Scale()

    def construct(self, x):
        return ops.sin(self.inner(x)).sum()


def test_ops_fast_paths_included_are_seen_with_their_results():
    rec = Recorder()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with observe.add_observer(rec):
        y = x + x        # the two-input fast path
        z = ops.exp(y)   # the one-input fast path
        ops.reshape(z, (3, 2))
    assert rec.log == [("op_begin", "add"), ("op_end", "add", (2, 3)),
                       ("op_begin", "exp"), ("op_end", "exp", (2, 3)),
                       ("op_begin", "reshape"), ("op_end", "reshape", (3, 2))]
    assert observe.observers() == []
    x + x
    assert len(rec.log) == 6  # removed: sees nothing more


def test_cells_nest_and_backward_rules_are_bracketed():
    rec = Recorder()
    net = Outer()
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    net(x)  # the first call is the slow path; observe the fast one too
    handle = observe.add_observer(rec)
    try:
        g = ms.grad(net)(x)
    finally:
        handle.remove()
    np.testing.assert_allclose(g.asnumpy(), 2 * np.cos(2 * np.arange(3)), rtol=1e-6)
    kinds = [e[0] for e in rec.log]
    names = [e[1] for e in rec.log]
    first = kinds.index("cell_begin")
    assert names[first] == "Outer" and names[kinds.index("cell_begin", first + 1)] == "Scale"
    assert ("cell_end", "Scale") in rec.log and rec.log.index(("cell_end", "Scale")) < \
        rec.log.index(("cell_end", "Outer"))
    bw = [e for e in rec.log if e[0].startswith("bw")]
    assert bw[0] == ("bw_begin", "sum") and bw[-1][0] == "bw_end"
    assert [e[1] for e in bw if e[0] == "bw_begin"] == ["sum", "sin", "mul"]
    assert len(bw) == 6


def test_an_op_that_raises_is_aborted_and_so_is_its_cell():
    rec = Recorder()

    class Bad(nn.Cell):
        def construct(self, x):
            return ops.reshape(x, (7,))

    net = Bad()
    with observe.add_observer(rec), pytest.raises(ValueError):
        net(ms.Tensor(np.ones(3, np.float32)))
    assert rec.log[-2:] == [("op_abort", "reshape"), ("cell_abort", "Bad")]


def test_several_observers_nest_begin_in_order_end_in_reverse():
    log = []
    a, b = Recorder("a.", log), Recorder("b.", log)
    x = ms.Tensor(np.ones(2, np.float32))
    with observe.add_observer(a), observe.add_observer(b):
        ops.neg(x)
        assert observe.observers() == [a, b]
    assert [e[0] for e in log] == ["a.op_begin", "b.op_begin", "b.op_end", "a.op_end"]


def test_bad_observers_are_refused():
    with pytest.raises(TypeError, match="lacks the observer method"):
        observe.add_observer(object())
    rec = Recorder()
    with observe.add_observer(rec):
        with pytest.raises(ValueError, match="already watching"):
            observe.add_observer(rec)
