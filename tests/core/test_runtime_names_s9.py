"""Streams and events, memory statistics, jit marks and the runtime Tensor methods (issue 28)."""

import gc
import inspect
import time

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import heap_stats, runtime
from cellgrad.common import _tm_runtime

# ---- streams and events ----


def test_streams_have_ids_and_the_current_stream_follows_streamctx():
    default, comm = ms.default_stream(), ms.communication_stream()
    assert (default.stream_id(), comm.stream_id()) == (0, 1)
    assert ms.current_stream() == default
    s1, s2 = ms.Stream(), ms.Stream(priority=-1)
    assert s2.stream_id() == s1.stream_id() + 1 and s2.priority == -1
    assert repr(s1) == f"Stream(device_name=CPU, device_id:0, stream id:{s1.id})"
    assert ms.Stream(stream=s1) == s1 and hash(ms.Stream(stream=s1)) == hash(s1)
    with ms.StreamCtx(s1):
        assert ms.current_stream() is s1
        with ms.StreamCtx(None):
            assert ms.current_stream() is s1
    assert ms.current_stream() is default
    ms.set_cur_stream(s2)
    try:
        assert ms.current_stream() is s2
        ms.set_cur_stream(None)                   # a no-op, as in MindSpore
        assert ms.current_stream() is s2
    finally:
        ms.set_cur_stream(default)
    assert runtime.Stream is ms.Stream and runtime.current_stream is ms.current_stream


def test_work_on_the_cpu_stream_is_done_when_queried():
    s = ms.Stream()
    with ms.StreamCtx(s):
        y = ms.Tensor(np.ones((4, 4))) @ ms.Tensor(np.ones((4, 4)))
        event = s.record_event()
    assert s.query() is True and event.query() is True
    ms.default_stream().wait_stream(s)
    ms.default_stream().wait_event(event)
    s.synchronize()
    event.synchronize()
    assert float(y.sum()) == 64.0


def test_timing_events_measure_the_time_between_their_records():
    start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
    start.record()
    time.sleep(0.02)
    end.record(ms.current_stream())
    elapsed = start.elapsed_time(end)
    assert 15.0 <= elapsed < 2000.0
    assert end.elapsed_time(start) == pytest.approx(-elapsed)
    assert repr(start) == "Event(enable_timing=1, blocking:0, is_created:1, event:1)"
    assert repr(ms.Event()) == "Event(enable_timing=0, blocking:0, is_created:0, event:0)"


def test_stream_and_event_errors_name_the_argument():
    with pytest.raises(TypeError, match="For 'Stream', the 'priority' must be a int, but got str"):
        ms.Stream(priority="high")
    with pytest.raises(TypeError, match="'enable_timing' must be a bool, but got int"):
        ms.Event(enable_timing=1)
    with pytest.raises(TypeError, match="'blocking' must be a bool"):
        ms.Event(blocking="yes")
    with pytest.raises(TypeError, match="For 'record_event', the argument 'event' should be"):
        ms.Stream().record_event(3)
    with pytest.raises(TypeError, match="For 'wait_stream', the argument 'stream' should be"):
        ms.Stream().wait_stream(ms.Event())
    with pytest.raises(TypeError, match="For 'set_cur_stream'"):
        ms.set_cur_stream(0)
    with pytest.raises(TypeError, match="For 'StreamCtx', the argument 'ctx_stream'"):
        ms.StreamCtx("s")
    with pytest.raises(TypeError, match="For 'record', the argument 'stream'"):
        ms.Event().record(1)
    with pytest.raises(TypeError, match="For '__eq__'"):
        _ = ms.Stream() == 1
    untimed, timed = ms.Event(), ms.Event(enable_timing=True)
    untimed.record()
    timed.record()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        untimed.elapsed_time(timed)
    with pytest.raises(RuntimeError, match="must be recorded"):
        timed.elapsed_time(ms.Event(enable_timing=True))
    with pytest.raises(TypeError, match="'end_event' should be Event"):
        timed.elapsed_time(None)


# ---- memory statistics ----

