"""`mindspore.Profiler`, `mindspore.profiler.profile` and `tensorboard_trace_handler` on a CPU.

The profiler watches the engine through `cellgrad.observe` (see `recorder.py`): every op
dispatch, every backward rule and every Cell call, with its time, input shapes and output
bytes. Each recording goes into a run directory laid out as MindSpore's CPU profiler lays it
out, `<output_path>/<host>_<pid>_<timestamp>_ascend_ms/`:

    FRAMEWORK/trace_events.json          the spans as recorded, streamed while the run goes
    FRAMEWORK/cpu_op_detail_info_0.csv   MindSpore's per-op CSVs (forward ops)
    FRAMEWORK/cpu_op_type_info_0.csv
    ASCEND_PROFILER_OUTPUT/trace_view.json   Chrome trace (Perfetto, chrome://tracing)
    ASCEND_PROFILER_OUTPUT/op_summary.txt    per-Cell, per-op and per-backward-rule table
    profiler_metadata.json               what `add_metadata` was given

Differs on purpose: MindSpore logs and ignores a misuse (`start()` twice, `stop()` without
`start()`); cellgrad raises the RuntimeError MindSpore documents for it. Time measured
under the profiler includes its own bookkeeping (a few microseconds per event).
"""

import datetime
import json
import os
import socket
import time
import warnings

from cellgrad import log as logger
from cellgrad import observe
from cellgrad.profiler import report
from cellgrad.profiler.constant import (
    AicoreMetrics,
    ExportType,
    ProfilerActivity,
    ProfilerLevel,
)
from cellgrad.profiler.recorder import Recorder
from cellgrad.profiler.scheduling import ProfilerAction, Schedule, default_schedule

__all__ = ["Profile", "Profiler", "tensorboard_trace_handler"]

_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
# name: (type, default), as MindSpore 2.10's ProfilerParameters
PARAMS = {
    "output_path": (str, "./data"),
    "profiler_level": (ProfilerLevel, ProfilerLevel.Level0),
    "activities": (list, [ProfilerActivity.CPU, ProfilerActivity.NPU]),
    "aic_metrics": (AicoreMetrics, AicoreMetrics.AiCoreNone),
    "with_stack": (bool, False),
    "profile_memory": (bool, False),
    "data_process": (bool, False),
    "parallel_strategy": (bool, False),
    "start_profile": (bool, True),
    "l2_cache": (bool, False),
    "hbm_ddr": (bool, False),
    "pcie": (bool, False),
    "sys_io": (bool, False),
    "sys_interconnection": (bool, False),
    "host_sys": (list, []),
    "sync_enable": (bool, True),
    "data_simplification": (bool, True),
    "record_shapes": (bool, False),
    "export_type": (list, [ExportType.Text]),
    "mstx": (bool, False),
    "mstx_domain_include": (list, []),
    "mstx_domain_exclude": (list, []),
    "schedule": (Schedule, None),
    "on_trace_ready": (object, None),
}
DEPRECATED = {
    "profile_communication": "The parameter 'profile_communication' is deprecated, please use "
                             "'profiler_level=ProfilerLevel.Level1' or "
                             "'profiler_level=ProfilerLevel.Level2' instead.",
    "op_time": "The parameter 'op_time' is deprecated, please use "
               "'activaties=ProfilerActivity.NPU' instead.",
    "profile_framework": "The parameter 'profile_framework' is deprecated, please use "
                         "'activaties=ProfilerActivity.CPU' instead.",
    "host_stack": "The parameter 'host_stack' is deprecated, please use 'with_stack' instead.",
    "timeline_limit": "The parameter 'timeline_limit' is deprecated and will have no effect",
}


def _params(kwargs):
    """MindSpore's checks: a value of the wrong type is reset to its default with a warning."""
    for key in kwargs:
        if key in DEPRECATED:
            warnings.warn(DEPRECATED[key], stacklevel=4)
        elif key not in PARAMS and key != "experimental_config":
            logger.warning(f"For Profiler, the parameter '{key}' is not one of MindSpore 2.10's "
                           f"and is ignored.")
    values = {}
    for key, (kind, default) in PARAMS.items():
        value = kwargs.get(key)
        if value is None:
            value = default
        elif key == "on_trace_ready":
            if not callable(value):
                logger.warning(f"For Profiler, on_trace_ready value is Invalid, reset to "
                               f"{default}.")
                value = default
        elif key == "schedule":
            if not callable(value):
                logger.warning("For Profiler, schedule value is Invalid, reset to None.")
                value = default
        elif kind is list:
            if not isinstance(value, (list, tuple, set)) or (default and not all(
                    isinstance(v, type(default[0])) for v in value)):
                logger.warning(f"For Profiler, {key} value is Invalid, reset to {default}.")
                value = default
            value = list(dict.fromkeys(value))
        elif not isinstance(value, kind):
            logger.warning(f"For Profiler, the type of {key} should be {kind}, but got "
                           f"{type(value)}, reset to {default}.")
            value = default
        values[key] = value
    return values


