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
    "ErrorSamplesMode": "cellgrad_dataset.config:ErrorSamplesMode",
    "Dataset": "cellgrad_dataset.datasets:Dataset",
    "BatchDataset": "cellgrad_dataset.datasets:BatchDataset",
    "BatchInfo": "cellgrad_dataset.datasets:BatchInfo",
    "BucketBatchByLengthDataset": "cellgrad_dataset.datasets:BucketBatchByLengthDataset",
    "ConcatDataset": "cellgrad_dataset.datasets:ConcatDataset",
    "FilterDataset": "cellgrad_dataset.datasets:FilterDataset",
    "MapDataset": "cellgrad_dataset.datasets:MapDataset",
    "PaddedBatchDataset": "cellgrad_dataset.datasets:PaddedBatchDataset",
    "ProjectDataset": "cellgrad_dataset.datasets:ProjectDataset",
    "RenameDataset": "cellgrad_dataset.datasets:RenameDataset",
    "RepeatDataset": "cellgrad_dataset.datasets:RepeatDataset",
    "ShuffleDataset": "cellgrad_dataset.datasets:ShuffleDataset",
    "SkipDataset": "cellgrad_dataset.datasets:SkipDataset",
    "SyncWaitDataset": "cellgrad_dataset.datasets:SyncWaitDataset",
    "TakeDataset": "cellgrad_dataset.datasets:TakeDataset",
    "ZipDataset": "cellgrad_dataset.datasets:ZipDataset",
    "zip": "cellgrad_dataset.datasets:zip_datasets",
    "DictIterator": "cellgrad_dataset.iterators:DictIterator",
    "TupleIterator": "cellgrad_dataset.iterators:TupleIterator",
    "GeneratorDataset": "cellgrad_dataset.sources:GeneratorDataset",
    "NumpySlicesDataset": "cellgrad_dataset.sources:NumpySlicesDataset",
    "PaddedDataset": "cellgrad_dataset.sources:PaddedDataset",
    "Schema": "cellgrad_dataset.schema:Schema",
    "BuiltinSampler": "cellgrad_dataset.samplers:BuiltinSampler",
    "DistributedSampler": "cellgrad_dataset.samplers:DistributedSampler",
    "IterSampler": "cellgrad_dataset.samplers:IterSampler",
    "PKSampler": "cellgrad_dataset.samplers:PKSampler",
    "RandomSampler": "cellgrad_dataset.samplers:RandomSampler",
    "Sampler": "cellgrad_dataset.samplers:Sampler",
    "SequentialSampler": "cellgrad_dataset.samplers:SequentialSampler",
    "Shuffle": "cellgrad_dataset.samplers:Shuffle",
    "SubsetRandomSampler": "cellgrad_dataset.samplers:SubsetRandomSampler",
    "SubsetSampler": "cellgrad_dataset.samplers:SubsetSampler",
    "WeightedRandomSampler": "cellgrad_dataset.samplers:WeightedRandomSampler",
    # --- readers (file formats) ---
    "MnistDataset": "cellgrad_dataset.readers.idx:MnistDataset",
    "FashionMnistDataset": "cellgrad_dataset.readers.idx:FashionMnistDataset",
    "KMnistDataset": "cellgrad_dataset.readers.idx:KMnistDataset",
    "Cifar10Dataset": "cellgrad_dataset.readers.cifar:Cifar10Dataset",
    "Cifar100Dataset": "cellgrad_dataset.readers.cifar:Cifar100Dataset",
    "ImageFolderDataset": "cellgrad_dataset.readers.image_folder:ImageFolderDataset",
    "CSVDataset": "cellgrad_dataset.readers.text:CSVDataset",
    "TextFileDataset": "cellgrad_dataset.readers.text:TextFileDataset",
    "TFRecordDataset": "cellgrad_dataset.readers.tfrecord:TFRecordDataset",
    "DatasetCache": "cellgrad_dataset.cache:DatasetCache",
    "CelebADataset": "cellgrad_dataset.readers.celeba:CelebADataset",
    # --- vision / transforms ---
    "transforms": "cellgrad_dataset.transforms",
    "audio": "cellgrad_dataset.audio",
    "text": "cellgrad_dataset.text",
    "vision": "cellgrad_dataset.vision",
    # --- mindrecord ---
    "MindDataset": "cellgrad_dataset.mindrecord._dataset:MindDataset",
    # --- operation implementation kind ---
    "Implementation": "cellgrad_dataset.transforms.py_transforms_util:Implementation",
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
