"""Mirrors `mindspore.communication._comm_helper`: `GlobalComm` of `cellgrad.communication`,
the same object (see `cellgrad._paths`)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
