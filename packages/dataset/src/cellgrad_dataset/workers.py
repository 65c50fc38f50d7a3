"""Worker processes for `map` and `batch(per_batch_map=...)` with
`python_multiprocessing=True` (any worker count, as MindSpore), and for a random-access
`GeneratorDataset` with `num_parallel_workers > 1`.

`ordered_map(fn, tasks, workers, what)` runs `fn(task)` in worker processes and yields the
results in task order. Task `s` goes to worker `s % workers` and each worker answers its tasks
first-in first-out, so reading the workers round-robin gives the results in order; each
worker has up to `config.get_prefetch_size()` (at most 8) tasks in flight. Tasks and
results travel through one shared-memory segment per worker (pickle protocol 5: the arrays'
buffers are written to the segment, only their lengths and the small pickle go through the
pipe, so the main process never blocks on a full pipe); what does not fit a slot
(`max_rowsize` MB, default 16), or everything with `config.set_enable_shared_mem(False)`,
goes through the pipe.

An exception in a worker is raised in the main process naming `what` and the task; a worker
that dies (killed, crashed) is reported the same way. Closing the iterator (or an error, or the
main process exiting) stops every worker and unlinks every segment; a worker whose parent
died exits by itself.
"""

import atexit
import multiprocessing
import os
import pickle
import sys
import traceback
import weakref
from multiprocessing import connection, shared_memory

import numpy as np

from cellgrad_dataset import config

_MAX_SLOTS = 8  # at most this many tasks in flight per worker (config.prefetch_size, capped)
_LIVE = weakref.WeakSet()
CREATED = []  # names of every segment this process created (tests check they are unlinked)


class WorkerError(RuntimeError):
    """An operation failed (or its worker process died) in a dataset worker process."""


def pack_rows(rows):
    """Rows (tuples of numpy values) as one stacked array per column when every row's value in
    that column has one shape and dtype (pickling one array costs what pickling one row's
    value costs), else the values as they are."""
    if not rows:
        return 0, []
    columns = []
    for i in range(len(rows[0])):
        values = [r[i] for r in rows]
        first = values[0]
        if isinstance(first, (np.ndarray, np.generic)) and first.dtype != object and all(
                isinstance(v, (np.ndarray, np.generic)) and v.shape == first.shape
                and v.dtype == first.dtype for v in values):
            columns.append(np.stack(values))
        else:
            columns.append(values)
    return len(rows), columns


def unpack_rows(packed):
    """The rows `pack_rows` packed (values of stacked columns are views of them)."""
    n, columns = packed
    return [tuple(c[j] for c in columns) for j in range(n)]


def _pack(obj, buf, off, limit):
    """Pickle `obj` with its array buffers written to `buf[off:off + limit]`:
    (pickle bytes, buffer lengths), or (pickle bytes, None) when they do not fit."""
    buffers = []
    data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    if not buffers:
        return data, None
    raws = [b.raw() for b in buffers]
    if buf is None or sum(r.nbytes for r in raws) > limit:
        return pickle.dumps(obj, protocol=5), None
    lengths = []
    for r in raws:
        buf[off:off + r.nbytes] = r
        off += r.nbytes
        lengths.append(r.nbytes)
    return data, lengths


def _unpack(data, lengths, buf, off):
    if lengths is None:
        return pickle.loads(data)
    buffers = []
    for n in lengths:
        buffers.append(bytearray(buf[off:off + n]))  # a copy: the slot is reused
        off += n
    return pickle.loads(data, buffers=buffers)


def _worker_main(fn, conn, shm_name, slot_bytes, slots, worker_id):
    randomness = sys.modules.get("cellgrad_dataset.transforms.randomness")
    if randomness is not None:  # random transforms: a stream of this worker's own
        randomness.set_worker(worker_id)
    shm = shared_memory.SharedMemory(name=shm_name) if shm_name else None
    buf = None if shm is None else shm.buf
    parent = os.getppid()
    try:
        while True:
            while not conn.poll(1.0):
                if os.getppid() != parent:  # the main process died: do not linger
                    return
            msg = conn.recv()
            if msg is None:
                return
            seq, slot, data, lengths = msg
            try:
                result = fn(_unpack(data, lengths, buf, slot * slot_bytes))
                out = _pack(result, buf, (slots + slot) * slot_bytes, slot_bytes)
                conn.send((seq, "ok") + out)
            except BaseException as exc:  # noqa: BLE001 - reported to the main process
                conn.send((seq, "error", f"{type(exc).__name__}: {exc}",
                           traceback.format_exc()))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return
    finally:
        del buf
        if shm is not None:
            shm.close()


