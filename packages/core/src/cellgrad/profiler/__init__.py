"""`mindspore.profiler` on a CPU: `Profiler`/`profile` record every op dispatch, backward rule
and Cell call through `cellgrad.observe` and write a summary table, MindSpore's CPU op CSVs and
a Chrome trace (see `cellgrad.profiler.profiler`). Imported on first use of `cellgrad.Profiler`
or `cellgrad.profiler`: `import cellgrad` does not load it.
"""

from cellgrad.profiler.constant import (
    AicoreMetrics,
    ExportType,
    HostSystem,
    ProfilerActivity,
    ProfilerLevel,
)
from cellgrad.profiler.experimental_config import _ExperimentalConfig
from cellgrad.profiler.profiler import Profile as profile
from cellgrad.profiler.profiler import Profiler, tensorboard_trace_handler
from cellgrad.profiler.scheduling import ProfilerAction
from cellgrad.profiler.scheduling import Schedule as schedule

__all__ = ["tensorboard_trace_handler", "schedule", "Profiler", "ProfilerLevel",
           "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem", "ProfilerAction",
           "profile", "_ExperimentalConfig"]

# PEP 562: MindSpore's Ascend-only names say why they are missing (cellgrad._not_provided).
from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
