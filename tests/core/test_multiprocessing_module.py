"""`cellgrad.multiprocessing` (MindSpore's `mindspore.multiprocessing`): Tensors cross a Queue
to forked children that compute with cellgrad, and a fork Pool runs cellgrad ops."""

import sys

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import multiprocessing as mp
from cellgrad import ops

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the fork start method")


def _child(q, out):
    x = q.get()
    out.put(ops.log(x).asnumpy())


def _log(x):
    return ops.log(x)


def test_process_and_queue_carry_tensors():
    ctx_method = mp.get_start_method(allow_none=True)
    mp.set_start_method("fork", force=True)
    try:
        q, out = mp.Queue(), mp.Queue()
        p = mp.Process(target=_child, args=(q, out))
        assert isinstance(p, mp.Process)
        p.start()
        q.put(ms.Tensor(2.0, ms.float32))
        np.testing.assert_allclose(out.get(timeout=30), np.log(np.float32(2.0)), rtol=1e-6)
        p.join(30)
        assert p.exitcode == 0
    finally:
        mp.set_start_method(ctx_method, force=True)


def test_fork_pool_maps_cellgrad_ops():
    ctx = mp.get_context("fork")
    with mp.Pool(2, context=ctx) as pool:
        got = pool.map(_log, [ms.Tensor(1.0, ms.float32), ms.Tensor(np.e, ms.float32)])
    np.testing.assert_allclose([g.asnumpy() for g in got], [0.0, 1.0], atol=1e-6)
    assert "Queue" in mp.__all__ and mp.cpu_count() >= 1
