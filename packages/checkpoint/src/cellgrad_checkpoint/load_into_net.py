"""`load_param_into_net`, mirroring `mindspore.load_param_into_net`, with honest reports."""

from __future__ import annotations

import difflib
from typing import Callable, Dict, List, Optional, Union

from cellgrad import Parameter, Tensor
from cellgrad.nn import Cell
from cellgrad_checkpoint.errors import warn

_WHAT = "For 'load_param_into_net'"
_FLOATS = {"Float16", "Float32", "Float64", "BFloat16"}
_INTS = {"Int8", "Int16", "Int32", "Int64"}


class _Skipped(Exception):
    """A mismatch that `on_mismatch='skip'` reports instead of raising."""


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False, *,
                        prefix: Optional[str] = None,
                        name_map: Union[Dict[str, str], Callable[[str], Optional[str]],
                                        None] = None,
                        on_mismatch: str = "raise"):
    """Mirrors `mindspore.load_param_into_net`: load values into `net`'s Parameters in place
    (each keeps its identity, name and `requires_grad`); returns
    `(param_not_load, ckpt_not_load)`.

    `ckpt_not_load` lists every key that loaded nothing (MindSpore also lists keys loaded by
    its prefix fallback). A warning names the parameters not loaded with the closest
    checkpoint names. Keyword-only additions:

    - `prefix`: a prefix of the checkpoint's names to ignore (`'net.'` loads `net.fc.weight`
      into `fc.weight`).
    - `name_map`: checkpoint name -> net parameter name, a dict or a function (returning None
      skips the entry); applied before `prefix`.
    - `on_mismatch='skip'`: a shape or dtype that does not fit is skipped and reported (with
      both shapes) in a warning and in both lists, instead of raising RuntimeError.
    """
    _check_arguments(net, parameter_dict, strict_load, remove_redundancy, prefix, name_map,
                     on_mismatch)
    lookup = _lookup(parameter_dict, prefix, name_map)
    used, skipped, param_not_load = set(), [], []
    params = _net_parameters(net)
    for param in params:
        key = lookup.get(param.name)
        if key is None:
            if not param.name.startswith("accu_grads"):
                param_not_load.append(param.name)
            continue
        value = parameter_dict[key]
        if not isinstance(value, Parameter):  # str or list values are not loaded (MindSpore)
            continue
        _load_one(param, value, key, strict_load, on_mismatch, skipped, used)
    if param_not_load and not strict_load:
        _prefix_fallback(params, parameter_dict, param_not_load, on_mismatch, skipped, used)
    param_not_load.extend(name for name, *_ in skipped)
    ckpt_not_load = [key for key in parameter_dict if key not in used]
    _warn(param_not_load, ckpt_not_load, skipped)
    return param_not_load, ckpt_not_load


def _check_arguments(net, parameter_dict, strict_load, remove_redundancy, prefix, name_map,
                     on_mismatch):
    if not isinstance(net, Cell):
        raise TypeError(f"{_WHAT}, the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"{_WHAT}, the argument 'parameter_dict' should be a dict, but got "
                        f"{type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' "
                            f"should be a 'str' and 'Parameter' , but got {type(key)} and "
                            f"{type(value)}.")
    for name, value in (("strict_load", strict_load), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"{_WHAT}, the argument '{name}' must be bool, but got "
                            f"{type(value)}.")
    if remove_redundancy:
        raise TypeError("The deduplication feature for loading checkpoint can only be used in "
                        "parallel scenarios, but got stand_alone.")
    if prefix is not None and not isinstance(prefix, str):
        raise TypeError(f"{_WHAT}, the argument 'prefix' must be a str, but got {type(prefix)}.")
    if name_map is not None and not (isinstance(name_map, dict) or callable(name_map)):
        raise TypeError(f"{_WHAT}, the argument 'name_map' must be a dict or a function, but "
                        f"got {type(name_map)}.")
    if on_mismatch not in ("raise", "skip"):
        raise ValueError(f"{_WHAT}, the argument 'on_mismatch' must be 'raise' or 'skip', but "
                         f"got {on_mismatch!r}.")


def _lookup(parameter_dict, prefix, name_map):
    """Net parameter name -> checkpoint key; exact names win over mapped ones."""
    if prefix is None and name_map is None:
        return {key: key for key in parameter_dict}
    mapped = {}
    for key in parameter_dict:
        target = key
        if isinstance(name_map, dict):
            target = name_map.get(key, key)
        elif name_map is not None:
            target = name_map(key)
            if target is None:
                continue
        if prefix and target.startswith(prefix):
            target = target[len(prefix):]
        mapped.setdefault(target, key)
    return mapped


