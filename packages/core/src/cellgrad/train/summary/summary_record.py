"""Mirrors `mindspore.train.summary.summary_record`: `SummaryRecord` of `cellgrad.train`,
the same object (see `cellgrad._paths`), and the export options it accepts."""

from cellgrad._namespace import plugin_names as _plugin_names

# `SummaryRecord(export_options=...)`: option -> the values it takes (MindSpore's table)
_DEFAULT_EXPORT_OPTIONS = {"tensor_format": {"npy", None}}

__getattr__, __dir__ = _plugin_names(__name__)
