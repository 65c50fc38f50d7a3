"""`save_checkpoint`, mirroring `mindspore.save_checkpoint`, with atomic writes."""

from __future__ import annotations

import atexit
import os
import threading
import warnings
from typing import List

from cellgrad import Parameter, Tensor
from cellgrad.nn import Cell
from cellgrad_checkpoint import crypto
from cellgrad_checkpoint.atomic import atomic_write
from cellgrad_checkpoint.ckpt_writer import write_ckpt
from cellgrad_checkpoint.collect import collect
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.safetensors_format import write_safetensors

_WHAT = "For 'save_checkpoint'"
_KWARGS = {"integrity", "incremental", "global_step_num", "remove_redundancy"}
_INT64 = (-(2**63), 2**63 - 1)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):
    """Mirrors `mindspore.save_checkpoint`: save a Cell's parameters (or a list of Parameters,
    a list of `{'name', 'data'}` dicts, a dict name -> Tensor/Parameter/str) to a file.

    The file is replaced atomically (the previous file survives any failure) and keeps the
    previous file's permissions. `.ckpt` files carry cellgrad's header and footer, which
    MindSpore skips, so that loading detects truncation and corruption; the keyword argument
    `integrity=False` leaves them out and writes exactly MindSpore's bytes. `async_save`
    (True, 'thread' or 'process') snapshots the values and writes in a background thread.
    """
    path = _check_file_name(save_obj, ckpt_file_name, format)
    if not isinstance(integrated_save, bool):
        raise TypeError(f"{_WHAT}, the argument 'integrated_save' must be bool, but got "
                        f"{type(integrated_save)}.")
    _check_async(async_save)
    _check_append_dict(append_dict)
    _check_type("enc_key", enc_key, (type(None), bytes))
    _check_type("enc_mode", enc_mode, (str,))
    _check_type("crc_check", crc_check, (bool,))
    marks = _check_kwargs(kwargs, format, enc_key, enc_mode)
    if enc_key is not None:
        crypto.check_key("save_checkpoint", enc_key, enc_mode)
    entries = collect(save_obj, append_dict, choice_func, copy=bool(async_save))
    write = (lambda: write_file(path, entries, format, crc_check, marks, enc_key, enc_mode))
    if async_save:
        _start_async(path, write)
    else:
        wait_async()
        write()


def write_file(path: str, entries: List[Entry], format: str = "ckpt", crc: bool = False,
               marks: bool = True, enc_key=None, enc_mode="AES-GCM") -> None:
    """Write entries to `path` atomically, in either format."""
    if format == "safetensors":
        with atomic_write(path) as f:
            write_safetensors(f, entries, crc=crc, marks=marks)
        return
    with atomic_write(path) as f:
        if enc_key is None:
            write_ckpt(f, entries, marks=marks, crc=crc)
        else:
            # The CRC trailer goes inside the encrypted body, where MindSpore's loader looks
            # for it after decrypting (MindSpore itself appends an unloadable one outside).
            sink = crypto.FrameWriter(f, enc_key, enc_mode)
            write_ckpt(sink, entries, marks=marks, crc=crc)
            sink.close()


def _check_type(name, value, types):
    if not isinstance(value, types):
        raise TypeError(f"{_WHAT}, the argument '{name}' must be "
                        f"{' or '.join(t.__name__ for t in types)}, but got {type(value)}.")


def _check_file_name(save_obj, name, format):
    if format not in ("safetensors", "ckpt"):
        raise ValueError(f"{_WHAT}, the format must be 'safetensors' or 'ckpt', but got "
                         f"{format}.")
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(f"{_WHAT}, the parameter 'save_obj' must be nn.Cell, list or dict, but "
                        f"got {type(save_obj)}.")
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"{_WHAT}, the parameter {name} for checkpoint file name is invalid,"
                        f"'ckpt_file_name' must be string, but got {type(name)}.")
    path = os.path.realpath(os.fspath(name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"{_WHAT}, the parameter `ckpt_file_name`: {path} is a "
                                f"directory, it must be a file name.")
    return path if path.endswith(format) else f"{path}.{format}"


def _check_async(async_save):
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"{_WHAT}, the parameter 'async_save' must be bool or str, but got "
                        f"{type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(f"{_WHAT}, the argument 'async_save' can only be 'process' or "
                         f"'thread', but got {async_save}.")


def _check_append_dict(append_dict):
    if append_dict is None:
        return
    if not isinstance(append_dict, dict):
        raise TypeError(f"{_WHAT}, the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Parameter,
                                                              Tensor)):
            raise TypeError(f"{_WHAT}, the type of dict 'append_info' must be key: string, "
                            f"value: int, float, bool, str, Tensor or Parameter, but got key: "
                            f"{type(key)}, value: {type(value)}")
        if type(value) is int and not _INT64[0] <= value <= _INT64[1]:
            raise ValueError(f"{_WHAT}, append_dict['{key}'] = {value} does not fit in Int64.")


def _check_kwargs(kwargs, format, enc_key, enc_mode):
    unknown = sorted(set(kwargs) - _KWARGS)
    if unknown:
        raise TypeError(f"{_WHAT}, unexpected keyword arguments {unknown}; accepted: "
                        f"{sorted(_KWARGS)}.")
    marks = kwargs.get("integrity", True)
    if not isinstance(marks, bool):
        raise TypeError(f"{_WHAT}, the argument 'integrity' must be bool, but got "
                        f"{type(marks)}.")
    if format == "safetensors":
        for name, value, default in (("enc_key", enc_key, None), ("enc_mode", enc_mode, "AES-GCM"),
                                     ("incremental", kwargs.get("incremental", False), False),
                                     ("global_step_num", kwargs.get("global_step_num"), None)):
            if value != default:
                raise ValueError(f"{_WHAT}, when format is 'safetensors', the parameter "
                                 f"'{name}' must be set to default value '{default}', but got "
                                 f"'{value}'.")
    return marks


# ---- asynchronous saves: one at a time, in order; a failure surfaces at the next call ----
ASYNC_THREAD_NAME = "asyn_save_ckpt"
_async_lock = threading.Lock()
_async_thread = None
_async_error = None


def _start_async(path, write):
    global _async_thread
    wait_async()

    def run():
        global _async_error
        try:
            write()
        except BaseException as e:  # noqa: B902 -- reported by the next call (or at exit)
            _async_error = (path, e)

    with _async_lock:
        # MindSpore's thread name: its ModelCheckpoint.end() joins threads by that name.
        _async_thread = threading.Thread(target=run, name=ASYNC_THREAD_NAME)
        _async_thread.start()


def async_ckpt_thread_status():
    """Mirrors `mindspore.async_ckpt_thread_status`: whether an asynchronous save is running."""
    thread = _async_thread
    return thread is not None and thread.is_alive()


def wait_async() -> None:
    """Wait for the running asynchronous save; re-raise its exception if it failed."""
    global _async_thread, _async_error
    with _async_lock:
        thread, _async_thread = _async_thread, None
    if thread is not None:
        thread.join()
    if _async_error is not None:
        (path, error), _async_error = _async_error, None
        raise RuntimeError(f"{_WHAT}, the asynchronous save of {path} failed: {error!r}; the "
                           f"previous file is unchanged.") from error


@atexit.register
def _finish_at_exit():
    try:
        wait_async()
    except RuntimeError as e:
        warnings.warn(str(e), RuntimeWarning, stacklevel=1)
