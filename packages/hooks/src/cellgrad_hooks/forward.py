"""The forward side of a hooked Cell call: forward-pre and forward hooks, in MindSpore 2.10's
order and with its return-value rules."""

import warnings

from cellgrad_hooks.invoke import call, cell_hook

__all__ = ["live", "run_forward_pre", "run_forward", "run_always_called"]


def live(table):
    """(handle_id, entry) of a hook table in order, skipping entries removed meanwhile (a hook
    may remove itself or a later one; MindSpore fails with 'OrderedDict mutated')."""
    for key, entry in tuple(table.items()):
        if key in table:
            yield key, entry


def run_forward_pre(table, cell, args, kwargs):
    """Forward-pre hooks: `hook(cell, args)` may return new args (a non-tuple becomes the only
    one); `hook(cell, args, kwargs)` (with_kwargs) returns None or `(args, kwargs)`."""
    for _, e in live(table.forward_pre):
        if e.with_kwargs:
            ret = call(cell_hook(cell, "forward pre", e.fn), e.fn, cell, args, kwargs)
            if ret is not None:
                if not (isinstance(ret, tuple) and len(ret) == 2):
                    raise RuntimeError(
                        "forward pre hook with kwargs must return None or a tuple of "
                        f"(new_args, new_kwargs), but got {ret}")
                args, kwargs = ret
                args = args if isinstance(args, tuple) else tuple(args)
        else:
            ret = call(cell_hook(cell, "forward pre", e.fn), e.fn, cell, args)
            if ret is not None:
                args = ret if isinstance(ret, tuple) else (ret,)
    return args, kwargs


def run_forward(table, cell, args, kwargs, output, called):
    """Forward hooks: `hook(cell, args, output)` (`hook(cell, args, kwargs, output)` with
    with_kwargs) may return a new output. `called` collects the always_call hooks that ran."""
    for key, e in live(table.forward):
        if e.always_call:
            called.add(key)
        if e.with_kwargs:
            ret = call(cell_hook(cell, "forward", e.fn), e.fn, cell, args, kwargs, output)
        else:
            ret = call(cell_hook(cell, "forward", e.fn), e.fn, cell, args, output)
        if ret is not None:
            output = ret
    return output


def run_always_called(table, cell, args, kwargs, output, called):
    """After an exception in the call: the always_call forward hooks that have not run yet run
    (with output None if construct failed); their own errors become warnings."""
    for key, e in live(table.forward):
        if not e.always_call or key in called:
            continue
        try:
            ret = e.fn(cell, args, kwargs, output) if e.with_kwargs else e.fn(cell, args, output)
            if ret is not None:
                output = ret
        except Exception as exc:
            warnings.warn("cell forward hook with ``always_call=True`` raised an exception that "
                          "was silenced because another error was already raised in forward: "
                          f"{exc}", RuntimeWarning, stacklevel=4)
