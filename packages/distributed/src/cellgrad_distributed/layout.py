"""Every process must reduce the same parameters: checked once, when the buckets are made.

Processes whose networks differ (another shape with the same element count, another count, an
extra layer) would otherwise sum unrelated gradients into each other -- training on to exit
status 0 with diverged parameters under MPI's all-reduce -- or read past the end of each
other's shared-memory segments. Each process hashes its layout (names, shapes, dtypes and the
bucket plan); one all-gather of the 16-byte digests compares them. Only when they differ are
the layouts themselves exchanged, so that every process raises the same error naming the first
difference.
"""

from __future__ import annotations

import hashlib

import numpy as np

from cellgrad_distributed import watchdog


class LayoutMismatchError(watchdog.EveryProcessError):
    """The processes of a group built different networks (raised on every process)."""


def describe(params, plans, cap_bytes):
    """This process's layout: one (name, shape, dtype) per parameter, and the bucket plan."""
    entries = [(p.name, tuple(p.shape), str(p._data.dtype)) for p in params]
    buckets = [(str(dtype), list(slots)) for dtype, slots, _ in plans]
    return {"parameters": entries, "buckets": buckets, "cap": cap_bytes}


def digest(layout):
    """16 bytes that differ when the parameters or the bucket plan differ (the cap alone
    does not matter: equal plans under other caps reduce alike)."""
    key = repr((layout["parameters"], layout["buckets"])).encode()
    return hashlib.blake2b(key, digest_size=16).digest()


def check(group, layout, where):
    """Raise LayoutMismatchError on every process of `group` unless all layouts are equal."""
    if group.comm is None or group.size < 2:  # a group of one agrees with itself
        return
    mine = np.frombuffer(digest(layout), np.uint8)
    gathered = np.empty((group.size, mine.size), np.uint8)
    watchdog.wait([group.comm.Iallgather(mine, gathered)], where, group)
    if (gathered == gathered[0]).all():
        return
    # Every process saw the difference and comes here: the full layouts are small.
    layouts = group.comm.allgather(layout)
    raise LayoutMismatchError(f"For '{where}', {first_difference(layouts)}")


def _entry(entry):
    name, shape, dtype = entry
    return f"'{name}' {dtype} {shape}"


def first_difference(layouts):
    """A sentence naming the first difference between process 0's layout and another's."""
    base = layouts[0]
    hint = ("every process of a data-parallel job must build the same network (the same "
            "parameters with the same names, shapes and dtypes, in the same order).")
    for rank, other in enumerate(layouts[1:], 1):
        mine, theirs = base["parameters"], other["parameters"]
        for i in range(max(len(mine), len(theirs))):
            a = mine[i] if i < len(mine) else None
            b = theirs[i] if i < len(theirs) else None
            if a == b:
                continue
            if a is None or b is None:
                fewer, more, entry = (0, rank, b) if a is None else (rank, 0, a)
                return (f"the processes' networks differ: process {more} has "
                        f"{max(len(mine), len(theirs))} parameters, process {fewer} "
                        f"{min(len(mine), len(theirs))}; parameter {i} is {_entry(entry)} on "
                        f"process {more} and missing on process {fewer}: {hint}")
            return (f"the processes' networks differ: parameter {i} is {_entry(a)} on "
                    f"process 0 but {_entry(b)} on process {rank}: {hint}")
        if base["buckets"] != other["buckets"]:
            return (f"the gradient buckets differ: {len(base['buckets'])} bucket(s) of at "
                    f"most {base['cap']} bytes on process 0 but {len(other['buckets'])} of at "
                    f"most {other['cap']} bytes on process {rank}: set the same comm_fusion "
                    f"in set_auto_parallel_context on every process.")
    return "the layouts differ."
