"""What `Profiler.analyse()` writes into a run directory: the summary table, MindSpore's CPU
op CSVs and the Chrome trace. Every file is written whole to a temporary name and renamed
into place, so a reader never sees half a file.
"""

import json
import os

from cellgrad.profiler import events

KIND_TITLES = {"cell": "Cells", "op": "Ops (forward)", "backward": "Backward rules"}
SORT_KEYS = {"total": "cpu_time_total", "self": "self_cpu_time_total", "calls": "count",
             "mean": "cpu_time", "memory": "cpu_memory_usage"}


class KeyAverages(list):
    """A list of `KeyAverage`s (`cellgrad.profiler.events`) with PyTorch's `table()`."""

    def table(self, sort_by="cpu_time_total", row_limit=100):
        """The rows as text, each kind (Cells, ops, backward rules) sorted by `sort_by`
        ("cpu_time_total", "self_cpu_time_total", "cpu_time", "count", "cpu_memory_usage" or
        the short names "total", "self", "mean", "calls", "memory"), descending."""
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


def _ms(ns):
    return f"{ns / 1e6:.3f}"


def _shapes_text(row, limit=2):
    """The most common input shapes: "(4x3, 3, -)*8" (- a non-tensor, () a 0-d tensor)."""
    def one(shapes):
        return "(" + ", ".join("-" if s is None else "x".join(map(str, s)) or "()"
                               for s in shapes) + ")"

    text = "; ".join(f"{one(shapes)}*{n}" for shapes, n in row.shapes.most_common(limit))
    return text + ("; ..." if len(row.shapes) > limit else "")


def _section(title, rows, is_op):
    head = ["Name", "Calls", "Total(ms)", "Self(ms)", "Mean(ms)"] + \
        (["Out bytes", "Input shapes"] if is_op else [])
    body = []
    for r in rows:
        cells = [r.key, str(r.count), _ms(r.total_ns), _ms(r.self_ns),
                 _ms(r.total_ns / r.count if r.count else 0)]
        if is_op:
            cells += [str(r.cpu_memory_usage), _shapes_text(r)]
        body.append(cells)
    widths = [max(len(c[i]) for c in [head] + body) for i in range(len(head))]
    left = {0, len(head) - 1} if is_op else {0}

    def line(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    rule = "-" * len(line(["-" * w for w in widths]))
    return "\n".join([title, rule, line(head), rule] + [line(c) for c in body] + [rule])


def trace_json(spans, pretty=False):
    """The Chrome trace-event JSON of a run: the tracks' names, then the spans by start time
    (a parent before the children that start with it)."""
    meta = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0,
             "args": {"name": f"cellgrad (pid {os.getpid()})"}}]
    for tid, name in events.TRACK_NAMES.items():
        meta.append({"ph": "M", "name": "thread_name", "pid": 1, "tid": tid,
                     "args": {"name": name}})
        meta.append({"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": tid,
                     "args": {"sort_index": tid}})
    lines = [json.dumps(m) for m in meta]
    lines += [events.event_line(s, 0) for s in sorted(spans, key=lambda s: (s[3], s[3] - s[4]))]
    text = '{"displayTimeUnit": "ms", "traceEvents": [\n' + ",\n".join(lines) + "\n]}\n"
    return json.dumps(json.loads(text), indent=1) + "\n" if pretty else text


def op_csvs(stats):
    """MindSpore's FRAMEWORK/cpu_op_detail_info_0.csv and cpu_op_type_info_0.csv (forward ops)."""
    ops = sorted((r for r in stats.values() if r.kind == "op"), key=lambda r: r.total_ns)
    total = sum(r.total_ns for r in ops) or 1
    pid = os.getpid()
    detail = ["op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),"
              "op_avg_time(ms),total_proportion,subgraph,pid"]
    types = ["op_type,type_occurrences,execution_frequency(per-step),total_compute_time,"
             "avg_time(ms),percent"]
    for r in ops:
        ms_total, ms_avg, share = r.total_ns / 1e6, r.total_ns / 1e6 / r.count, r.total_ns / total
        detail.append(f"Host,{r.key},{r.key},{r.key},{r.count},{ms_total:.6g},{ms_avg:.6g},"
                      f"{share:.6g},Default,{pid}")
        types.append(f"{r.key},{r.count},{max(1, r.count // max(stats.steps, 1))},"
                     f"{ms_total:.6g},{ms_avg:.6g},{share:.6g}")
    return "\n".join(detail) + "\n", "\n".join(types) + "\n"


def write_atomic(path, text):
    """Write `text` to `path` through a temporary file renamed into place."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_outputs(run_dir, metadata, pretty=False, recorder=None, step_list=None):
    """Write the files of the recording streamed into `run_dir` (see `Profiler`); a closed
    `Recorder` adds the spans its stream could not take; `step_list` keeps only the spans of
    those steps. Returns the run's statistics."""
    out = os.path.join(run_dir, "ASCEND_PROFILER_OUTPUT")
    framework = os.path.join(run_dir, "FRAMEWORK")
    torn = recorder is not None and recorder.unwritten
    spans = events.read_stream(os.path.join(framework, "trace_events.json"),
                               recorder.written if torn else None)
    if torn:
        spans += [s[:3] + (s[3] - origin, s[4] - origin) + s[5:]
                  for origin, s in recorder.unwritten]
    if step_list is not None:
        spans = _of_steps(spans, step_list)
    stats = events.stats_of(spans)
    os.makedirs(out, exist_ok=True)
    write_atomic(os.path.join(out, "trace_view.json"), trace_json(spans, pretty))
    write_atomic(os.path.join(out, "op_summary.txt"),
                 KeyAverages(stats.values()).table(row_limit=None))
    detail, types = op_csvs(stats)
    write_atomic(os.path.join(framework, "cpu_op_detail_info_0.csv"), detail)
    write_atomic(os.path.join(framework, "cpu_op_type_info_0.csv"), types)
    write_atomic(os.path.join(run_dir, "profiler_metadata.json"), json.dumps(metadata, indent=4))
    return stats


def _of_steps(spans, step_list):
    """The spans that start within the steps `step_list` (`ProfilerStep#N` spans)."""
    wanted = {f"ProfilerStep#{n}" for n in step_list}
    steps = [(s[3], s[4]) for s in spans if s[0] == "step" and s[1] in wanted]
    return [s for s in spans if (s[0] == "step" and s[1] in wanted) or (
        s[0] != "step" and any(start <= s[3] < end for start, end in steps))]


def read_metadata(run_dir):
    """What `add_metadata` wrote into `run_dir`, or {}."""
    try:
        with open(os.path.join(run_dir, "profiler_metadata.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}
