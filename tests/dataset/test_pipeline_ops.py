"""Pipeline operations beyond the recorded programs: the block path gives what the row path
gives, per_batch_map, callable batch sizes, padding, buckets, zip/concat/filter, sync_wait,
resuming mid-epoch, iterators and dataset.config."""

import numpy as np
import pytest
from cellgrad.dataset import vision

import cellgrad as ms
from cellgrad import Tensor
from cellgrad import dataset as ds


def numpy_rows(dataset, **kwargs):
    return [[v.tolist() for v in r]
            for r in dataset.create_tuple_iterator(output_numpy=True, **kwargs)]


@pytest.fixture(autouse=True)
def _seed():
    ms.set_seed(3)


class _RowOnly:
    """The same operation without `_apply_batch`: forces the row path."""

    def __init__(self, op):
        self.op = op

    def __call__(self, *args):
        return self.op(*args)


@pytest.mark.parametrize("drop", [False, True])
def test_block_path_gives_exactly_the_row_path(drop):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (103, 6, 5, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, 103).astype(np.int32)

    def pipeline(wrap):
        d = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
        ops = [vision.Rescale(1 / 255, -0.5), vision.Normalize([0.1, 0.2, 0.3], [1, 2, 3])]
        d = d.map([wrap(op) for op in ops], input_columns="image")
        return d.project(["label", "image"]).rename("image", "x").batch(16, drop)

    fast, slow = pipeline(lambda op: op), pipeline(_RowOnly)
    assert fast._block_capable() and not slow._block_capable()
    a = list(fast.create_tuple_iterator(output_numpy=True))
    b = list(slow.create_tuple_iterator(output_numpy=True))
    assert len(a) == len(b) == (6 if drop else 7) == fast.get_dataset_size()
    for (la, xa), (lb, xb) in zip(a, b):
        assert xa.dtype == xb.dtype == np.float32 and xa.shape == xb.shape
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(la, lb)
    assert fast.get_col_names() == ["label", "x"]


def test_block_path_batches_do_not_alias_the_source_arrays():
    x = np.arange(8, dtype=np.float32)
    batch = next(ds.NumpySlicesDataset(x, shuffle=False).batch(4).create_tuple_iterator(
        output_numpy=True))[0]
    batch[0] = 100
    assert x[0] == 0
    tensor = next(ds.NumpySlicesDataset(x, shuffle=False).batch(4).create_tuple_iterator())[0]
    x[1] = 50  # the Tensor holds a copy, not a view of the user's array
    assert tensor.asnumpy().tolist() == [0, 1, 2, 3]


def test_python_values_become_int64_float64_and_rows_keep_numpy_dtypes():
    def gen():
        yield 1, 2.5, [1, 2], True, np.float16(3)

    g = ds.GeneratorDataset(gen, ["i", "f", "l", "b", "h"])
    assert [str(t) for t in g.output_types()] == ["int64", "float64", "int64", "bool",
                                                  "float16"]
    assert g.output_shapes() == [[], [], [2], [], []]
    row = next(g.create_tuple_iterator())
    assert isinstance(row, list) and all(isinstance(v, Tensor) for v in row)
    assert row[0].dtype == ms.int64 and row[1].dtype == ms.float64


def test_per_batch_map_with_new_columns_and_callable_batch_size():
    d = ds.NumpySlicesDataset({"x": np.arange(10), "y": np.arange(10) * 2}, shuffle=False)

    def sums(xs, info):
        return xs, [np.array(x.sum() + info.get_batch_num()) for x in [np.stack(xs)] * len(xs)]

    b = d.batch(4, per_batch_map=sums, input_columns=["x"], output_columns=["x", "s"])
    assert b.get_col_names() == ["x", "s", "y"]
    assert numpy_rows(b)[1] == [[4, 5, 6, 7], [23, 23, 23, 23], [8, 10, 12, 14]]

    grow = d.batch(lambda info: info.get_batch_num() + 1)
    assert [len(r[0]) for r in numpy_rows(grow)] == [1, 2, 3, 4]
    assert grow.get_dataset_size() == 4


