"""`load_checkpoint`, mirroring `mindspore.load_checkpoint`, with verified reads."""

from __future__ import annotations

import io
import os

import numpy as np

from cellgrad import Parameter, Tensor
from cellgrad_checkpoint.ckpt_reader import read_ckpt
from cellgrad_checkpoint.dtypes import STR, to_cellgrad
from cellgrad_checkpoint.safetensors_format import read_safetensors

_WHAT = "For 'load_checkpoint'"


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format="ckpt"):
    """Mirrors `mindspore.load_checkpoint`: a dict name -> Parameter (str for saved strings).

    Reads `.ckpt` (plain, with a CRC trailer, or encrypted) and `format='safetensors'` files;
    a truncated or corrupted file raises `CheckpointError` (a ValueError) naming the file, the
    byte offset and the entry. With `net`, the values are loaded into it as
    `load_param_into_net(net, ..., strict_load)` does.
    """
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    for name, value, types in (("dec_key", dec_key, (type(None), bytes)),
                               ("dec_mode", dec_mode, (str,)), ("crc_check", crc_check, (bool,)),
                               ("remove_redundancy", remove_redundancy, (bool,))):
        if not isinstance(value, types):
            raise TypeError(f"{_WHAT}, the argument '{name}' must be "
                            f"{' or '.join(t.__name__ for t in types)}, but got {type(value)}.")
    if format == "safetensors":
        for name, value, default in (("dec_key", dec_key, None), ("dec_mode", dec_mode,
                                                                  "AES-GCM")):
            if value != default:
                raise ValueError(f"{_WHAT}, when format is 'safetensors', the parameter "
                                 f"'{name}' must be set to default value '{default}', but got "
                                 f"'{value}'.")
    source = _check_file(ckpt_file_name, format)
    select = _selector(specify_prefix, filter_prefix, choice_func, format)
    if format == "safetensors":
        name = source if isinstance(source, str) else "<BytesIO>"
        entries = read_safetensors(source, name, crc_check=crc_check, select=select)
    else:
        entries = read_ckpt(source, dec_key=dec_key, dec_mode=dec_mode, crc_check=crc_check,
                            select=select)
    parameter_dict = to_parameters(entries, source if isinstance(source, str) else "<BytesIO>")
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please "
                         "check whether 'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        from cellgrad_checkpoint.load_into_net import load_param_into_net

        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def to_parameters(entries, path):
    """Entries -> name -> Parameter (named after the entry, requires_grad=True) or str."""
    out = {}
    for name, entry in entries.items():
        if entry.tensor_type == STR:
            out[name] = entry.data
            continue
        arr, dtype = to_cellgrad(name, entry.tensor_type, entry.data, path)
        out[name] = make_parameter(arr, dtype, name)
    return out


def make_parameter(arr: np.ndarray, dtype, name: str) -> Parameter:
    """A Parameter holding `arr` itself: the freshly read array is not copied again."""
    param = Parameter(Tensor(np.zeros((), dtype.np_dtype), dtype=dtype), name=name)
    param._data = arr
    return param


def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError(f"{_WHAT}, the type of 'specify_prefix' or 'filter_prefix' must be "
                        f"string, list[string] or tuple[string], but got {type(prefix)}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError(f"{_WHAT}, the argument 'specify_prefix' or 'filter_prefix' can't be "
                         f"empty when 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError(f"{_WHAT}, when 'specify_prefix' or 'filter_prefix' is list or "
                            f"tuple, the element in it must be string, but got {type(pre)} at "
                            f"index {index}.")
        if pre == "":
            raise ValueError(f"{_WHAT}, the value of 'specify_prefix' or 'filter_prefix' can't "
                             f"include ''.")
    return tuple(prefix)


def _selector(specify_prefix, filter_prefix, choice_func, format):
    """MindSpore's rule: the prefixes (ckpt only) replace choice_func when either is given."""
    if format == "ckpt" and (specify_prefix or filter_prefix):
        def select(name):
            if specify_prefix and not name.startswith(specify_prefix):
                return False
            return not (filter_prefix and name.startswith(filter_prefix))
        return select
    return choice_func


def _check_file(file, format):
    if format not in ("ckpt", "safetensors"):
        raise ValueError(f"{_WHAT}, the checkpoint file should end with '.ckpt' or "
                         f"'.safetensors', please input the correct 'format'.")
    if isinstance(file, io.BytesIO):
        if format == "ckpt":
            raise TypeError("ckpt don't support BytesIO as input type, please change to "
                            "safetensors.")
        return file
    if not isinstance(file, (str, os.PathLike)):
        raise TypeError(f"{_WHAT}, the argument 'ckpt_file_name' must be string, but got "
                        f"{type(file)}.")
    file = os.fspath(file)
    if not file.endswith(format):
        raise ValueError(f"{_WHAT}, the checkpoint file format must same with 'format', but got "
                         f"file_name:'{file}', format:'{format}'")
    file = os.path.realpath(file)
    if not os.path.exists(file):
        raise ValueError(f"{_WHAT}, the checkpoint file: {file} does not exist, please check "
                         f"whether the 'ckpt_file_name' is correct.")
    return file
