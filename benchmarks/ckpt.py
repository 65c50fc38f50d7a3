"""Checkpoint save and load: cellgrad vs torch.save/torch.load vs a raw write/read of the same
bytes, in the same run, on a model of ~50M float32 parameters (six 1024->4096->1024 MLP blocks).

Contenders run interleaved, round after round in alternating order, in a temporary directory
on the filesystem of `--dir` (default: the system's temporary directory), each after an
`os.sync()` (so no one's fsync waits for another's unflushed writes). Every contender writes
over its own file of the previous round, as a training loop saving to one path does. Medians
are printed with the range over the rounds, then the ratios.

- cellgrad save: `save_checkpoint(net, path)`, atomic (temp file, fsync, rename, directory
  fsync) with cellgrad's header and footer (checksums); also `integrity=False`.
- raw write: the same tensor bytes to one file opened with "wb": without fsync, with fsync
  (the disk limit of a durable save: the target), and atomic like cellgrad's save (temp file,
  fsync, `os.replace`, directory fsync: the same durability as ours).
- torch.save of the same state dict: as users call it (no fsync), with fsync, and atomic as
  above (the same durability as ours).
- cellgrad load: `load_checkpoint(path)`: every byte read once into its final array and
  checksummed; timed repeatedly in this process (memory the allocator hands back warm) and
  once per fresh process (memory never touched, as when a program starts from a checkpoint).
  raw read: readinto a fresh array per tensor; torch.load (weights_only).

    python benchmarks/ckpt.py [--rounds 9] [--dir /path]
"""

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn

BLOCKS, WIDTH, HIDDEN = 6, 1024, 4096


class Block(nn.Cell):
    def __init__(self, rng):
        super().__init__()
        def param(*shape):
            return Parameter(Tensor(rng.standard_normal(shape, dtype=np.float32)))
        self.w1, self.b1 = param(HIDDEN, WIDTH), param(HIDDEN)
        self.w2, self.b2 = param(WIDTH, HIDDEN), param(WIDTH)


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.blocks = nn.CellList([Block(rng) for _ in range(BLOCKS)])


def raw_write(arrays, path, fsync):
    with open(path, "wb") as f:
        for arr in arrays:
            f.write(memoryview(arr).cast("B"))
        if fsync:
            f.flush()
            os.fsync(f.fileno())


