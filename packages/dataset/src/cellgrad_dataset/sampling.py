"""Which rows of a random-access source one epoch reads: order, shard and sample count."""

import numpy as np

from cellgrad_dataset import config


def epoch_rng(epoch, stream):
    """The Generator for one epoch of one pipeline stage.

    Seeded from the dataset seed, the epoch and the stage, so a new iterator repeats the same
    orders after `ms.set_seed` (as MindSpore) and every shard of a data-parallel run draws the
    same permutation. Without a seed each iterator gets fresh entropy.
    """
    seed = config.get_seed()
    if seed is None:
        return np.random.Generator(np.random.PCG64())
    return np.random.Generator(np.random.PCG64([seed, epoch, stream]))


def check_shards(owner, num_shards, shard_id):
    if num_shards is None and shard_id is None:
        return
    if num_shards is None or shard_id is None:
        raise ValueError(f"For '{owner}', num_shards and shard_id must be given together, but "
                         f"got num_shards={num_shards!r}, shard_id={shard_id!r}.")
    if isinstance(num_shards, bool) or not isinstance(num_shards, int) or num_shards < 1:
        raise ValueError(f"For '{owner}', num_shards must be a positive int, but got "
                         f"{num_shards!r}.")
    if isinstance(shard_id, bool) or not isinstance(shard_id, int) \
            or not 0 <= shard_id < num_shards:
        raise ValueError(f"For '{owner}', shard_id must be an int in [0, {num_shards}), but got "
                         f"{shard_id!r}.")


class Sampler:
    """Row indices of a source of `n` rows for each epoch.

    Shards take every `num_shards`-th row of the (shared) order, starting at `shard_id`; as
    MindSpore's DistributedSampler, the order is padded from its start so that every shard
    has the same number of rows (ranks of a data-parallel run take the same number of steps).
    """

    def __init__(self, n, shuffle, num_shards=None, shard_id=None, num_samples=None):
        self.n = n
        self.shuffle = shuffle
        self.num_shards = num_shards or 1
        self.shard_id = shard_id or 0
        self.num_samples = num_samples

    def size(self):
        per_shard = -(-self.n // self.num_shards)
        return per_shard if self.num_samples is None else min(per_shard, self.num_samples)

    def indices(self, epoch):
        order = epoch_rng(epoch, 0).permutation(self.n) if self.shuffle else np.arange(self.n)
        if self.num_shards > 1:
            total = -(-self.n // self.num_shards) * self.num_shards
            order = np.resize(order, total)[self.shard_id::self.num_shards]
        return order[: self.size()]
