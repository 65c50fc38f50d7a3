"""Worker processes of `map`, `batch(per_batch_map=...)` and `GeneratorDataset`
(`python_multiprocessing=True`): real processes, results in order, errors and deaths raised in
the main process naming the operation and the row, nothing left behind."""

import gc
import multiprocessing
import os
import signal

import numpy as np
import pytest

from cellgrad import dataset as ds
from cellgrad_dataset import workers


def _existing(names):
    """Which of the shared-memory segments `names` still exist."""
    return {n for n in names if os.path.exists(f"/dev/shm/{n.lstrip('/')}")}


@pytest.fixture(autouse=True)
def _nothing_left_behind():
    first = len(workers.CREATED)
    yield
    gc.collect()
    assert workers.live_pools() == []
    assert multiprocessing.active_children() == []
    created = workers.CREATED[first:]
    assert _existing(created) == set()


def _numbers(n=100):
    return ds.NumpySlicesDataset({"x": np.arange(n)}, shuffle=False)


def _twice_with_pid(x):
    return x * 2, np.full((64, 64), x, np.float32), np.int64(os.getpid())


def test_map_runs_in_worker_processes_and_keeps_the_order():
    m = _numbers().map(_twice_with_pid, input_columns="x", output_columns=["y", "big", "pid"],
                       num_parallel_workers=2, python_multiprocessing=True)
    rows = list(m.create_tuple_iterator(output_numpy=True))
    assert [int(r[0]) for r in rows] == [2 * i for i in range(100)]
    assert all(r[1].shape == (64, 64) and r[1][0, 0] == i for i, r in enumerate(rows))
    pids = {int(r[2]) for r in rows}
    assert len(pids) == 2 and os.getpid() not in pids
    assert m.get_col_names() == ["y", "big", "pid"]


def test_results_larger_than_a_shared_memory_slot_go_through_the_pipe():
    big = _numbers(8).map(lambda x: np.full((1100, 1000), x, np.float32),  # ~4.2 MB a row
                          num_parallel_workers=2, python_multiprocessing=True, max_rowsize=1)
    got = [float(r[0][5, 5]) for r in big.create_tuple_iterator(output_numpy=True)]
    assert got == [float(i) for i in range(8)]


def test_without_shared_memory_everything_goes_through_the_pipe():
    ds.config.set_enable_shared_mem(False)
    try:
        m = _numbers(40).map(lambda x: x + 1, num_parallel_workers=2,
                             python_multiprocessing=True)
        assert [int(r[0]) for r in m.create_tuple_iterator(output_numpy=True)] == \
            list(range(1, 41))
    finally:
        ds.config.set_enable_shared_mem(True)


def _fails_on_37(x):
    if x == 37:
        raise ValueError("boom on purpose")
    return x


def test_an_exception_in_a_worker_is_raised_in_the_main_process_naming_op_and_row():
    m = _numbers().map(_fails_on_37, num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError, match=r"For 'map'.*operation _fails_on_37, row 37: "
                                           r"ValueError: boom on purpose"):
        list(m.create_tuple_iterator())


def _dies_on_50(x):
    if x == 50:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_a_worker_that_dies_is_reported_and_the_others_are_stopped():
    m = _numbers().map(_dies_on_50, num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError, match=r"For 'map', worker process \d+ died \(exit code "
                                           r"-9\) while processing rows 0\.\.63"):
        list(m.create_tuple_iterator())


def test_leaving_an_epoch_early_stops_the_workers():
    m = _numbers(1000).map(lambda x: x, num_parallel_workers=2, python_multiprocessing=True)
    it = m.create_tuple_iterator(output_numpy=True)
    assert int(next(it)[0]) == 0
    assert len(workers.live_pools()) == 1 and len(multiprocessing.active_children()) == 2
    it.stop()
    assert workers.live_pools() == []


def test_per_batch_map_in_worker_processes():
    def add_batch_num(xs, info):
        return [x + 1000 * info.get_batch_num() for x in xs]

    b = _numbers(10).batch(4, per_batch_map=add_batch_num, input_columns="x",
                           num_parallel_workers=2, python_multiprocessing=True)
    got = [r[0].tolist() for r in b.create_tuple_iterator(output_numpy=True)]
    assert got == [[0, 1, 2, 3], [1004, 1005, 1006, 1007], [2008, 2009]]


class _Squares:
    def __getitem__(self, i):
        if i == 13:
            raise KeyError("no row 13 today")
        return np.array([i * i]), np.int64(os.getpid())

    def __len__(self):
        return 40


