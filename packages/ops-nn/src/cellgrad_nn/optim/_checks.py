"""Argument checks of the optimizers, worded as MindSpore's validator words them."""

_TYPE_NAMES = {float: "float", int: "int", bool: "bool", tuple: "tuple"}


def of_type(owner, name, value, types=(float,)):
    """`value` is an instance of `types` (a bool is never a number)."""
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        expected = ", ".join(f"'{_TYPE_NAMES.get(t, t.__name__)}'" for t in types)
        raise TypeError(f"For '{owner}', the type of '{name}' should be {expected}, but got "
                        f"type '{type(value).__name__}'.")
    return value


def in_range(owner, name, value, low, high, closed=False):
    """A float in (low, high), or [low, high] when `closed`."""
    of_type(owner, name, value)
    inside = low <= value <= high if closed else low < value < high
    if not inside:
        left, right = ("[", "]") if closed else ("(", ")")
        raise ValueError(f"For '{owner}', the '{name}' must be in range of {left}{low}, "
                         f"{high}{right}, but got {value} with type 'float'.")
    return value


def positive(owner, name, value, allow_zero=False):
    """A float > 0 (>= 0 with `allow_zero`)."""
    of_type(owner, name, value)
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"For '{owner}', the '{name}' must be float and must "
                         f"{'>=' if allow_zero else '>'} 0, but got '{value}' with type 'float'.")
    return value


def bound(owner, name, value, limit, above):
    """A float >= limit (`above`) or <= limit."""
    of_type(owner, name, value)
    if (value < limit) if above else (value > limit):
        raise ValueError(f"For '{owner}', the argument '{name}' must {'>=' if above else '<='} "
                         f"{limit}, but got {value}.")
    return value
