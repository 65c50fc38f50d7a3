"""Mirrors MindSpore's private `mindspore.common._pijit_context`: `PIJitCaptureContext`, the
decorator behind `jit(capture_mode="bytecode")` that MindSpore's tests apply directly."""

import functools
import inspect
import types

from cellgrad.context import jit
from cellgrad.graph_knobs import JitConfig

__all__ = ["PIJitCaptureContext"]


class PIJitCaptureContext:
    """Mirrors `PIJitCaptureContext(fullgraph=False, jit_config=None)`: decorating a function,
    method, Cell or Cell class compiles it as `jit(fn, capture_mode="bytecode",
    fullgraph=fullgraph)` does; the config's `_disable_pijit(args, kwargs)`, when it answers
    True, runs the plain function for those inputs."""

    def __init__(self, fullgraph=False, jit_config=None):
        config = {"fullgraph": fullgraph}
        if isinstance(jit_config, JitConfig):
            config.update(jit_config.jit_config_dict)
        elif jit_config is not None:
            config.update(jit_config)
        disable = config.get("_disable_pijit")
        if disable is not None and not callable(disable):
            raise TypeError(f"The config '_disable_pijit' must be callable but got {disable}")
        self.config = config

    def __call__(self, fn):
        from cellgrad.nn import Cell

        if isinstance(fn, type) and issubclass(fn, Cell):
            fn.construct = self(fn.construct)
            return fn
        if isinstance(fn, Cell):
            return types.MethodType(self(fn.construct.__func__), fn)
        if isinstance(fn, types.MethodType):
            return types.MethodType(self(fn.__func__), fn.__self__)
        if not isinstance(fn, types.FunctionType) or _unsupported(fn):
            return fn
        compiled = jit(fn, capture_mode="bytecode", fullgraph=bool(self.config["fullgraph"]))
        disable = self.config.get("_disable_pijit")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if disable is not None and disable(args, kwargs):
                return fn(*args, **kwargs)
            return compiled(*args, **kwargs)

        wrapper.__wrapped_by_jit__ = True
        return wrapper


def _unsupported(fn):
    # generators and coroutines are left to run as they are, as in MindSpore
    return (inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn)
            or inspect.isasyncgenfunction(fn))
