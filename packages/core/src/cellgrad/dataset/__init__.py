"""`cellgrad.dataset`, mirroring `mindspore.dataset` for data held in memory.

Sources: `NumpySlicesDataset` (arrays) and `GeneratorDataset` (Python sources); pipeline
methods `batch`, `shuffle`, `map`, `repeat`, `take`, `skip`, `split`, `project`, `rename`;
`create_tuple_iterator` / `create_dict_iterator`. Orders are reproducible after
`ms.set_seed` (or `dataset.config.set_seed`); `num_shards`/`shard_id` give each process of a
data-parallel run its own rows. Everything runs in the calling thread.
"""

from cellgrad.dataset import config
from cellgrad.dataset.datasets import (
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
from cellgrad.dataset.iterators import DictIterator, TupleIterator
from cellgrad.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = [
    "BatchDataset", "Dataset", "DictIterator", "GeneratorDataset", "MapDataset",
    "NumpySlicesDataset", "ProjectDataset", "RenameDataset", "RepeatDataset", "ShuffleDataset",
    "SkipDataset", "TakeDataset", "TupleIterator", "config",
]
