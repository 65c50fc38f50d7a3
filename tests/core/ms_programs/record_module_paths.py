"""Record what MindSpore 2.10's module paths hold into tests/core/module_paths-2.10.json.

Run under real MindSpore:
    GLOG_v=3 /path/to/ms-venv/bin/python tests/core/ms_programs/record_module_paths.py
For each module path real code imports (../shared/usage/api-usage.md, "Module paths
imported"), its public names (`__all__`, else the objects of MindSpore's public modules it
holds) and, per name, the main namespace holding the same object under the same name ("" is
the top level), or null when the object lives only at that path.
`tests/core/test_module_paths.py` holds cellgrad's paths to it.
"""

import importlib
import inspect
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
MAIN = ["", "nn", "ops", "train", "communication", "common.initializer", "amp", "dataset",
        "context", "log"]
PATHS = """
    context log version common.tensor common.parameter common.dtype
    ops.operations ops.operations.nn_ops ops.operations.math_ops ops.operations.array_ops
    ops.operations.comm_ops ops.operations.other_ops ops.operations.random_ops
    ops.operations.image_ops
    train.callback train.serialization train.model train.loss_scale_manager train.metrics
    communication.management
    nn.layer nn.layer.basic nn.layer.conv nn.layer.normalization nn.layer.activation
    nn.layer.pooling nn.layer.container nn.layer.embedding nn.layer.padding nn.layer.dense
    nn.layer.math nn.layer.image nn.layer.combined nn.layer.rnns nn.layer.rnn_cells
    nn.layer.transformer nn.layer.channel_shuffle nn.layer.timedistributed
    nn.optim nn.optim.optimizer nn.optim.momentum nn.optim.sgd nn.optim.adam nn.optim.rmsprop
    nn.optim.lamb nn.optim.lars nn.optim.ada_grad nn.optim.adadelta nn.optim.adamax
    nn.optim.ftrl nn.optim.lazyadam nn.optim.proximal_ada_grad nn.optim.asgd nn.optim.rprop
    nn.loss nn.loss.loss nn.learning_rate_schedule nn.dynamic_lr nn.metrics
    nn.wrap nn.wrap.cell_wrapper nn.wrap.grad_reducer nn.wrap.loss_scale
""".split()
# Names the usage study shows imported from a path although its `__all__` leaves them out.
ALSO = {"train.model": ["ParallelMode"], "context": ["ParallelMode"],
        "communication.management": ["GlobalComm"],
        "nn.learning_rate_schedule": ["LearningRateSchedule"]}


def public(module):
    if hasattr(module, "__all__"):
        return [n for n in module.__all__ if not n.startswith("_")]
    out = []
    for name in dir(module):
        origin = getattr(getattr(module, name, None), "__module__", None) or ""
        if not name.startswith("_") and origin.startswith("mindspore") and "._" not in origin:
            out.append(name)
    return out


def canonical(path, name, obj):
    first = path.split(".")[0]
    for ns in sorted(MAIN, key=lambda m: m != first):  # the path's own namespace first
        if ns == path:
            continue
        module = importlib.import_module(f"mindspore.{ns}" if ns else "mindspore")
        if name in dir(module) and getattr(module, name) is obj:
            return ns
    return None


def main():
    import mindspore

    out = {"mindspore_version": mindspore.__version__, "paths": {}}
    for path in PATHS:
        module = importlib.import_module(f"mindspore.{path}")
        names = {}
        for name in sorted(set(public(module)) | set(ALSO.get(path, ()))):
            obj = getattr(module, name, None)
            if obj is None or inspect.ismodule(obj):
                continue
            names[name] = canonical(path, name, obj)
        out["paths"][path] = names
    target = HERE.parent / "module_paths-2.10.json"
    target.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {target} ({sum(map(len, out['paths'].values()))} names)")


if __name__ == "__main__":
    main()
