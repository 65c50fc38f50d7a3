"""The auto-parallel context that the data-parallel reduction reads.

cellgrad-core owns it (`cellgrad.parallel_context`: `ParallelMode`, `set_auto_parallel_context`,
..., so a single-device program runs without this package); this module adds what the
gradient reducer derives from it.
"""

from cellgrad.parallel_context import (  # noqa: F401
    DATA_PARALLEL_MODES,
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)


def bucket_bytes(default):
    """The all-reduce bucket size: comm_fusion's allreduce 'size' config (MB), or `default`."""
    fusion = get_auto_parallel_context("comm_fusion").get("allreduce") or {}
    if fusion.get("mode") == "size" and fusion.get("config"):
        return int(float(fusion["config"]) * 2**20)
    return default
