"""Two-process jobs whose processes disagree or leave: each ends in seconds, saying why.

Processes that built different networks fail on every process, before any gradient is summed,
with the first difference; a process that leaves (sys.exit, os._exit) ends the job at once
(not at CELLGRAD_COMM_TIMEOUT, set to 60 s here), naming it. Both gradient transports.
"""

import time

import pytest
from mpi_launch import require_mpi, run

pytestmark = pytest.mark.stress  # the stress tier: tox -e stress

SHM = {"shared memory": {"CELLGRAD_SHM_REDUCE": "1"}, "Iallreduce": {"CELLGRAD_SHM_REDUCE": "0"}}
HINT = "every process of a data-parallel job must build the same network"
DIFFERENCE = {
    "shape": "parameter 0 is 'fc1.weight' float32 (3, 4) on process 0 but 'fc1.weight' "
             "float32 (4, 3) on process 1",
    "count": "parameter 0 is 'fc1.weight' float32 (3, 4) on process 0 but 'fc1.weight' "
             "float32 (6, 4) on process 1",
    "layer": "process 1 has 6 parameters, process 0 4; parameter 4 is 'extra.weight' float32 "
             "(2, 2) on process 1 and missing on process 0",
}


@pytest.fixture(autouse=True)
def _mpi():
    require_mpi()


def _job(mode, transport):
    done, seconds = run("departures.py", mode, comm_timeout=60, timeout=60, env=SHM[transport])
    assert done.returncode != 0, done.stdout + done.stderr
    assert seconds < 20, (seconds, done.stderr)  # not the 60 s timeout
    return done


@pytest.mark.parametrize("transport", sorted(SHM))
@pytest.mark.parametrize("mode", sorted(DIFFERENCE))
def test_different_networks_fail_on_every_process_naming_the_first_difference(mode,
                                                                             transport):
    done = _job(mode, transport)
    message = (f"LayoutMismatchError: For 'DistributedGradReducer', the processes' networks "
               f"differ: {DIFFERENCE[mode]}: {HINT}")
    assert done.stderr.count(message) == 2, done.stderr  # raised by both processes
    for rank in (0, 1):
        assert f"process {rank} of 2 stops on LayoutMismatchError" in done.stderr
    assert "finished step" not in done.stdout  # no step ran: nothing was summed
    assert "smaller than requested" not in done.stderr


@pytest.mark.parametrize("transport", sorted(SHM))
def test_a_process_that_exits_quietly_ends_the_job_in_seconds(transport):
    done = _job("exit", transport)
    assert ("RemoteProcessError: For 'DistributedGradReducer' on group 'mccl_world_group': "
            "process 1 of 2 left the job while this one (process 0) waited for it: its program "
            "ended without an error (sys.exit() or the end of its script)") in done.stderr
    assert "process 0 finished step 2" not in done.stdout


def test_os_exit_names_the_process_and_its_status():
    done = _job("_exit", "Iallreduce")
    assert done.returncode in (1, 3)
    assert ("cellgrad.communication: process 1 of 2 ends with os._exit(3) while the job runs"
            in done.stderr), done.stderr
    assert "process 0 finished step 2" not in done.stdout


def test_a_job_that_ends_normally_is_not_taken_for_a_departure():
    done, _ = run("departures.py", "none", comm_timeout=60, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("finished step 3") == 2
    assert "left the job" not in done.stderr


def test_a_vanished_process_is_seen_from_its_pid():
    import subprocess
    import sys

    from cellgrad_distributed import watchdog

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert watchdog._pid_ended(child.pid) == ""  # running
        child.kill()
        deadline = time.monotonic() + 10
        while watchdog._pid_ended(child.pid) == "":  # a zombie until reaped: its signal
            assert time.monotonic() < deadline
        assert watchdog._pid_ended(child.pid) == "was killed by signal 9"
    finally:
        child.kill()
        child.wait()
    assert watchdog._pid_ended(child.pid) == "ended"  # reaped: gone


def test_a_different_bucket_plan_is_named():
    from cellgrad_distributed import layout

    params = [("w", (2, 2), "float32")]
    mine = {"parameters": params, "buckets": [("float32", [0])], "cap": 1048576}
    theirs = {"parameters": params, "buckets": [("float32", []), ("float32", [0])], "cap": 64}
    assert layout.first_difference([mine, theirs]) == (
        "the gradient buckets differ: 1 bucket(s) of at most 1048576 bytes on process 0 but 2 "
        "of at most 64 bytes on process 1: set the same comm_fusion in "
        "set_auto_parallel_context on every process.")
    same_plan = dict(theirs, buckets=mine["buckets"])  # another cap, the same plan: fine
    assert layout.digest(same_plan) == layout.digest(mine) != layout.digest(theirs)
    other_dtype = dict(mine, parameters=[("w", (2, 2), "float64")])
    assert layout.digest(other_dtype) != layout.digest(mine)
