"""Comparing cellgrad's public API with the recorded MindSpore 2.10 signatures.

`mismatches()` walks every recorded name that cellgrad provides (in the namespaces and on
Tensor/Parameter/Cell) and returns what differs; the tests and the terminal summary use it.
"""

import importlib
import json
import pathlib
from dataclasses import dataclass, field

from normalize import describe

HERE = pathlib.Path(__file__).parent
FIXTURE = json.loads((HERE / "mindspore-2.10.json").read_text())
CLASSES = {"Tensor": "cellgrad:Tensor", "Parameter": "cellgrad:Parameter",
           "Cell": "cellgrad.nn:Cell"}


@dataclass
class Report:
    checked: list = field(default_factory=list)  # qualnames compared
    unverifiable: list = field(default_factory=list)  # MindSpore's signature is (*args, **kw)
    differ: dict = field(default_factory=dict)  # qualname -> message


def _namespace(ns):
    try:
        return importlib.import_module(f"cellgrad.{ns}" if ns else "cellgrad")
    except ModuleNotFoundError:
        return None


def _provided(module, name):
    try:
        obj = getattr(module, name)
    except AttributeError:  # not provided, or provided by a package that is not installed
        return None
    return None if isinstance(obj, type(module)) else obj


def _compare(report, qualname, recorded, obj, method=False):
    if "unknown" in recorded or recorded.get("kind") == "property":
        return
    params = recorded["params"]
    if [p[1] for p in params] == ["var_positional", "var_keyword"]:
        report.unverifiable.append(qualname)
        return
    ours = describe(obj, method=method)
    report.checked.append(qualname)
    if ours.get("params") != params:
        report.differ[qualname] = (f"{qualname}: MindSpore {_text(params)}\n"
                                   f"{' ' * len(qualname)}  cellgrad  "
                                   f"{_text(ours.get('params'))}")


def _text(params):
    if params is None:
        return "(no signature)"
    out = []
    for name, kind, default in params:
        prefix = {"var_positional": "*", "var_keyword": "**"}.get(kind, "")
        mark = "/kw" if kind == "keyword_only" else ""
        out.append(f"{prefix}{name}{mark}" + (f"={default}" if default is not None else ""))
    return "(" + ", ".join(out) + ")"


def mismatches():
    """Compare every recorded name cellgrad provides; returns a Report."""
    report = Report()
    for ns, names in FIXTURE["namespaces"].items():
        module = _namespace(ns)
        if module is None:
            continue
        for name, recorded in names.items():
            obj = _provided(module, name)
            if obj is not None and callable(obj):
                _compare(report, f"{ns + '.' if ns else ''}{name}", recorded, obj)
    for label, where in CLASSES.items():
        module_name, _, attr = where.partition(":")
        cls = getattr(importlib.import_module(module_name), attr)
        for name, recorded in FIXTURE["methods"][label].items():
            obj = getattr(cls, name, None)
            if obj is not None and callable(obj):
                _compare(report, f"{label}.{name}", recorded, obj, method=True)
    return report
