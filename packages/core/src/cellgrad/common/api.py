"""Mirrors `mindspore.common.api`: `jit` (defined in `cellgrad.context`), `jit_class`; MindSpore
1.x's `ms_function` resolves to it with a DeprecationWarning (`cellgrad._paths.MOVED`).

The private executors `_pynative_executor` and `_cell_graph_executor` are here for MindSpore's
own tests (tests/st/ops/cpu, tests/st/tensor/overload and tests/ut/python import them at the top
of the file; see tools/ms_testsuite.py): they hold the few calls those tests make, with their
PyNative meaning on cellgrad's synchronous CPU execution.
"""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.context import jit
from cellgrad.graph_knobs import jit_class

__all__ = ["jit", "jit_class"]


class _PyNativeExecutor:
    """Mirrors the calls MindSpore's tests make on `mindspore.common.api._pynative_executor`."""

    def __init__(self):
        self._grad_flag = False
        self._async_for_graph = False

    def sync(self):
        """Waits for the queued kernels: cellgrad runs each op when called, so nothing waits."""

    def set_grad_flag(self, flag):
        """Records whether a gradient graph is being built (`grad_flag()` reads it)."""
        self._grad_flag = bool(flag)

    def grad_flag(self):
        """The flag `set_grad_flag` recorded."""
        return self._grad_flag

    def set_async_for_graph(self, flag):
        """MindSpore's asynchronous graph launch switch: cellgrad is synchronous either way."""
        if not isinstance(flag, bool):
            raise TypeError(f"For 'set_async_for_graph', the 'flag' must be bool, "
                            f"but got {type(flag).__name__}.")
        self._async_for_graph = flag


class _CellGraphExecutor:
    """Mirrors `mindspore.common.api._cell_graph_executor`'s `compile`/`has_compiled`."""

    def __init__(self):
        self._compiled = set()

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None,
                **kwargs):
        """MindSpore compiles `obj` for `args` (the type and shape checks of every op run then);
        the eager equivalent runs `obj(*args, **kwargs)` once, raising what compiling raises.
        Returns `(phase, True)` as MindSpore does; the phase names this cell and its inputs."""
        obj(*args, **kwargs)
        key = f"{phase}.{id(obj)}.{len(args)}"
        self._compiled.add(key)
        return key, True

    def has_compiled(self, phase="predict"):
        """Whether `compile` returned `phase`."""
        return phase in self._compiled


_pynative_executor = _PyNativeExecutor()
_cell_graph_executor = _CellGraphExecutor()

__getattr__, __dir__ = _plugin_names(__name__)
