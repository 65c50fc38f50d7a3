"""The module the `cellgrad` entry point names: exports the hook ops and provides the Cell hook
runner. Nothing heavy is imported until a name is used or a hook is registered."""

from cellgrad.plugins import hookimpl

EXPORTS = {
    "ops.HookBackward": "cellgrad_hooks.grad_ops:HookBackward",
    "ops.InsertGradientOf": "cellgrad_hooks.grad_ops:InsertGradientOf",
}


@hookimpl
def cellgrad_export_names(export):
    for qualname, target in EXPORTS.items():
        export(qualname, lazy=target)


@hookimpl
def cellgrad_cell_hook_runner():
    from cellgrad_hooks.runner import RUNNER

    return RUNNER
