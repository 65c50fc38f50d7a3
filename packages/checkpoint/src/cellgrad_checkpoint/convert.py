"""`ckpt_to_safetensors` and `safetensors_to_ckpt`, mirroring MindSpore's converters.

A file is converted beside itself (or into `save_path`); a directory is converted rank by
rank (`<dir>/rank*/...` into the same layout under `save_path`). Values move between the
formats as they are stored (UInt16 stays UInt16, bfloat16 bits stay bits).
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor

from cellgrad_checkpoint.ckpt_reader import read_ckpt
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.safetensors_format import read_safetensors
from cellgrad_checkpoint.save import write_file


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1):
    """Mirrors `mindspore.ckpt_to_safetensors`: convert .ckpt files to safetensors."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors")


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1):
    """Mirrors `mindspore.safetensors_to_ckpt`: convert safetensors files to .ckpt."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt")


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, dst):
    src = "ckpt" if dst == "safetensors" else "safetensors"
    what = "ckpt_to_safetensors" if dst == "safetensors" else "safetensors_to_ckpt"
    if not isinstance(file_path, (str, os.PathLike)):
        raise TypeError(f"For {what}, file_path must be a str, but got {type(file_path)}.")
    file_path = os.fspath(file_path)
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {what}, the input path must be a valid path or file, but got "
                         f"{file_path}")
    if save_path and os.path.splitext(os.fspath(save_path))[1]:
        raise ValueError(f"For {what}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {what}, the type of 'name_map' must be a directory, but got "
                         f"'{type(name_map)}'")
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(f"For {what}, processes_num must be a positive int, but got "
                         f"{processes_num!r}.")
    if os.path.isdir(file_path):
        tasks = _directory_tasks(what, file_path, save_path, file_name_regex, src)
        with ThreadPoolExecutor(max_workers=processes_num) as pool:
            list(pool.map(lambda t: _convert_file(*t, name_map, src, dst), tasks))
        return
    if not file_path.endswith("." + src):
        raise ValueError(f"For {what}, the input file must be a .{src} file, but got {file_path}")
    if file_name_regex is not None and not re.findall(file_name_regex, file_path):
        raise ValueError(f"For {what}, the input file does not match the regular expression.")
    if save_path:
        os.makedirs(save_path, exist_ok=True)
    out_dir = os.fspath(save_path) if save_path else os.path.dirname(file_path)
    _convert_file(file_path, out_dir, os.path.basename(file_path), name_map, src, dst)


def _directory_tasks(what, file_path, save_path, file_name_regex, src):
    ranks = sorted(d for d in os.listdir(file_path)
                   if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
    if not ranks:
        raise ValueError(f"For '{what}', no directories starting with 'rank' found in "
                         f"{file_path}.")
    tasks = []
    for rank in ranks:
        rank_dir = os.path.join(file_path, rank)
        out_dir = os.path.join(save_path, rank) if save_path else rank_dir
        os.makedirs(out_dir, exist_ok=True)
        for name in sorted(os.listdir(rank_dir)):
            if name.endswith("." + src) and (file_name_regex is None
                                             or re.search(file_name_regex, name)):
                tasks.append((os.path.join(rank_dir, name), out_dir, name))
    return tasks


def _convert_file(path, out_dir, name, name_map, src, dst):
    if src == "ckpt":
        entries = read_ckpt(os.path.realpath(path))
    else:
        entries = read_safetensors(os.path.realpath(path), path, crc_check=False)
    if name_map:
        entries = {name_map.get(k, k): Entry(name_map.get(k, k), *e[1:])
                   for k, e in entries.items()}
    target = os.path.join(out_dir, name.replace(f".{src}", f".{dst}"))
    write_file(target, list(entries.values()), format=dst)
