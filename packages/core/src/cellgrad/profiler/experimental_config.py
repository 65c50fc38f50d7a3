"""`mindspore.profiler._ExperimentalConfig`: the Ascend options of `profiler.profile`."""

from cellgrad.profiler.constant import AicoreMetrics, ProfilerLevel

__all__ = ["_ExperimentalConfig"]


class _ExperimentalConfig:
    """Mirrors `mindspore.profiler._ExperimentalConfig`: held for `profiler.profile`; on a CPU
    none of these options changes what is recorded."""

    def __init__(self, profiler_level: ProfilerLevel = ProfilerLevel.Level0,
                 aic_metrics: AicoreMetrics = AicoreMetrics.AiCoreNone, l2_cache: bool = False,
                 mstx: bool = False, data_simplification: bool = True, export_type: list = None,
                 mstx_domain_include: list = None, mstx_domain_exclude: list = None,
                 sys_io: bool = False, sys_interconnection: bool = False,
                 host_sys: list = None):
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = export_type
        self.mstx_domain_include = mstx_domain_include
        self.mstx_domain_exclude = mstx_domain_exclude
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = host_sys

    def __repr__(self):
        return f"_ExperimentalConfig({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"
