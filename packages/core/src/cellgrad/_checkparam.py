"""Mirrors the argument checks of MindSpore's private `mindspore._checkparam` that real code
imports (model zoos check their hyper-parameters with them): the relation constants, the
`check_*` functions with MindSpore's error classes and messages, and `args_type_check`.
MindSpore 1.x's `Validator` and `Rel` classes resolve to this module, with a DeprecationWarning
(`cellgrad._paths.MOVED`): `Validator.check_positive_int(x)` is `check_positive_int(x)`.
"""

import functools
import inspect
import math
from collections.abc import Iterable

from cellgrad._namespace import plugin_names as _plugin_names

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10  # (), [), (], []
IN, NOT_IN = 11, 12

# rel -> (test, text of the relation)
_BINARY = {
    EQ: (lambda a, b: a == b, "= {}"), NE: (lambda a, b: a != b, "!= {}"),
    LT: (lambda a, b: a < b, "< {}"), LE: (lambda a, b: a <= b, "<= {}"),
    GT: (lambda a, b: a > b, "> {}"), GE: (lambda a, b: a >= b, ">= {}"),
    IN: (lambda a, b: a in b, "in {}"), NOT_IN: (lambda a, b: a not in b, "not in {}"),
}
_RANGE = {
    INC_NEITHER: (lambda v, lo, hi: lo < v < hi, "({}, {})"),
    INC_LEFT: (lambda v, lo, hi: lo <= v < hi, "[{}, {})"),
    INC_RIGHT: (lambda v, lo, hi: lo < v <= hi, "({}, {}]"),
    INC_BOTH: (lambda v, lo, hi: lo <= v <= hi, "[{}, {}]"),
}


def _holds(value, other, rel):
    test = _BINARY.get(rel)
    return bool(test and test[0](value, other))


def _relation(value, rel):
    return _BINARY[rel][1].format(value) if rel in _BINARY else ""


def _subject(arg_name, prim_name, space=" "):
    prim = f"For '{prim_name}', the{space}" if prim_name else f"The{space}"
    return prim + (f"'{arg_name}'" if arg_name else "input value")


def _check_number(arg_value, value, rel, arg_type=int, arg_name=None, prim_name=None):
    who = _subject(arg_name, prim_name, space=" ")
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{who} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{who} must be a legal value, but got '{arg_value}'.")
    mismatch = isinstance(arg_value, bool)
    if mismatch or not _holds(arg_value, value, rel):
        message = (f"{who} must be {arg_type.__name__} and must {_relation(value, rel)}, but got "
                   f"'{arg_value}' with type '{type(arg_value).__name__}'.")
        raise (TypeError if mismatch else ValueError)(message)
    return arg_value


def check_is_number(arg_value, arg_type, arg_name=None, prim_name=None):
    """`arg_value` is an `arg_type` (not a bool) and finite."""
    prim = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, arg_type) or isinstance(arg_value, bool):
        raise TypeError(f"{prim} type of {name} must be '{arg_type.__name__}', but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{prim} {name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None,
                       prim_name=None):
    """`arg_value` is a `value_type` within the range `rel` of the limits (INC_BOTH: [lo, hi])."""
    prim = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    import numpy as np

    if not isinstance(arg_value, (np.ndarray, np.generic, value_type)) or \
            isinstance(arg_value, bool):
        raise TypeError(f"{prim} {name} must be '{value_type.__name__}',  but got "
                        f"'{type(arg_value).__name__}'.")
    test, text = _RANGE.get(rel, (lambda *_: False, ""))
    if not test(arg_value, lower_limit, upper_limit):
        raise ValueError(f"{prim} {name} must be in range of "
                         f"{text.format(lower_limit, upper_limit)}, but got {arg_value} with "
                         f"type '{type(arg_value).__name__}'.")
    return arg_value


def _number_check(value, rel, arg_type):
    def check_(arg_value, arg_name=None, prim_name=None):
        return _check_number(arg_value, value, rel, arg_type, arg_name, prim_name)
    return check_


def _sequence_check(rel, arg_type):
    def check_(sequence, arg_name=None, prim_name=None):
        for index, element in enumerate(sequence):
            _check_number(element, 0, rel, arg_type,
                          f"{arg_name if arg_name else 'arg_name'}[{index}]", prim_name)
        return sequence
    return check_


# name -> (bound of the relation, rel, type): thin checks, as MindSpore's
_THIN = {
    "check_positive_int": (0, GT, int), "check_negative_int": (0, LT, int),
    "check_non_positive_int": (0, LE, int), "check_non_negative_int": (0, GE, int),
    "check_positive_float": (0, GT, float), "check_negative_float": (0, LT, float),
    "check_non_positive_float": (0, LE, float), "check_non_negative_float": (0, GE, float),
}
for _name, (_bound, _rel, _type) in _THIN.items():
    globals()[_name] = _number_check(_bound, _rel, _type)
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name
    globals()[_name].__doc__ = f"`arg_value` is a {_type.__name__} {_relation(_bound, _rel)}."
