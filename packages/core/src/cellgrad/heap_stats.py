"""`mindspore.memory_*` on the CPU: the process heap that holds every Tensor's numpy buffer.

cellgrad's memory pool is glibc's heap: `_heap.tune()` keeps freed tensor buffers in it for the
next step instead of returning them to the OS. So the statistics are the heap's own numbers
(`mallinfo2`) and the kernel's for the process:

- allocated: bytes of live heap blocks (in use by arrays and Python objects);
- reserved: resident memory of the process (VmRSS), whose peak the kernel tracks (VmHWM);
- idle: free bytes the heap keeps for reuse; eager free: the part `empty_cache` can return.

The allocated peak is the largest value seen at any statistics call since the last reset (the
heap does not track one). Where the heap or /proc cannot be read (not Linux/glibc) the numbers
are 0, as MindSpore reports for its CPU backend.
"""

import ctypes
import sys

__all__ = ["memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
           "memory_stats", "memory_summary", "reset_peak_memory_stats",
           "reset_max_memory_allocated", "reset_max_memory_reserved", "empty_cache"]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _Mallinfo2
        libc.malloc_trim.argtypes = (ctypes.c_size_t,)
    except (OSError, AttributeError):  # not glibc >= 2.33
        return None
    return libc


_LIBC = _libc()
_peak = {"allocated": 0, "reserved_floor": 0}


def _heap():
    if _LIBC is None:
        return None
    return _LIBC.mallinfo2()


def _status(field):
    """A VmRSS/VmHWM line of /proc/self/status, in bytes (0 where there is none)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _allocated():
    info = _heap()
    now = 0 if info is None else info.uordblks + info.hblkhd
    _peak["allocated"] = max(_peak["allocated"], now)
    return now


def memory_allocated():
    """Mirrors `mindspore.memory_allocated`: bytes of live heap blocks (tensor buffers and
    Python objects)."""
    return _allocated()


def max_memory_allocated():
    """Mirrors `mindspore.max_memory_allocated`: the largest `memory_allocated` seen since the
    start or the last reset."""
    _allocated()
    return _peak["allocated"]


def memory_reserved():
    """Mirrors `mindspore.memory_reserved`: the process's resident memory (heap pages kept for
    reuse included)."""
    return _status("VmRSS")


def max_memory_reserved():
    """Mirrors `mindspore.max_memory_reserved`: the kernel's high-water mark of resident memory
    since the start or the last reset."""
    return max(_status("VmHWM"), memory_reserved())


def memory_stats():
    """Mirrors `mindspore.memory_stats`: the statistics as MindSpore's dict (sizes in bytes)."""
    info = _heap()
    allocated = _allocated()
    return {
        "total_reserved_memory": memory_reserved(),
        "total_allocated_memory": allocated,
        "total_idle_memory": 0 if info is None else info.fordblks,
        "total_eager_free_memory": 0 if info is None else info.keepcost,
        "max_reserved_memory": max_memory_reserved(),
        "max_allocated_memory": _peak["allocated"],
        # the heap's blocks: `block_counts` mmapped buffers (of at least the mmap threshold)
        "common_mem_pool_stats": {
            "block_unit_size": _mmap_threshold(),
            "block_counts": 0 if info is None else info.hblks, "blocks_info": {}},
        # Parameters are ordinary heap arrays: no separate persistent pool
        "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0,
                                      "blocks_info": {}},
    }


def _mmap_threshold():
    from cellgrad import _heap

    return _heap.MMAP_THRESHOLD if _heap.tuned else 128 * 1024  # glibc's default


def _format_size(size, pref):
    prefix = "B  "
    for new_prefix in ("KB", "MB", "GB", "TB", "PB"):
        if pref < 768 * 1024:
            break
        prefix = new_prefix
        size //= 1024
        pref /= 1024
    return f"{size:6d} {prefix}"


_SUMMARY = (("total_reserved_memory", "Reserved memory"),
            ("total_allocated_memory", "Allocated memory"),
            ("total_idle_memory", "Idle memory"),
            ("total_eager_free_memory", "Eager free memory"),
            ("max_reserved_memory", "Max reserved memory"),
            ("max_allocated_memory", "Max allocated memory"))


def memory_summary():
    """Mirrors `mindspore.memory_summary`: `memory_stats` as MindSpore's table."""
    stats = memory_stats()
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45,
             " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, name in _SUMMARY:
        lines.append("-" * 45)
        lines.append(f" {name:<20} | {_format_size(stats[key], stats[key]):<20} ")
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"


def reset_max_memory_allocated():
    """Mirrors `mindspore.reset_max_memory_allocated`: the peak restarts from now."""
    _peak["allocated"] = 0
    _allocated()


def reset_max_memory_reserved():
    """Mirrors `mindspore.reset_max_memory_reserved`: the kernel's resident high-water mark
    restarts from the current resident memory (Linux /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        pass


def reset_peak_memory_stats():
    """Mirrors `mindspore.reset_peak_memory_stats`: both peaks restart from now."""
    reset_max_memory_allocated()
    reset_max_memory_reserved()


def empty_cache():
    """Mirrors `mindspore.empty_cache`: returns the heap's free pages (the buffers `_heap` keeps
    for reuse) to the OS (glibc malloc_trim)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)

