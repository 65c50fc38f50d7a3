"""Mirrors `mindspore.dataset.config`: the seed that shuffling and splitting draw from."""

from cellgrad import context

_seed = None


def set_seed(seed):
    """Seed the dataset pipelines (shuffle, split); `ms.set_seed` seeds them too."""
    global _seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ValueError(f"For 'set_seed', the seed must be an int in [0, 2**32), but got "
                         f"{seed!r}.")
    _seed = seed


def get_seed():
    """The dataset seed: `config.set_seed`'s, else `ms.set_seed`'s, else None (fresh entropy)."""
    return _seed if _seed is not None else context.get_seed()
