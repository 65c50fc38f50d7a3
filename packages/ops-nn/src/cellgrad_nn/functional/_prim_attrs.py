"""Checks of primitive constructor attributes, with MindSpore's messages and classes."""


def of_type(op: str, name: str, value, kind: type):
    """`value` if it is a `kind` (an int counts as neither float nor bool), else TypeError."""
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise TypeError(f"For '{op}', the type of '{name}' should be '{kind.__name__}', but "
                        f"got type '{type(value).__name__}'.")
    return value


def size_pair(op: str, size) -> tuple:
    """A (height, width) of positive ints from a tuple or list, as a tuple."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"For '{op}', the type of 'size' should be one of '[list of int, tuple "
                        f"of int]', but got {type(size)}.")
    if len(size) != 2 or any(isinstance(s, bool) or not isinstance(s, int) or s <= 0
                             for s in size):
        raise ValueError(f"For '{op}', 'size' must be two positive ints (height, width), got "
                         f"{size!r}.")
    return tuple(size)
