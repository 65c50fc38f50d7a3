"""The Cell hook runner and each Cell's hook table.

`Cell.register_*_hook` calls `RUNNER.register(cell, kind, hook, **options)`. A Cell's first
hook gives it a `CellHooks` table, which cellgrad's `Cell.__call__` then calls instead of
`construct` (`table.run(cell, args, kwargs)`); when its last hook is removed the table is
dropped and the Cell is back on its one-attribute-test fast path.

A call runs, in MindSpore 2.10's order: forward-pre hooks (registration order, `prepend=True`
first), then - while a gradient transform records and the cell has backward hooks - the input
end of the backward boundary (`boundary.py`), `construct` (or the custom `bprop` path), forward
hooks and the output end of the boundary. Tables are read when the hooks run, so a hook removed
between the forward and the backward pass does not run.
"""

import weakref
from collections import OrderedDict

from cellgrad._core import _tape
from cellgrad_hooks import boundary, tensor_hooks
from cellgrad_hooks.forward import run_always_called, run_forward, run_forward_pre
from cellgrad_hooks.handles import HookHandle
from cellgrad_hooks.invoke import check_hook_fn

__all__ = ["CellHooks", "CellHookRunner", "RUNNER"]

KINDS = ("forward_pre", "forward", "backward_pre", "backward")


class _Entry:
    """One registered hook and its options."""

    __slots__ = ("fn", "with_kwargs", "always_call")

    def __init__(self, fn, with_kwargs=False, always_call=False):
        self.fn = fn
        self.with_kwargs = with_kwargs
        self.always_call = always_call


class CellHooks:
    """The hooks of one Cell by kind; each table maps handle_id -> `_Entry`, in call order."""

    __slots__ = ("cell_ref", "forward_pre", "forward", "backward_pre", "backward",
                 "__weakref__")

    def __init__(self, cell):
        self.cell_ref = weakref.ref(cell)
        self.forward_pre = OrderedDict()
        self.forward = OrderedDict()
        self.backward_pre = OrderedDict()
        self.backward = OrderedDict()

    def add(self, kind, fn, prepend=False, with_kwargs=False, always_call=False):
        table = getattr(self, kind)
        handle = HookHandle(self)
        table[handle.handle_id] = _Entry(fn, with_kwargs, always_call)
        if prepend:
            table.move_to_end(handle.handle_id, last=False)
        return handle

    def _remove(self, handle_id):
        for kind in KINDS:
            getattr(self, kind).pop(handle_id, None)
        if not (self.forward_pre or self.forward or self.backward_pre or self.backward):
            cell = self.cell_ref()
            if cell is not None and cell.__dict__.get("_hooks") is self:
                cell._set_hook_runner(None)

    def run(self, cell, args, kwargs):
        """`Cell.__call__` while the cell has hooks: the hooks around `cell._run_construct`."""
        if (self.backward or self.backward_pre) and _tape.recording_depth():
            return boundary.run_recorded(self, cell, args, kwargs)
        called = set()
        output = None
        try:
            given = args
            if self.forward_pre:
                args, kwargs = run_forward_pre(self, cell, args, kwargs)
            try:
                output = cell._run_construct(args, kwargs)
            except Exception as e:
                if args is not given:
                    e.add_note(f"{type(cell).__name__}'s inputs were replaced by what its "
                               "forward pre hook returned: "
                               + ", ".join(type(a).__name__ for a in args) + ".")
                raise
            if self.forward:
                output = run_forward(self, cell, args, kwargs, output, called)
            return output
        except Exception:
            run_always_called(self, cell, args, kwargs, output, called)
            raise


class CellHookRunner:
    """What cellgrad's `Cell` and `Tensor` ask for (`cellgrad.plugins.cell_hook_runner()`)."""

    def register(self, target, kind, hook, **options):
        """Register `hook` on a Cell (`kind` one of KINDS) or, with kind "tensor", on a Tensor;
        returns its handle."""
        if kind == "tensor":
            return tensor_hooks.register(target, hook)
        if kind not in KINDS:
            raise ValueError(f"unknown Cell hook kind {kind!r}; expected one of {KINDS}")
        check_hook_fn(hook)
        table = target.__dict__.get("_hooks")
        if not isinstance(table, CellHooks):
            table = CellHooks(target)
            target._set_hook_runner(table)
        return table.add(kind, hook, **options)

    def run(self, cell, args, kwargs):
        return cell._hooks.run(cell, args, kwargs)


RUNNER = CellHookRunner()
