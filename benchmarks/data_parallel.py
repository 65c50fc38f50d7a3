"""Data-parallel training on this machine, and what it predicts for a cluster.

Samples per second (global batch over the median step) of `mlp_step` (784-512-512-10, global
batch 64, SGD) and `cnn_step` (LeNet-5, global batch 32, SGD) for one process with 2 BLAS
threads against 2 MPI processes with 1 thread each (`mpirun -n 2`, each on half the batch,
gradients reduced in 1 MB buckets: in a shared-memory window on one host, else all-reduced
from the backward walk), plus 2 processes without the walk's hooks and 2
processes that never all-reduce (the bound compute alone sets on this machine). Also: the
time each process waits for all-reduces at the end of a step, the raw all-reduce time of the
gradients, and the ring all-reduce cost model (README) evaluated at 8, 64 and 512 processes
over 10, 25 and 100 Gb/s links with the constants measured here.

    python benchmarks/data_parallel.py [--steps 40] [--rounds 3]

Needs cellgrad-distributed, mpi4py and an MPI launcher next to the interpreter
(`pip install mpich`). Configurations run in rotation, `--rounds` times; medians are shown.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = {"mlp_step": 64, "cnn_step": 32}  # global batch, as in mlp_step.py and cnn_step.py
CONFIGS = {  # name: (processes, BLAS threads per process, mode)
    "1 process x 2 threads": (1, 2, "alone"),
    "2 processes x 1 thread": (2, 1, "dp"),
    "2 processes, no overlap": (2, 1, "dp-sync"),
    # each on half the batch, gradients never reduced: what compute alone allows (the bound)
    "2 processes, no all-reduce": (2, 1, "local"),
}
# Cost model constants that cannot be measured on one machine: per-message latency of MPI over
# the network (TCP/Ethernet, typical measured values are 10-30 us).
NETWORK_LATENCY_S = 20e-6
LINKS_GBPS = (10, 25, 100)
PROCESSES = (8, 64, 512)
BUCKET_BYTES = 2**20
BUCKETS = (2**20, 25 * 2**20)  # the default, and one bucket for these models


# ---- one process of one configuration ----


def build(model, batch):
    sys.path.insert(0, HERE)
    from cellgrad import Tensor, nn

    rng = np.random.default_rng(1)
    if model == "mlp_step":
        from mlp_step import LR, SIZES, weights

        layers = []
        for i, (w, b) in enumerate(weights()):
            layers.append(nn.Dense(w.shape[1], w.shape[0], Tensor(w), Tensor(b)))
            if i < len(SIZES) - 2:
                layers.append(nn.ReLU())
        net = nn.SequentialCell(layers)
        x = rng.standard_normal((batch, SIZES[0])).astype(np.float32)
    else:
        from cnn_step import LR, cellgrad_net

        net = cellgrad_net(bn=False)
        x = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, batch).astype(np.int32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), LR))
    return net, loss, step, Tensor(x), Tensor(y)


def worker(model, mode, steps):
    import contextlib

    import cellgrad as ms

    size, rank, comm = 1, 0, None
    if mode != "alone":
        from cellgrad.communication import get_group_size, get_rank, init

        init()
        size, rank = get_group_size(), get_rank()
        if mode != "local":
            ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
        from mpi4py import MPI

        comm = MPI.COMM_WORLD
    global_batch = MODELS[model]
    net, loss, step, x, y = build(model, global_batch // size)
    if mode == "dp-sync":
        step._backward_scope = contextlib.nullcontext  # reduce after the backward walk
    for _ in range(5):
        step(x, y)
    reducer = getattr(step, "grad_reducer", None)
    waited = getattr(reducer, "comm_wait_seconds", 0.0)
    if comm is not None:
        comm.Barrier()
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        step(x, y)
        times.append(time.perf_counter() - t)
    if comm is not None:
        comm.Barrier()
    # The median step, as the other benchmarks: the shared VM's hiccups stay out. Processes
    # meet at every step's all-reduce, so rank 0's step is the job's.
    seconds = statistics.median(times)
    waited = (getattr(reducer, "comm_wait_seconds", 0.0) - waited) / steps
    result = {"ms_per_step": 1e3 * seconds,
              "samples_per_s": global_batch / seconds,
              "wait_ms_per_step": 1e3 * waited,
              "grad_bytes": sum(p.asnumpy().nbytes for p in net.trainable_params())}
    if mode == "alone":
        result.update(phases(net, loss, step, x, y))
    elif mode == "dp":
        result.update(raw_allreduce(comm, result["grad_bytes"]))
    if rank == 0:
        print(json.dumps(result), flush=True)


def phases(net, loss, step, x, y, repeat=20):
    """Forward and backward time of the local step (the backward is what buckets overlap)."""
    import cellgrad as ms

    def median(fn):
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    forward = median(lambda: loss(net(x), y))
    both = median(lambda: ms.value_and_grad(lambda a, b: loss(net(a), b), None,
                                            step.weights)(x, y))
    return {"forward_ms": 1e3 * forward, "backward_ms": 1e3 * max(both - forward, 0.0)}


def raw_allreduce(comm, nbytes, repeat=30):
    """Blocking all-reduce of the gradients' size and of 8 bytes (latency), medians."""
    from mpi4py import MPI

    def median(buf):
        times = []
        for _ in range(repeat):
            comm.Barrier()
            t = time.perf_counter()
            comm.Allreduce(MPI.IN_PLACE, buf, MPI.SUM)
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    return {"allreduce_ms": 1e3 * median(np.ones(nbytes // 4, np.float32)),
            "latency_us": 1e6 * median(np.ones(2, np.float32))}


# ---- the launcher ----


def launcher():
    for name in ("mpirun", "mpiexec"):
        path = os.path.join(sys.prefix, "bin", name)
        if os.path.exists(path):
            return path
    raise SystemExit("no mpirun next to this interpreter: pip install mpi4py mpich")


def launch(model, config, steps):
    processes, threads, mode = CONFIGS[config]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads))
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", model, "--mode", mode,
           "--steps", str(steps)]
    if processes > 1:
        cmd = [launcher(), "-n", str(processes)] + cmd
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def ring_step_seconds(compute, backward, grad_bytes, processes, bandwidth, latency,
                      bucket=BUCKET_BYTES):
    """The cost model: one step of data-parallel training with a ring all-reduce.

    A ring all-reduce of s bytes over P processes sends 2(P-1) messages of s/P bytes:
    t(s) = 2(P-1) * (latency + s / (P * bandwidth)). The gradients (S bytes) travel in
    ceil(S / bucket) buckets, one after the other; all but the last overlap the backward walk,
    so the step takes compute + max(t(last bucket), sum of t(bucket) - backward).
    """
    p = processes
    n = max(1, -(-grad_bytes // bucket))
    last = grad_bytes - (n - 1) * bucket
    per_message = 2 * (p - 1) * latency
    total = n * per_message + 2 * (p - 1) * grad_bytes / (p * bandwidth)
    last_time = per_message + 2 * (p - 1) * last / (p * bandwidth)
    return compute + max(last_time, total - backward)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--worker", choices=sorted(MODELS))
    p.add_argument("--mode", choices=("alone", "dp", "dp-sync", "local"))
    args = p.parse_args()
    if args.worker:
        return worker(args.worker, args.mode, args.steps)

    for model in MODELS:
        runs = {c: [] for c in CONFIGS}
        names = list(CONFIGS)
        for r in range(args.rounds):
            for config in names[r % len(names):] + names[:r % len(names)]:
                runs[config].append(launch(model, config, args.steps))
        med = {c: {k: statistics.median(run[k] for run in rs) for k in rs[0]}
               for c, rs in runs.items()}
        base = med["1 process x 2 threads"]
        print(f"{model}: global batch {MODELS[model]}, {args.steps} steps x {args.rounds} "
              f"rounds (medians)")
        for config, m in med.items():
            wait = f", waits {m['wait_ms_per_step']:.2f} ms/step for all-reduce" \
                if CONFIGS[config][2] in ("dp", "dp-sync") else ""
            print(f"  {config:<26} {m['samples_per_s']:8.0f} samples/s  "
                  f"{m['ms_per_step']:7.2f} ms/step  "
                  f"{m['samples_per_s'] / base['samples_per_s']:.2f}x{wait}")
        dp = med["2 processes x 1 thread"]
        print(f"  gradients {dp['grad_bytes'] / 2**20:.2f} MB; blocking all-reduce of them on 2 "
              f"processes {dp['allreduce_ms']:.2f} ms, of 8 bytes {dp['latency_us']:.1f} us; "
              f"one process: forward {base['forward_ms']:.2f} ms, backward "
              f"{base['backward_ms']:.2f} ms at batch {MODELS[model]}")
        cost_model(model, dp, base)


def cost_model(model, dp, base):
    """Throughput predicted at scale: each process keeps this run's batch per process."""
    compute = (dp["ms_per_step"] - dp["wait_ms_per_step"]) / 1e3
    backward = compute * base["backward_ms"] / (base["forward_ms"] + base["backward_ms"])
    local_batch = MODELS[model] // 2
    grad_bytes = int(dp["grad_bytes"])
    # the model at P=2 with this machine's shared-memory constants, against the measurement
    shm_bandwidth = 2 * 0.5 * grad_bytes / max(dp["allreduce_ms"] / 1e3
                                               - 2 * dp["latency_us"] / 1e6, 1e-9)
    at2 = ring_step_seconds(compute, backward, grad_bytes, 2, shm_bandwidth,
                            dp["latency_us"] / 1e6)
    print(f"  cost model: batch {local_batch} per process, compute {1e3 * compute:.2f} ms/step "
          f"(backward {1e3 * backward:.2f}), {grad_bytes / 2**20:.2f} MB of gradients, network "
          f"latency {NETWORK_LATENCY_S * 1e6:.0f} us per message")
    print(f"    check at 2 processes (shared memory, {shm_bandwidth / 1e9:.1f} GB/s, latency "
          f"{dp['latency_us']:.1f} us): predicted {2 * local_batch / at2:,.0f} samples/s, "
          f"measured {dp['samples_per_s']:,.0f}")
    for bucket in BUCKETS:
        print(f"    {bucket // 2**20} MB buckets: samples/s (compute share of the step) at "
              + ", ".join(f"{g} Gb/s" for g in LINKS_GBPS))
        for procs in PROCESSES:
            cells = []
            for gbps in LINKS_GBPS:
                t = ring_step_seconds(compute, backward, grad_bytes, procs, gbps * 1e9 / 8,
                                      NETWORK_LATENCY_S, bucket)
                cells.append(f"{procs * local_batch / t:>11,.0f} ({compute / t:4.0%})")
            print(f"      {procs:>4} processes" + "".join(cells))

if __name__ == "__main__":
    main()
