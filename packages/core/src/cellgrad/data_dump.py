"""`mindspore.set_dump`: marks Cells and Primitives for dumping, and the dump they ask for.

As in MindSpore 2.10, `set_dump` sets the `dump` flag on a Cell and every Cell inside it (and
the `dump` attribute of a Primitive), and warns that the device target is not Ascend. Where
MindSpore's CPU build stops there, cellgrad also dumps: when the environment variable
`MINDSPORE_DUMP_CONFIG` names a MindSpore dump configuration whose `common_dump_settings`
has `"dump_mode": 2`, every op run inside a marked Cell writes its inputs and/or outputs
(`"input_output"`: 0 both, 1 inputs, 2 outputs) under
`<path>/rank_0/<net_name>/0/<iteration>/` as
`<op>.<op>.0.0.<timestamp>.<input|output>.<slot>.DefaultFormat.<dtype>.npy` (MindSpore's
offline dump names). The iteration counts calls of the outermost marked Cell; `"iteration"`
("all", "0|2", "1-3") picks which are written. The observer is `cellgrad.observe`'s.
"""

import json
import os
import time
import warnings

import numpy as np

from cellgrad import context
from cellgrad._core._buffer import TensorBuffer
from cellgrad._observer_protocol import Observer

__all__ = ["set_dump"]


def set_dump(target, enabled=True):
    """Mirrors `mindspore.set_dump(target, enabled=True)` (see the module docstring)."""
    from cellgrad.nn import Cell
    from cellgrad.ops.primitive import Primitive

    if not isinstance(target, (Cell, Primitive)):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, "
                         f"but got an instance of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    current_target = context.get_context("device_target")
    if current_target != "Ascend":
        warnings.warn(f"Current device_target is {current_target}, which is not supported by "
                      "set_dump. Only Ascend device target is supported currently. If you have "
                      "Ascend device, consider set device_target to Ascend before calling "
                      "set_dump.", UserWarning, stacklevel=2)
    if isinstance(target, Cell):
        for cell in target.cells_and_names():
            cell[1].add_flags(dump=enabled)
    else:
        target.add_prim_attr("dump", "true" if enabled else "false")
    if enabled and isinstance(target, Cell):
        _DumpWatch.start_from_env()


def _iterations(spec):
    """The set of iterations `spec` picks ("all" -> None)."""
    spec = str(spec)
    if spec == "all":
        return None
    picked = set()
    for part in spec.split("|"):
        lo, _, hi = part.partition("-")
        picked.update(range(int(lo), int(hi or lo) + 1))
    return picked


class _DumpWatch(Observer):
    """Writes each op's tensors while a Cell flagged `dump` runs (one watch per process)."""

    handle = None

    def __init__(self, settings):
        self.root = os.path.join(settings["path"], "rank_0", settings.get("net_name", "Net"), "0")
        self.sides = {0: ("input", "output"), 1: ("input",), 2: ("output",)}[
            int(settings.get("input_output", 0))]
        self.picked = _iterations(settings.get("iteration", "all"))
        self.depth = 0       # marked Cells open now
        self.iteration = 0

    @classmethod
    def start_from_env(cls):
        file = os.environ.get("MINDSPORE_DUMP_CONFIG")
        if not file or cls.handle is not None:
            return
        with open(file, encoding="utf-8") as f:
            settings = json.load(f).get("common_dump_settings", {})
        if int(settings.get("dump_mode", 0)) != 2:
            return
        if not os.path.isabs(settings.get("path", "")):
            raise ValueError(f"set_dump: the dump config {file} must give an absolute 'path', "
                             f"got {settings.get('path')!r}.")
        from cellgrad import observe

        cls.handle = observe.add_observer(cls(settings))

    @classmethod
    def stop(cls):
        if cls.handle is not None:
            cls.handle.remove()
            cls.handle = None

    def cell_begin(self, cell, args, kwargs):
        if self.depth or cell.get_flags().get("dump"):
            self.depth += 1

    def cell_end(self, cell, result):
        if self.depth:
            self.depth -= 1
            if not self.depth:
                self.iteration += 1

    def cell_abort(self, cell):
        self.cell_end(cell, None)

    def op_end(self, op, inputs, attrs, result):
        if not self.depth or (self.picked is not None and self.iteration not in self.picked):
            return
        folder = os.path.join(self.root, str(self.iteration))
        os.makedirs(folder, exist_ok=True)
        stamp = time.time_ns() // 1000
        outputs = result if isinstance(result, tuple) else (result,)
        for side, values in (("input", inputs), ("output", outputs)):
            if side not in self.sides:
                continue
            tensors = [v for v in values if isinstance(v, TensorBuffer)]
            for slot, t in enumerate(tensors):
                dtype = str(t.dtype).lower()
                data = t.asnumpy()
                if dtype == "bfloat16":
                    data = data.astype(np.float32)
                np.save(os.path.join(folder, f"{op.name}.{op.name}.0.0.{stamp}.{side}.{slot}."
                                             f"DefaultFormat.{dtype}.npy"), data)
