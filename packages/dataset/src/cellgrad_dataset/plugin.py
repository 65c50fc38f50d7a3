"""The module the `cellgrad` entry point names: provides `cellgrad.dataset` and
`cellgrad.mindrecord` whole (imported on first use)."""

from cellgrad.plugins import hookimpl


@hookimpl
def cellgrad_provide_modules(provide):
    provide("dataset", "cellgrad_dataset")
    provide("mindrecord", "cellgrad_dataset.mindrecord")


# MindSpore's top level re-exports the MindRecord classes (`mindspore.FileWriter`, ...).
_TOP_LEVEL = ("FileReader", "FileWriter", "MindPage", "Cifar10ToMR", "Cifar100ToMR",
              "MnistToMR", "CsvToMR", "ImageNetToMR")


@hookimpl
def cellgrad_export_names(export):
    for name in _TOP_LEVEL:
        export(name, lazy=f"cellgrad_dataset.mindrecord:{name}")