def test_per_batch_map_errors_name_the_batch():
    d = ds.NumpySlicesDataset({"x": np.arange(6)}, shuffle=False)

    def bad(xs, info):
        if info.get_batch_num() == 1:
            raise KeyError("nope")
        return (xs,)

    with pytest.raises(RuntimeError, match=r"per_batch_map bad failed on batch 1: KeyError"):
        numpy_rows(d.batch(3, per_batch_map=bad))
    with pytest.raises(ValueError, match="input_columns and output_columns can only be used "
                                         "with per_batch_map"):
        d.batch(3, input_columns=["x"])


def test_padded_batch_and_bucket_batch_by_length():
    def gen():
        for n in (1, 3, 2, 5):
            yield (np.arange(n, dtype=np.int32) + 1,)

    g = ds.GeneratorDataset(gen, ["t"], shuffle=False)
    assert numpy_rows(g.padded_batch(2, pad_info={"t": ([None], -1)})) == \
        [[[[1, -1, -1], [1, 2, 3]]], [[[1, 2, -1, -1, -1], [1, 2, 3, 4, 5]]]]
    with pytest.raises(RuntimeError, match=r"larger than the pad shape \[2\]"):
        numpy_rows(g.padded_batch(2, pad_info={"t": ([2], 0)}))
    buckets = g.bucket_batch_by_length(["t"], [3], [2, 1], pad_info={"t": ([None], 0)},
                                       pad_to_bucket_boundary=True)
    with pytest.raises(RuntimeError, match="requested to pad to bucket boundary failed"):
        numpy_rows(buckets)  # a row of length 3 falls in the last bucket
    ok = g.bucket_batch_by_length(["t"], [6], [2, 1], pad_info={"t": ([None], 0)},
                                  pad_to_bucket_boundary=True)
    assert numpy_rows(ok) == [[[[1, 0, 0, 0, 0], [1, 2, 3, 0, 0]]],
                              [[[1, 2, 0, 0, 0], [1, 2, 3, 4, 5]]]]


def test_zip_concat_filter_apply_and_their_sizes():
    a = ds.NumpySlicesDataset({"a": np.arange(5)}, shuffle=False)
    b = ds.NumpySlicesDataset({"b": np.arange(3) * 10}, shuffle=False)
    z = ds.zip((a, b))
    assert z.get_col_names() == ["a", "b"] and z.get_dataset_size() == 3
    assert numpy_rows(z)[2] == [2, 20]
    with pytest.raises(RuntimeError, match="duplicate column a"):
        a.zip(a).get_col_names()
    c = a + ds.NumpySlicesDataset({"a": np.arange(2) + 100}, shuffle=False)
    assert [r[0] for r in numpy_rows(c)] == [0, 1, 2, 3, 4, 100, 101] and len(c) == 7
    with pytest.raises(RuntimeError, match="column names of the datasets must be the same"):
        numpy_rows(a.concat(b))
    f = a.filter(lambda v: v % 2 == 0)
    assert [r[0] for r in numpy_rows(f)] == [0, 2, 4] and f.get_dataset_size() == 3
    assert a.apply(lambda d: d.take(2)).get_dataset_size() == 2
    with pytest.raises(TypeError, match="apply_func must return a dataset."):
        a.apply(lambda d: 3)


def test_map_error_in_the_main_process_names_the_operation_and_row():
    def fragile(v):
        return 1 // (int(v) - 3)

    m = ds.NumpySlicesDataset({"v": np.arange(5)}, shuffle=False).map(fragile)
    with pytest.raises(RuntimeError, match=r"operation fragile, row 3: ZeroDivisionError"):
        numpy_rows(m)


