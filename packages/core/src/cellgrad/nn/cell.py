"""`Cell`, mirroring `mindspore.nn.Cell`: calling, modes, mixed precision, hooks and printing.

Parameters and sub-cells, their traversal and MindSpore's naming are in `_members.py`.

Calling a cell tests one flag, `_fast`, and then runs `construct`. The slow path handles what
is rare: the first call (MindSpore's duplicate-name refresh), `to_float` casting, hooks, and a
`bprop` while a gradient transform records (`cellgrad.nn.bprop`).

Hooks come from the cellgrad-hooks plugin (`cellgrad.plugins.cell_hook_runner()`). The
`register_*_hook` methods call `runner.register(cell, kind, hook_fn, **options)` (kind:
'forward_pre', 'forward', 'backward_pre', 'backward'), which returns the handle. The runner
calls `cell._set_hook_runner(table)` with the cell's own hook table (an object with
`run(cell, args, kwargs)`) when the cell gets its first hook and `cell._set_hook_runner(None)`
when its last one is removed; meanwhile the slow path returns `table.run(cell, args, kwargs)`,
which calls `cell._run_construct(args, kwargs)` (construct, or the bprop path) at its place
among the hooks. `Tensor.register_hook` uses the same runner with kind 'tensor'.

While a `cellgrad.observe` observer watches cells, every call goes through `_observed_call`
(the fast path then costs one more global test).
"""

from collections import OrderedDict

from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import bfloat16, float16, float32
from cellgrad.nn import bprop as _bprop
from cellgrad.nn import recompute as _recompute
from cellgrad.nn._cell_extras import CellExtras
from cellgrad.nn._members import CellMembers
from cellgrad.nn._state import CellState
from cellgrad.ops import functional as F

__all__ = ["Cell"]

_cell_observer = None  # set by cellgrad.observe: sees every Cell call while set


def set_cell_observer(observer):
    """Install the object whose `cell_begin`/`cell_end`/`cell_abort` bracket every Cell call
    (or None); returns the previous one."""
    global _cell_observer
    previous = _cell_observer
    _cell_observer = observer
    return previous


def _hook_runner(method):
    from cellgrad import plugins

    return plugins.cell_hook_runner(f"Cell.{method}")


def _cast_input(value, dtype):
    """`to_float` casting: float Tensors (also inside tuples and lists) become `dtype`."""
    if isinstance(value, TensorBuffer):
        if value.dtype.kind == 2 and value.dtype is not dtype:
            return F.cast(value, dtype)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)([_cast_input(v, dtype) for v in value])
    return value


def _cast_args(args, dtype):
    """`_cast_input` of a call's positional arguments: `args` itself when nothing changes (the
    common case inside a low-precision network: a Tensor already in `dtype`)."""
    for v in args:
        if isinstance(v, TensorBuffer):
            d = v.dtype
            if d is not dtype and d.kind == 2:
                break
        elif isinstance(v, (tuple, list)):
            break
    else:
        return args
    return tuple([_cast_input(v, dtype) for v in args])


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


