"""cellgrad.Profiler: what it records (ops, backward rules, Cells), the files analyse() writes
(summary table, MindSpore's CPU op CSVs, a Chrome trace whose spans nest), its misuse errors
and what a run that dies midway leaves behind."""

import glob
import inspect
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, observe, ops


class Linear(nn.Cell):  # the core's own Cells: tests/core runs without cellgrad-ops-nn
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.full((n_in, n_out), 0.5, np.float32)), "w")
        self.bias = ms.Parameter(ms.Tensor(np.zeros(n_out, np.float32)), "b")

    def construct(self, x):
        return ops.matmul(x, self.weight) + self.bias


class Tanh(nn.Cell):
    def construct(self, x):
        return ops.tanh(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1, self.act, self.fc2 = Linear(3, 4), Tanh(), Linear(4, 2)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _run(net, x):
    net(x)
    return ms.grad(lambda x: net(x).sum())(x)


def _profile(tmp_path, steps=2):
    net, x = Net(), ms.Tensor(np.ones((4, 3), np.float32))
    prof = ms.Profiler(output_path=str(tmp_path))
    for _ in range(steps):
        _run(net, x)
        prof.step()
    prof.stop()
    run_dir = prof.run_dir
    prof.analyse()
    return run_dir


def _trace(run_dir):
    with open(os.path.join(run_dir, "ASCEND_PROFILER_OUTPUT", "trace_view.json")) as f:
        return json.load(f)


def test_import_cellgrad_does_not_load_the_profiler_and_names_resolve_lazily():
    code = ("import sys, cellgrad as ms\n"
            "assert 'cellgrad.profiler' not in sys.modules and 'cellgrad.observe' not in "
            "sys.modules\n"
            "P = ms.Profiler\n"
            "assert P is ms.profiler.Profiler and P.__module__ == 'cellgrad.profiler.profiler'\n"
            "from cellgrad.profiler import schedule, tensorboard_trace_handler, ProfilerLevel\n"
            "print('ok')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout == "ok\n", run.stderr


def test_signatures_and_enums_are_mindspores():
    assert str(inspect.signature(ms.Profiler)) == "(**kwargs) -> None"
    assert list(inspect.signature(ms.profiler.profile).parameters) == [
        "activities", "with_stack", "profile_memory", "data_process", "parallel_strategy",
        "start_profile", "hbm_ddr", "pcie", "sync_enable", "record_shapes", "schedule",
        "on_trace_ready", "experimental_config"]
    assert str(inspect.signature(ms.profiler.tensorboard_trace_handler)) == (
        "(dir_name: str = None, worker_name: str = None, analyse_flag: bool = True, "
        "async_mode: bool = False)")
    assert [e.value for e in ms.profiler.ProfilerLevel] == ["LevelNone", "Level0", "Level1",
                                                            "Level2"]
    assert [e.value for e in ms.profiler.ExportType] == ["db", "text"]
    assert ms.profiler.ProfilerActivity.CPU.value == "CPU"
    config = ms.profiler._ExperimentalConfig  # MindSpore exports this private name
    assert list(inspect.signature(config).parameters) == [
        "profiler_level", "aic_metrics", "l2_cache", "mstx", "data_simplification",
        "export_type", "mstx_domain_include", "mstx_domain_exclude", "sys_io",
        "sys_interconnection", "host_sys"]
    assert config().profiler_level is ms.profiler.ProfilerLevel.Level0


def test_schedule_steps_as_mindspore():
    # recorded from MindSpore 2.10: schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=1)
    s = ms.profiler.schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=1)
    assert repr(s) == "Schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=1)"
    assert [s(i).name for i in range(8)] == ["NONE", "NONE", "WARM_UP", "RECORD",
                                             "RECORD_AND_SAVE", "NONE", "NONE", "NONE"]
    assert s.to_dict() == {"wait": 1, "active": 2, "warmup": 1, "repeat": 1, "skip_first": 1}
    with pytest.raises(ValueError, match="must be not less than 0"):
        s(-1)
    assert ms.profiler.schedule(wait=-1, active=0).to_dict()["active"] == 1  # reset, as MS


def test_analyse_writes_mindspores_layout(tmp_path):
    run_dir = _profile(tmp_path)
    assert os.path.dirname(run_dir) == str(tmp_path.resolve())
    assert os.path.basename(run_dir).endswith("_ascend_ms")
    for rel in ("ASCEND_PROFILER_OUTPUT/trace_view.json", "ASCEND_PROFILER_OUTPUT/op_summary.txt",
                "FRAMEWORK/cpu_op_detail_info_0.csv", "FRAMEWORK/cpu_op_type_info_0.csv",
                "FRAMEWORK/trace_events.json", "profiler_metadata.json"):
        assert os.path.isfile(os.path.join(run_dir, rel)), rel
    assert not glob.glob(os.path.join(run_dir, "**", "*.tmp*"), recursive=True)
    with open(os.path.join(run_dir, "FRAMEWORK", "cpu_op_detail_info_0.csv")) as f:
        lines = f.read().splitlines()
    assert lines[0] == ("op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),"
                        "op_avg_time(ms),total_proportion,subgraph,pid")
    rows = {r.split(",")[1]: r.split(",") for r in lines[1:]}
    assert set(rows) == {"matmul", "add", "tanh", "sum"}
    assert rows["matmul"][4] == "8" and rows["tanh"][4] == "4"  # 2 steps x (forward + grad)
    assert abs(sum(float(r[7]) for r in rows.values()) - 1) < 1e-4


def test_trace_is_valid_nested_and_backward_has_its_own_track(tmp_path):
    trace = _trace(_profile(tmp_path))
    events = trace["traceEvents"]
    spans = [e for e in events if e["ph"] == "X"]
    for e in events:
        assert {"ph", "name", "pid", "tid"} <= set(e)
    for e in spans:
        assert isinstance(e["ts"], float) and e["dur"] >= 0 and e["cat"] in (
            "op", "cell", "backward", "step")
    names = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert names == {1: "forward (ops and Cells)", 2: "backward (gradient rules)", 3: "steps"}
    ts = [e["ts"] for e in spans]
    assert ts == sorted(ts)  # monotonic
    assert {e["tid"] for e in spans if e["cat"] == "backward"} == {2}
    assert [e["name"] for e in spans if e["cat"] == "backward"] == \
        ["sum", "add", "matmul", "tanh", "add", "matmul"] * 2
    assert all(e["tid"] == 1 for e in spans if e["cat"] in ("op", "cell"))
    assert [e["name"] for e in spans if e["cat"] == "step"] == \
        ["ProfilerStep#0", "ProfilerStep#1", "ProfilerStep#2"]
    # per track, spans nest: each lies inside the one open before it, or after it ends
    for tid in (1, 2):
        stack = []
        for e in (s for s in spans if s["tid"] == tid):
            while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
                stack.pop()
            if stack:
                outer = stack[-1]
                assert e["ts"] + e["dur"] <= outer["ts"] + outer["dur"] + 1e-6, (e, outer)
            e["parent"] = stack[-1]["name"] if stack else None
            stack.append(e)
    ops_ = [e for e in spans if e["cat"] == "op"]
    fcs = {"fc1: Linear", "fc2: Linear"}
    assert {e["parent"] for e in ops_ if e["name"] in ("matmul", "add")} == fcs
    assert {e["parent"] for e in ops_ if e["name"] == "tanh"} == {"act: Tanh"}
    assert {e["parent"] for e in spans if e["name"] in fcs} == {"Net"}
    assert {e["parent"] for e in ops_ if e["name"] == "sum"} == {None}
    fc1 = next(e for e in ops_ if e["parent"] == "fc1: Linear")
    assert fc1["name"] == "matmul" and fc1["args"]["input_shapes"] == [[4, 3], [3, 4]]
    assert fc1["args"]["output_bytes"] == 4 * 4 * 4


def test_summary_table_counts_times_shapes_and_bytes(tmp_path):
    net, x = Net(), ms.Tensor(np.ones((4, 3), np.float32))
    with ms.Profiler(output_path=str(tmp_path)) as prof:
        _run(net, x)
    rows = {(r.kind, r.key): r for r in prof.key_averages()}
    assert rows[("cell", "Net")].count == 2 and rows[("cell", "Net/fc1 (Linear)")].count == 2
    tanh = rows[("op", "tanh")]
    assert tanh.count == 2 and tanh.cpu_memory_usage == 2 * 64 and tanh.input_shapes == [[[4, 4]]]
    assert rows[("backward", "matmul")].count == 2
    net_row = rows[("cell", "Net")]
    assert 0 < net_row.self_cpu_time_total < net_row.cpu_time_total
    assert net_row.cpu_time == pytest.approx(net_row.cpu_time_total / 2)
    table = prof.key_averages().table(sort_by="cpu_time_total")
    assert table.splitlines()[0] == "Cells" and "Ops (forward)" in table and \
        "Backward rules" in table and "(4x4)*2" in table
    cells = table.split("\n\n")[0].splitlines()[4:-1]
    totals = [float(line.split()[-3]) for line in cells]
    assert totals == sorted(totals, reverse=True)
    with pytest.raises(ValueError, match="'sort_by' must be one of"):
        prof.key_averages().table(sort_by="speed")
    prof.analyse()
    with open(os.path.join(glob.glob(str(tmp_path / "*_ascend_ms"))[0],
                           "ASCEND_PROFILER_OUTPUT", "op_summary.txt")) as f:
        assert f.read() == table


def test_not_recording_once_stopped_and_observers_are_gone(tmp_path):
    x = ms.Tensor(np.ones(3, np.float32))
    prof = ms.Profiler(output_path=str(tmp_path))
    ops.exp(x)
    prof.stop()
    assert observe.observers() == []
    ops.sin(x)
    assert [r.key for r in prof.key_averages()] == ["exp"]
    prof.start()
    ops.cos(x)
    prof.stop()
    assert sorted(r.key for r in prof.key_averages()) == ["cos", "exp"]


def test_misuse_raises_naming_the_call(tmp_path):
    prof = ms.Profiler(output_path=str(tmp_path))
    with pytest.raises(RuntimeError, match=r"'Profiler.start\(\)', the profiler has already"):
        prof.start()
    prof.stop()
    with pytest.raises(RuntimeError, match=r"'Profiler.stop\(\)', the profiler has not started"):
        prof.stop()
    with pytest.raises(RuntimeError, match=r"'Profiler.step\(\)', the profiler has not started"):
        prof.step()
    with pytest.raises(ValueError, match=r"'mode' must be one of"):
        prof.analyse(mode="later")
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    with pytest.raises(OSError, match=r"For 'Profiler', the output_path .*a_file/sub.* cannot "
                                      r"be written"):
        ms.Profiler(output_path=str(blocker / "sub"))
    idle = ms.Profiler(output_path=str(tmp_path), start_profile=False)
    with pytest.raises(RuntimeError, match="nothing has been recorded"):
        idle.key_averages()
    with pytest.raises(TypeError, match="op_name must be str or list"):
        idle.op_analyse(3)


def test_wrong_kinds_of_settings_are_reset_with_a_warning_as_mindspore(tmp_path, monkeypatch,
                                                                          caplog):
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="'profile_communication' is deprecated"):
        prof = ms.Profiler(output_path=5, start_profile="no", profile_communication=True)
    err = caplog.text
    assert "the type of output_path should be <class 'str'>" in err and "reset to ./data" in err
    assert prof.output_path == "./data" and os.path.isdir(tmp_path / "data")
    prof.stop()


