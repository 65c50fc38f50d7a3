"""`mindspore.no_inline` and `mindspore.enable_dynamic`: marks a jit compiler reads.

Both validate their arguments as MindSpore does and mark the function (`fn.no_inline`, the
`__enable_dynamic__` table of argument index -> (name, placeholder)) for a jit capture; the
function itself is returned unchanged, so in PyNative mode it runs as written, as in MindSpore.
"""

import inspect
import types

from cellgrad.common.tensor import Tensor

__all__ = ["no_inline", "enable_dynamic"]

ENABLE_DYNAMIC = "__enable_dynamic__"
_ANY_DIM, _ANY_RANK = -1, -2


def no_inline(fn=None):
    """Mirrors `mindspore.no_inline`: marks `fn` to stay a called subgraph under jit (its
    `no_inline` attribute); works with and without parentheses."""
    def wrap(func):
        func.no_inline = True
        return func

    return wrap(fn) if fn is not None else wrap


def _check_element(item, shape, name):
    if item != _ANY_DIM and item <= 0:
        raise TypeError(f"The argument '{name}' has invalid shape '{shape}', only supports None "
                        f"or a tuple/list of positive integers and None.")
    return True


def _shape_is_dynamic(arg, name):
    if isinstance(arg, Tensor):
        shape = arg.shape
        if shape == (_ANY_RANK,):
            return True
        return _ANY_DIM in shape and all(_check_element(d, shape, name) for d in shape)
    if isinstance(arg, (tuple, list)):
        return any(_shape_is_dynamic(item, name) for item in arg)
    return False


def _check_type(arg, name):
    if isinstance(arg, (tuple, list)):
        for item in arg:
            _check_type(item, name)
    elif not isinstance(arg, Tensor):
        raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of "
                        f"Tensor, but the argument : {name} is type of:{type(arg)}.")


def enable_dynamic(**kwargs):
    """Mirrors `mindspore.enable_dynamic`: names the arguments whose shapes vary
    (`Tensor(shape=[None, 3], dtype=...)` placeholders) for a jit capture."""
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        _check_type(arg, name)
        if not _shape_is_dynamic(arg, name):
            raise TypeError(f"When using decorator enable_dynamic, the shape of argument "
                            f"'{name}' at least have one None.")

    def decorator(func):
        if not isinstance(func, (types.FunctionType, types.MethodType)):
            raise ValueError(f"Decorator enable_dynamic can only be used for function or method "
                             f"decrocated by ms.jit, but got {func}.")
        names = [p for p in inspect.signature(func).parameters if p != "self"]
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments "
                             f"{len(kwargs)} exceeds the number of function arguments "
                             f"{len(names)}.")
        table = {}
        for key, value in kwargs.items():
            if key not in names:
                raise ValueError(f"'{key}' is not in list")
            table[names.index(key)] = (key, value)
        inner = inspect.unwrap(func, stop=lambda f: not hasattr(f, "__wrapped__"))
        setattr(getattr(inner, "__func__", inner), ENABLE_DYNAMIC, table)
        return func

    return decorator
