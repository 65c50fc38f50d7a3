"""cellgrad.dataset: pipelines, orders under seeds, shards, epochs and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cellgrad as ms
from cellgrad import Tensor
from cellgrad import dataset as ds


def rows(dataset, **kwargs):
    return [[v.asnumpy().tolist() for v in r] for r in dataset.create_tuple_iterator(**kwargs)]


def column(dataset, i=0):
    return [int(r[i]) for r in dataset.create_tuple_iterator(output_numpy=True)]


@pytest.fixture(autouse=True)
def _seed():
    ms.set_seed(11)


def test_rows_are_tensors_with_the_arrays_dtypes():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    d = ds.NumpySlicesDataset((x, np.arange(3, dtype=np.int32)), column_names=["x", "y"],
                              shuffle=False)
    got = list(d.create_tuple_iterator())
    assert [type(v) for v in got[0]] == [Tensor, Tensor]
    assert got[2][0].dtype == ms.float32 and got[2][1].dtype == ms.int32
    np.testing.assert_array_equal(got[2][0].asnumpy(), [4.0, 5.0])
    assert list(d.create_dict_iterator())[1]["y"].asnumpy() == 1


def test_same_seed_same_order_and_each_epoch_of_an_iterator_reshuffles():
    d = ds.NumpySlicesDataset(np.arange(50), column_names=["v"])
    first = column(d)
    ms.set_seed(11)
    assert column(ds.NumpySlicesDataset(np.arange(50), column_names=["v"])) == first
    assert sorted(first) == list(range(50)) and first != list(range(50))
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1, e2 = ([int(r[0]) for r in it] for _ in range(2))
    assert sorted(e1) == sorted(e2) == list(range(50)) and e1 != e2
    with pytest.raises(RuntimeError, match="already read its num_epochs=2 epochs"):
        next(it)  # as MindSpore: a third epoch of a 2-epoch iterator is an error


def test_dataset_seed_then_global_seed_the_last_one_wins():
    ds.config.set_seed(3)
    try:
        a = column(ds.NumpySlicesDataset(np.arange(30), column_names=["v"]))
        assert column(ds.NumpySlicesDataset(np.arange(30), column_names=["v"])) == a
        ms.set_seed(99)  # as MindSpore 2.10: ms.set_seed sets the dataset seed too
        assert ds.config.get_seed() == 99
        assert column(ds.NumpySlicesDataset(np.arange(30), column_names=["v"])) != a
    finally:
        ds.config._state["seed"] = None


def test_shards_are_disjoint_equal_and_share_one_shuffled_order():
    parts = [column(ds.NumpySlicesDataset(np.arange(12), column_names=["v"], num_shards=3,
                                          shard_id=i)) for i in range(3)]
    assert [len(p) for p in parts] == [4, 4, 4]
    assert sorted(sum(parts, [])) == list(range(12))


def test_uneven_shards_pad_from_the_start_as_mindspore():
    parts = [column(ds.NumpySlicesDataset(np.arange(10), column_names=["v"], shuffle=False,
                                          num_shards=3, shard_id=i)) for i in range(3)]
    assert parts == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]


def test_batch_sizes_and_remainder():
    d = ds.NumpySlicesDataset(np.arange(10, dtype=np.float32), shuffle=False)
    assert [len(r[0]) for r in rows(d.batch(4))] == [4, 4, 2]
    assert d.batch(4).get_dataset_size() == 3
    assert d.batch(4, drop_remainder=True).get_dataset_size() == 2
    assert [len(r[0]) for r in rows(d.batch(4, drop_remainder=True))] == [4, 4]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), batch=st.integers(1, 12), drop=st.booleans())
def test_batches_cover_the_rows_in_order(n, batch, drop):
    d = ds.NumpySlicesDataset(np.arange(n), shuffle=False).batch(batch, drop_remainder=drop)
    got = [r[0].asnumpy().tolist() for r in d.create_tuple_iterator()]
    assert len(got) == d.get_dataset_size()
    flat = sum(got, [])
    assert flat == list(range(len(flat))) and len(flat) == (n // batch * batch if drop else n)


def test_map_list_of_operations_and_new_columns():
    d = ds.NumpySlicesDataset({"a": np.arange(3), "b": np.arange(3) * 2}, shuffle=False)
    assert rows(d.map([lambda v: v * 10, lambda v: v + 1], input_columns="b")) == \
        [[0, 1], [1, 21], [2, 41]]
    m = d.map(lambda v: (v, v * v), input_columns=["a"], output_columns=["a", "a2"])
    assert m.get_col_names() == ["a", "a2", "b"] and rows(m)[2] == [2, 4, 4]


def test_shuffle_buffer_keeps_every_row():
    got = column(ds.NumpySlicesDataset(np.arange(20), shuffle=False).shuffle(5))
    assert sorted(got) == list(range(20)) and got != list(range(20))


def test_repeat_take_skip_project_rename():
    d = ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4)}, shuffle=False)
    assert column(d.repeat(2)) == [0, 1, 2, 3] * 2 and d.repeat(2).get_dataset_size() == 8
    assert column(d.skip(1).take(2)) == [1, 2]
    assert d.project(["b"]).get_col_names() == ["b"]
    assert d.rename("a", "z").get_col_names() == ["z", "b"]
    # as MindSpore 2.10: an endless repeat reports its input's size
    assert d.repeat().get_repeat_count() == -1 and d.repeat().get_dataset_size() == 4


def test_split_by_fraction_and_by_count():
    a, b = ds.NumpySlicesDataset(np.arange(10), shuffle=False).split([0.7, 0.3], randomize=False)
    assert column(a) == list(range(7)) and column(b) == [7, 8, 9]
    a, b = ds.NumpySlicesDataset(np.arange(10), shuffle=False).split([5, 5])
    assert sorted(column(a) + column(b)) == list(range(10))


def test_generator_sources():
    def gen():
        for i in range(3):
            yield np.array([i, i], np.float32), i

    g = ds.GeneratorDataset(gen, column_names=["x", "y"])
    assert g.get_dataset_size() == 3 and rows(g)[1] == [[1.0, 1.0], 1]

    class Source:
        def __getitem__(self, i):
            return np.float32(i)

        def __len__(self):
            return 6

    g = ds.GeneratorDataset(Source(), column_names="v", shuffle=False, num_shards=2,
                            shard_id=1)
    assert column(g) == [1, 3, 5]


@pytest.mark.parametrize("make, error, message", [
    (lambda: ds.NumpySlicesDataset((np.zeros(3), np.zeros(4))), ValueError,
     "Data length in each column is not equal."),
    (lambda: ds.NumpySlicesDataset(np.zeros(3), num_shards=2), ValueError,
     "num_shards and shard_id need to be passed in together."),
    (lambda: ds.NumpySlicesDataset(np.zeros(3), num_shards=2, shard_id=2), ValueError,
     "shard_id should be less than num_shards."),
    (lambda: ds.NumpySlicesDataset(np.zeros(3)).batch(0), ValueError,
     r"Input batch_size is not within the required interval of \[1, 2147483647\]."),
    (lambda: ds.NumpySlicesDataset(np.zeros(3)).map(3), ValueError,
     "Parameter operations's element of method map should be a python function"),
    (lambda: list(ds.NumpySlicesDataset(np.zeros(3)).map(abs, input_columns="nope")),
     RuntimeError, "column 'nope' does not exist in the dataset; its columns are "
     r"\['column_0'\]"),
    (lambda: ds.NumpySlicesDataset(np.zeros(10)).split([0.5, 0.4]), ValueError,
     "sizes is a list of float, but the percentages do not sum up to 1."),
    (lambda: ds.GeneratorDataset(lambda: iter([1]), column_names="v", num_shards=2,
                                 shard_id=0), ValueError,
     "num_shards is not supported if source does not have attribute '__getitem__'."),
    (lambda: ds.NumpySlicesDataset(np.zeros(3)).shuffle(1), ValueError,
     r"Input buffer_size is not within the required interval of \[2, 2147483647\]."),
])
def test_bad_arguments_name_the_method_and_the_value(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_rows_of_different_shapes_cannot_be_batched():
    g = ds.GeneratorDataset(lambda: iter([np.zeros(2), np.zeros(3)]), column_names="v")
    with pytest.raises(RuntimeError, match=r"column 'v' have different shapes \[\(2,\), \(3,\)\]"):
        list(g.batch(2).create_tuple_iterator())


def test_a_row_with_the_wrong_number_of_values_names_the_row():
    g = ds.GeneratorDataset(lambda: iter([(1, 2), (1, 2, 3)]), column_names=["a", "b"])
    with pytest.raises(RuntimeError, match="row 1 has 3 values but column_names"):
        list(g.create_tuple_iterator())


def test_a_dataset_can_feed_two_pipelines():
    d = ds.NumpySlicesDataset(np.arange(4), shuffle=False)
    assert column(d.take(2)) == [0, 1] and column(d.skip(2)) == [2, 3]


def test_reachable_as_ms_dataset():
    assert ms.dataset.NumpySlicesDataset is ds.NumpySlicesDataset
