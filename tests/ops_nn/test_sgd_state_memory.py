"""nn.SGD without momentum: accum and stat exist with MindSpore's names and values but share one
read-only constant instead of a copy of every parameter (issue 12, deep_chain's peak RSS)."""

import numpy as np
import pytest

from cellgrad import Parameter, Tensor, nn


def params():
    return [Parameter(Tensor(np.full((64, 32), 2.0, np.float32)), name="w"),
            Parameter(Tensor(np.zeros(32, np.float64)), name="b")]


def test_no_momentum_state_has_values_and_names_without_copies():
    ps = params()
    opt = nn.SGD(ps, 0.1)
    assert [p.name for p in opt.accum] == ["accum.w", "accum.b"]
    assert [p.name for p in opt.stat] == ["stat.w", "stat.b"]
    for state, value in ((opt.accum, 0), (opt.stat, 1)):
        for p, q in zip(state, ps):
            assert p.shape == q.shape and p.dtype == q.dtype
            np.testing.assert_array_equal(p.asnumpy(), np.full(q.shape, value))
            assert p.asnumpy().base is not None and p.asnumpy().strides == (0,) * q.ndim
    opt((Tensor(np.ones((64, 32), np.float32)), Tensor(np.ones(32))))
    np.testing.assert_allclose(ps[0].asnumpy(), 1.9)
    np.testing.assert_allclose(ps[1].asnumpy(), -0.1)
    np.testing.assert_array_equal(opt.stat[0].asnumpy(), 1)


def test_no_momentum_state_set_data_replaces_and_in_place_write_raises():
    opt = nn.SGD(params(), 0.1)
    opt.accum[0].set_data(Tensor(np.full((64, 32), 3.0, np.float32)))
    np.testing.assert_array_equal(opt.accum[0].asnumpy(), 3.0)
    opt.accum[0].asnumpy()[0, 0] = 4.0  # now its own array
    assert opt.accum[0].asnumpy()[0, 0] == 4.0
    with pytest.raises(ValueError, match="read-only"):
        opt.stat[1].asnumpy()[0] = 0.0


def test_momentum_state_is_owned_and_updated():
    ps = params()
    opt = nn.SGD(ps, 0.1, momentum=0.9)
    opt((Tensor(np.ones((64, 32), np.float32)), Tensor(np.ones(32))))
    np.testing.assert_allclose(opt.accum[0].asnumpy(), 1.0)
    np.testing.assert_array_equal(opt.stat[0].asnumpy(), 0)
    assert opt.accum[0].asnumpy().flags.writeable and opt.accum[0].asnumpy().flags.owndata