def test_context_manager_and_metadata_and_op_analyse(tmp_path):
    x = ms.Tensor(np.ones((2, 2), np.float32))
    with ms.Profiler(output_path=str(tmp_path), start_profile=False) as prof:
        ops.matmul(x, x)
        prof.add_metadata("run", "test")
        prof.add_metadata_json("cfg", '{"lr": 0.1}')
    assert observe.observers() == []
    info = json.loads(prof.op_analyse("matmul"))
    assert info["matmul"]["calls"] == 1 and info["matmul"]["input_shapes"] == [[[2, 2], [2, 2]]]
    run_dir = prof.run_dir
    prof.analyse()
    with open(os.path.join(run_dir, "profiler_metadata.json")) as f:
        assert json.load(f) == {"run": "test", "cfg": {"lr": 0.1}}
    assert prof.run_dir is None


def test_schedule_with_tensorboard_trace_handler_writes_one_run_per_cycle(tmp_path):
    x = ms.Tensor(np.ones(3, np.float32))
    handler = ms.profiler.tensorboard_trace_handler(str(tmp_path / "tb"))
    sched = ms.profiler.schedule(wait=1, warmup=1, active=2, repeat=2)
    with ms.profiler.profile(schedule=sched, on_trace_ready=handler) as prof:
        for step in range(10):
            ops.add(x, float(step))
            prof.step()
    runs = sorted(glob.glob(str(tmp_path / "tb" / "*_ascend_ms")))
    assert len(runs) == 2
    for run, steps in zip(runs, ((2, 3), (6, 7))):
        spans = [e for e in _trace(run)["traceEvents"] if e["ph"] == "X"]
        assert [e["name"] for e in spans if e["cat"] == "step"] == \
            [f"ProfilerStep#{s}" for s in steps]
        assert sum(e["name"] == "add" for e in spans) == 2