linux_glibc = pytest.mark.skipif(heap_stats._LIBC is None,
                                 reason="the statistics read glibc's heap and /proc")


@linux_glibc
def test_allocated_and_reserved_memory_follow_a_large_tensor():
    before = ms.memory_allocated()
    big = ms.Tensor(np.ones(8 << 20, np.uint8))      # 8 MiB
    during = ms.memory_allocated()
    assert during - before >= 8 << 20
    assert ms.max_memory_allocated() >= during
    assert ms.memory_reserved() >= 8 << 20 and ms.max_memory_reserved() >= ms.memory_reserved()
    del big
    assert ms.memory_allocated() < during - (4 << 20)
    assert ms.max_memory_allocated() >= during               # the peak stays until a reset
    ms.reset_peak_memory_stats()
    assert ms.max_memory_allocated() < during - (4 << 20)


@linux_glibc
def test_memory_stats_and_summary_have_mindspores_layout():
    stats = ms.memory_stats()
    assert list(stats) == [
        "total_reserved_memory", "total_allocated_memory", "total_idle_memory",
        "total_eager_free_memory", "max_reserved_memory", "max_allocated_memory",
        "common_mem_pool_stats", "persistent_mem_pool_stats"]
    assert stats["total_allocated_memory"] > 0 and stats["total_reserved_memory"] > 0
    assert stats["max_allocated_memory"] >= stats["total_allocated_memory"]
    summary = ms.memory_summary().splitlines()
    assert summary[0] == "|" + "=" * 45 + "|" and "Memory summary" in summary[1]
    assert summary[3] == "| Metric               | Data                 |"
    names = [line.split("|")[1].strip() for line in summary[5::2]]
    assert names == ["Reserved memory", "Allocated memory", "Idle memory", "Eager free memory",
                     "Max reserved memory", "Max allocated memory"]
    allocated = summary[7].split("|")[2].split()
    assert allocated[1] in ("B", "KB", "MB", "GB") and int(allocated[0]) > 0


@linux_glibc
def test_empty_cache_returns_free_heap_pages():
    from cellgrad import _heap

    if not _heap.tuned:
        pytest.skip("glibc trims freed pages itself without cellgrad's heap tuning")
    chunks = [np.ones(1 << 16) for _ in range(200)]          # ~100 MB of heap blocks
    del chunks[:-1]                   # freed, but kept in the heap (cellgrad._heap's tuning)
    kept = ms.memory_reserved()
    assert ms.memory_stats()["total_idle_memory"] >= 50 << 20
    ms.empty_cache()
    assert ms.memory_reserved() < kept - (50 << 20)          # the pages went back to the OS
    ms.reset_max_memory_allocated()
    ms.reset_max_memory_reserved()
    assert ms.max_memory_reserved() >= ms.memory_reserved() > 0


def test_memory_functions_take_no_arguments_as_in_mindspore():
    for name in ("memory_allocated", "max_memory_allocated", "memory_reserved",
                 "max_memory_reserved", "memory_stats", "memory_summary", "empty_cache",
                 "reset_peak_memory_stats", "reset_max_memory_allocated",
                 "reset_max_memory_reserved"):
        assert not inspect.signature(getattr(ms, name)).parameters
        assert getattr(runtime, name) is getattr(ms, name)


# ---- jit marks ----


def test_no_inline_marks_and_returns_the_function():
    def f(x):
        return x * 3 + 2

    assert ms.no_inline(f) is f and f.no_inline is True
    assert ms.no_inline()(f) is f and f(ms.Tensor([1.0])).asnumpy().tolist() == [5.0]


def test_enable_dynamic_records_the_dynamic_arguments_by_index():
    dyn = ms.Tensor(shape=[None, 3], dtype=ms.float32)

    class Net:
        def method(self, a, b):
            return a + b

    def f(a, b):
        return a * b

    assert ms.enable_dynamic(b=dyn)(f) is f
    assert f.__enable_dynamic__ == {1: ("b", dyn)}
    x = ms.Tensor(np.ones((2, 3), np.float32))
    assert f(x, x).shape == (2, 3)                     # PyNative: runs unchanged
    ms.enable_dynamic(a=[dyn, dyn])(Net.method)
    assert Net.method.__enable_dynamic__ == {0: ("a", [dyn, dyn])}


