"""Mirrors `mindspore.device_context`: per-device settings. cellgrad runs on the CPU only, so
it has `device_context.cpu`."""

from cellgrad.device_context import cpu  # noqa: F401 (MindSpore imports its device modules)
