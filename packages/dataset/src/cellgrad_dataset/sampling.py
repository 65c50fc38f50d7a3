"""Random streams and shard checks shared by the samplers, shuffles and random transforms."""

import numpy as np

from cellgrad_dataset import config


def epoch_rng(epoch, stream):
    """The Generator for one epoch of one pipeline stage.

    Seeded from the dataset seed, the epoch and the stage, so a new iterator repeats the same
    orders after `ds.config.set_seed` / `ms.set_seed` and every shard of a data-parallel run
    draws the same permutation. Without a seed each iterator gets fresh entropy.
    """
    seed = config.seed_or_none()
    if seed is None:
        return np.random.Generator(np.random.PCG64())
    return np.random.Generator(np.random.PCG64([seed, epoch, stream]))


def check_shards(owner, num_shards, shard_id):
    """MindSpore's checks of a source's `num_shards`/`shard_id` arguments."""
    if num_shards is None and shard_id is None:
        return
    if num_shards is None or shard_id is None:
        raise ValueError("num_shards and shard_id need to be passed in together.")
    for name, value in (("num_shards", num_shards), ("shard_id", shard_id)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"Argument {name} with value {value!r} is not of type "
                            f"[<class 'int'>], but got {type(value)}.")
    if num_shards <= 0:
        raise ValueError("Input num_shards is not within the required interval of "
                         "[1, 2147483647].")
    if not 0 <= shard_id < num_shards:
        raise ValueError("shard_id should be less than num_shards." if shard_id >= 0 else
                         "Input shard_id is not within the required interval of "
                         "[0, 2147483647].")
