"""Two processes under the MPI wheel's `mpirun`: collectives, data-parallel training, failures.

Each test launches one program of `mpi_programs/` (which checks its results against numpy or
against one process on the whole batch) and looks at what the job printed and returned.
"""

import re
import subprocess
import sys

import pytest
from mpi_launch import require_mpi, run, run_ok


@pytest.fixture(autouse=True)
def _mpi():
    require_mpi()


def _oks(stdout, line, n=2):
    assert stdout.count(line) == n, stdout


def test_every_collective_and_its_gradient_match_numpy():
    out = run_ok("collectives.py")
    for what in ("AllReduce sum", "AllReduce max", "AllReduce min", "AllReduce prod",
                 "AllGather", "ReduceScatter", "Broadcast", "comm_func", "dtypes", "group"):
        _oks(out, f"ok {what}")


# the gradient buckets' two transports: a shared-memory window on one host, MPI's Iallreduce
SHM = {"shared memory": {"CELLGRAD_SHM_REDUCE": "1"}, "Iallreduce": {"CELLGRAD_SHM_REDUCE": "0"}}


@pytest.mark.parametrize("transport", sorted(SHM))
@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
@pytest.mark.parametrize("network", ["mlp", "syncbn", "syncbn2d"])
def test_data_parallel_step_equals_one_process_on_the_whole_batch(optimizer, network,
                                                                  transport):
    out = run_ok("data_parallel.py", optimizer, network, env=SHM[transport])
    _oks(out, f"ok {optimizer} {network}")


@pytest.mark.parametrize("transport", sorted(SHM))
def test_data_parallel_with_one_bucket_per_parameter(transport):
    _oks(run_ok("data_parallel.py", "adam", "syncbn", "1e-6", env=SHM[transport]),
         "ok adam syncbn")


def test_all_reduce_overlaps_the_backward_in_place():
    out = run_ok("overlap.py", env=SHM["Iallreduce"])
    for what in ("overlap", "in place", "hook order", "manual"):
        _oks(out, f"ok {what}")


def test_buckets_of_one_host_reduce_in_shared_memory_in_place():
    out = run_ok("overlap.py", env=SHM["shared memory"])
    for what in ("shared", "in place", "hook order", "manual"):
        _oks(out, f"ok {what}")


def test_model_train_sharded_logs_and_checkpoints_from_rank_0(tmp_path):
    pytest.importorskip("cellgrad_checkpoint", reason="ModelCheckpoint needs it")
    out = run_ok("model_train.py", tmp_path)
    # LossMonitor(2): 2 epochs x 4 steps, printed once (by rank 0), not once per process
    logged = re.findall(r"^epoch: (\d+) step: (\d+), loss is \d", out, re.MULTILINE)
    assert logged == [("1", "2"), ("1", "4"), ("2", "2"), ("2", "4")], out
    for what in ("trained like one process", "loaded identical parameters",
                 "parameter_broadcast"):
        assert out.count(what) == 2, out


def test_a_process_that_raises_ends_the_job_with_its_error():
    done, seconds = run("failure.py", "raise", comm_timeout=60)
    assert done.returncode != 0
    assert seconds < 20, seconds  # not the 60 s timeout: the others are told at once
    err = done.stderr
    assert "ValueError: boom in the forward of step 2" in err
    assert ("RemoteProcessError: For 'DistributedGradReducer' on group 'mccl_world_group': "
            "process 1 of 2 failed: ValueError: boom in the forward of step 2") in err
    assert "aborting the job (MPI_Abort)" in err
    assert "finished step 2" not in done.stdout


@pytest.mark.slow
def test_a_stuck_process_makes_the_others_time_out():
    done, seconds = run("failure.py", "stall", comm_timeout=2)
    assert done.returncode != 0
    assert seconds < 30, seconds  # the stuck process sleeps 60 s: it was aborted
    assert ("CommTimeoutError: For 'DistributedGradReducer', the collective on group "
            "'mccl_world_group' (2 processes, this one is rank 0) did not complete within "
            "2 s") in done.stderr
    assert "process 0 of 2 stops on CommTimeoutError; aborting the job" in done.stderr


def _digits(tmp_path, n):
    args = ["--epochs", 3, "--limit", 400, "--no-plots", "--out", tmp_path / f"out{n}"]
    if n == 1:
        done = subprocess.run([sys.executable, "-m", "cellgrad_digits", *map(str, args)],
                              capture_output=True, text=True, timeout=120)
    else:
        done, _ = run(["-m", "cellgrad_digits"], *args, n=n, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_digits_on_two_processes_reaches_the_accuracy_of_one(tmp_path):
    pytest.importorskip("cellgrad_digits", reason="the digits example is not installed")
    pytest.importorskip("sklearn")
    one, two = _digits(tmp_path, 1), _digits(tmp_path, 2)
    assert "2 processes" in two and two.count("digits: ") == 1  # rank 0 reports, once
    assert "(identical)" in two  # rank 0's checkpoint reloads to the same accuracy
    accuracy = [float(re.search(r"test accuracy: ([\d.]+)", out).group(1)) for out in (one, two)]
    # 3 epochs on 400 images, 80 test images: a sanity floor; the claim is two against one
    assert accuracy[0] >= 0.8 and abs(accuracy[0] - accuracy[1]) <= 0.03, accuracy