def test_a_run_that_dies_leaves_a_readable_trace(tmp_path):
    script = textwrap.dedent(f"""
        import os
        import numpy as np
        import cellgrad as ms
        from cellgrad import ops
        x = ms.Tensor(np.ones(3, np.float32))
        prof = ms.Profiler(output_path={str(tmp_path)!r})
        for i in range(3000):
            ops.exp(x)
            if i == 2500:
                os._exit(3)  # no stop, no analyse, no interpreter shutdown
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 3, run.stderr
    (run_dir,) = glob.glob(str(tmp_path / "*_ascend_ms"))
    stream = os.path.join(run_dir, "FRAMEWORK", "trace_events.json")
    with open(stream) as f:
        text = f.read()
    assert text.startswith("[\n") and text.endswith(",\n")
    events = json.loads(text.rstrip(",\n") + "]")  # the trace-event format's open array
    assert len(events) >= 2048 and {e["name"] for e in events} == {"exp"}
    ms.Profiler.offline_analyse(str(tmp_path))
    spans = [e for e in _trace(run_dir)["traceEvents"] if e["ph"] == "X"]
    assert len(spans) == len(events)
    with open(os.path.join(run_dir, "ASCEND_PROFILER_OUTPUT", "op_summary.txt")) as f:
        (row,) = [line.split() for line in f if line.startswith("exp ")]
    assert row[1] == str(len(events))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="Expected a \\*_ascend_ms directory"):
        ms.Profiler.offline_analyse(str(tmp_path / "empty"))


def test_an_exception_inside_the_with_block_stops_and_keeps_what_ran(tmp_path):
    class Bad(nn.Cell):
        def construct(self, x):
            return ops.reshape(ops.exp(x), (7,))

    x = ms.Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError), ms.Profiler(output_path=str(tmp_path)) as prof:
        Bad()(x)
    assert observe.observers() == [] and not prof._has_started
    run_dir = prof.run_dir
    prof.analyse()
    spans = [e for e in _trace(run_dir)["traceEvents"] if e["ph"] == "X"]
    assert [(e["name"], e["cat"]) for e in spans] == [("Bad", "cell"), ("exp", "op"),
                                                     ("reshape", "op")]
    bad, exp, reshape = spans
    assert bad["ts"] <= exp["ts"] <= reshape["ts"] <= bad["ts"] + bad["dur"]


def test_profile_hands_each_recording_to_on_trace_ready(tmp_path):
    seen = []
    x = ms.Tensor(np.ones(3, np.float32))
    config = ms.profiler._ExperimentalConfig(profiler_level=ms.profiler.ProfilerLevel.Level1)
    with ms.profiler.profile(experimental_config=config, on_trace_ready=lambda p: seen.append(
            sorted(r.key for r in p.key_averages()))) as prof:
        ops.neg(x)
        prof.step()
        ops.exp(x)
    assert seen == [["exp", "neg"]] and prof.run_dir is None


def test_mindspore_1_module_path_warns_and_ascend_only_names_say_why():
    sys.modules.pop("cellgrad.profiler.profiling", None)
    with pytest.warns(DeprecationWarning, match=r"mindspore\.profiler\.profiling is MindSpore "
                                                r"1\.x's module.*use cellgrad\.profiler$"):
        from cellgrad.profiler.profiling import Profiler
    assert Profiler is ms.Profiler
    with pytest.raises(AttributeError, match="MS_PROFILER_OPTIONS"):
        ms.EnvProfiler  # noqa: B018
    with pytest.raises(ImportError, match="msmonitor"):
        from cellgrad.profiler import DynamicProfilerMonitor  # noqa: F401


def test_recordings_in_the_same_millisecond_get_their_own_run_directories(tmp_path):
    x = ms.Tensor(np.ones(3, np.float32))
    runs = []
    for _ in range(5):
        with ms.Profiler(output_path=str(tmp_path)) as prof:
            ops.neg(x)
        runs.append(prof.run_dir)
        prof.analyse()
    assert len(set(runs)) == 5 and sorted(runs) == sorted(glob.glob(str(tmp_path / "*_ms")))


class _FullDisk:
    """A stream whose writes fail as on a full disk after `room` successful ones."""

    def __init__(self, stream, room):
        self.stream, self.room, self.closed = stream, room, False

    def write(self, text):
        if self.room == 0:
            self.stream.write(text[:10])  # a torn line
            raise OSError(28, "No space left on device")
        self.room -= 1
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()

    def close(self):
        self.closed = True
        self.stream.close()


def test_a_full_disk_while_recording_keeps_the_spans_and_the_ops_running(tmp_path, caplog):
    x = ms.Tensor(np.ones(3, np.float32))
    prof = ms.Profiler(output_path=str(tmp_path))
    recorder = prof._recorder
    recorder._stream = _FullDisk(recorder._stream, room=1)
    for _ in range(300):  # past the first flush (256 spans)
        ops.exp(x)
    for _ in range(300):
        ops.neg(x)
    run_dir = prof.run_dir
    prof.analyse()
    assert "No space left on device" in caplog.text and "kept in memory" in caplog.text
    spans = [e for e in _trace(run_dir)["traceEvents"] if e["ph"] == "X"]
    assert [e["name"] for e in spans] == ["exp"] * 300 + ["neg"] * 300
    ts = [e["ts"] for e in spans]
    assert ts == sorted(ts)


def test_analyse_names_itself_when_its_files_cannot_be_written(tmp_path):
    prof = ms.Profiler(output_path=str(tmp_path))
    ops.exp(ms.Tensor(np.ones(3, np.float32)))
    out = os.path.join(prof.run_dir, "ASCEND_PROFILER_OUTPUT")
    os.rmdir(out)
    with open(out, "w"):  # a file where the directory should be
        pass
    with pytest.raises(OSError, match=r"For 'Profiler.analyse\(\)', the files of .* cannot be "
                                      r"written"):
        prof.analyse()


def test_step_list_keeps_the_spans_of_those_steps(tmp_path):
    x = ms.Tensor(np.ones(3, np.float32))
    prof = ms.Profiler(output_path=str(tmp_path))
    for op in (ops.neg, ops.exp, ops.sin, ops.cos):
        op(x)
        prof.step()
    run_dir = prof.run_dir
    with pytest.raises(TypeError, match="'step_list' must be a list of int"):
        prof.analyse(step_list="1")
    prof.analyse(step_list=[1, 2])
    spans = [e for e in _trace(run_dir)["traceEvents"] if e["ph"] == "X"]
    assert [e["name"] for e in spans] == ["ProfilerStep#1", "exp", "ProfilerStep#2", "sin"]


def test_a_schedule_never_stepped_still_stops_watching_at_the_end_of_the_with_block(tmp_path):
    with ms.Profiler(output_path=str(tmp_path), schedule=ms.profiler.schedule(
            wait=0, active=2)) as prof:
        ops.neg(ms.Tensor(np.ones(3, np.float32)))
    assert observe.observers() == [] and not prof._has_started