def test_sync_wait_needs_sync_update_between_steps():
    calls = []
    d = ds.NumpySlicesDataset({"v": np.arange(6)}, shuffle=False)
    d = d.sync_wait("policy", num_batch=2, callback=calls.append).batch(1)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=1)
    got = [int(next(it)[0][0]), int(next(it)[0][0])]
    with pytest.raises(RuntimeError, match=r"waits for sync_update\('policy'\) before row 2"):
        next(it)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=1)
    for step in range(3):
        got += [int(next(it)[0][0]) for _ in range(2)]
        d.sync_update("policy", data={"step": step})
    assert got[2:] == [0, 1, 2, 3, 4, 5] and calls == [{"step": 0}, {"step": 1}, {"step": 2}]
    with pytest.raises(RuntimeError, match="Condition name not found"):
        d.sync_update("other")


def test_set_init_step_resumes_mid_epoch_and_counts_epochs():
    d = ds.NumpySlicesDataset({"v": np.arange(10)}, shuffle=False).batch(3)
    d.set_init_step(5)  # 4 batches an epoch: epoch 1, after its first batch
    it = d.create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert [r[0].tolist() for r in it] == [[3, 4, 5], [6, 7, 8], [9]]
    assert len([r for r in it]) == 4
    with pytest.raises(RuntimeError, match="num_epochs=3"):
        next(it)
    assert len(list(d.create_tuple_iterator(num_epochs=1))) == 4  # init step used once
    with pytest.raises(ValueError, match=r"Input init_step is not within the required"):
        d.set_init_step(-1)


def test_shuffled_resume_sees_the_rest_of_the_same_epoch_order():
    d = ds.NumpySlicesDataset({"v": np.arange(20)}).shuffle(4)
    full = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    d.set_init_step(7)
    rest = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert rest == full[7:]


def test_iterators_output_numpy_do_copy_columns_and_dicts():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    d = ds.NumpySlicesDataset({"x": x, "y": np.arange(3)}, shuffle=False)
    row = next(d.create_dict_iterator(output_numpy=True))
    assert sorted(row) == ["x", "y"] and type(row["x"]) is type(row["y"]) is np.ndarray
    assert row["y"].shape == ()  # a 0-d array, not a numpy scalar, as MindSpore
    shared = next(d.create_tuple_iterator(output_numpy=True))[0]
    copied = next(d.create_tuple_iterator(output_numpy=True, do_copy=True))[0]
    assert shared.tolist() == copied.tolist() == [0, 1]
    assert not np.shares_memory(shared, x) and not np.shares_memory(copied, x)
    batch = next(d.batch(2).create_tuple_iterator())[0]  # a Tensor over the batch's array
    assert batch.shape == (2, 2) and batch.asnumpy().tolist() == [[0, 1], [2, 3]]
    only_y = d.create_tuple_iterator(columns=["y"], output_numpy=True)
    assert only_y.get_col_names() == ["y"] and [r[0].tolist() for r in only_y] == [0, 1, 2]
    with pytest.raises(TypeError, match="Argument output_numpy with value 1"):
        d.create_tuple_iterator(output_numpy=1)
    assert [type(r).__name__ for r in d] == ["list"] * 3


def test_config_setters_getters_and_their_effects():
    assert ds.config.get_prefetch_size() == 16 and ds.config.get_enable_shared_mem() is True
    ds.config.set_seed(8)
    try:
        assert ds.config.get_seed() == 8
        first = [int(r[0]) for r in ds.NumpySlicesDataset({"v": np.arange(30)})
                 .create_tuple_iterator(output_numpy=True)]
        again = [int(r[0]) for r in ds.NumpySlicesDataset({"v": np.arange(30)})
                 .create_tuple_iterator(output_numpy=True)]
        assert first == again != list(range(30))
    finally:
        ds.config._state["seed"] = None
    ds.config.set_num_parallel_workers(1)
    try:
        assert ds.config.get_num_parallel_workers() == 1
    finally:
        ds.config._state["num_parallel_workers"] = None
    with pytest.raises(ValueError, match=r"seed given is not within the required range"):
        ds.config.set_seed(-1)
    with pytest.raises(TypeError, match="enable must be of type bool."):
        ds.config.set_enable_shared_mem(1)
    with pytest.raises(ValueError, match=r"Input start_method is not within the valid set"):
        ds.config.set_multiprocessing_start_method("forkserver")
    with pytest.raises(TypeError, match="size isn't of type int."):
        ds.config.set_prefetch_size("4")