class Profiler:
    """Mirrors `mindspore.Profiler(**kwargs)`: records op and Cell times, shapes and output
    bytes from `start()` (at construction unless `start_profile=False`) to `stop()`;
    `analyse()` writes the files (module docstring). Also a context manager.

    Args (keyword, MindSpore's): `output_path` ("./data"), `start_profile` (True), `schedule`
    and `on_trace_ready` (see `step()`); the Ascend/GPU options (`profiler_level`,
    `aic_metrics`, `l2_cache`, ...) are accepted and have no effect on a CPU.
    """

    _is_profile = False

    def __init__(self, **kwargs) -> None:
        self._set_up(_params(kwargs))

    def _set_up(self, params):
        self._params = params
        trace_ready = params["on_trace_ready"]
        self.output_path = getattr(trace_ready, "_cellgrad_dir", None) or params["output_path"]
        self._worker = getattr(trace_ready, "_cellgrad_worker", None) or \
            f"{socket.gethostname()}_{os.getpid()}"
        self._check_output_path()
        self.on_trace_ready = trace_ready
        self.schedule_arg = params["schedule"]
        self.schedule = self.schedule_arg or default_schedule
        self._schedule_no_use_step = True if self.schedule_arg is not None else None
        self._metadata = {}
        self._has_started = False
        self._handle = None          # the observer handle while recording
        self._recorder = None        # the recording not analysed yet
        self._run_dir = None
        self._step_start = None
        self._in_trace_ready = False
        self._analysed = None        # the statistics analyse() wrote last
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        if params["start_profile"]:
            self.start()

    # ---- MindSpore's methods ----

    def start(self) -> None:
        """Mirrors `mindspore.Profiler.start`: begin collecting (RuntimeError if started)."""
        if self._has_started:
            raise RuntimeError(f"For '{self._name}.start()', the profiler has already started; "
                               f"call stop() before starting it again.")
        self._has_started = True
        if self.current_action in _RECORDING:
            self._record()
        self._step_start = time.perf_counter_ns()

    def stop(self) -> None:
        """Mirrors `mindspore.Profiler.stop`: stop collecting (RuntimeError if not started);
        `analyse()` writes what was collected."""
        if self._schedule_no_use_step and not self._is_profile:
            logger.warning("The profiler has schedule. Please use step() to collect data.")
            return
        if not self._has_started:
            raise RuntimeError(f"For '{self._name}.stop()', the profiler has not started; "
                               f"call start() first.")
        self._end_step()
        self._has_started = False
        was = self.current_action
        self._pause()
        if (self.schedule_arg is not None or self._is_profile) and was in _RECORDING:
            self._trace_ready()

    def step(self) -> None:
        """Mirrors `mindspore.Profiler.step`: end one step; with a `schedule`, record the steps
        it says and call `on_trace_ready(profiler)` after each RECORD_AND_SAVE step."""
        if not self._has_started:
            raise RuntimeError(f"For '{self._name}.step()', the profiler has not started; "
                               f"call start() first.")
        self._schedule_no_use_step = False
        self._end_step()
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev in _RECORDING and (prev is ProfilerAction.RECORD_AND_SAVE
                                   or self.current_action not in _RECORDING):
            self._pause()
            if prev is ProfilerAction.RECORD_AND_SAVE:
                self._trace_ready()
            else:
                logger.warning(f"Incorrect schedule: RECORD followed by "
                               f"{self.current_action.name}")
                self._discard()
        if self.current_action in _RECORDING:
            self._record()
        self._step_start = time.perf_counter_ns()

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync") -> None:
        """Mirrors `mindspore.Profiler.analyse`: write the files of the recording into its run
        directory (module docstring). Called while recording (not from `on_trace_ready`), it
        stops the profiler first, as `Profiler(); train(); analyse()` code expects.
        `step_list` keeps only the spans of those steps (`ProfilerStep#N`); `mode` "async" is
        accepted and analyses in this process too (it takes a moment)."""
        if offline_path:
            logger.warning("The parameter 'offline_path' for Profiler.analyse() is deprecated, "
                           "please use Profiler.offline_analyse() instead.")
        if mode not in ("sync", "async"):
            raise ValueError(f"For '{self._name}.analyse()', 'mode' must be one of "
                             f"['sync', 'async'], but got {mode!r}.")
        if step_list is not None and (not isinstance(step_list, (list, tuple)) or any(
                isinstance(n, bool) or not isinstance(n, int) for n in step_list)):
            raise TypeError(f"For '{self._name}.analyse()', 'step_list' must be a list of int, "
                            f"but got {step_list!r}.")
        if self._has_started and not self._in_trace_ready:  # MindSpore's common use:
            self._end_step()                                  # Profiler() ... analyse()
            self._has_started = False
        self._pause()
        if self._recorder is None:
            logger.warning(f"{self._name}.analyse(): nothing was recorded.")
            return
        run_dir, recorder = self._run_dir, self._recorder
        self._discard()
        try:
            self._analysed = report.write_outputs(run_dir, self._metadata, pretty, recorder,
                                                  step_list)
        except OSError as exc:
            raise type(exc)(exc.errno, f"For '{self._name}.analyse()', the files of "
                                       f"{run_dir!r} cannot be written: {exc.strerror}") from exc

    @classmethod
    def offline_analyse(cls, path: str, pretty=False, step_list=None,
                        data_simplification=True) -> None:
        """Mirrors `mindspore.Profiler.offline_analyse`: write the files of every run directory
        under `path` (or `path` itself) from its streamed spans, e.g. after a crash."""
        runs = [path] if path.endswith("_ascend_ms") else sorted(
            os.path.join(path, d) for d in os.listdir(path) if d.endswith("_ascend_ms"))
        if not runs:
            raise ValueError(f"For 'Profiler.offline_analyse', invalid path: {path}. Expected a "
                             f"*_ascend_ms directory or a parent directory of them.")
        for run in runs:
            report.write_outputs(run, report.read_metadata(run), pretty, None, step_list)

    def add_metadata(self, key: str, value: str):
        """Mirrors `mindspore.Profiler.add_metadata`: written to profiler_metadata.json."""
        if not isinstance(key, str) or not isinstance(value, str):
            logger.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str):
        """Mirrors `mindspore.Profiler.add_metadata_json`: `value` a JSON string."""
        if not isinstance(key, str) or not isinstance(value, str):
            logger.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        try:
            self._metadata[key] = json.loads(value)
        except ValueError:
            logger.warning("The metadata value must be a JSON string. Skip this metadata.")

    def op_analyse(self, op_name, device_id=None):
        """Mirrors `mindspore.Profiler.op_analyse`: the statistics of the op(s) `op_name` in
        the recording not analysed yet, as a JSON string."""
        if device_id is not None and not isinstance(device_id, int):
            raise TypeError(f"For 'Profiler.op_analyse()', the parameter device_id must be int, "
                            f"but got type {type(device_id)}")
        if op_name is None:
            raise TypeError("For 'Profiler.op_analyse()', the parameter op_name cannot be None.")
        if not isinstance(op_name, (str, list)):
            raise TypeError(f"For 'Profiler.op_analyse()', the parameter op_name must be str or "
                            f"list, but got type {type(op_name)}")
        names = {op_name} if isinstance(op_name, str) else set(op_name)
        rows = self.key_averages() if self._recorder or self._analysed else []
        return json.dumps({r.key: {"calls": r.count, "total_us": r.cpu_time_total,
                                   "self_us": r.self_cpu_time_total, "mean_us": r.cpu_time,
                                   "output_bytes": r.cpu_memory_usage,
                                   "input_shapes": r.input_shapes}
                           for r in rows if r.kind == "op" and r.key in names})

    def __enter__(self):
        if not self._has_started:
            self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        if self._has_started:
            if self._schedule_no_use_step and not self._is_profile:
                self._has_started = False  # stop() would only warn: never leave it watching
                self._pause()
            else:
                self.stop()

    def __del__(self):
        try:
            if self._has_started:
                self._has_started = False
                self._pause()
                logger.warning("Profiler is stopped at the end of the program.")
            if self._recorder is not None:
                self._recorder.close()
        except Exception:  # noqa: BLE001, S110 (interpreter shutdown: modules may be gone)
            pass

    # ---- cellgrad's additions ----

    def key_averages(self):
        """The recording so far (or the one analyse() wrote last) grouped by op, backward rule
        and Cell, PyTorch's way: `prof.key_averages().table(sort_by="cpu_time_total")`."""
        if self._recorder is not None:
            self._recorder.flush()
            stats = self._recorder.stats
        elif self._analysed is not None:
            stats = self._analysed
        else:
            raise RuntimeError(f"For '{self._name}.key_averages()', nothing has been recorded.")
        return report.KeyAverages(stats.values())

    @property
    def run_dir(self):
        """The run directory of the recording not analysed yet (None before recording)."""
        return self._run_dir

    # ---- recording ----

    @property
    def _name(self):
        return "profile" if self._is_profile else "Profiler"

    def _check_output_path(self):
        try:
            os.makedirs(self.output_path, exist_ok=True)
            probe = os.path.join(self.output_path, f".cellgrad_probe_{os.getpid()}")
            with open(probe, "w"):
                pass
            os.remove(probe)
        except OSError as exc:
            raise type(exc)(exc.errno, f"For '{self._name}', the output_path "
                                       f"{self.output_path!r} cannot be written: "
                                       f"{exc.strerror}") from exc

    def _record(self):
        if self._recorder is None:
            run = None
            try:
                run = self._new_run_dir()
                for sub in ("FRAMEWORK", "ASCEND_PROFILER_OUTPUT"):
                    os.makedirs(os.path.join(run, sub), exist_ok=True)
                self._recorder = Recorder(os.path.join(run, "FRAMEWORK", "trace_events.json"),
                                          time.perf_counter_ns())
            except OSError as exc:
                where = self.output_path if run is None else run
                raise type(exc)(exc.errno, f"For '{self._name}.start()', the run directory "
                                           f"under {where!r} cannot be written: "
                                           f"{exc.strerror}") from exc
            self._run_dir = run
        if self._handle is None:
            self._handle = observe.add_observer(self._recorder)

    def _new_run_dir(self):
        """<output_path>/<worker>_<YYYYmmddHHMMSSmmm>_ascend_ms, a new one (MindSpore's name;
        two recordings within one millisecond get successive stamps)."""
        now = datetime.datetime.now()
        while True:
            run = os.path.join(os.path.realpath(self.output_path),
                               f"{self._worker}_{now.strftime('%Y%m%d%H%M%S%f')[:-3]}_ascend_ms")
            try:
                os.makedirs(run)
                return run
            except FileExistsError:
                now += datetime.timedelta(milliseconds=1)

    def _pause(self):
        if self._handle is not None:
            self._handle.remove()
            self._handle = None
        if self._recorder is not None:
            self._recorder.flush()

    def _discard(self):
        if self._recorder is not None:
            self._recorder.close()
        self._recorder = self._run_dir = None

    def _end_step(self):
        # steps are marked once step() is used: a run without it is not one long step
        if self._handle is not None and self._step_start is not None and (
                self._schedule_no_use_step is False):
            self._recorder.step_span(self.step_num, self._step_start, time.perf_counter_ns())

    def _trace_ready(self):
        if self.on_trace_ready is not None:
            self._in_trace_ready = True
            try:
                self.on_trace_ready(self)
            finally:
                self._in_trace_ready = False
        self._discard()


