"""cellgrad-checkpoint: MindSpore's checkpoint API for cellgrad, as a plugin.

Users reach it as `cellgrad.save_checkpoint`, `cellgrad.load_checkpoint`,
`cellgrad.load_param_into_net`, `cellgrad.ckpt_to_safetensors`, `cellgrad.safetensors_to_ckpt`,
`cellgrad.async_ckpt_thread_status` (also under `cellgrad.train`) and
`cellgrad.CheckpointError`; this package is found through
its `cellgrad` entry point and never imported by hand.

The names below load their module on first use: `cellgrad.save_checkpoint` imports the
writer, not the readers and converters (import time is one of the benchmarked rows).
"""

import importlib

__version__ = "0.1.0"

_HOME = {
    "CheckpointError": "errors",
    "async_ckpt_thread_status": "save",
    "ckpt_to_safetensors": "convert",
    "load_checkpoint": "load",
    "load_checkpoint_async": "load_async",
    "load_param_into_net": "load_into_net",
    "safetensors_to_ckpt": "convert",
    "save_checkpoint": "save",
}

__all__ = [
    "CheckpointError",
    "async_ckpt_thread_status",
    "ckpt_to_safetensors",
    "load_checkpoint",
    "load_checkpoint_async",
    "load_param_into_net",
    "safetensors_to_ckpt",
    "save_checkpoint",
]


def __getattr__(name):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'cellgrad_checkpoint' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"cellgrad_checkpoint.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOME))
