"""cellgrad-checkpoint: MindSpore's checkpoint API for cellgrad, as a plugin.

Users reach it as `cellgrad.save_checkpoint`, `cellgrad.load_checkpoint`,
`cellgrad.load_param_into_net`, `cellgrad.ckpt_to_safetensors`, `cellgrad.safetensors_to_ckpt`
(also under `cellgrad.train`) and `cellgrad.CheckpointError`; this package is found through
its `cellgrad` entry point and never imported by hand.
"""

from cellgrad_checkpoint.convert import ckpt_to_safetensors, safetensors_to_ckpt
from cellgrad_checkpoint.errors import CheckpointError
from cellgrad_checkpoint.load import load_checkpoint
from cellgrad_checkpoint.load_into_net import load_param_into_net
from cellgrad_checkpoint.save import save_checkpoint

__version__ = "0.1.0"

__all__ = [
    "CheckpointError",
    "ckpt_to_safetensors",
    "load_checkpoint",
    "load_param_into_net",
    "safetensors_to_ckpt",
    "save_checkpoint",
]
