"""The module the `cellgrad` entry point names: exports the checkpoint API into the top level
and `cellgrad.train`, lazily (nothing here is imported until a name is used)."""

from cellgrad.plugins import hookimpl

EXPORTS = {
    "save_checkpoint": "save:save_checkpoint",
    "load_checkpoint": "load:load_checkpoint",
    "load_param_into_net": "load_into_net:load_param_into_net",
    "ckpt_to_safetensors": "convert:ckpt_to_safetensors",
    "safetensors_to_ckpt": "convert:safetensors_to_ckpt",
    "CheckpointError": "errors:CheckpointError",
    "async_ckpt_thread_status": "save:async_ckpt_thread_status",
    "load_checkpoint_async": "load_async:load_checkpoint_async",
}


@hookimpl
def cellgrad_export_names(export):
    for name, target in EXPORTS.items():
        for namespace in ("", "train."):
            export(namespace + name, lazy=f"cellgrad_checkpoint.{target}")
    # what load_checkpoint_async returns, where MindSpore defines it
    export("train.serialization.ParamDictFuture",
           lazy="cellgrad_checkpoint.load_async:ParamDictFuture")
