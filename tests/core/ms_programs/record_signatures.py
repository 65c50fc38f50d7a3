"""Record MindSpore 2.10's public API signatures into tests/signatures/mindspore-2.10.json.

Run under real MindSpore (`pip install mindspore "numpy<2"` in a side venv):
    GLOG_v=3 /path/to/ms-venv/bin/python tests/core/ms_programs/record_signatures.py
Every public class and function of the namespaces cellgrad mirrors is recorded (not only what
cellgrad has today: later packages are held to the same file), plus the public methods of
Tensor, Parameter and Cell. Defaults are stored in a normalised text form that
`tests/signatures/normalize.py` also produces for cellgrad's objects.
"""

import importlib
import inspect
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "signatures"))
from normalize import describe  # noqa: E402

NAMESPACES = ["mindspore", "mindspore.nn", "mindspore.ops", "mindspore.common.initializer",
              "mindspore.train", "mindspore.dataset", "mindspore.communication"]
# Other namespaces and the module paths real code imports (../shared/usage/api-usage.md):
# their `__all__` where they have one, else the public MindSpore objects they hold.
MODULE_PATHS = """
    numpy mint amp experimental.optim log ops.operations ops.composite ops.functional
    ops.primitive train.callback train.serialization train.model train.loss_scale_manager
    train.metrics communication.management context common.tensor common.parameter
    common.dtype nn.layer nn.optim nn.optim.optimizer nn.optim.momentum nn.optim.adam
    nn.optim.sgd nn.loss nn.loss.loss nn.learning_rate_schedule nn.dynamic_lr nn.wrap
    nn.wrap.cell_wrapper nn.wrap.grad_reducer nn.wrap.loss_scale nn.metrics
    mint.nn mint.nn.functional mint.optim mint.linalg mint.special experimental.optim.lr_scheduler
""".split()
# Public names a namespace has outside its `__all__` (MindSpore 2.10's mint omits these).
EXTRA = {"mindspore.mint": "addcmul clip equal fix ge linspace ones trunc unique".split()}
CLASSES = {"Tensor": "mindspore.Tensor", "Parameter": "mindspore.Parameter",
           "Cell": "mindspore.nn.Cell"}


def main():
    import mindspore

    out = {"mindspore_version": mindspore.__version__, "namespaces": {}, "methods": {}}
    for ns in NAMESPACES + [f"mindspore.{p}" for p in MODULE_PATHS]:
        module = importlib.import_module(ns)
        names = {}
        for name in sorted({*_public(module, whole=ns in NAMESPACES), *EXTRA.get(ns, ())}):
            obj = getattr(module, name, None)
            if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
                continue
            names[name] = describe(obj)
        out["namespaces"][ns.replace("mindspore", "", 1).lstrip(".")] = names
    for label, path in CLASSES.items():
        module, _, cls_name = path.rpartition(".")
        cls = getattr(importlib.import_module(module), cls_name)
        methods = {}
        for name in sorted(n for n in dir(cls) if not n.startswith("_")):
            attr = inspect.getattr_static(cls, name, None)
            if isinstance(attr, property):
                methods[name] = {"kind": "property"}
            elif callable(getattr(cls, name, None)):
                methods[name] = describe(getattr(cls, name), method=True)
        out["methods"][label] = methods
    target = HERE.parent.parent / "signatures" / "mindspore-2.10.json"
    text = json.dumps(out, indent=0, sort_keys=True, separators=(",", ":"))
    target.write_text(text + "\n")
    count = sum(len(v) for v in out["namespaces"].values()) + \
        sum(len(v) for v in out["methods"].values())
    print(f"wrote {target} ({count} names)")


def _public(module, whole):
    """The public names of `module`: all of them for a main namespace, else its `__all__` or
    the objects of MindSpore's public modules it holds (not what it imports to work)."""
    if whole:
        return [n for n in dir(module) if not n.startswith("_")]
    if hasattr(module, "__all__"):
        return [n for n in module.__all__ if not n.startswith("_")]
    out = []
    for name in dir(module):
        origin = getattr(getattr(module, name, None), "__module__", None) or ""
        if not name.startswith("_") and origin.startswith("mindspore") and "._" not in origin:
            out.append(name)
    return out


if __name__ == "__main__":
    main()