class WorkerPool:
    """`workers` processes running `fn`, each with a pipe and a shared-memory segment."""

    def __init__(self, fn, workers, what, max_rowsize=None):
        method = config.get_multiprocessing_start_method()
        ctx = multiprocessing.get_context(method)
        mb = 16 if max_rowsize in (None, -1) else max(int(max_rowsize), 1)
        self.slot_bytes = mb << 20
        self.what = what
        self.shared = config.get_enable_shared_mem()
        self.slots = max(1, min(config.get_prefetch_size(), _MAX_SLOTS))
        self.procs, self.conns, self.shms = [], [], []
        _LIVE.add(self)
        try:
            for worker_id in range(1, workers + 1):
                # `slots` input slots, then `slots` output slots (pages are only
                # allocated when written)
                shm = shared_memory.SharedMemory(create=True,
                                                 size=self.slot_bytes * self.slots * 2)
                self.shms.append(shm)
                CREATED.append(shm.name)
                parent_end, child_end = ctx.Pipe()
                proc = ctx.Process(target=_worker_main,
                                   args=(fn, child_end, shm.name if self.shared else None,
                                         self.slot_bytes, self.slots, worker_id),
                                   daemon=True)
                try:
                    proc.start()
                except (AttributeError, TypeError, pickle.PicklingError) as exc:
                    raise TypeError(
                        f"For '{what}', the operation cannot be sent to a '{method}' worker "
                        f"process ({exc}); use a module-level function, or "
                        f"ds.config.set_multiprocessing_start_method('fork').") from exc
                child_end.close()
                self.procs.append(proc)
                self.conns.append(parent_end)
        except BaseException:
            self.close()
            raise

    def run(self, tasks, describe):
        """Yield `fn(task)` for each task, in order; `describe(seq)` names a task in errors."""
        n = len(self.procs)
        tasks = iter(tasks)
        sent = 0
        done = 0
        exhausted = False
        while True:
            while not exhausted and sent < done + n * self.slots:
                try:
                    task = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                w, slot = sent % n, (sent // n) % self.slots
                buf = self.shms[w].buf if self.shared else None
                data, lengths = _pack(task, buf, slot * self.slot_bytes, self.slot_bytes)
                del buf
                self.conns[w].send((sent, slot, data, lengths))
                sent += 1
            if done == sent:
                return
            yield self._receive(done, describe)
            done += 1

    def _receive(self, seq, describe):
        w = seq % len(self.procs)
        conn, proc = self.conns[w], self.procs[w]
        timeout = config.get_multiprocessing_timeout_interval()
        while True:
            ready = connection.wait([conn, proc.sentinel], timeout)
            if conn in ready:
                try:
                    got_seq, kind, data, extra = conn.recv()
                    break
                except EOFError:
                    pass
            if conn in ready or proc.sentinel in ready:
                proc.join(1)
                raise WorkerError(
                    f"For '{self.what}', worker process {proc.pid} died (exit code "
                    f"{proc.exitcode}) while processing {describe(seq)}.")
        if kind == "error":
            raise WorkerError(f"For '{self.what}', {describe(seq)} failed in worker process "
                              f"{proc.pid}: {data}\n\nWorker traceback:\n{extra}")
        slot = (seq // len(self.procs)) % self.slots
        return _unpack(data, extra, self.shms[w].buf, (self.slots + slot) * self.slot_bytes)

    def close(self):
        for conn in self.conns:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass
        for proc in self.procs:
            proc.join(2)
            if proc.is_alive():
                proc.terminate()
                proc.join(2)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()
        for shm in self.shms:
            try:
                shm.close()
                shm.unlink()
            except FileNotFoundError:
                pass
        self.procs, self.conns, self.shms = [], [], []
        _LIVE.discard(self)

    @property
    def pids(self):
        return [p.pid for p in self.procs]


def ordered_map(fn, tasks, workers, what, describe, max_rowsize=None):
    """`fn(task)` for each task, computed by `workers` processes, yielded in task order."""
    pool = WorkerPool(fn, workers, what, max_rowsize)
    try:
        yield from pool.run(tasks, describe)
    finally:
        pool.close()


@atexit.register
def _close_all():
    for pool in list(_LIVE):
        pool.close()


def live_pools():
    """The pools not closed yet (for tests: none should outlive their iterators)."""
    return list(_LIVE)
