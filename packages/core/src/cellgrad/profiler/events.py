"""Spans as Chrome trace events and as per-name statistics.

A span's trace event is an "X" (complete) event: `ts`/`dur` in microseconds, `tid` its track
(forward ops and Cells, backward rules, steps), and in `args` its kind, the Cell's path or
the op's input shapes and output bytes, and its self time. The same events, read back, give
the spans again, so a recording streamed to disk can be analysed later (`read_stream`).
"""

import collections
import json

FORWARD, BACKWARD, STEPS = 1, 2, 3
TRACK_NAMES = {FORWARD: "forward (ops and Cells)", BACKWARD: "backward (gradient rules)",
               STEPS: "steps"}

_json_names = {}
_json_shapes = {}


def _name(text):
    found = _json_names.get(text)
    if found is None:
        found = _json_names[text] = json.dumps(text)
    return found


def _shapes(shapes):
    found = _json_shapes.get(shapes)
    if found is None:
        found = _json_shapes[shapes] = json.dumps(
            [list(s) if s is not None else None for s in shapes], separators=(",", ":"))
    return found


def event_line(span, origin_ns):
    """One span as a trace event, a line of JSON (written by hand: this is the hot path)."""
    kind, name, tid, start, end, self_ns, shapes, nbytes, scope = span
    if kind == "op":
        args = f'"input_shapes":{_shapes(shapes)},"output_bytes":{nbytes},'
    elif kind == "cell":
        args = f'"scope":{_name(scope)},'
        if "/" in scope:
            name = f"{scope.rpartition('/')[2]}: {name}"
    else:
        args = ""
    return (f'{{"ph":"X","name":{_name(name)},"cat":"{kind}","pid":1,"tid":{tid},'
            f'"ts":{(start - origin_ns) / 1000:.3f},"dur":{(end - start) / 1000:.3f},'
            f'"args":{{"kind":"{kind}",{args}"self_us":{self_ns / 1000:.3f}}}}}')


def span_of(event):
    """The span a trace event (a dict) was written from; times relative to ts 0."""
    args, start = event["args"], round(event["ts"] * 1000)
    kind = args["kind"]
    shapes = tuple(tuple(s) if s is not None else None for s in args["input_shapes"]) \
        if kind == "op" else None
    return (kind, event["name"].rpartition(": ")[2], event["tid"], start,
            start + round(event["dur"] * 1000), round(args["self_us"] * 1000), shapes,
            args.get("output_bytes", 0), args.get("scope", ""))


def read_stream(path, limit=None):
    """The spans of a streamed FRAMEWORK/trace_events.json (the first `limit`), complete or
    cut short: reading stops at the line being written when the run died."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()[1:]
    spans = []
    for line in lines[:limit]:
        try:
            spans.append(span_of(json.loads(line[:-1])))
        except ValueError:
            break
    return spans


class KeyAverage:
    """The statistics of one op, backward rule or Cell over a run (times in microseconds,
    the unit PyTorch's `key_averages()` uses)."""

    __slots__ = ("kind", "key", "count", "total_ns", "self_ns", "cpu_memory_usage", "shapes")

    def __init__(self, kind, key):
        self.kind, self.key = kind, key
        self.count = self.total_ns = self.self_ns = self.cpu_memory_usage = 0
        self.shapes = collections.Counter()

    cpu_time_total = property(lambda self: self.total_ns / 1000)
    self_cpu_time_total = property(lambda self: self.self_ns / 1000)
    cpu_time = property(lambda self: self.total_ns / 1000 / self.count if self.count else 0.0)

    @property
    def input_shapes(self):
        """The input shapes seen most often, as lists (PyTorch's spelling)."""
        return [[list(s) if s is not None else [] for s in shapes]
                for shapes, _ in self.shapes.most_common(1)]

    def __repr__(self):
        return (f"<KeyAverage {self.kind} {self.key!r} count={self.count} "
                f"cpu_time_total={self.cpu_time_total:.3f}us>")


class Stats(dict):
    """(kind, key) -> KeyAverage, summed span by span; steps are counted apart."""

    steps = 0

    def add(self, span):
        kind, name, _tid, start, end, self_ns, shapes, nbytes, scope = span
        if kind == "step":
            self.steps += 1
            return
        key = (scope if scope == name else f"{scope} ({name})") if kind == "cell" else name
        row = self.get((kind, key))
        if row is None:
            row = self[(kind, key)] = KeyAverage(kind, key)
        row.count += 1
        row.total_ns += end - start
        row.self_ns += self_ns
        row.cpu_memory_usage += nbytes
        if shapes is not None:
            row.shapes[shapes] += 1


def stats_of(spans):
    """`Stats` of a list of spans."""
    stats = Stats()
    for span in spans:
        stats.add(span)
    return stats
