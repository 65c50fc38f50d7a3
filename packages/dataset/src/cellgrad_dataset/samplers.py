"""Mirrors `mindspore.dataset.samplers`: which rows of a random-access source an epoch reads.

A sampler turns the source's row count `n` into an array of row indices for one epoch
(`_indices(n, epoch)`); a child sampler (`add_child`) first picks rows, and the parent then
samples among the child's picks. Random samplers draw from `sampling.epoch_rng`: a new order
each epoch, the same orders after `ds.config.set_seed` (not MindSpore's own random stream),
and the same permutation on every shard of a data-parallel run.
"""

import enum
import numbers

import numpy as np

from cellgrad_dataset.sampling import epoch_rng

INT64_MAX = 9223372036854775807


class Shuffle(str, enum.Enum):
    """Mirrors `mindspore.dataset.Shuffle`."""

    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def _check_num_samples(num_samples):
    if num_samples is None:
        return None
    if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral):
        raise TypeError(f"num_samples must be integer but was: {num_samples}.")
    if not 0 <= num_samples <= INT64_MAX:
        raise ValueError("num_samples exceeds the boundary between 0 and "
                         "9223372036854775807(INT64_MAX)!")
    return int(num_samples) or None  # 0 means all, as MindSpore


class BuiltinSampler:
    """Mirrors `mindspore.dataset.BuiltinSampler`: the base of every sampler."""

    def __init__(self, num_samples=None):
        self.child_sampler = None
        self.num_samples = _check_num_samples(num_samples)

    def add_child(self, sampler):
        """Mirrors `BuiltinSampler.add_child`: `sampler` picks the rows this one samples from."""
        if not isinstance(sampler, BuiltinSampler):
            raise TypeError("Input to add_child must be a sampler, but got "
                            f"{type(sampler).__name__}.")
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        self.child_sampler = sampler

    def get_child(self):
        """Mirrors `BuiltinSampler.get_child`."""
        return self.child_sampler

    def get_num_samples(self):
        """Mirrors `BuiltinSampler.get_num_samples`."""
        return self.num_samples

    def is_shuffled(self):
        return False

    def is_sharded(self):
        return self.child_sampler is not None and self.child_sampler.is_sharded()

    def _indices(self, n, epoch, depth=0):
        """Row indices (into `n` rows) for one epoch."""
        if self.child_sampler is None:
            return np.asarray(self._ids(n, epoch, depth), dtype=np.int64)
        base = self.child_sampler._indices(n, epoch, depth + 1)
        return base[np.asarray(self._ids(len(base), epoch, depth), dtype=np.int64)]

    def _count(self, n):
        """Rows per epoch without drawing them."""
        if self.child_sampler is not None:
            n = self.child_sampler._count(n)
        return self._own_count(n)

    def _own_count(self, n):
        return n if self.num_samples is None else min(n, self.num_samples)

    def _limit(self, ids):
        return ids if self.num_samples is None else ids[:self.num_samples]


class SequentialSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.SequentialSampler`: rows in order from `start_index`."""

    def __init__(self, start_index=None, num_samples=None):
        if start_index is not None and (isinstance(start_index, bool)
                                        or not isinstance(start_index, numbers.Integral)):
            raise TypeError(f"start_index must be integer but was: {start_index}.")
        super().__init__(num_samples)
        self.start_index = 0 if start_index is None else int(start_index)

    def _ids(self, n, epoch, depth):
        if not 0 <= self.start_index < max(n, 1):
            raise RuntimeError(f"Invalid input, start_index must be in [0, {n}) for a dataset "
                               f"of {n} rows, but got {self.start_index}.")
        return self._limit(np.arange(self.start_index, n))

    def _own_count(self, n):
        return super()._own_count(max(0, n - self.start_index))


class RandomSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.RandomSampler`: a new random order each epoch, or draws with
    replacement."""

    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        super().__init__(num_samples)
        self.replacement = replacement
        self.shuffle = shuffle

    def is_shuffled(self):
        return True

    def _ids(self, n, epoch, depth):
        rng = epoch_rng(epoch, 100 + depth)
        if self.replacement:  # as MindSpore: at most n draws
            return rng.integers(0, n, size=self._own_count(n))
        return self._limit(rng.permutation(n))


class DistributedSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.DistributedSampler`: shard `shard_id` of `num_shards`.

    As MindSpore: shard `i` takes rows `i, i + num_shards, ...` of the (shuffled) order; with
    `offset=-1` the order wraps around so every shard has `ceil(n / num_shards)` rows, with
    `offset=k` it does not wrap and row `r` goes to shard `(r + k) % num_shards`.
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        for name, value in (("num_shards", num_shards), ("shard_id", shard_id),
                            ("offset", offset)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name} must be integer but was: {value}.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a boolean value but was: {shuffle}.")
        if num_shards <= 0:
            raise ValueError(f"num_shards must be positive but was: {num_shards}.")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"shard_id must be in range [0, {num_shards}), but got: "
                             f"{shard_id}.")
        if offset > num_shards:
            raise ValueError(f"offset should be no more than num_shards={num_shards}, but got "
                             f"offset={offset}.")
        super().__init__(num_samples)
        self.num_shards, self.shard_id = int(num_shards), int(shard_id)
        self.shuffle, self.offset = shuffle, int(offset)

    def is_shuffled(self):
        return self.shuffle

    def is_sharded(self):
        return True

    def _ids(self, n, epoch, depth):
        # RandomSampler's stream: the shards interleave the order one process would read, so a
        # data-parallel step sees the rows of the same step of a single-process run
        order = epoch_rng(epoch, 100 + depth).permutation(n) if self.shuffle else np.arange(n)
        k = self.num_shards
        if self.offset < 0:
            order = np.resize(order, -(-n // k) * k) if n else order
            return self._limit(order[self.shard_id::k])
        return self._limit(order[(self.shard_id - self.offset) % k::k])

    def _own_count(self, n):
        k = self.num_shards
        if self.offset < 0:
            per = -(-n // k)
        else:
            start = (self.shard_id - self.offset) % k
            per = len(range(start, n, k))
        return per if self.num_samples is None else min(per, self.num_samples)


class SubsetSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.SubsetSampler`: the given row indices, in order."""

    def __init__(self, indices, num_samples=None):
        if not isinstance(indices, (list, tuple, np.ndarray)):
            indices = [indices]
        for i, item in enumerate(indices):
            if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                raise TypeError(f"{type(self).__name__}: Type of indices element must be int, "
                                f"but got list[{i}]: {item}, type: {type(item)}.")
        super().__init__(num_samples)
        self.indices = [int(i) for i in indices]

    def _checked(self, n):
        ids = np.asarray(self.indices, dtype=np.int64)
        bad = ids[(ids < 0) | (ids >= n)]
        if bad.size:
            raise RuntimeError(f"Invalid input, {type(self).__name__} index {int(bad[0])} is out "
                               f"of range for a dataset of {n} rows.")
        return ids

    def _ids(self, n, epoch, depth):
        return self._limit(self._checked(n))

    def _own_count(self, n):
        return super()._own_count(len(self.indices))


class SubsetRandomSampler(SubsetSampler):
    """Mirrors `mindspore.dataset.SubsetRandomSampler`: the given rows in a random order."""

    def is_shuffled(self):
        return True

    def _ids(self, n, epoch, depth):
        ids = self._checked(n)
        return self._limit(ids[epoch_rng(epoch, 300 + depth).permutation(len(ids))])


class WeightedRandomSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.WeightedRandomSampler`: row `i` drawn with probability
    `weights[i] / sum(weights)`."""

    def __init__(self, weights, num_samples=None, replacement=True):
        if not isinstance(weights, (list, tuple, np.ndarray)):
            weights = [weights]
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, numbers.Real):
                raise TypeError(f"type of weights element must be number, but got list[{i}]: "
                                f"{w}, type: {type(w)}.")
        if not len(weights):
            raise ValueError("weights size should not be 0")
        if any(w < 0 for w in weights):
            raise ValueError("weights should not contain negative numbers.")
        if not any(w > 0 for w in weights):
            raise ValueError("elements of weights should not be all zeros.")
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        super().__init__(num_samples)
        self.weights, self.replacement = [float(w) for w in weights], replacement

    def is_shuffled(self):
        return True

    def _ids(self, n, epoch, depth):
        w = np.asarray(self.weights[:n])
        count = self.num_samples or len(self.weights)
        if not self.replacement and count > np.count_nonzero(w):
            raise RuntimeError(f"Invalid input, WeightedRandomSampler without replacement "
                               f"cannot draw {count} rows from {np.count_nonzero(w)} rows of "
                               f"non-zero weight.")
        return epoch_rng(epoch, 400 + depth).choice(len(w), size=count, p=w / w.sum(),
                                                    replace=self.replacement)

    def _own_count(self, n):
        return self.num_samples or len(self.weights)


class PKSampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.PKSampler`: `num_val` rows drawn at random (with
    replacement, as MindSpore) from each class in turn, classes in order (shuffled with
    `shuffle`); for the sources that know their rows' classes (the file readers)."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column='label',
                 num_samples=None):
        if isinstance(num_val, bool) or not isinstance(num_val, numbers.Integral):
            raise TypeError(f"num_val must be integer but was: {num_val}.")
        if num_val <= 0:
            raise ValueError(f"num_val should be a positive integer value, but got num_val: "
                             f"{num_val}.")
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a boolean value but was: {shuffle}.")
        super().__init__(num_samples)
        self.num_val, self.shuffle, self.class_column = int(num_val), shuffle, class_column
        self._labels = None

    def is_shuffled(self):
        return self.shuffle

    def _ids(self, n, epoch, depth):
        if self._labels is None:
            raise RuntimeError("PKSampler needs the class of every row: use it with a dataset "
                               "that has a class column (e.g. ImageFolderDataset).")
        labels = np.asarray(self._labels)[:n]
        rng = epoch_rng(epoch, 500 + depth)
        classes = np.unique(labels)
        if self.shuffle:
            classes = classes[rng.permutation(len(classes))]
        picks = []
        for c in classes:  # as MindSpore: num_val uniform draws (with replacement) per class
            rows = np.flatnonzero(labels == c)
            picks.append(rows[rng.integers(0, len(rows), size=self.num_val)])
        return self._limit(np.concatenate(picks) if picks else np.zeros(0, np.int64))

    def _own_count(self, n):
        if self._labels is None:
            return super()._own_count(n)
        total = len(np.unique(np.asarray(self._labels)[:n])) * self.num_val
        return total if self.num_samples is None else min(total, self.num_samples)


class Sampler(BuiltinSampler):
    """Mirrors `mindspore.dataset.Sampler`: the base of user samplers.

    A subclass defines `__iter__` yielding row indices; `self.dataset_size` holds the number of
    rows it samples from while it runs.
    """

    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("Sampler.__iter__ needs to be overridden by the subclass "
                                  "(yield the row indices).")

    def _ids(self, n, epoch, depth):
        self.dataset_size = n
        ids = np.fromiter((int(i) for i in self), dtype=np.int64)
        ids = self._limit(ids)
        bad = ids[(ids < 0) | (ids >= n)]
        if bad.size:
            raise RuntimeError(f"Invalid input, {type(self).__name__} yielded row index "
                               f"{int(bad[0])}, out of range for a dataset of {n} rows.")
        return ids

    def _own_count(self, n):
        return len(self._ids(n, 0, 0))


class IterSampler(Sampler):
    """Mirrors `mindspore.dataset.IterSampler`: any iterable of row indices as a sampler."""

    def __init__(self, sampler, num_samples=None):
        super().__init__(num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)


def select_sampler(num_samples, input_sampler, shuffle, num_shards, shard_id):
    """Mirrors MindSpore's `select_sampler`: the sampler a source's arguments describe."""
    if input_sampler is not None:
        if shuffle is not None or num_shards is not None or shard_id is not None \
                or num_samples is not None:
            raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: "
                             f"{num_samples}, num_shards: {num_shards}, shard_id: {shard_id}, "
                             f"shuffle: {shuffle}.")
        if isinstance(input_sampler, BuiltinSampler):
            return input_sampler
        if isinstance(input_sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(input_sampler)
        if hasattr(input_sampler, "__iter__"):
            return IterSampler(input_sampler)
        raise TypeError(f"Unsupported sampler object of type ({type(input_sampler)}).")
    if shuffle is None or shuffle:
        if num_shards is not None:
            return DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=num_samples)
        return RandomSampler(num_samples=num_samples)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=False, num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)
