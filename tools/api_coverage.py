"""Which of MindSpore 2.10's public names cellgrad has, per namespace, from the signature fixture.

    python tools/api_coverage.py [namespace ...] [--missing]

Namespaces are the fixture's keys ('' is `mindspore` itself, 'ops', 'nn', ...); `Tensor`,
`Cell` and `Parameter` count methods. Names come from the packages installed with the core.
A name cellgrad deliberately leaves out (`cellgrad._not_provided.NOT_PROVIDED`: Ascend-only
kernels, kernel compilers, graph-compiler internals — each with the reason and what to use
instead, raised when the name is used) counts as "left out", not as missing.
"""

import argparse
import importlib
import json
import pathlib

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "tests/signatures/mindspore-2.10.json"


def left_out(namespace, name):
    """The reason cellgrad gives for not providing `namespace.name`, or None."""
    from cellgrad._not_provided import NOT_PROVIDED

    return NOT_PROVIDED.get(f"{namespace}.{name}" if namespace else name)


def coverage(fixture=FIXTURE):
    """{namespace: (names, missing, left)} for every namespace and class of the fixture:
    `left` are the names cellgrad deliberately leaves out, `missing` the others it lacks."""
    import cellgrad

    data = json.loads(pathlib.Path(fixture).read_text())
    rows = {}
    for key, names in data["namespaces"].items():
        try:
            mod = importlib.import_module("cellgrad" + (f".{key}" if key else ""))
        except ImportError:
            rows[key] = (list(names), list(names), [])
            continue
        absent = [n for n in names if not hasattr(mod, n)]
        left = [n for n in absent if left_out(key, n) is not None]
        rows[key] = (list(names), [n for n in absent if n not in left], left)
    for cls_name, names in data["methods"].items():
        cls = getattr(cellgrad.nn if cls_name == "Cell" else cellgrad, cls_name)
        rows[cls_name] = (list(names), [n for n in names if not hasattr(cls, n)], [])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("namespaces", nargs="*")
    parser.add_argument("--missing", action="store_true", help="list the missing names")
    args = parser.parse_args(argv)
    rows = coverage()
    total = have = gone = 0
    print(f"{'namespace':40} {'exist':>5} {'left out':>8} {'of':>5}  exist  exist or left out")
    for key, (names, missing, left) in sorted(rows.items()):
        if args.namespaces and key not in args.namespaces:
            continue
        n, k = len(names), len(names) - len(missing) - len(left)
        total, have, gone = total + n, have + k, gone + len(left)
        print(f"{key or 'mindspore':40} {k:5} {len(left):8} {n:5}  {100 * k / max(n, 1):5.1f}%"
              f"  {100 * (k + len(left)) / max(n, 1):5.1f}%")
        if args.missing and missing:
            print("    " + " ".join(missing))
    print(f"{'total':40} {have:5} {gone:8} {total:5}  {100 * have / max(total, 1):5.1f}%"
          f"  {100 * (have + gone) / max(total, 1):5.1f}%")


if __name__ == "__main__":
    main()