class Profile(Profiler):
    """Mirrors `mindspore.profiler.profile`: `Profiler` with explicit arguments; `stop()` (and
    leaving a `with` block) hands the recording to `on_trace_ready`."""

    _is_profile = True

    def __init__(self, activities=None, with_stack: bool = False, profile_memory: bool = False,
                 data_process: bool = False, parallel_strategy: bool = False,
                 start_profile: bool = True, hbm_ddr: bool = False, pcie: bool = False,
                 sync_enable: bool = True, record_shapes: bool = False, schedule=None,
                 on_trace_ready=None, experimental_config=None):
        self._set_up(_params({
            "activities": activities, "with_stack": with_stack, "profile_memory": profile_memory,
            "data_process": data_process, "parallel_strategy": parallel_strategy,
            "start_profile": start_profile, "hbm_ddr": hbm_ddr, "pcie": pcie,
            "sync_enable": sync_enable, "record_shapes": record_shapes, "schedule": schedule,
            "on_trace_ready": on_trace_ready, "experimental_config": experimental_config}))


def tensorboard_trace_handler(dir_name: str = None, worker_name: str = None,
                              analyse_flag: bool = True, async_mode: bool = False):
    """Mirrors `mindspore.profiler.tensorboard_trace_handler`: an `on_trace_ready` that
    analyses each recording into `dir_name` ("./data"); the profiler records there too."""
    if not isinstance(analyse_flag, bool):
        logger.warning("analyse_flag is not bool, set by default.")
        analyse_flag = True
    if not isinstance(async_mode, bool):
        logger.warning("async_mode is not bool, set by default.")
        async_mode = False

    def handler_fn(prof_inst) -> None:
        if analyse_flag:
            prof_inst.analyse(mode="async" if async_mode else "sync")

    handler_fn._cellgrad_dir = dir_name or "./data"
    handler_fn._cellgrad_worker = worker_name
    return handler_fn