def atomically(write, path):
    """`write(file)` with the duties of cellgrad's save: temp file in the same directory,
    fsync, `os.replace`, directory fsync."""
    temp = f"{path}.{os.getpid()}.tmp"
    with open(temp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)
    fd = os.open(os.path.dirname(path), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_arrays(arrays):
    def write(f):
        for arr in arrays:
            f.write(memoryview(arr).cast("B"))
    return write


def raw_read(arrays, path):
    out = []
    with open(path, "rb", buffering=0) as f:
        for arr in arrays:
            dest = np.empty(arr.shape, arr.dtype)
            f.readinto(memoryview(dest).cast("B"))
            out.append(dest)
    return out


def torch_save_fsync(torch, state, path):
    with open(path, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())


def contenders(net, directory):
    arrays = [p.asnumpy() for p in net.get_parameters()]
    ckpt, plain = os.path.join(directory, "m.ckpt"), os.path.join(directory, "plain.ckpt")
    raw, pt = os.path.join(directory, "raw.bin"), os.path.join(directory, "m.pt")
    save = {
        "cellgrad save": lambda: ms.save_checkpoint(net, ckpt),
        "cellgrad save integrity=False": lambda: ms.save_checkpoint(net, plain, integrity=False),
        "raw write (no fsync)": lambda: raw_write(arrays, raw + ".nofsync", False),
        "raw write + fsync": lambda: raw_write(arrays, raw, True),
        "raw write, atomic": lambda: atomically(write_arrays(arrays), raw + ".atomic"),
    }
    load = {
        "cellgrad load": lambda: ms.load_checkpoint(ckpt),
        "cellgrad load integrity=False file": lambda: ms.load_checkpoint(plain),
        "raw read (readinto)": lambda: raw_read(arrays, raw),
    }
    try:
        import torch
    except ImportError:
        print("(torch is not installed: no torch.save/torch.load)")
    else:
        state = {p.name: torch.from_numpy(p.asnumpy()) for p in net.get_parameters()}
        save["torch.save (no fsync)"] = lambda: torch.save(state, pt)
        save["torch.save + fsync"] = lambda: torch_save_fsync(torch, state, pt + ".fsync")
        save["torch.save, atomic"] = lambda: atomically(lambda f: torch.save(state, f),
                                                        pt + ".atomic")
        load["torch.load"] = lambda: torch.load(pt, weights_only=True)
    return save, load


def run(group, rounds):
    for step in group.values():  # warm-up, and the files the loads read
        step()
    times = {name: [] for name in group}
    order = list(group.items())
    for i in range(rounds):
        for name, step in order if i % 2 == 0 else order[::-1]:  # no one is always first
            # flush what earlier contenders left dirty, or the next fsync pays for it
            os.sync()
            t = time.perf_counter()
            step()
            times[name].append(time.perf_counter() - t)
    return {name: [t * 1e3 for t in ts] for name, ts in times.items()}


def show(title, results, ratios):
    """Medians with their range; then `ratios`: (numerator, denominator, what it measures)."""
    print(title)
    for name, ts in results.items():
        print(f"  {name:<36} {statistics.median(ts):8.1f} ms   ({min(ts):.0f}-{max(ts):.0f})")
    for base, other, what in ratios:
        if base in results and other in results:
            ratio = statistics.median(results[base]) / statistics.median(results[other])
            print(f"  => {base} / {other} = {ratio:.2f}x  {what}")


_FRESH = """
import sys, time
import numpy as np
kind, path = sys.argv[1], sys.argv[2]
if kind == "torch":
    import torch
    t = time.perf_counter(); torch.load(path, weights_only=True)
elif kind == "raw":
    sizes = [int(n) for n in sys.argv[3].split(",")]
    t = time.perf_counter()
    kept = []  # every array stays alive, as a loaded model's do
    with open(path, "rb", buffering=0) as f:
        for n in sizes:
            kept.append(np.empty(n, np.uint8))
            f.readinto(kept[-1])
else:
    import cellgrad as ms
    ms.load_checkpoint  # the plugin is loaded before the clock starts
    t = time.perf_counter(); ms.load_checkpoint(path)
print((time.perf_counter() - t) * 1e3)
"""


def fresh_process_loads(net, directory, rounds):
    """Each load once, in a new process: memory never touched before, as at a program's start."""
    sizes = ",".join(str(p.asnumpy().nbytes) for p in net.get_parameters())
    runs = {"cellgrad load": ("cellgrad", "m.ckpt"),
            "cellgrad load integrity=False file": ("cellgrad", "plain.ckpt"),
            "raw read (readinto)": ("raw", "raw.bin"), "torch.load": ("torch", "m.pt")}
    times = {name: [] for name in runs if os.path.exists(os.path.join(directory,
                                                                       runs[name][1]))}
    for i in range(rounds):
        for name in times if i % 2 == 0 else list(times)[::-1]:
            kind, file = runs[name]
            out = subprocess.run([sys.executable, "-c", _FRESH, kind,
                                  os.path.join(directory, file), sizes],
                                 capture_output=True, text=True, check=True).stdout
            times[name].append(float(out))
    return times


def save_peak_memory(net, directory):
    """Extra memory allocated while saving (numpy allocations are traced)."""
    path = os.path.join(directory, "peak.ckpt")
    tracemalloc.start()
    ms.save_checkpoint(net, path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    net = Model()
    nbytes = sum(p.asnumpy().nbytes for p in net.get_parameters())
    count = sum(p.size for p in net.get_parameters())
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"model: {count / 1e6:.1f}M float32 parameters in {len(list(net.get_parameters()))} "
          f"tensors, {nbytes / 2**20:.0f} MiB; {args.rounds} interleaved rounds, medians "
          f"(min-max)")
    ours = "cellgrad save"
    save_ratios = [
        (ours, "raw write + fsync", "target <= 1.3x: the disk limit of a durable write"),
        (ours, "raw write, atomic", "the same bytes with the same durability as ours"),
        (ours, "torch.save (no fsync)", "target <= 1.0x: torch.save as users call it"),
        (ours, "torch.save, atomic", "torch.save with the same durability as ours"),
        ("cellgrad save integrity=False", "raw write, atomic", "MindSpore's bytes, same duties"),
    ]
    load_ratios = [
        ("cellgrad load", "raw read (readinto)", "target <= 1.2x"),
        ("cellgrad load", "torch.load", "target <= 1.0x"),
        ("cellgrad load integrity=False file", "raw read (readinto)", "without checksums"),
    ]
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        save, load = contenders(net, directory)
        show("save", run(save, args.rounds), save_ratios)
        show("load, repeated in this process", run(load, args.rounds), load_ratios)
        show("load, once in a fresh process", fresh_process_loads(net, directory, args.rounds),
             load_ratios)
        peak = save_peak_memory(net, directory)
        print(f"memory allocated while saving: {peak / 2**20:.1f} MiB "
              f"(the model is {nbytes / 2**20:.0f} MiB: tensors are written from their buffers)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
