"""The profiler's enums, as `mindspore.profiler` has them (`mindspore.profiler.common.constant`).

On a CPU only `ProfilerActivity.CPU` and `ExportType.Text` select something; the others are
accepted so MindSpore code runs unchanged, and the Ascend/GPU-only ones are noted in a warning.
"""

from enum import Enum

__all__ = ["AicoreMetrics", "ExportType", "HostSystem", "ProfilerActivity", "ProfilerLevel"]


class ProfilerLevel(Enum):
    """The profiler level enum."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    """The profiler activity enum."""

    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    """The aicore metrics enum."""

    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(Enum):
    """The export type enum."""

    Db = "db"
    Text = "text"


class HostSystem(Enum):
    """The host system enum."""

    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"
