"""MindSpore's summary ops (`ops.ScalarSummary`, `ImageSummary`, `TensorSummary`,
`HistogramSummary`): called inside a network as `op(name, value)`, they queue the value, and
the open `SummaryRecord` writes what is queued at its next `record(step)`.

As in MindSpore's PyNative mode, a call checks nothing and returns None; the name and value are
checked when `record` takes them, and a bad one raises there, naming the op. The queue keeps
the newest value per (op, name), as MindSpore's record does, so it never grows past the number
of distinct names even when no SummaryRecord is open.
"""

import threading

from cellgrad.ops import Primitive

_lock = threading.Lock()
_queued = {}  # (plugin, name) -> (op name, name, value); insertion order is recording order


def _queue(op_name, name, value):
    plugin = op_name[:-len("Summary")].lower()
    # a name that is not a str stays queued under its repr, for record to reject
    key = (plugin, name if isinstance(name, str) else repr(name))
    with _lock:
        _queued[key] = (op_name, name, value)


def take_queued():
    """The queued (op name, name, value) triples, oldest first; the queue is emptied."""
    global _queued
    with _lock:
        taken, _queued = list(_queued.values()), {}
    return taken


class _Summary(Primitive):
    """Queues `value` under `name` for the open SummaryRecord."""

    _dyn_input_sizes = True  # MindSpore's TensorSummary lacks the attribute

    def __init__(self):
        super().__init__(type(self).__name__)
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", f"ms_{type(self).__name__[:-7].lower()}_summary")
        if self._dyn_input_sizes:
            self.add_prim_attr("dyn_input_sizes", [-1, 1])

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError(f"For '{self.name}', the inputs are (name, value), but got "
                            f"{len(args)} inputs.")
        _queue(self.name, args[0], args[1])


class ScalarSummary(_Summary):
    """Mirrors `mindspore.ops.ScalarSummary`: `(name, value)`, value of one element."""


class ImageSummary(_Summary):
    """Mirrors `mindspore.ops.ImageSummary`: `(name, value)`, value NCHW with C 1 or 3."""


class TensorSummary(_Summary):
    """Mirrors `mindspore.ops.TensorSummary`: `(name, value)`, value of rank > 0."""

    _dyn_input_sizes = False


class HistogramSummary(_Summary):
    """Mirrors `mindspore.ops.HistogramSummary`: `(name, value)`, value of rank > 0."""
