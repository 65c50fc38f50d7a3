"""Mirrors `mindspore.device_context.cpu.device`."""


def is_available():
    """Mirrors `device_context.cpu.is_available`: cellgrad always computes on the CPU."""
    return True


def device_count():
    """Mirrors `device_context.cpu.device_count`: 1, as MindSpore for CPU hardware."""
    return 1
