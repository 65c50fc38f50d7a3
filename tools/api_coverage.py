"""Which of MindSpore 2.10's public names cellgrad has, per namespace, from the signature fixture.

    python tools/api_coverage.py [namespace ...] [--missing]

Namespaces are the fixture's keys ('' is `mindspore` itself, 'ops', 'nn', ...); `Tensor`,
`Cell` and `Parameter` count methods. Names come from the packages installed with the core.
"""

import argparse
import importlib
import json
import pathlib

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "tests/signatures/mindspore-2.10.json"


def coverage(fixture=FIXTURE):
    """{namespace: (names, missing)} for every namespace and class of the fixture."""
    import cellgrad

    data = json.loads(pathlib.Path(fixture).read_text())
    rows = {}
    for key, names in data["namespaces"].items():
        try:
            mod = importlib.import_module("cellgrad" + (f".{key}" if key else ""))
        except ImportError:
            rows[key] = (list(names), list(names))
            continue
        rows[key] = (list(names), [n for n in names if not hasattr(mod, n)])
    for cls_name, names in data["methods"].items():
        cls = getattr(cellgrad.nn if cls_name == "Cell" else cellgrad, cls_name)
        rows[cls_name] = (list(names), [n for n in names if not hasattr(cls, n)])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("namespaces", nargs="*")
    parser.add_argument("--missing", action="store_true", help="list the missing names")
    args = parser.parse_args(argv)
    rows = coverage()
    total = have = 0
    for key, (names, missing) in sorted(rows.items()):
        if args.namespaces and key not in args.namespaces:
            continue
        total += len(names)
        have += len(names) - len(missing)
        print(f"{key or 'mindspore':40} {len(names) - len(missing):5}/{len(names):<5}"
              f" {100 * (len(names) - len(missing)) / max(len(names), 1):5.1f}%")
        if args.missing and missing:
            print("    " + " ".join(missing))
    print(f"{'total':40} {have:5}/{total:<5} {100 * have / max(total, 1):5.1f}%")


if __name__ == "__main__":
    main()
