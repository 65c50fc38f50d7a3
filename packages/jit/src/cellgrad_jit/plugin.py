"""The module the `cellgrad` entry point names: exports `export`, `load` and `nn.GraphCell`
lazily (loading the plugin imports nothing else; onnx only when exporting ONNX)."""

from cellgrad.plugins import hookimpl

EXPORTS = {
    "export": "cellgrad_jit.api:export",
    "load": "cellgrad_jit.api:load",
    "train.export": "cellgrad_jit.api:export",
    "train.load": "cellgrad_jit.api:load",
    "train.serialization.export": "cellgrad_jit.api:export",
    "train.serialization.load": "cellgrad_jit.api:load",
    "nn.GraphCell": "cellgrad_jit.graph_cell:GraphCell",
    "load_mindir": "cellgrad_jit.mindir_proto:load_mindir",
    "save_mindir": "cellgrad_jit.mindir_proto:save_mindir",
}


@hookimpl
def cellgrad_export_names(export):
    for qualname, target in EXPORTS.items():
        export(qualname, lazy=target)
    # `ms.jit` traces and replays through this package from now on (the core asks lazily).
    from cellgrad import _jit_hook

    _jit_hook.register_compiler("cellgrad_jit.replay:compile_function")