for _name, (_rel, _type) in {"check_positive_int_sequence": (GT, int),
                             "check_non_negative_int_sequence": (GE, int),
                             "check_positive_float_sequence": (GT, float)}.items():
    globals()[_name] = _sequence_check(_rel, _type)
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name
    globals()[_name].__doc__ = f"Every element is a {_type.__name__} {_relation(0, _rel)}."


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """`arg_value` is an int in relation `rel` to `value` (`check_int(n, 0, GE)`)."""
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    """`arg_value` is a float in relation `rel` to `value`."""
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    """`arg_value` is an int equal to `value`."""
    return _check_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_is_int(arg_value, arg_name=None, prim_name=None):
    """`arg_value` is an int (not a bool)."""
    return check_is_number(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    """`arg_value` is a float."""
    return check_is_number(arg_value, float, arg_name, prim_name)


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """`arg_value` is an int in the range `rel` of the limits."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """`arg_value` is a float in the range `rel` of the limits."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name,
                              prim_name)


def check(arg_name, arg_value, value_name, value, rel=EQ, prim_name=None, excp_cls=ValueError):
    """`arg_value` is in relation `rel` to `value` (ints, or sequences of them)."""
    if not _holds(arg_value, value, rel):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        subject = f"{prefix} '{arg_name}'" if " " not in arg_name else f"{prefix} {arg_name}"
        raise excp_cls(f"{subject} should be {_relation(f'{value_name}: {value}', rel)}, but "
                       f"got {arg_value}.")
    return arg_value


def check_number(arg_name, arg_value, value, rel, prim_name):
    """`arg_value` is in relation `rel` to `value`."""
    if not _holds(arg_value, value, rel):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must "
                         f"{_relation(value, rel)}, but got {arg_value}.")
    return arg_value


def check_isinstance(arg_name, arg_value, classes):
    """`arg_value` is an instance of `classes` (a ValueError otherwise, as MindSpore's)."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got "
                         f"{arg_value}.")
    return arg_value


def check_bool(arg_value, arg_name=None, prim_name=None):
    """`arg_value` is a bool."""
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got "
                        f"{type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    """`arg_value` is a str among `valid_values`."""
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise ValueError(f"{prefix} '{arg_name if arg_name else 'parameter'}' must be str and "
                         f"must be in '{valid_values}', but got '{arg_value}'.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """`arg_value` is an instance of `valid_types` (a bool only if bool is among them)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    wrong = isinstance(arg_value, bool) and bool not in valid_types
    if not wrong and isinstance(arg_value, float) and float not in valid_types:
        arg_value = round(arg_value, 6)
    if wrong or not isinstance(arg_value, valid_types):
        names = [t.__name__ if hasattr(t, "__name__") else str(t) for t in valid_types]
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        many = len(valid_types) > 1
        raise TypeError(f"{prefix} type of '{arg_name}' should be {'one of ' if many else ''}"
                        f"'{names if many else names[0]}', but got type "
                        f"'{type(arg_value).__name__}'.")
    return arg_value


def check_type_name(arg_name, arg_type, valid_types, prim_name):
    """`arg_type` (a dtype or a type) is one of `valid_types`."""
    valid_types = valid_types if isinstance(valid_types, Iterable) else (valid_types,)
    if arg_type not in valid_types:
        names = [t.__name__ if hasattr(t, "__name__") else t for t in valid_types]
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        many = len(valid_types) > 1
        got = arg_type.__name__ if hasattr(arg_type, "__name__") else repr(arg_type)
        raise TypeError(f"{prefix} '{arg_name}' should be {'one of ' if many else ''}"
                        f"{names if many else names[0]}, but got '{got}'.")
    return arg_type


def args_type_check(*type_args, **type_kwargs):
    """Decorator: the arguments named in `type_kwargs` (or given positionally) must be None or
    instances of the types given, a TypeError otherwise (MindSpore's `set_context` uses it)."""

    def type_check(func):
        signature = inspect.signature(func)
        bound_types = signature.bind_partial(*type_args, **type_kwargs).arguments

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            types = bound_types.get("kwargs", bound_types)
            arguments = signature.bind(*args, **kwargs).arguments
            arguments = arguments.get("kwargs", arguments)
            for name, value in arguments.items():
                if name in types and value is not None and not isinstance(value, types[name]):
                    raise TypeError(f"The parameter '{name}' must be {types[name]}, but got "
                                    f"{type(value)}")
            return func(*args, **kwargs)

        return wrapper

    return type_check


__getattr__, __dir__ = _plugin_names(__name__)  # MindSpore 1.x's Validator and Rel (MOVED)


def check_input_format(input_param):
    """Mirrors `mindspore._checkparam.check_input_format`: only "NCHW" passes."""
    if input_param == "NCHW":
        return input_param
    raise ValueError(f"The data format must be NCHW, but got {input_param}.")


def _expand_tuple(n_dimensions):
    """Mirrors `mindspore._checkparam._expand_tuple`: an int -> an `n_dimensions`-tuple of it;
    a tuple of `n_dimensions` ints passes."""

    def convert(m):
        if not isinstance(m, tuple):
            if isinstance(m, int) and not isinstance(m, bool):
                return (m,) * n_dimensions
            raise TypeError("When expanding an int number to tuple, input type must be integer "
                            f"or tuple[int], but got {type(m)}")
        if len(m) != n_dimensions:
            raise TypeError("When expanding an int number to tuple, input tuple dimension must "
                            f"be {n_dimensions}, but got {m}")
        for i in m:
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError("When expanding an int number to tuple, the type of element in "
                                f"input tuple must be an integer, but got {type(i)}.")
        return m

    return convert


once = _expand_tuple(1)
twice = _expand_tuple(2)
triple = _expand_tuple(3)
