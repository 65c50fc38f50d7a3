"""Mirrors `mindspore.version`: `__version__`, cellgrad's version (as `cellgrad.__version__`)."""

from cellgrad import __version__  # noqa: F401
