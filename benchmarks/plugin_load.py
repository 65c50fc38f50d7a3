"""What plugins cost at start-up: `import cellgrad` alone against `import cellgrad` plus the
first lookup of a plugin name (importing pluggy and importlib.metadata, scanning the entry
points, importing and settling every plugin). Each is a fresh interpreter; prints the medians
in milliseconds and the difference, which issue 4 wants under 100 ms.

    python benchmarks/plugin_load.py [--repeat 15] [--name ops.squareplus]

The default name is `ops.squareplus` (examples/op-plugin) when it is installed, else
`save_checkpoint`, whose lookup loads every plugin as well before it raises the install hint.
"""

import argparse
import statistics
import subprocess
import sys
from importlib import metadata

IMPORT_ONLY = """
import time
t = time.perf_counter()
import cellgrad
print(time.perf_counter() - t)
"""

WITH_LOOKUP = """
import time
t = time.perf_counter()
import cellgrad
u = time.perf_counter()
try:
    cellgrad.{name}
except AttributeError:
    pass
v = time.perf_counter()
print(v - t, v - u)
"""


def run(code):
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                         text=True, check=True).stdout.split()
    return [float(x) * 1e3 for x in out]


def measure(repeat, name=None):
    """(name looked up, [(label, median ms)])."""
    if name is None:
        try:
            metadata.version("cellgrad-squareplus")
            name = "ops.squareplus"
        except metadata.PackageNotFoundError:
            name = "save_checkpoint"
    alone, total, lookup = [], [], []
    for _ in range(repeat):  # interleaved, so drift hits both alike
        alone.append(run(IMPORT_ONLY)[0])
        t, lk = run(WITH_LOOKUP.format(name=name))
        total.append(t)
        lookup.append(lk)
    med = statistics.median
    return name, [
        ("import cellgrad", med(alone)),
        (f"import cellgrad + cellgrad.{name}", med(total)),
        ("the first lookup alone (same process)", med(lookup)),
        ("added by plugins (difference of medians)", med(total) - med(alone)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--name", default=None, help="the plugin name looked up")
    args = parser.parse_args()
    found = [d.metadata["Name"] for d in metadata.distributions()
             if any(ep.group == "cellgrad" for ep in d.entry_points)]
    _, rows = measure(args.repeat, args.name)
    print(f"plugins installed: {', '.join(sorted(found)) or 'none'}; "
          f"{len(list(metadata.distributions()))} distributions on sys.path")
    for label, ms in rows:
        print(f"{label:<48} {ms:7.1f} ms")
    print("target: added < 100 ms")


if __name__ == "__main__":
    main()
