"""A write into a Tensor's array that no core function reports, during a traced call, is found
after the call (its array's digest, or its copy, changed) and the function runs eagerly; the
fingerprints of transposed, broadcast and copied arrays see it too."""

import numpy as np
import pytest

import cellgrad as ms
import cellgrad_jit.trace as trace


def _param(kind):
    if kind == "transposed":
        a = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    elif kind == "strided":
        a = np.arange(12, dtype=np.float32).reshape(2, 6)[:, ::2]
    else:
        a = np.zeros((2, 3), np.float32)
    p = ms.Parameter(ms.Tensor(a), name="buf")
    p._data = a  # the layout itself (a Tensor may copy what it is given)
    return p


@pytest.mark.parametrize("hashed", [True, False], ids=["xxh3", "copies"])
@pytest.mark.parametrize("kind", ["contiguous", "transposed", "strided"])
def test_unreported_write_is_found(monkeypatch, hashed, kind):
    if not hashed:
        monkeypatch.setattr(trace, "_xxh3", None)
    buf = _param(kind)
    start = buf._data.copy()

    def raw(x):
        buf._data[0, 1] += 1  # a write no core function reports
        return x + buf

    rj = ms.jit(raw)
    x = ms.Tensor(np.ones((2, 3), np.float32))
    for k in range(1, 4):
        want = start.copy()
        want[0, 1] += k
        np.testing.assert_array_equal(rj(x).asnumpy(), want + 1)
    assert rj.jit_stats.replays == 0
    assert "Parameter 'buf' was changed in place" in rj.jit_stats.last_fallback


def test_broadcast_tensor_unchanged_replays_and_written_is_found():
    base = np.zeros(3, np.float32)
    t = ms.Tensor(base)
    t._data = np.broadcast_to(base, (2, 3))  # strides (0, 4): one row of memory
    rj = ms.jit(lambda x: x + t)
    x = ms.Tensor(np.ones((2, 3), np.float32))
    for _ in range(3):
        np.testing.assert_array_equal(rj(x).asnumpy(), np.ones((2, 3)))
    assert rj.jit_stats.replays == 2

    def raw(x):
        base[1] = 5.0  # writes the memory the broadcast shows
        return x + t

    rw = ms.jit(raw)
    np.testing.assert_array_equal(rw(x).asnumpy(), [[1, 6, 1]] * 2)
    assert rw.jit_stats.replays == 0
    assert "a Tensor was changed in place" in rw.jit_stats.last_fallback


def test_fingerprint_kinds():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert type(trace._fingerprint(a)) is int
    assert type(trace._fingerprint(np.asfortranarray(a))) is int
    assert type(trace._fingerprint(np.broadcast_to(a[0], (4, 3)))) is int
    assert isinstance(trace._fingerprint(a[:, ::2]), np.ndarray)  # no contiguous bytes: a copy
