"""`cellgrad.dataset` (this package, `cellgrad_dataset`), mirroring `mindspore.dataset`.

Sources: `NumpySlicesDataset` (arrays) and `GeneratorDataset` (Python sources); pipeline
methods `batch`, `shuffle`, `map`, `repeat`, `take`, `skip`, `split`, `project`, `rename`;
`create_tuple_iterator` / `create_dict_iterator`. Orders are reproducible after
`ms.set_seed` (or `dataset.config.set_seed`); `num_shards`/`shard_id` give each process of a
data-parallel run its own rows. Everything runs in the calling thread.
"""

from cellgrad_dataset import config
from cellgrad_dataset.datasets import (
    BatchDataset,
    Dataset,
    MapDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    TakeDataset,
)
from cellgrad_dataset.iterators import DictIterator, TupleIterator
from cellgrad_dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = [
    "BatchDataset", "Dataset", "DictIterator", "GeneratorDataset", "MapDataset",
    "NumpySlicesDataset", "ProjectDataset", "RenameDataset", "RepeatDataset", "ShuffleDataset",
    "SkipDataset", "TakeDataset", "TupleIterator", "config",
]
