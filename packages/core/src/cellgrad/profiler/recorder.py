"""The observer behind `Profiler`: every op, backward rule and Cell call as a timed span.

A span is a tuple `(kind, name, tid, start_ns, end_ns, self_ns, shapes, nbytes, scope)`:
`kind` "op", "backward", "cell" or "step"; `tid` the trace track (`events.FORWARD`,
`BACKWARD` or `STEPS`); `shapes` an op's input shapes (a tuple of tuples, None for a
non-tensor); `nbytes` the bytes of an op's outputs; `scope` a Cell's path ("Net/fc1").
Closed spans are summed into per-name statistics and streamed, a batch at a time, into an
unterminated JSON array (the trace-event format allows that): memory stays bounded however
long the run, and a run that dies midway leaves the spans recorded so far readable.
"""

import threading
import time

from cellgrad import log as logger
from cellgrad._core._buffer import TensorBuffer
from cellgrad.observe import Observer
from cellgrad.profiler import events

_FLUSH_EVERY = 4096      # spans buffered before a write, whatever the depth
_FLUSH_IDLE = 256        # spans buffered before a write once a top-level span closes
_FLUSH_NS = 500_000_000  # or once this long has passed, at a top-level span's end

_now = time.perf_counter_ns
_thread_id = threading.get_ident


def _shape(x):
    return x._data.shape if isinstance(x, TensorBuffer) else None


def _nbytes(result):
    if isinstance(result, TensorBuffer):
        return result._data.nbytes
    if isinstance(result, (tuple, list)):
        return sum(r._data.nbytes for r in result if isinstance(r, TensorBuffer))
    return 0


class Recorder(Observer):
    """Records spans while added as an observer (`cellgrad.observe.add_observer`)."""

    def __init__(self, stream_path, origin_ns):
        self.stream_path = stream_path
        self.origin_ns = origin_ns      # perf_counter time of the trace's ts 0
        self.stats = events.Stats()
        self.unwritten = []             # spans a failed write could not stream
        self.written = 0                # spans streamed whole (a failed write may leave part)
        self._stack = []                # open frames: [key, kind, name, tid, shapes, scope,
        self._backward = 0              #               child_ns, start_ns]
        self._pending = []
        self._last_flush = _now()
        self._names = {}                # (id(parent), id(child)) -> attribute name
        self._thread = _thread_id()
        self._stream = open(stream_path, "w", encoding="utf-8")  # noqa: SIM115 (kept open)
        self._stream.write("[\n")
        self._stream.flush()

    # ---- observer events ----

    def op_begin(self, op, inputs, attrs):
        if _thread_id() == self._thread:
            self._open(op, "op", op.name, tuple(map(_shape, inputs)), "")

    def op_end(self, op, inputs, attrs, result):
        self._close(op, _nbytes(result))

    def op_abort(self, op):
        self._close(op, 0)

    def backward_begin(self, op):
        if _thread_id() == self._thread:
            self._backward += 1
            self._open(op, "backward", op.name, None, "")

    def backward_end(self, op):
        if self._close(op, 0):
            self._backward -= 1

    def cell_begin(self, cell, args, kwargs):
        if _thread_id() == self._thread:
            self._open(cell, "cell", type(cell).__name__, None, self._scope(cell))

    def cell_end(self, cell, result):
        self._close(cell, 0)

    def cell_abort(self, cell):
        self._close(cell, 0)

    def step_span(self, number, start_ns, end_ns):
        """A step of `Profiler.step()`, on its own track."""
        self._add(("step", f"ProfilerStep#{number}", events.STEPS, start_ns, end_ns,
                   end_ns - start_ns, None, 0, ""))

    # ---- the stack ----

    def _open(self, key, kind, name, shapes, scope):
        tid = events.BACKWARD if self._backward else events.FORWARD
        self._stack.append([key, kind, name, tid, shapes, scope, 0, _now()])

    def _close(self, key, nbytes):
        end = _now()
        stack = self._stack
        # a span that began before the profiler started, or on another thread, is not ours
        if not stack or stack[-1][0] is not key or _thread_id() != self._thread:
            return False
        _, kind, name, tid, shapes, scope, child, start = stack.pop()
        if stack:
            stack[-1][6] += end - start
        self._add((kind, name, tid, start, end, end - start - child, shapes, nbytes, scope))
        return True

    def _add(self, span):
        pending = self._pending
        pending.append(span)
        n = len(pending)
        if n >= _FLUSH_EVERY or (not self._stack and (
                n >= _FLUSH_IDLE or span[4] - self._last_flush > _FLUSH_NS)):
            self.flush()

    def _scope(self, cell):
        """The Cell's path: its attribute names under the Cells open around it."""
        parent = next((f for f in reversed(self._stack) if f[1] == "cell"), None)
        if parent is None:
            return type(cell).__name__
        key = (id(parent[0]), id(cell))
        name = self._names.get(key)
        if name is None:
            cells = getattr(parent[0], "_cells", None) or {}
            name = next((n for n, c in cells.items() if c is cell), type(cell).__name__)
            self._names[key] = name
        return f"{parent[5]}/{name}"

    # ---- the stream ----

    def flush(self):
        """Sum the spans closed since the last flush into `stats` and write them out.

        A failed write (a full disk) must not fail the op being dispatched: the spans are
        kept in `unwritten` (as `(origin_ns, span)`) for `analyse()`, with one warning.
        """
        if self._pending and not self._stream.closed:
            origin, add = self.origin_ns, self.stats.add
            lines = []
            for span in self._pending:
                add(span)
                lines.append(events.event_line(span, origin))
            if self.unwritten:
                self.unwritten.extend((origin, s) for s in self._pending)
            else:
                try:
                    self._stream.write(",\n".join(lines) + ",\n")
                    self._stream.flush()
                    self.written += len(lines)
                except OSError as exc:
                    logger.warning(f"Profiler: writing {self.stream_path} failed ({exc}); the "
                                   f"rest of this recording is kept in memory for analyse().")
                    self.unwritten.extend((origin, s) for s in self._pending)
        self._pending.clear()
        self._last_flush = _now()

    def close(self):
        """Flush and close the stream (spans still open are dropped)."""
        self.flush()
        if not self._stream.closed:
            try:
                self._stream.close()
            except OSError:  # the buffered tail of a failed write: the spans are in unwritten
                pass
        self._stack.clear()