def test_shuffle_buffer_draws_as_mindspore():
    # MindSpore's shuffle buffer: output k is drawn from the first buffer_size + k rows (seen
    # with MindSpore 2.10 over 40 seeds: the first of shuffle(2) is 0 or 1, the second 0..2)
    for seed in range(30):
        ds.config.set_seed(seed + 1)
        got = [int(r[0]) for r in ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False)
               .shuffle(2).create_tuple_iterator(output_numpy=True)]
        assert sorted(got) == list(range(10))
        assert all(v < 2 + k for k, v in enumerate(got))
    ds.config._state["seed"] = None
    it = ds.NumpySlicesDataset({"x": np.arange(30)}, shuffle=False).shuffle(30) \
        .create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [int(r[0]) for r in it] != [int(r[0]) for r in it]  # a new order each epoch


def test_flat_map_concatenates_the_datasets_func_returns():
    d = ds.NumpySlicesDataset([[0, 1], [2, 3]], shuffle=False)
    f = d.flat_map(lambda a: ds.NumpySlicesDataset(a, shuffle=False).repeat(2))
    assert [r[0] for r in numpy_rows(f)] == [0, 1, 0, 1, 2, 3, 2, 3]
    assert f.get_col_names() == ["column_0"] and f.get_dataset_size() == 8
    with pytest.raises(TypeError, match="func must be a function."):
        d.flat_map(3)
    with pytest.raises(TypeError, match="flat_map must return a Dataset object."):
        d.flat_map(lambda a: 3)


def test_generator_column_types_are_checked_not_cast():
    ok = ds.GeneratorDataset(lambda: iter([(np.float32(1), np.int32(2))]), ["a", "b"],
                             column_types=[ms.float32, ms.int32])
    assert [str(t) for t in ok.output_types()] == ["float32", "int32"]
    bad = ds.GeneratorDataset(lambda: iter([(1, 2.5)]), ["a", "b"],
                              column_types=[ms.float32, ms.int32])
    with pytest.raises(RuntimeError, match=r"should be same with specified column_types, but "
                                           r"the type of returned data: int64 \(row 0\)"):
        numpy_rows(bad)


def test_operations_get_arrays_of_their_own():
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    seen = []

    def inplace(v, s):
        seen.append((type(v), type(s), s.shape))
        v += 100  # writes into its input
        return v, s

    d = ds.NumpySlicesDataset({"v": x, "s": np.arange(2)}, shuffle=False)
    d = d.map(inplace, input_columns=["v", "s"])
    assert [r[0] for r in numpy_rows(d)] == [[100, 101], [102, 103]]
    assert x.tolist() == [[0, 1], [2, 3]] and seen[0] == (np.ndarray, np.ndarray, ())
    source = [np.zeros(2)]
    g = ds.GeneratorDataset(lambda: iter([(source[0],)]), ["v"]).map(inplace_one)
    numpy_rows(g)
    assert source[0].tolist() == [0, 0]


def inplace_one(v):
    v += 1
    return v


def test_the_last_of_ms_set_seed_and_dataset_set_seed_wins():
    ms.set_seed(1)
    ds.config.set_seed(2)
    assert ds.config.get_seed() == 2
    ms.set_seed(9)  # MindSpore's set_seed sets the dataset seed too
    assert ds.config.get_seed() == 9
    ds.config.set_seed(4)
    assert ds.config.get_seed() == 4
    ds.config._state["seed"] = None


def test_config_load_reads_mindspores_keys(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"seed": 17, "opConnectorSize": 8, "numParallelWorkers": 1, "other": 3}')
    before = ds.config.get_prefetch_size()
    try:
        ds.config.load(str(path))
        assert ds.config.get_seed() == 17 and ds.config.get_prefetch_size() == 8
        assert ds.config.get_num_parallel_workers() == 1
    finally:
        ds.config._state.update(seed=None, num_parallel_workers=None, prefetch_size=before)
    with pytest.raises(RuntimeError, match="cannot read the config file"):
        ds.config.load(str(tmp_path / "missing.json"))
