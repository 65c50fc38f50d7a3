"""The errors of export and load."""

__all__ = ["UnsupportedOpError", "MindIRFormatError"]


class UnsupportedOpError(NotImplementedError):
    """An op (or an attribute of one) the chosen file format cannot express; `op` and
    `scope` (the Cell path it ran in) name it."""

    def __init__(self, message, op=None, scope=None):
        super().__init__(message)
        self.op, self.scope = op, scope


class MindIRFormatError(RuntimeError):
    """A MINDIR file that cannot be read: not protobuf, truncated, or not a graph."""
