"""The module the `cellgrad` entry point names: provides `cellgrad.dataset` and
`cellgrad.mindrecord` whole (imported on first use)."""

from cellgrad.plugins import hookimpl


@hookimpl
def cellgrad_provide_modules(provide):
    provide("dataset", "cellgrad_dataset")
    provide("mindrecord", "cellgrad_dataset.mindrecord")