class Cell(CellExtras, CellState, CellMembers):
    """Mirrors `mindspore.nn.Cell`: the building block of networks; override `construct`.

    Args:
        auto_prefix: prefix the names of parameters of child cells with their attribute name.
        flags: attributes set with `add_flags`.
    """

    _fast = False        # True once __call__ may run construct directly (set per instance)
    _hooks = None        # the hook runner (cellgrad-hooks) while the cell has hooks
    _bprop_op = None     # the per-class Op when the class defines `bprop`
    _checked = False     # the first call's name check ran
    _mixed = None        # the dtype set by `to_float`
    _recompute = False   # `recompute()` was called: construct runs again in the backward walk
    has_bprop = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.has_bprop = callable(getattr(cls, "bprop", None))
        cls._bprop_op = _bprop.make_op(cls) if cls.has_bprop else None

    def __init__(self, auto_prefix=True, flags=None):
        self.__dict__.update(
            _params=OrderedDict(), _cells=OrderedDict(), _exist_names={}, training=False,
            requires_grad=False, _auto_prefix=auto_prefix, _phase="train", _bprop_debug=False,
            _mixed=None, _checked=False, _func_graph_flags={}, _buffers=OrderedDict(),
            _non_persistent=set())
        if flags:
            self.add_flags(**flags)

    # ---- calling ----
    def __call__(self, *args, **kwargs):
        if self._fast and _cell_observer is None:
            return self.construct(*args, **kwargs)
        if _cell_observer is not None:
            return self._observed_call(args, kwargs)
        return self._call(args, kwargs)

    def _observed_call(self, args, kwargs):
        observer = _cell_observer
        observer.cell_begin(self, args, kwargs)
        try:
            out = self._call(args, kwargs)
        except BaseException:
            observer.cell_abort(self)
            raise
        observer.cell_end(self, out)
        return out

    def _call(self, args, kwargs):
        if not self._checked:
            self._first_call()
        if self._mixed is not None:
            return self._call_mixed(args, kwargs)
        if self._hooks is not None:
            return self._hooks.run(self, args, kwargs)
        return self._run_construct(args, kwargs)

    def _call_mixed(self, args, kwargs):
        """A call after `to_float`: inputs cast, Parameters read as cast copies meanwhile.

        Hooks see the inputs as given: MindSpore casts each op's inputs inside the cell."""
        d = self.__dict__
        active = d.get("_mixed_active", 0)
        d["_mixed_active"] = active + 1
        try:
            if self._hooks is not None:
                return self._hooks.run(self, args, kwargs)
            if self._bprop_op is not None or self._recompute:
                return self._run_construct(args, kwargs)
            # _run_construct's casts, inline: this runs for every cell of an amp network
            mixed = d["_mixed"]
            args = _cast_args(args, mixed)
            if kwargs:
                kwargs = {k: _cast_input(v, mixed) for k, v in kwargs.items()}
            return self.construct(*args, **kwargs)
        finally:
            d["_mixed_active"] = active

    def _run_construct(self, args, kwargs):
        """construct, or construct with the custom bprop while a gradient transform records."""
        mixed = self._mixed
        if mixed is not None:
            args = _cast_args(args, mixed)
            if kwargs:
                kwargs = {k: _cast_input(v, mixed) for k, v in kwargs.items()}
        # set_grad() records the custom bprop node too (MindSpore: new output Tensors)
        if self._bprop_op is not None and (_tape.recording_depth() > 0 or self.requires_grad):
            return _bprop.call(self, args, kwargs)
        if self._recompute and _tape.recording_depth() == 1:
            return _recompute.call(self, args, kwargs)
        return self.construct(*args, **kwargs)

    def _first_call(self):
        if "_params" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object does not inherit attribute "
                                 "from 'Cell'. Please use 'super().__init__()'.")
        self.check_names_and_refresh_name()
        self.__dict__["_checked"] = True
        self._update_call_path()

    def _update_call_path(self):
        d = self.__dict__
        d["_fast"] = (d.get("_checked", False) and d.get("_mixed") is None
                      and self._hooks is None and self._bprop_op is None
                      and not d.get("_recompute", False))

    def construct(self, *args, **kwargs):
        """The computation; every subclass overrides it."""
        raise AttributeError(f"For 'Cell' '{type(self).__name__}', the method 'construct' is not "
                             "defined.")

    # ---- modes and flags ----
    @property
    def cls_name(self):
        return type(self).__name__

    @property
    def phase(self):
        return self._phase

    @phase.setter
    def phase(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type "
                            f"{type(value)}.")
        self.__dict__["_phase"] = value

    @property
    def bprop_debug(self):
        """Accepted for MindSpore programs; a bprop always runs as Python here."""
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got "
                            f"type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    def set_train(self, mode=True):
        """Set `training` on this cell and all sub-cells, and this cell's `phase` ('train' or
        'predict'); as in MindSpore, the sub-cells keep their own `phase`."""
        self.__dict__["_phase"] = "train" if mode else "predict"
        self.add_flags_recursive(training=mode)
        return self

    def set_jit_config(self, jit_config):
        """Mirrors `Cell.set_jit_config`: keeps `jit_config.jit_config_dict` (set once, as in
        MindSpore); `ms.jit(cell)` is what traces and replays a cell here."""
        from cellgrad.graph_knobs import JitConfig

        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"For 'Cell.set_jit_config', 'jit_config' must be a JitConfig, but "
                            f"got {type(jit_config).__name__}.")
        if self.__dict__.get("_jit_config_dict"):
            from cellgrad import log

            log.warning("For Cell, jit config can only be set once, ignore this setting.")
        else:
            self.__dict__["_jit_config_dict"] = jit_config.jit_config_dict

    def set_grad(self, requires_grad=True):
        """Set `requires_grad` and return the cell.

        Nothing else changes: the forward is never re-run or replayed for a gradient, so there
        is no tape to prepare (and no stale tape to reuse, semantics §8).
        """
        self.__dict__["requires_grad"] = requires_grad
        return self

    def add_flags(self, **flags):
        """Set attributes (MindSpore's flags); `fp16`/`fp32`/`bf16` set mixed precision."""
        self.__dict__.setdefault("_func_graph_flags", {}).update(flags)
        self.__dict__.update(flags)
        for key, dtype in (("fp16", float16), ("fp32", float32), ("bf16", bfloat16)):
            if flags.get(key):
                self._set_mixed(dtype)
        return self

    def add_flags_recursive(self, **flags):
        """`add_flags` on this cell and every sub-cell."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self):
        return self.__dict__.setdefault("_func_graph_flags", {})

    def to_float(self, dst_type):
        """Run this cell and its sub-cells in `dst_type` (float16, float32 or bfloat16).

        Each cell's float Tensor inputs are cast to `dst_type`, and while the cell runs, reading
        one of its float Parameters gives a cast copy (the gradient flows back to the Parameter
        in its own dtype); outside a call the attribute is the Parameter itself. MindSpore casts
        every op's inputs inside the cell; cellgrad casts the inputs and the Parameters.
        """
        if dst_type not in (float16, float32, bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, "
                             "mstype.float16 or mstype.bfloat16, but got type: "
                             f"{type(dst_type)} and value: {dst_type}.")
        return self.add_flags_recursive(fp16=dst_type is float16, fp32=dst_type is float32,
                                        bf16=dst_type is bfloat16)

    def _set_mixed(self, dtype):
        d = self.__dict__
        d["_mixed"] = dtype
        for key in d.get("_params", ()):
            if d.get(key) is d["_params"][key]:
                del d[key]  # reads go through __getattr__, which casts during a call
        self._update_call_path()

    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True,
                  context_fn=None, **kwargs):
        """Mirrors `Cell.recompute`: in a first-order gradient transform this cell keeps only
        its inputs and runs `construct` again in the backward walk (`cellgrad.nn.recompute`).
        Configured once: sub-cells of a recomputed cell are not recomputed on their own."""
        for key in kwargs:
            if key not in ("mp_comm_recompute", "parallel_optimizer_comm_recompute",
                           "recompute_slice_activation"):
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key "
                                 "kwargs must be 'mp_comm_recompute', "
                                 "'parallel_optimizer_comm_recompute', "
                                 "'recompute_slice_activation'")
        if not isinstance(output_recompute, bool):
            raise TypeError(f"For 'recompute', 'output_recompute' must be a bool, but got "
                            f"{type(output_recompute).__name__}.")
        if self.__dict__.get("_recompute_configured"):
            return
        for _, cell in self.cells_and_names():
            cell.__dict__["_recompute_configured"] = True
            scope = cell.__dict__.get("_scope")  # MindSpore marks the scope: get_scope() shows it
            if scope is None or not scope.startswith("recompute_"):
                cell.__dict__["_scope"] = "recompute_" + (scope or "")
        self.add_flags(output_recompute=output_recompute)
        self.__dict__["_recompute"] = True
        self._update_call_path()

    # ---- hooks (cellgrad-hooks) ----
    def _set_hook_runner(self, runner):
        """Called by the hook runner: `runner` while the cell has hooks, None after."""
        self.__dict__["_hooks"] = runner
        self._update_call_path()

    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """Mirrors `Cell.register_forward_pre_hook`; needs `pip install cellgrad-hooks`."""
        return _hook_runner("register_forward_pre_hook").register(
            self, "forward_pre", hook_fn, prepend=prepend, with_kwargs=with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """Mirrors `Cell.register_forward_hook`; needs `pip install cellgrad-hooks`."""
        return _hook_runner("register_forward_hook").register(
            self, "forward", hook_fn, prepend=prepend, with_kwargs=with_kwargs,
            always_call=always_call)

    def register_backward_pre_hook(self, hook_fn):
        """Mirrors `Cell.register_backward_pre_hook`; needs `pip install cellgrad-hooks`."""
        return _hook_runner("register_backward_pre_hook").register(self, "backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn):
        """Mirrors `Cell.register_backward_hook`; needs `pip install cellgrad-hooks`."""
        return _hook_runner("register_backward_hook").register(self, "backward", hook_fn)

    # ---- printing ----
    def extend_repr(self):
        """Extra text shown inside this cell's parentheses by `print(cell)`; override it."""
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): {_addindent(repr(cell), 2)}"
                       for key, cell in self._cells.items()]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{type(self).__name__}({body})"

    __str__ = __repr__

    def __bool__(self):
        return True
