"""`cellgrad.dataset` (this package, `cellgrad_dataset`), mirroring `mindspore.dataset`.

Every public name is exported lazily from the table `_EXPORTS` below (name ->
"module:attribute", or "module" for a submodule), so `import cellgrad.dataset` stays cheap and
each part of the package (engine, readers, vision, transforms, mindrecord) adds its own lines.
"""

import importlib

# name -> "cellgrad_dataset.module:attribute" (or "cellgrad_dataset.module" for a module).
# Append your names in your own block; keep one line per name.
_EXPORTS = {
    # --- engine: pipeline, sources, iterators, samplers, config ---
    "config": "cellgrad_dataset.config",
    "Dataset": "cellgrad_dataset.datasets:Dataset",
    "BatchDataset": "cellgrad_dataset.datasets:BatchDataset",
    "MapDataset": "cellgrad_dataset.datasets:MapDataset",
    "ProjectDataset": "cellgrad_dataset.datasets:ProjectDataset",
    "RenameDataset": "cellgrad_dataset.datasets:RenameDataset",
    "RepeatDataset": "cellgrad_dataset.datasets:RepeatDataset",
    "ShuffleDataset": "cellgrad_dataset.datasets:ShuffleDataset",
    "SkipDataset": "cellgrad_dataset.datasets:SkipDataset",
    "TakeDataset": "cellgrad_dataset.datasets:TakeDataset",
    "DictIterator": "cellgrad_dataset.iterators:DictIterator",
    "TupleIterator": "cellgrad_dataset.iterators:TupleIterator",
    "GeneratorDataset": "cellgrad_dataset.sources:GeneratorDataset",
    "NumpySlicesDataset": "cellgrad_dataset.sources:NumpySlicesDataset",
    # --- readers (file formats) ---
    # --- vision / transforms ---
    # --- mindrecord ---
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'cellgrad.dataset' has no attribute '{name}'")
    module, _, attr = target.partition(":")
    value = importlib.import_module(module)
    if attr:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
