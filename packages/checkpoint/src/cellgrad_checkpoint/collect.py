"""What `save_checkpoint` saves: `save_obj` and `append_dict` as `Entry`s, in MindSpore's order.

Parameters come in `parameters_and_names()` order under `Parameter.name`; two parameters with
one name give one entry (the later value at the earlier place, as MindSpore's dict does); then
the `append_dict` values. `copy` snapshots the data for an asynchronous save.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, List, Optional

import numpy as np

from cellgrad import Parameter, Tensor
from cellgrad.nn import Cell
from cellgrad_checkpoint.dtypes import STR, tensor_to_file
from cellgrad_checkpoint.entry import Entry

_WHAT = "For 'save_checkpoint'"


def collect(save_obj, append_dict, choice_func: Optional[Callable[[str], bool]],
            copy: bool = False) -> List[Entry]:
    named = OrderedDict()
    for name, value in _named_values(save_obj, choice_func):
        named[name] = value
    for name, value in (append_dict or {}).items():
        named[name] = _append_value(value)
    return [_entry(name, value, copy) for name, value in named.items()]


def _named_values(save_obj, choice_func):
    keep = choice_func if choice_func is not None else (lambda name: True)
    if isinstance(save_obj, Cell):
        seen = set()
        for _, param in save_obj.parameters_and_names():
            if id(param) not in seen and keep(param.name):
                seen.add(id(param))
                yield param.name, param
    elif isinstance(save_obj, dict):
        for key, value in save_obj.items():
            if not isinstance(key, str):
                raise TypeError(f"{_WHAT}, when save_obj is a dict, its keys must be str, but got "
                                f"{type(key).__name__} ({key!r}).")
            if keep(key):
                yield key, _dict_value(key, value)
    elif isinstance(save_obj, list):
        yield from _list_values(save_obj, keep)
    else:
        raise TypeError(f"{_WHAT}, the parameter 'save_obj' must be nn.Cell, list or dict, but "
                        f"got {type(save_obj)}.")


def _list_values(save_obj, keep):
    dicts = bool(save_obj) and isinstance(save_obj[0], dict)
    for i, item in enumerate(save_obj):
        if dicts:
            if not (isinstance(item, dict) and "name" in item and "data" in item):
                raise TypeError(f"{_WHAT}, save_obj should be a list of dicts with the keys 'name' "
                                f"and 'data', but item {i} is {item!r}.")
            name, data = item["name"], item["data"]
            if not isinstance(name, str):
                raise TypeError(f"{_WHAT}, when save_obj is a list of dict items, the name in "
                                f"dict should be string, but got {type(name)}.")
            if not isinstance(data, Tensor):
                raise TypeError(f"{_WHAT}, when save_obj is a list of dict items, the data in "
                                f"dict should be parameter, but got {type(data)}.")
        elif isinstance(item, Parameter):
            name, data = item.name, item
        else:
            raise TypeError(f"{_WHAT}, when save_obj is made up by list of Parameter, the param "
                            f"should be parameter, but got {type(item)} at index {i}.")
        if keep(name):
            yield name, data


def _dict_value(key, value):
    if isinstance(value, (Tensor, str)):
        return value
    if isinstance(value, np.ndarray):
        return Tensor(value)
    raise TypeError(f"{_WHAT}, when save_obj is a dict, its values must be Parameter, Tensor, str "
                    f"or numpy arrays, but '{key}' is {type(value).__name__}.")


def _append_value(value):
    if isinstance(value, bool):
        return Tensor(value)
    if isinstance(value, int):
        return Tensor(np.array(value, np.int64))
    if isinstance(value, float):
        return Tensor(np.array(value, np.float32))
    return value  # str, Tensor, Parameter (checked by save_checkpoint)


def _entry(name, value, copy):
    if isinstance(value, str):
        return Entry(name, STR, (), value)
    tensor_type, data = tensor_to_file(value)
    if copy and data is value.asnumpy():
        data = data.copy()
    return Entry(name, tensor_type, tuple(data.shape), data)
