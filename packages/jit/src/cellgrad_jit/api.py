"""`ms.export` and `ms.load` (also `mindspore.train.export`/`load` and
`mindspore.train.serialization.export`/`load`)."""

import os
import stat

__all__ = ["export", "load"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]
_SUFFIX = {"ONNX": ".onnx", "MINDIR": ".mindir"}
_UNSUPPORTED = {  # MindSpore's export keywords cellgrad does not provide, and why
    "enc_key": "encrypted export", "enc_mode": "encrypted export",
    "obf_config": "model obfuscation", "custom_func": "custom encryption",
    "dataset": "exporting a dataset's preprocessing",
}


def export(net, *inputs, file_name, file_format, **kwargs):
    """Mirrors `mindspore.export`: trace `net(*inputs)` once in eval mode and write the graph
    as ONNX (opset 17; needs the `onnx` package) or MINDIR. A first dimension of None
    (`Tensor(shape=[None, 784], dtype=ms.float32)`) or `dynamic_batch=True` exports a dynamic
    batch size (ONNX). `file_format='AIR'` is Ascend-only."""
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got "
                         f"{file_format}.")
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend. "
                         "cellgrad runs on the CPU: export 'MINDIR' or 'ONNX' instead.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'export', the argument 'file_name' must be a str, but got "
                        f"{type(file_name).__name__}.")
    for key in kwargs:
        if key in _UNSUPPORTED and kwargs[key] is not None:
            raise NotImplementedError(f"For 'export', '{key}' ({_UNSUPPORTED[key]}) is not "
                                      f"supported by cellgrad; export without it.")
    dynamic_batch = kwargs.get("dynamic_batch", False)
    if not isinstance(dynamic_batch, bool):
        raise TypeError(f"For 'export', 'dynamic_batch' must be a bool, but got "
                        f"{type(dynamic_batch).__name__}.")
    from cellgrad_jit.capture import capture

    graph = capture(net, *inputs, dynamic_batch=dynamic_batch)
    if file_format == "ONNX":
        from cellgrad_jit.onnx_export import to_onnx

        data = to_onnx(graph).SerializeToString()
    else:
        from cellgrad_jit.mindir.write import to_mindir

        data = to_mindir(graph).SerializeToString()
    path = os.path.realpath(file_name)
    if not path.endswith(_SUFFIX[file_format]):
        path += _SUFFIX[file_format]
    _write_read_only(path, data)


def _write_read_only(path, data):
    """Write as MindSpore does: the file ends up readable by its owner only."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if os.path.exists(path):
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    os.chmod(path, stat.S_IRUSR)


def load(file_name, **kwargs):
    """Mirrors `mindspore.load`: read a MINDIR file into a graph for `nn.GraphCell`. Only data
    is read; each node names a primitive that cellgrad runs itself."""
    for key in ("dec_key", "obf_func"):
        if kwargs.get(key) is not None:
            raise NotImplementedError(f"For 'load', '{key}' (encrypted or obfuscated MindIR) is "
                                      f"not supported by cellgrad.")
    from cellgrad_jit.mindir.read import read_mindir

    return read_mindir(file_name)
