"""Samplers (`sampler=` on sources): the rows each one draws, shards as MindSpore assigns
them, chained samplers, user samplers, orders under a seed, and bad arguments."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import dataset as ds


def rows(sampler=None, n=10, **kwargs):
    d = ds.NumpySlicesDataset({"x": np.arange(n)}, sampler=sampler, **kwargs)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]


@pytest.fixture(autouse=True)
def _seed():
    ms.set_seed(5)


@pytest.mark.parametrize("n, shards, expected", [
    # recorded from MindSpore 2.10 (ms_programs/samplers_sources.py)
    (10, 3, [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]),
    (10, 4, [[0, 4, 8], [1, 5, 9], [2, 6, 0], [3, 7, 1]]),
    (3, 4, [[0], [1], [2], [0]]),
    (11, 2, [[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9, 0]]),
])
def test_distributed_sampler_assigns_rows_as_mindspore(n, shards, expected):
    got = [rows(ds.DistributedSampler(shards, i, shuffle=False), n) for i in range(shards)]
    assert got == expected
    assert [rows(None, n, num_shards=shards, shard_id=i, shuffle=False)
            for i in range(shards)] == expected


def test_distributed_sampler_offset_and_num_samples():
    assert [rows(ds.DistributedSampler(3, i, shuffle=False, offset=1)) for i in range(3)] == \
        [[2, 5, 8], [0, 3, 6, 9], [1, 4, 7]]
    assert [rows(ds.DistributedSampler(3, i, shuffle=False, num_samples=2))
            for i in range(3)] == [[0, 3], [1, 4], [2, 5]]


def test_shuffled_shards_partition_one_permutation_that_changes_each_epoch():
    parts = [rows(ds.DistributedSampler(4, i), 12) for i in range(4)]
    assert sorted(sum(parts, [])) == list(range(12)) and sum(parts, []) != list(range(12))
    d = ds.NumpySlicesDataset({"x": np.arange(12)}, sampler=ds.DistributedSampler(4, 1))
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1, e2 = ([int(r[0]) for r in it] for _ in range(2))
    assert e1 == parts[1] and e1 != e2


def test_sequential_subset_random_weighted_samplers():
    assert rows(ds.SequentialSampler(start_index=3, num_samples=4)) == [3, 4, 5, 6]
    assert rows(ds.SubsetSampler([5, 1, 8, 1])) == [5, 1, 8, 1]
    assert rows([4, 2, 2]) == [4, 2, 2]  # a list is a SubsetSampler
    got = rows(ds.SubsetRandomSampler([5, 1, 8]))
    assert sorted(got) == [1, 5, 8]
    perm = rows(ds.RandomSampler())
    assert sorted(perm) == list(range(10)) and perm != list(range(10))
    drawn = rows(ds.RandomSampler(replacement=True, num_samples=25))
    assert len(drawn) == 10 and set(drawn) <= set(range(10))  # at most n draws, as MindSpore
    weighted = rows(ds.WeightedRandomSampler([0, 0, 1, 0, 3, 0, 0, 0, 0, 0], 60))
    assert len(weighted) == 60 and set(weighted) == {2, 4} and weighted.count(4) > 30


def test_sizes_come_from_the_sampler_without_reading_rows():
    d = ds.NumpySlicesDataset({"x": np.arange(10)}, sampler=ds.SequentialSampler(3, 4))
    assert d.get_dataset_size() == 4
    for sampler, size in ((ds.DistributedSampler(3, 2, offset=1), 3),
                          (ds.WeightedRandomSampler([1] * 10, 7), 7)):
        assert ds.NumpySlicesDataset({"x": np.arange(10)}, sampler=sampler).get_dataset_size() \
            == size


def test_same_seed_same_order():
    first = rows(ds.RandomSampler())
    ms.set_seed(5)
    assert rows(ds.RandomSampler()) == first
    ds.config.set_seed(6)
    try:
        assert rows(ds.RandomSampler()) != first
    finally:
        ds.config._state["seed"] = None


def test_a_child_sampler_picks_the_rows_its_parent_samples_from():
    parent = ds.SequentialSampler(1, 5)
    parent.add_child(ds.SequentialSampler(0, 3))
    assert rows(parent) == [1, 2]
    shard = ds.DistributedSampler(2, 0, shuffle=False)
    shard.add_child(ds.SequentialSampler(2, 6))
    assert rows(shard) == [2, 4, 6]
    assert shard.get_child() is not None and shard.get_num_samples() is None
    with pytest.raises(TypeError, match="Input to add_child must be a sampler"):
        shard.add_child([1, 2])


def test_user_sampler_sees_the_dataset_size():
    class EveryThirdBackwards(ds.Sampler):
        def __iter__(self):
            return iter(range(self.dataset_size - 1, -1, -3))

    assert rows(EveryThirdBackwards()) == [9, 6, 3, 0]
    assert rows(EveryThirdBackwards(num_samples=2)) == [9, 6]
    assert ds.NumpySlicesDataset({"x": np.arange(10)},
                                 sampler=EveryThirdBackwards()).get_dataset_size() == 4

    class OutOfRange(ds.Sampler):
        def __iter__(self):
            return iter([0, 10])

    with pytest.raises(RuntimeError, match="yielded row index 10, out of range for a dataset "
                                           "of 10 rows"):
        rows(OutOfRange())


def test_split_of_a_source_gives_disjoint_parts_the_same_every_epoch():
    a, b = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).split([0.3, 0.7])
    ra, rb = ([int(r[0]) for r in p.create_tuple_iterator(output_numpy=True)] for p in (a, b))
    assert len(ra) == 3 and len(rb) == 7 and sorted(ra + rb) == list(range(10))
    it = a.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == ra == [int(r[0]) for r in it]
    with pytest.raises(RuntimeError, match="Dataset should not be sharded before split."):
        ds.NumpySlicesDataset({"x": np.arange(10)}, num_shards=2, shard_id=0).split([5, 5])


@pytest.mark.parametrize("make, error, message", [
    (lambda: rows(ds.SequentialSampler(), shuffle=True), ValueError,
     "Conflicting arguments during sampler assignments. num_samples: None, num_shards: None, "
     "shard_id: None, shuffle: True."),
    (lambda: rows(ds.SequentialSampler(), num_shards=2, shard_id=0), ValueError,
     "Conflicting arguments during sampler assignments"),
    (lambda: ds.SubsetSampler([1.5]), TypeError,
     r"SubsetSampler: Type of indices element must be int, but got list\[0\]: 1.5"),
    (lambda: ds.RandomSampler(num_samples=-1), ValueError,
     r"num_samples exceeds the boundary between 0 and 9223372036854775807\(INT64_MAX\)!"),
    (lambda: rows(ds.SubsetSampler([12])), RuntimeError,
     "SubsetSampler index 12 is out of range for a dataset of 10 rows"),
    (lambda: rows(ds.PKSampler(2)), ValueError, "GeneratorDataset doesn't support PKSampler."),
    (lambda: ds.DistributedSampler(2, 2), ValueError, r"shard_id must be in range \[0, 2\)"),
    (lambda: ds.WeightedRandomSampler([-1.0]), ValueError,
     "weights should not contain negative numbers."),
    (lambda: ds.PKSampler(0), ValueError, "num_val should be a positive integer value"),
])
def test_bad_sampler_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_pk_sampler_on_a_source_that_knows_its_classes():
    from cellgrad_dataset.sources import NumpySlicesDataset

    class Labelled(NumpySlicesDataset):
        def _class_labels(self):
            return self._columns[1]

    def draw(sampler):
        d = Labelled({"x": np.arange(9), "label": np.array([0, 1, 2, 0, 1, 2, 0, 1, 1])},
                     sampler=sampler)
        return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]

    labels = [0, 1, 2, 0, 1, 2, 0, 1, 1]
    got = draw(ds.PKSampler(2))  # MindSpore draws within a class with replacement
    assert len(got) == 6 and [labels[i] for i in got] == [0, 0, 1, 1, 2, 2]
    assert [labels[i] for i in draw(ds.PKSampler(3, num_samples=4))] == [0, 0, 0, 1]
    classes = [labels[i] for i in draw(ds.PKSampler(2, shuffle=True))]
    assert sorted(classes) == [0, 0, 1, 1, 2, 2] and classes[0] == classes[1]
