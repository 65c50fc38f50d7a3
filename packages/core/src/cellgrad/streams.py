"""Streams and events on the CPU: one in-order stream of synchronous work.

Every cellgrad op runs to completion before it returns, so work on any stream is done by the
time the next line runs: waiting (`wait_event`, `wait_stream`, `synchronize`) returns at once,
`query` is True, and an event records the moment the program reached it. Streams still have
identities (the default stream is 0, the communication stream 1, each new `Stream` the next
id), the current stream is tracked (`set_cur_stream`, `StreamCtx`), and timing events give
real elapsed times between their records (`time.perf_counter`).
"""

import itertools
import time

__all__ = ["Stream", "Event", "current_stream", "default_stream", "communication_stream",
           "set_cur_stream", "StreamCtx"]

_ids = itertools.count(2)  # 0: the default stream, 1: the communication stream


def _check_int(value, name, prim):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{prim}', the '{name}' must be a int, but got "
                        f"{type(value).__name__}.")


class Stream:
    """Mirrors `mindspore.Stream` (`mindspore.runtime.Stream`): a stream of the CPU device."""

    def __init__(self, priority=0, **kwargs):
        self.init_finished = False
        _check_int(priority, "priority", "Stream")
        stream = kwargs.get("stream")
        if stream is not None:
            if not isinstance(stream, Stream):
                raise TypeError(f"For 'Stream', the argument 'stream' should be Stream, but got "
                                f"{type(stream)}.")
            self.id, self.priority = stream.id, stream.priority
        elif "stream_id" in kwargs:
            _check_int(kwargs["stream_id"], "stream_id", "Stream")
            self.id, self.priority = kwargs["stream_id"], priority
        else:
            self.id, self.priority = next(_ids), priority
        self.device_name, self.device_id = "CPU", 0
        self.init_finished = True

    def stream_id(self):
        """The stream's id."""
        return self.id

    def record_event(self, event=None):
        """Records `event` (a new Event if None) on this stream and returns it."""
        if event is None:
            event = Event()
        if not isinstance(event, Event):
            raise TypeError(f"For 'record_event', the argument 'event' should be Event, but got "
                            f"{type(event)}.")
        event.record(self)
        return event

    def wait_event(self, event):
        """Makes later work on this stream wait for `event`: it has completed already."""
        if not isinstance(event, Event):
            raise TypeError(f"For 'wait_event', the argument 'event' should be Event, but got "
                            f"{type(event)}.")
        event.wait(self)

    def wait_stream(self, stream):
        """Makes later work on this stream wait for the work queued on `stream` so far."""
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'wait_stream', the argument 'stream' should be Stream, but "
                            f"got {type(stream)}.")
        self.wait_event(stream.record_event())

    def synchronize(self):
        """Waits for the stream's work: done, as every op completes before it returns."""

    def query(self):
        """Whether all work submitted to the stream has completed: always, on the CPU."""
        return True

    def __eq__(self, other):
        if not isinstance(other, Stream):
            raise TypeError(f"For '__eq__', the argument 'other' should be Stream, but got "
                            f"{type(other)}.")
        return (self.id, self.device_id) == (other.id, other.device_id)

    def __hash__(self):
        return hash((self.id, self.device_id))

    def __repr__(self):
        if not self.init_finished:
            return ""
        return f"Stream(device_name={self.device_name}, device_id:{self.device_id}, " \
               f"stream id:{self.id})"


_DEFAULT = Stream(stream_id=0)
_COMMUNICATION = Stream(stream_id=1)
_current = [_DEFAULT]


class Event:
    """Mirrors `mindspore.Event` (`mindspore.runtime.Event`): a marker in a stream; with
    `enable_timing`, the time it was recorded."""

    def __init__(self, enable_timing=False, blocking=False):
        if not isinstance(enable_timing, bool):
            raise TypeError(f"For 'Event', the 'enable_timing' must be a bool, but got "
                            f"{type(enable_timing).__name__}.")
        if not isinstance(blocking, bool):
            raise TypeError(f"For 'Event', the 'blocking' must be a bool, but got "
                            f"{type(blocking).__name__}.")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._time = None      # perf_counter at the last record
        self._stream = None    # the stream of the last record

    def _stream_arg(self, stream, name):
        if stream is None:
            return _current[0]
        if not isinstance(stream, Stream):
            raise TypeError(f"For '{name}', the argument 'stream' should be Stream, but got "
                            f"{type(stream)}.")
        return stream

    def record(self, stream=None):
        """Records the event on `stream` (the current stream if None)."""
        self._stream = self._stream_arg(stream, "record")
        self._time = time.perf_counter()

    def wait(self, stream=None):
        """Makes later work on `stream` wait for this event: it has completed already."""
        self._stream_arg(stream, "wait")

    def synchronize(self):
        """Waits for the work captured by the event: it has completed already."""

    def query(self):
        """Whether the work captured by the event has completed: always, on the CPU."""
        return True

    def elapsed_time(self, end_event):
        """Milliseconds between this event's record and `end_event`'s."""
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', the argument 'end_event' should be Event, but "
                            f"got {type(end_event)}.")
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("For 'elapsed_time', both events must be created with "
                               "enable_timing=True.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("For 'elapsed_time', both events must be recorded before the "
                               "elapsed time is calculated.")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self):
        return f"Event(enable_timing={int(self.enable_timing)}, blocking:{int(self.blocking)}, " \
               f"is_created:{int(self._time is not None)}, event:{int(self._time is not None)})"


def current_stream():
    """Mirrors `mindspore.current_stream`: the stream ops are queued on now."""
    return _current[0]


def default_stream():
    """Mirrors `mindspore.default_stream`: the device's default stream (id 0)."""
    return _DEFAULT


def communication_stream():
    """Mirrors `mindspore.communication_stream`: the stream of collectives (id 1)."""
    return _COMMUNICATION


def set_cur_stream(stream):
    """Mirrors `mindspore.set_cur_stream`: makes `stream` current; None does nothing."""
    if stream is None:
        return
    if not isinstance(stream, Stream):
        raise TypeError(f"For 'set_cur_stream', the argument 'stream' should be Stream, but got "
                        f"{type(stream)}.")
    _current[0] = stream


class StreamCtx:
    """Mirrors `mindspore.StreamCtx`: `stream` is current inside the context (None: no-op)."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', the argument 'ctx_stream' should be Stream, but "
                            f"got {type(ctx_stream)}.")
        self.stream = ctx_stream
        self.prev_stream = None

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.stream is not None:
            set_cur_stream(self.prev_stream)
