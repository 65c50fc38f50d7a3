"""No process waits forever: timed waits, failure notices between processes, abort on error.

Every collective is started non-blocking and waited for here, polling its MPI requests:

- a wait longer than `CELLGRAD_COMM_TIMEOUT` seconds (default 1800, PyTorch's default
  process-group timeout for its CPU backends) raises `CommTimeoutError`;
- a process that dies of an uncaught exception first tells the others (a small message on a
  communicator of its own), so the ones waiting raise `RemoteProcessError` naming it and its
  error, then it calls `MPI_Abort`, which makes the launcher end the whole job;
- a process that leaves without an error (`sys.exit`, the end of its script, `os._exit`)
  tells the others it left, and a process of this host that ends without a word (a signal, a
  crash in native code) is seen gone from its pid: the ones still waiting for it raise
  `RemoteProcessError` naming it within about a second, not at the timeout.

An uncaught exception in any process of a multi-process job therefore ends the job in about a
second, each process printing what it knows, instead of leaving the others blocked.
"""

from __future__ import annotations

import atexit
import os
import sys
import time
import traceback

TIMEOUT_ENV = "CELLGRAD_COMM_TIMEOUT"
DEFAULT_TIMEOUT = 1800.0  # PyTorch's default_pg_timeout (gloo, MPI); MPI itself has none
_NOTICE_TAG = 7  # the failure notice, on the notice communicator
_LEAVE_TAG = 8  # "this process is leaving the job", sent at interpreter exit
_LEFT_GRACE = 1.0  # seconds a collective may still complete after a peer is known gone (its
# last messages may still be in flight to this process)
_PID_EVERY = 0.2  # seconds between looks at the peers' pids
_SPIN = 2e-3  # seconds of busy polling before sleeping between polls
_GRACE = 10.0  # at most, seconds a failing process leaves the others to report before it
# aborts: a notified process reports and aborts the job itself at once, so this bounds only a
# process too loaded to notice sooner (1 s lost the report on a busy 2-core CI machine).

_FORWARD = 0.3  # seconds left to the launcher to forward this process's last output

_notices = None  # communicator for failure notices (a duplicate of the world)
_installed = False
_peers = {}  # world rank -> pid, for the other processes on this host
_gone = {}  # world rank -> (perf_counter when this process learnt it, how it left)
_last_pid_check = 0.0
_pid = None  # this process's pid when install() ran (forked children are not ranks)
_leave_requests = []


class CommTimeoutError(RuntimeError):
    """A collective did not complete within the timeout (`CELLGRAD_COMM_TIMEOUT`)."""


class RemoteProcessError(RuntimeError):
    """Another process of the job failed while this one waited for it."""


class EveryProcessError(RuntimeError):
    """An error every process of the group raises at the same point (they found it together,
    e.g. networks that differ between processes)."""


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
    """Raise RemoteProcessError when another process has reported its failure, or when a
    process of `group` has left the job (for more than `_LEFT_GRACE` seconds)."""
    comm = _notices
    if comm is None:
        return
    MPI = sys.modules["mpi4py.MPI"]
    status = MPI.Status()
    if comm.Iprobe(source=MPI.ANY_SOURCE, tag=_NOTICE_TAG, status=status):
        text = comm.recv(source=status.Get_source(), tag=_NOTICE_TAG)
        raise RemoteProcessError(
            f"For '{where}' on group '{group.name}': process {status.Get_source()} of "
            f"{comm.Get_size()} failed: {text}. The job is being aborted.")
    now = time.perf_counter()
    while comm.Iprobe(source=MPI.ANY_SOURCE, tag=_LEAVE_TAG, status=status):
        source = status.Get_source()
        _gone.setdefault(source, (now, comm.recv(source=source, tag=_LEAVE_TAG)))
    global _last_pid_check
    if _peers and now - _last_pid_check > _PID_EVERY:
        _last_pid_check = now
        for rank, pid in _peers.items():
            if rank not in _gone:
                how = _pid_ended(pid)
                if how:
                    _gone[rank] = (now, f"its process (pid {pid}) {how} without a failure "
                                        f"notice (killed by a signal, or crashed)")
    for rank in group.world_ranks:
        seen = _gone.get(rank)
        if seen is not None and now - seen[0] > _LEFT_GRACE:
            raise RemoteProcessError(
                f"For '{where}' on group '{group.name}': process {rank} of {comm.Get_size()} "
                f"left the job while this one (process {comm.Get_rank()}) waited for it: "
                f"{seen[1]}. The job is being aborted.")


