"""The attributes MindSpore's distributed, pipeline and embedding-cache features keep on a
`Parameter` (`comm_fusion`, `parallel_optimizer`, `cache_enable`, `param_info`, ...).

On one CPU process they change nothing about the computation, but real code sets and reads
them (mindcv's callbacks read `param.cache_enable`), so they hold values, validate them with
MindSpore 2.10's messages and start from its defaults.
"""


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"The argument `{name}` must be bool type.")
    return value


def _flag(name, default):
    attr = "_" + name

    def get(self):
        return self.__dict__.get(attr, default)

    def set(self, value):
        self.__dict__[attr] = _check_bool(name, value)

    return property(get, set, doc=f"Mirrors `Parameter.{name}` (default {default}).")


class ParamInfo:
    """Mirrors MindSpore's `ParamInfo`: the parameter's settings, read through to it."""

    _FIELDS = ("name", "requires_grad", "layerwise_parallel", "parallel_optimizer",
               "parallel_optimizer_comm_recompute", "comm_fusion", "cache_enable",
               "cache_shape", "key", "storage_format")

    def __init__(self, param):
        self.obj = param

    def __getattr__(self, name):
        if name in ParamInfo._FIELDS:
            return getattr(self.obj, name)
        raise AttributeError(f"'ParamInfo' object has no attribute '{name}'")

    def __repr__(self):
        return f"ParamInfo(name={self.obj.name!r})"


class ParallelAttributes:
    """A mixin of `Parameter`: the distributed/cache attributes with MindSpore's defaults."""

    layerwise_parallel = _flag("layerwise_parallel", False)
    parallel_optimizer = _flag("parallel_optimizer", True)
    parallel_optimizer_comm_recompute = _flag("parallel_optimizer_comm_recompute", False)
    cache_enable = _flag("cache_enable", False)
    sliced = _flag("sliced", False)

    @property
    def comm_fusion(self):
        """The all-reduce fusion group (`Cell.set_comm_fusion` sets it); default 1."""
        return self.__dict__.get("_comm_fusion", 1)

    @comm_fusion.setter
    def comm_fusion(self, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"The input value must be int, but got {type(value).__name__!r}")
        if value < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got '{value}' "
                             f"with type 'int'.")
        self.__dict__["_comm_fusion"] = value

    @property
    def cache_shape(self):
        """The shape of the host-side embedding cache; [] when there is none."""
        return list(self.__dict__.get("_cache_shape", ()))

    @cache_shape.setter
    def cache_shape(self, value):
        self.__dict__["_cache_shape"] = tuple(int(v) for v in value)

    @property
    def key(self):
        """The parameter-server key; -1 when the parameter is not on a server."""
        return self.__dict__.get("_key", -1)

    @property
    def param_info(self):
        return ParamInfo(self)

    def add_pipeline_stage(self, stage):
        """Record a pipeline stage that uses this parameter (one stage on one CPU process)."""
        if isinstance(stage, bool) or not isinstance(stage, int) or stage < 0:
            raise TypeError("`stage` must be a positive number of int type")
        self.__dict__.setdefault("_pipeline_stages", []).append(stage)
