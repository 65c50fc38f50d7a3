"""The module the `cellgrad` entry point names: exports the hook ops and provides the Cell hook
runner. Loading the plugin imports nothing else: the ops on first use, the runner's machinery
on the first hook registration."""

from cellgrad.plugins import hookimpl

EXPORTS = {
    "ops.HookBackward": "cellgrad_hooks.grad_ops:HookBackward",
    "ops.InsertGradientOf": "cellgrad_hooks.grad_ops:InsertGradientOf",
}


class LazyRunner:
    """The Cell hook runner (`cellgrad_hooks.runner.CellHookRunner`), imported when first
    needed. `run` is rarely called through it: a hooked Cell calls its own hook table."""

    def register(self, target, kind, hook, **options):
        from cellgrad_hooks.runner import RUNNER

        return RUNNER.register(target, kind, hook, **options)

    def run(self, cell, args, kwargs):
        return cell._hooks.run(cell, args, kwargs)


RUNNER = LazyRunner()


@hookimpl
def cellgrad_export_names(export):
    for qualname, target in EXPORTS.items():
        export(qualname, lazy=target)


@hookimpl
def cellgrad_cell_hook_runner():
    return RUNNER