def _pid_ended(pid):
    """'ended' when process `pid` is gone, 'ended with status N' when it is a zombie whose
    status is readable; '' while it runs."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except FileNotFoundError:
        return "ended"
    except OSError:  # no /proc (not Linux): ask the kernel whether the pid exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return "ended"
        except OSError:
            pass
        return ""
    if fields[0] != b"Z":
        return ""
    code = int(fields[49]) if len(fields) > 49 else None  # exit_code, as waitpid reports it
    if code is None:
        return "ended"
    if code & 0x7F:
        return f"was killed by signal {code & 0x7F}"
    return f"ended with exit status {code >> 8}"


def install(world_comm):
    """Arm failure handling for a multi-process world (called by init())."""
    global _notices, _installed, _pid
    if _notices is None:
        _notices = world_comm.Dup()
        _pid = os.getpid()
        _find_peers()
    if not _installed:
        _installed = True
        previous = sys.excepthook

        def excepthook(kind, value, tb):
            previous(kind, value, tb)
            abort_job(value)

        sys.excepthook = excepthook
        # after mpi4py's own exit handler (MPI_Finalize), so it runs first
        atexit.register(_leaving)
        os._exit = _exit_reporting(os._exit)


def _find_peers():
    """The pids of the other processes of this host, by world rank."""
    import socket

    comm = _notices
    everyone = comm.allgather((socket.gethostname(), os.getpid()))
    here = everyone[comm.Get_rank()][0]
    _peers.clear()
    _peers.update({r: pid for r, (host, pid) in enumerate(everyone)
                   if host == here and r != comm.Get_rank()})


def _tell_all(tag, text):
    comm = _notices
    rank = comm.Get_rank()
    return [comm.isend(text, dest=r, tag=tag) for r in range(comm.Get_size()) if r != rank]


def _leaving():
    """At interpreter exit: tell the others this process is gone, so that any of them still
    waiting for it fails at once instead of at the timeout. A process that finished normally
    sends it too; nobody is waiting for it then, and the message is never read."""
    MPI = sys.modules.get("mpi4py.MPI")
    if (_notices is None or os.getpid() != _pid or MPI is None or not MPI.Is_initialized()
            or MPI.Is_finalized()):
        return
    _leave_requests.extend(_tell_all(
        _LEAVE_TAG, "its program ended without an error (sys.exit() or the end of its "
                    "script)"))


def _exit_reporting(real_exit):
    """`os._exit` that first says which process ends and with which status (the launcher
    ends the job without a word), and tells the others."""

    def _exit(status):
        MPI = sys.modules.get("mpi4py.MPI")
        if (_notices is not None and os.getpid() == _pid and MPI is not None
                and MPI.Is_initialized() and not MPI.Is_finalized()):
            rank, size = _notices.Get_rank(), _notices.Get_size()
            try:
                sys.stderr.write(f"cellgrad.communication: process {rank} of {size} ends "
                                 f"with os._exit({status}) while the job runs; the launcher "
                                 f"ends the job.\n")
                sys.stderr.flush()
                sys.stdout.flush()
                _tell_all(_LEAVE_TAG if status == 0 else _NOTICE_TAG,
                          f"it called os._exit({status})")
                time.sleep(_FORWARD)  # the others report; the launcher forwards the output
            except Exception:  # exiting regardless
                pass
        real_exit(status)

    _exit.__wrapped__ = real_exit
    return _exit


def uninstall():
    global _notices
    if _notices is not None:
        try:
            _notices.Free()
        except Exception:  # MPI already finalized
            pass
        _notices = None
    _peers.clear()
    _gone.clear()


def abort_job(error):
    """Tell the other processes about `error`, give them a moment to report, then MPI_Abort."""
    MPI = sys.modules.get("mpi4py.MPI")
    comm = _notices
    if MPI is None or comm is None or not MPI.Is_initialized() or MPI.Is_finalized():
        return
    rank, size = comm.Get_rank(), comm.Get_size()
    if isinstance(error, EveryProcessError):
        # every process raises it: each reports its own; wait (briefly) until all have
        # printed before one of them ends the job
        request = comm.Ibarrier()
        deadline = time.perf_counter() + _GRACE
        while time.perf_counter() < deadline and not request.Test():
            time.sleep(1e-3)
    elif not isinstance(error, RemoteProcessError):
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