def _net_parameters(net):
    seen, params = set(), []
    for _, param in net.parameters_and_names():
        if id(param) not in seen:
            seen.add(id(param))
            params.append(param)
    return params


def _load_one(param, value, key, strict_load, on_mismatch, skipped, used):
    try:
        _update(param, value, strict_load)
    except _Skipped as mismatch:
        if on_mismatch == "raise":
            raise RuntimeError(mismatch.args[0]) from None
        skipped.append((param.name, key, str(mismatch.args[1])))
        return
    used.add(key)


def _update(param, value, strict_load):
    """MindSpore's `_update_param`; raises _Skipped(message, short) for a mismatch."""
    data = value
    if param.shape != value.shape:
        if not _trailing_ones(param.shape, value.shape):
            raise _Skipped(
                f"{_WHAT}, {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape "
                f"{tuple(param.shape)} in the argument 'net' and shape {tuple(value.shape)} in "
                f"the argument 'parameter_dict'.May you need to check whether the checkpoint you "
                f"loaded is correct or the batch size and so on in the 'net' and "
                f"'parameter_dict' are same.",
                f"shape {tuple(param.shape)} in the net, {tuple(value.shape)} in the checkpoint")
        # (12, 2048, 1, 1) into (12, 2048): MindSpore accepts it; the net keeps its shape
        data = Tensor(value.asnumpy().reshape(param.shape), dtype=value.dtype)
    src, dst = str(value.dtype), str(param.dtype)
    if src != dst:
        same_family = {src, dst} <= _FLOATS or {src, dst} <= _INTS
        if strict_load or not same_family:
            raise _Skipped(
                f"{_WHAT}, {param.name} in the argument 'net' should have the same type as "
                f"{param.name} in the argument 'parameter_dict'. but got its type {dst} in the "
                f"argument 'net' and type {src} in the argument 'parameter_dict'.May you need "
                f"to check whether the checkpoint you loaded is correct.",
                f"dtype {dst} in the net, {src} in the checkpoint")
        warn(f"The type of {value.name}:{src} in 'parameter_dict' is different from the type "
             f"of it in 'net':{dst}, then the type convert from {src} to {dst} in the network.")
    param.set_data(data)


def _trailing_ones(net_shape, ckpt_shape):
    n = len(net_shape)
    return len(ckpt_shape) > n and tuple(ckpt_shape[:n]) == tuple(net_shape) and \
        all(d == 1 for d in ckpt_shape[n:])


def _prefix_fallback(params, parameter_dict, param_not_load, on_mismatch, skipped, used):
    """MindSpore's retry: a checkpoint key ending with a missing name gives a prefix; every
    missing parameter found under that prefix is loaded; repeated while it finds some."""
    tried = set()
    while param_not_load:
        found = next((key[:-len(name)] for name in param_not_load for key in parameter_dict
                      if key.endswith(name) and key != name
                      and key[:-len(name)] not in tried), None)
        if found is None:
            return
        tried.add(found)
        warn(f"{_WHAT}, remove parameter prefix name: {found}, continue to load.")
        for param in params:
            key = found + param.name
            if param.name in param_not_load and isinstance(parameter_dict.get(key), Parameter):
                param_not_load.remove(param.name)
                _load_one(param, parameter_dict[key], key, False, on_mismatch, skipped, used)


def _warn(param_not_load: List[str], ckpt_not_load: List[str], skipped):
    if skipped:
        lines = "; ".join(f"'{name}' ({detail})" for name, _, detail in skipped)
        warn(f"{_WHAT}, {len(skipped)} parameters were skipped because they do not fit: "
             f"{lines}.")
    missing = [n for n in param_not_load if n not in {s[0] for s in skipped}]
    if not missing:
        return
    hints = []
    for name in missing:
        close = difflib.get_close_matches(name, ckpt_not_load, n=2, cutoff=0.6)
        close += [k for k in ckpt_not_load if k.endswith("." + name) and k not in close][:1]
        if close:
            hints.append(f"'{name}' (closest in the checkpoint: "
                         f"{', '.join(repr(c) for c in close)})")
    text = (f"{_WHAT}, {len(missing)} parameters in the 'net' are not loaded, because they are "
            f"not in the 'parameter_dict', please check whether the network structure is "
            f"consistent when training and loading checkpoint. {missing} are not loaded.")
    if hints:
        text += " Did you mean: " + "; ".join(hints) + "? (prefix= or name_map= can rename)"
    warn(text)
