"""No process waits forever: timed waits, failure notices between processes, abort on error.

Every collective is started non-blocking and waited for here, polling its MPI requests:

- a wait longer than `CELLGRAD_COMM_TIMEOUT` seconds (default 300) raises `CommTimeoutError`;
- a process that dies of an uncaught exception first tells the others (a small message on a
  communicator of its own), so the ones waiting raise `RemoteProcessError` naming it and its
  error, then it calls `MPI_Abort`, which makes the launcher end the whole job.

An uncaught exception in any process of a multi-process job therefore ends the job in about a
second, each process printing what it knows, instead of leaving the others blocked.
"""

from __future__ import annotations

import os
import sys
import time
import traceback

TIMEOUT_ENV = "CELLGRAD_COMM_TIMEOUT"
DEFAULT_TIMEOUT = 300.0
_NOTICE_TAG = 7  # the failure notice, on the notice communicator
_SPIN = 2e-3  # seconds of busy polling before sleeping between polls
_GRACE = 10.0  # at most, seconds a failing process leaves the others to report before it
# aborts: a notified process reports and aborts the job itself at once, so this bounds only a
# process too loaded to notice sooner (1 s lost the report on a busy 2-core CI machine).

_FORWARD = 0.3  # seconds left to the launcher to forward this process's last output

_notices = None  # communicator for failure notices (a duplicate of the world)
_installed = False


class CommTimeoutError(RuntimeError):
    """A collective did not complete within the timeout (`CELLGRAD_COMM_TIMEOUT`)."""


class RemoteProcessError(RuntimeError):
    """Another process of the job failed while this one waited for it."""


def timeout() -> float:
    """The collective timeout in seconds, from `CELLGRAD_COMM_TIMEOUT`."""
    value = os.environ.get(TIMEOUT_ENV)
    if not value:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"{TIMEOUT_ENV} must be a number of seconds, but got {value!r}.") from None
    if not seconds > 0:
        raise ValueError(f"{TIMEOUT_ENV} must be a positive number of seconds, but got {value!r}.")
    return seconds


def wait(requests, where, group):
    """Wait until every MPI request in `requests` completes, within the timeout.

    Polls for a couple of milliseconds (a collective between processes of one host is usually
    done by then), yielding the core between polls: a process sharing it with the one it
    waits for would otherwise burn that process's time slice (measured: 15 ms instead of
    0.1 ms for a 64 KB all-reduce on a loaded 2-core machine). Then sleeps between polls,
    checking for failure notices.
    """
    if not requests:  # a group of one: nothing was sent
        return
    from cellgrad_distributed.world import mpi

    Request = mpi().Request
    if Request.Testall(requests):
        return
    start = time.perf_counter()
    limit = timeout()
    nap = 5e-5
    while not Request.Testall(requests):
        elapsed = time.perf_counter() - start
        if elapsed < _SPIN:
            _yield()
            continue
        check_notices(where, group)
        if elapsed > limit:
            raise CommTimeoutError(
                f"For '{where}', the collective on group '{group.name}' ({group.size} "
                f"processes, this one is rank {group.rank}) did not complete within "
                f"{limit:g} s: another process failed, is stuck, or did not call it. Set "
                f"{TIMEOUT_ENV} (seconds) for longer steps.")
        time.sleep(nap)
        nap = min(nap * 2, 1e-3)


_yield = getattr(os, "sched_yield", lambda: time.sleep(0))


def check_notices(where, group):
    """Raise RemoteProcessError when another process has reported its failure."""
    comm = _notices
    if comm is None:
        return
    MPI = sys.modules["mpi4py.MPI"]
    status = MPI.Status()
    if not comm.Iprobe(source=MPI.ANY_SOURCE, tag=_NOTICE_TAG, status=status):
        return
    text = comm.recv(source=status.Get_source(), tag=_NOTICE_TAG)
    raise RemoteProcessError(
        f"For '{where}' on group '{group.name}': process {status.Get_source()} of "
        f"{comm.Get_size()} failed: {text}. The job is being aborted.")


def install(world_comm):
    """Arm failure handling for a multi-process world (called by init())."""
    global _notices, _installed
    if _notices is None:
        _notices = world_comm.Dup()
    if not _installed:
        _installed = True
        previous = sys.excepthook

        def excepthook(kind, value, tb):
            previous(kind, value, tb)
            abort_job(value)

        sys.excepthook = excepthook


def uninstall():
    global _notices
    if _notices is not None:
        try:
            _notices.Free()
        except Exception:  # MPI already finalized
            pass
        _notices = None


def abort_job(error):
    """Tell the other processes about `error`, give them a moment to report, then MPI_Abort."""
    MPI = sys.modules.get("mpi4py.MPI")
    comm = _notices
    if MPI is None or comm is None or not MPI.Is_initialized() or MPI.Is_finalized():
        return
    rank, size = comm.Get_rank(), comm.Get_size()
    if not isinstance(error, RemoteProcessError):
        text = "".join(traceback.format_exception_only(type(error), error)).strip()
        requests = [comm.isend(text, dest=r, tag=_NOTICE_TAG) for r in range(size) if r != rank]
        deadline = time.perf_counter() + _GRACE
        while time.perf_counter() < deadline and not MPI.Request.Testall(requests):
            time.sleep(1e-3)
        time.sleep(max(0.0, deadline - time.perf_counter()))
    sys.stderr.write(f"cellgrad.communication: process {rank} of {size} stops on "
                     f"{type(error).__name__}; aborting the job (MPI_Abort).\n")
    sys.stderr.flush()
    sys.stdout.flush()
    # The launcher forwards output asynchronously and drops what it has not forwarded when
    # the abort ends the job (seen with MPICH's hydra: a report cut mid-traceback).
    time.sleep(_FORWARD)
    MPI.COMM_WORLD.Abort(1)