@pytest.mark.parametrize("kwargs, error, message", [
    ({}, ValueError, "the input cannot be empty"),
    ({"a": ms.Tensor([1.0])}, TypeError, "argument 'a' at least have one None"),
    ({"a": 2}, TypeError, "only supports Tensor or a tuple/list of Tensor"),
])
def test_enable_dynamic_rejects_what_mindspore_rejects(kwargs, error, message):
    with pytest.raises(error, match=message):
        ms.enable_dynamic(**kwargs)


def test_enable_dynamic_checks_the_decorated_function():
    dyn = ms.Tensor(shape=None, dtype=ms.float32)

    def f(a):
        return a

    with pytest.raises(ValueError, match="'b' is not in list"):
        ms.enable_dynamic(b=dyn)(f)
    with pytest.raises(ValueError, match="number of arguments 2 exceeds .* arguments 1"):
        ms.enable_dynamic(a=dyn, b=dyn)(f)
    with pytest.raises(ValueError, match="can only be used for function or method"):
        ms.enable_dynamic(a=dyn)(len)


# ---- runtime Tensor methods ----


def test_flags_live_with_the_tensor_and_go_with_it():
    x = ms.Tensor([1.0, 2.0])
    assert x.is_init() is False and x.const_arg is False
    x.set_init_flag(True)
    assert x.is_init() is True and ms.Tensor([1.0]).is_init() is False
    assert x.set_const_arg() is x and x.const_arg is True
    x.requires_grad_()
    assert _tm_runtime._flag(x, "requires_grad", None) is True
    key = id(x)
    del x
    gc.collect()
    assert key not in _tm_runtime._flags
    with pytest.raises(TypeError, match="'const_arg' should be 'bool', but got type 'int'"):
        ms.Tensor([1.0]).set_const_arg(1)


def test_requires_grad_on_a_parameter_sets_requires_grad():
    p = ms.Parameter(ms.Tensor([1.0]), name="w")
    assert p.requires_grad_(False) is None and p.requires_grad is False
    p.requires_grad_()
    assert p.requires_grad is True


@pytest.mark.parametrize("dtype", [ms.float32, ms.float64, ms.int16, ms.uint8, ms.bool_])
def test_bytes_round_trip(dtype):
    x = ms.Tensor(np.arange(6).reshape(2, 3) % 2, dtype)
    raw = x.get_bytes()
    assert raw == x.asnumpy().tobytes()
    back = ms.Tensor.convert_bytes_to_tensor(raw, x.shape, x.dtype)
    assert back.dtype == dtype and back.shape == (2, 3)
    np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())


def test_convert_bytes_to_tensor_checks_its_data():
    with pytest.raises(ValueError, match=r"needs 8 bytes, but 'data' has 4"):
        ms.Tensor.convert_bytes_to_tensor(b"\0" * 4, (2,), ms.float32)
    with pytest.raises(TypeError, match="'data' must be bytes, but got list"):
        ms.Tensor.convert_bytes_to_tensor([0], (1,), ms.int8)


def test_offload_writes_the_data_to_the_file(tmp_path):
    x = ms.Tensor(np.array([[1.5, -2.0]], np.float32))
    assert x.offload_file_path() == ""
    path = tmp_path / "x.data"
    assert x.offload(str(path)) is True and x.offload_file_path() == str(path)
    assert np.fromfile(path, np.float32).tolist() == [1.5, -2.0]
    with pytest.raises(TypeError, match="'file_path' must be str, but got int"):
        x.offload(3)