def test_random_access_generator_read_by_workers_in_sampler_order():
    g = ds.GeneratorDataset(_Squares(), ["sq", "pid"], sampler=ds.SubsetSampler([3, 1, 2]),
                            num_parallel_workers=2)
    assert [int(r[0][0]) for r in g.create_tuple_iterator(output_numpy=True)] == [9, 1, 4]
    g = ds.GeneratorDataset(_Squares(), ["sq", "pid"], shuffle=False, num_parallel_workers=2)
    with pytest.raises(RuntimeError, match=r"'GeneratorDataset'.*row 13 \(source index 13\): "
                                           r"KeyError"):
        list(g.create_tuple_iterator())


def test_an_iterable_generator_with_workers_is_read_in_the_main_process():
    g = ds.GeneratorDataset(lambda: iter(range(5)), "v", num_parallel_workers=2)
    assert [int(r[0]) for r in g.create_tuple_iterator(output_numpy=True)] == [0, 1, 2, 3, 4]


def test_python_multiprocessing_false_stays_in_the_main_process():
    m = _numbers(5).map(lambda x: np.int64(os.getpid()), num_parallel_workers=2,
                        python_multiprocessing=False)
    assert {int(r[0]) for r in m.create_tuple_iterator(output_numpy=True)} == {os.getpid()}


_KILLED_PARENT = """
import os, signal, sys, numpy as np
import cellgrad.dataset as ds
m = ds.NumpySlicesDataset({"x": np.arange(10**6)}, shuffle=False).map(
    lambda x: np.int64(os.getpid()), num_parallel_workers=2, python_multiprocessing=True)
it = m.create_tuple_iterator(output_numpy=True)
pids = {int(next(it)[0]) for _ in range(200)}
from cellgrad_dataset import workers
print(" ".join(map(str, sorted(pids))), flush=True)
print(" ".join(workers.CREATED), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_workers_of_a_killed_main_process_exit_and_its_segments_are_unlinked():
    import subprocess
    import sys
    import time

    run = subprocess.run([sys.executable, "-c", _KILLED_PARENT], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == -signal.SIGKILL, run.stderr[-2000:]
    pid_line, shm_line = run.stdout.splitlines()
    pids, names = [int(p) for p in pid_line.split()], shm_line.split()
    assert len(pids) == 2 and len(names) == 2
    deadline = time.time() + 20
    while time.time() < deadline and (any(_alive(p) for p in pids) or _existing(names)):
        time.sleep(0.2)
    assert not any(_alive(p) for p in pids)
    assert _existing(names) == set()  # unlinked by multiprocessing's resource tracker


def test_python_multiprocessing_uses_processes_even_for_one_worker_and_the_config_default():
    one = _numbers(20).map(lambda x: np.int64(os.getpid()), num_parallel_workers=1,
                           python_multiprocessing=True)
    pids = {int(r[0]) for r in one.create_tuple_iterator(output_numpy=True)}
    assert len(pids) == 1 and os.getpid() not in pids  # as MindSpore 2.10
    default = _numbers(200).map(lambda x: np.int64(os.getpid()), python_multiprocessing=True)
    pids = {int(r[0]) for r in default.create_tuple_iterator(output_numpy=True)}
    assert len(pids) == ds.config.get_num_parallel_workers() and os.getpid() not in pids


def test_spawn_workers_run_picklable_operations_and_name_the_fix_for_the_others():
    ds.config.set_multiprocessing_start_method("spawn")
    try:
        m = _numbers(10).map(np.negative, num_parallel_workers=2, python_multiprocessing=True)
        assert [int(r[0]) for r in m.create_tuple_iterator(output_numpy=True)] == \
            [-i for i in range(10)]
        bad = _numbers(10).map(lambda x: x, num_parallel_workers=2, python_multiprocessing=True)
        with pytest.raises(TypeError, match=r"cannot be sent to a 'spawn' worker process .* "
                                            r"use a module-level function"):
            list(bad.create_tuple_iterator())
    finally:
        ds.config.set_multiprocessing_start_method("fork")


def test_random_transforms_in_workers_repeat_under_a_seed():
    from cellgrad.dataset import vision

    images = np.arange(200 * 4 * 4, dtype=np.uint8).reshape(200, 4, 4, 1)

    def run():
        d = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        d = d.map(vision.RandomCrop(2), num_parallel_workers=2, python_multiprocessing=True)
        return [r[0].tobytes() for r in d.create_tuple_iterator(output_numpy=True)]

    ds.config.set_seed(21)
    try:
        first = run()
        assert run() == first and len(set(first)) > 100
        ds.config.set_seed(22)
        assert run() != first
    finally:
        ds.config._state["seed"] = None
