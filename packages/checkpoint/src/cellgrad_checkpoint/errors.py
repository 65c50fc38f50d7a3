"""`CheckpointError`: a checkpoint file that is truncated, corrupted or not a checkpoint."""

from __future__ import annotations

import sys
import warnings
from typing import Optional


class CheckpointError(ValueError):
    """A checkpoint file cannot be read: truncated, corrupted, encrypted without a key, ...

    A `ValueError`, as MindSpore raises for damaged files, so `except ValueError` keeps working.
    `path`, `offset` (byte offset in the file, or in the decrypted body for encrypted files)
    and `entry` (the parameter name, when known) say where.
    """

    def __init__(self, path: str, problem: str, offset: Optional[int] = None,
                 entry: Optional[str] = None):
        where = []
        if entry is not None:
            where.append(f"entry '{entry}'")
        if offset is not None:
            where.append(f"byte offset {offset}")
        text = f"Failed to read the checkpoint file {path}: {problem}"
        if where:
            text += f" ({', '.join(where)})"
        super().__init__(text)
        self.path = path
        self.problem = problem
        self.offset = offset
        self.entry = entry

    def __reduce__(self):
        return (type(self), (self.path, self.problem, self.offset, self.entry))


class WireError(Exception):
    """A decoding problem at `offset`; the reader turns it into a CheckpointError."""

    def __init__(self, problem: str, offset: int, entry: Optional[str] = None):
        super().__init__(problem)
        self.problem = problem
        self.offset = offset
        self.entry = entry


def warn(message: str) -> None:
    """A UserWarning attributed to the first caller outside this package."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith(
            "cellgrad_checkpoint."):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)