def test_syncs_return_at_once_and_assign_value_cpp_replaces_the_data():
    x = ms.Tensor([1.0, 2.0])
    assert x.data_sync() is None and x.data_sync(False) is None
    assert x.wait_pipeline() is None and x.flush_from_cache() is None
    x.assign_value_cpp(ms.Tensor(np.ones((2, 2), np.float32)))
    assert x.shape == (2, 2) and x.dtype == ms.float32
    with pytest.raises(TypeError, match="'value' must be Tensor, but got list"):
        x.assign_value_cpp([1.0])


def test_remove_hook_takes_a_handle_id():
    with pytest.raises(TypeError, match=r"'handle_id' must be int \(.*\), but got str"):
        ms.Tensor.remove_hook("1")
    assert ms.Tensor.remove_hook(10**9) is None               # no such hook: nothing happens
    pytest.importorskip("cellgrad_hooks")
    x = ms.Tensor([1.0, 2.0])
    handle = x.register_hook(lambda g: g * 2)

    def square(v):
        return (v * v).sum()

    assert ms.grad(square)(x).asnumpy().tolist() == [4.0, 8.0]
    ms.Tensor.remove_hook(handle.handle_id)
    assert ms.grad(square)(x).asnumpy().tolist() == [2.0, 4.0]


# ---- MsDispatchMode ----


class _Log(ms.MsDispatchMode):
    def __init__(self, tag, log):
        self.tag, self.log = tag, log

    def __ms_dispatch__(self, func, args, kwargs=None):
        self.log.append((self.tag, func.name, kwargs))
        return func(*args)


def test_dispatch_mode_sees_every_op_including_fast_paths():
    log = []
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    weight = ms.Parameter(ms.Tensor(np.ones((2, 3))), name="w")
    with _Log("L", log):
        z = x + y
        w = ms.ops.exp(x)
        d = ms.ops.matmul(x.reshape(1, 2), weight)
    names = [name for _, name, _ in log]
    assert names[:2] == ["add", "exp"] and "reshape" in names and "matmul" in names
    assert all(kwargs is None for _, _, kwargs in log)
    np.testing.assert_allclose(z.asnumpy(), [4.0, 6.0])
    np.testing.assert_allclose(w.asnumpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    assert d.shape == (1, 3)
    log.clear()
    _ = x * y                                   # closed: nothing is intercepted
    assert log == []


def test_the_handler_can_replace_a_result_and_its_own_ops_are_not_intercepted():
    class Scale(ms.MsDispatchMode):
        seen = []

        def __ms_dispatch__(self, func, args, kwargs=None):
            self.seen.append(func.name)
            out = func(*args)
            return out * 10 if func.name == "add" else out   # the mul here is not intercepted

    x = ms.Tensor([1.0, 2.0])
    with Scale():
        got = x + x
        kept = x - x
    assert got.asnumpy().tolist() == [20.0, 40.0] and kept.asnumpy().tolist() == [0.0, 0.0]
    assert Scale.seen == ["add", "sub"]


def test_nested_modes_innermost_first_then_outward_through_func():
    log = []
    x = ms.Tensor([1.0, 2.0])
    with _Log("outer", log):
        _ = x * 2
        with _Log("inner", log):
            _ = ms.ops.exp(x)
        _ = x - 1
    assert [(tag, name) for tag, name, _ in log] == [
        ("outer", "mul"), ("inner", "exp"), ("outer", "exp"), ("outer", "sub")]


def test_dispatch_mode_as_a_decorator_and_gradients_through_it():
    log = []

    @_Log("dec", log)
    def f(a):
        return (a * a).sum()

    x = ms.Tensor([1.0, -3.0])
    assert float(f(x)) == 10.0 and [name for _, name, _ in log] == ["mul", "sum"]
    with ms.MsDispatchMode():
        g = ms.grad(lambda a: (a * a).sum())(x)
    assert g.asnumpy().tolist() == [2.0, -6.0]


def test_a_handler_with_the_wrong_arguments_raises_a_type_error():
    class Bad(ms.MsDispatchMode):
        def __ms_dispatch__(self, func):
            return func()

    x = ms.Tensor([1.0])
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        with Bad():
            _ = x + x
    assert float((x + x).sum()) == 2.0          # the mode is closed after the error
