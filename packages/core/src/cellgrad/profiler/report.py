"""What `Profiler.analyse()` writes: the summary table, MindSpore's CPU op CSVs, the trace.

Every file is written whole to a temporary name and renamed into place, so a reader never
sees half a file.
"""

import collections
import json
import os

from cellgrad.profiler.recorder import TRACK_NAMES, trace_event

KIND_TITLES = {"cell": "Cells", "op": "Ops (forward)", "backward": "Backward rules"}
SORT_KEYS = {"total": "cpu_time_total", "self": "self_cpu_time_total", "calls": "count",
             "mean": "cpu_time", "memory": "cpu_memory_usage"}


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


class KeyAverages(list):
    """A list of `KeyAverage`s with PyTorch's `table()`."""

    def table(self, sort_by="cpu_time_total", row_limit=100):
        """The rows as text, each kind (Cells, ops, backward rules) sorted by `sort_by`
        ("cpu_time_total", "self_cpu_time_total", "cpu_time", "count", "cpu_memory_usage" or
        the short names "total", "self", "mean", "calls", "memory")."""
        attr = SORT_KEYS.get(sort_by, sort_by)
        if attr not in SORT_KEYS.values():
            raise ValueError(f"For 'KeyAverages.table', 'sort_by' must be one of "
                             f"{sorted(SORT_KEYS.values()) + sorted(SORT_KEYS)}, "
                             f"but got {sort_by!r}.")
        parts = []
        for kind, title in KIND_TITLES.items():
            rows = sorted((r for r in self if r.kind == kind), key=lambda r: getattr(r, attr),
                          reverse=True)
            if rows:
                parts.append(_section(title, rows[:row_limit], kind == "op"))
        return "\n\n".join(parts) + "\n" if parts else "(nothing recorded)\n"

    def __str__(self):
        return self.table()


def key_averages(spans):
    """The spans of a run grouped by kind and name (a Cell by its path and class)."""
    rows = {}
    for kind, name, _tid, start, end, self_ns, shapes, nbytes, scope in spans:
        if kind == "step":
            continue
        key = (scope if scope == name else f"{scope} ({name})") if kind == "cell" else name
        row = rows.get((kind, key))
        if row is None:
            row = rows[(kind, key)] = KeyAverage(kind, key)
        row.count += 1
        row.total_ns += end - start
        row.self_ns += self_ns
        row.cpu_memory_usage += nbytes
        if shapes is not None:
            row.shapes[shapes] += 1
    return KeyAverages(rows.values())


def _ms(ns):
    return f"{ns / 1e6:.3f}"


def _shapes_text(row, limit=2):
    """The most common input shapes: "(4x3, 3, -)*8" (- a non-tensor, () a 0-d tensor)."""
    def one(shapes):
        return "(" + ", ".join("-" if s is None else "x".join(map(str, s)) or "()"
                               for s in shapes) + ")"

    text = "; ".join(f"{one(shapes)}*{n}" for shapes, n in row.shapes.most_common(limit))
    return text + ("; ..." if len(row.shapes) > limit else "")


def _section(title, rows, with_memory):
    head = ["Name", "Calls", "Total(ms)", "Self(ms)", "Mean(ms)"] + \
        (["Out bytes", "Input shapes"] if with_memory else [])
    body = []
    for r in rows:
        cells = [r.key, str(r.count), _ms(r.total_ns), _ms(r.self_ns),
                 _ms(r.total_ns / r.count if r.count else 0)]
        if with_memory:
            cells += [str(r.cpu_memory_usage), _shapes_text(r)]
        body.append(cells)
    widths = [max(len(c[i]) for c in [head] + body) for i in range(len(head))]

    left = {0, len(head) - 1} if with_memory else {0}

    def line(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    rule = "-" * len(line(["-" * w for w in widths]))
    return "\n".join([title, rule, line(head), rule] + [line(c) for c in body] + [rule])


# ---- the files ----


def write_atomic(path, text):
    """Write `text` to `path` through a temporary file renamed into place."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def trace_json(spans, origin_ns, pretty=False):
    """The Chrome trace-event JSON of a run: metadata, then the spans by start time (a parent
    before the children that start with it)."""
    events = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0,
               "args": {"name": f"cellgrad (pid {os.getpid()})"}}]
    for tid, name in TRACK_NAMES.items():
        events.append({"ph": "M", "name": "thread_name", "pid": 1, "tid": tid,
                       "args": {"name": name}})
        events.append({"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": tid,
                       "args": {"sort_index": tid}})
    ordered = sorted(spans, key=lambda s: (s[3], -(s[4] - s[3])))
    events.extend(trace_event(s, origin_ns) for s in ordered)
    return json.dumps({"traceEvents": events, "displayTimeUnit": "ms"},
                      indent=1 if pretty else None)


def op_csvs(spans, steps):
    """MindSpore's FRAMEWORK/cpu_op_detail_info_0.csv and cpu_op_type_info_0.csv (forward ops)."""
    ops = [r for r in key_averages(spans) if r.kind == "op"]
    total = sum(r.total_ns for r in ops) or 1
    ops.sort(key=lambda r: r.total_ns)
    pid = os.getpid()
    detail = ["op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),"
              "op_avg_time(ms),total_proportion,subgraph,pid"]
    types = ["op_type,type_occurrences,execution_frequency(per-step),total_compute_time,"
             "avg_time(ms),percent"]
    for r in ops:
        ms_total, ms_avg, share = r.total_ns / 1e6, r.total_ns / 1e6 / r.count, r.total_ns / total
        detail.append(f"Host,{r.key},{r.key},{r.key},{r.count},{ms_total:.6g},{ms_avg:.6g},"
                      f"{share:.6g},Default,{pid}")
        types.append(f"{r.key},{r.count},{max(1, r.count // max(steps, 1))},{ms_total:.6g},"
                     f"{ms_avg:.6g},{share:.6g}")
    return "\n".join(detail) + "\n", "\n".join(types) + "\n"
