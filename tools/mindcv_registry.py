"""Run mindcv's model registry, unchanged, on cellgrad, and compare with real MindSpore.

mindcv (`pip install mindcv`) is a real MindSpore client: its models are plain MindSpore code.
Two steps, each in its own interpreter:

    # 1. under real MindSpore 2.10 (a side venv with mindspore and mindcv): per model, a
    #    checkpoint, a fixed input and MindSpore's eval output
    python tools/mindcv_registry.py record --out REF [MODEL ...]
    # 2. under cellgrad (mindspore resolves to cellgrad): build, forward, one training step,
    #    MindSpore's checkpoint loaded and its output compared
    python tools/mindcv_registry.py run --ref REF [MODEL ...]

`run` prints one row per model: whether it builds, its forward pass, a training step
(`value_and_grad` + Momentum), the largest relative difference from MindSpore's output on
MindSpore's checkpoint, and the time per forward (MindSpore's as recorded, when present). A
model that fails names its first error. Models: all of the registry by default, or the names /
fnmatch patterns given; `--max-params` skips large ones (counted in the summary).

For models too large to keep every checkpoint on disk, `stream` runs both steps one model at a
time, smallest first, in subprocesses under `nice` with one thread: record into SCRATCH/MODEL,
run it, append its row to the results JSON, then delete the checkpoint and the input (the input
is regenerated from the model's name), keeping MindSpore's output. Rows already in the results
are skipped, so the same command continues an interrupted run:

    python tools/mindcv_registry.py stream --sizes REF --scratch SCRATCH --json RESULTS \
        --ms-python /path/to/mindspore/python --min-params 30e6 --max-params inf

Two yardsticks: "rel diff", the largest elementwise relative difference (an entry smaller than
1e-3 of the largest output measured against that floor), and "allclose", the smallest `tol` for
which the test suite's `assert_allclose(y, expected, rtol=tol, atol=tol * max|expected|)` passes
(the largest |y - expected| / (|expected| + max|expected|)). An output near 0 sees float32
rounding of the large ones (~1e-7 of the largest) up to 1000 times magnified in "rel diff".

A randomly initialised network can be ill-conditioned (attention logits in the hundreds, squeeze-
excite gates far outside their clamp), so that float32 rounding alone moves its output by more
than the tolerance. For a model over the tolerance, `run` (unless `--no-noise`) measures that
noise: the largest relative change of the model's own output when its input moves by a relative
1e-6 (a few float32 ulps), over three draws ("noise"). A difference from MindSpore no larger
than that is float32 rounding (two correct float32 programs that sum in different orders), not a
semantic one; the summary counts those models separately.
"""

import argparse
import fnmatch
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import traceback

import numpy as np

NUM_CLASSES = 10
BATCH = 2


def _alias_mindspore():
    """Make `import mindspore` (and every `mindspore.x` path) resolve to cellgrad."""
    from cellgrad.ms_replay import install_alias

    install_alias()


def _import_models():
    """`mindcv.models`; when `import mindcv` itself fails (its package imports the data
    pipeline too), the models package alone, as the issue's measurement did."""
    import importlib
    import importlib.util
    import types

    try:
        return importlib.import_module("mindcv.models")
    except Exception as exc:  # noqa: BLE001  (reported, then the narrower import is tried)
        print(f"note: import mindcv failed ({_first_error(exc)}); importing mindcv.models alone",
              flush=True)
    for name in [n for n in sys.modules if n == "mindcv" or n.startswith("mindcv.")]:
        del sys.modules[name]
    spec = importlib.util.find_spec("mindcv")
    package = types.ModuleType("mindcv")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["mindcv"] = package
    return importlib.import_module("mindcv.models")


def _models(patterns):
    list_models = _import_models().list_models

    names = sorted(list_models())
    if not patterns:
        return names
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]


def _input_size(name, net=None):
    """The registry config's input size; without one, the image size the built model was
    constructed for (e.g. swinv2's `image_size=256` default), else 224."""
    registry = sys.modules["mindcv.models.registry"]
    cfg = getattr(registry, "_model_pretrained_cfgs", {}).get(name) or {}
    if "input_size" in cfg:
        return tuple(cfg["input_size"])
    for cell in (net, getattr(net, "patch_embed", None)):
        size = next((getattr(cell, a) for a in ("image_size", "img_size")
                     if isinstance(getattr(cell, a, None), (int, tuple, list))), None)
        if size is not None:
            h, w = (size, size) if isinstance(size, int) else size
            return (3, int(h), int(w))
    return (3, 224, 224)


def _input(name, net=None):
    c, h, w = _input_size(name, net)
    rng = np.random.default_rng(sum(map(ord, name)))
    return rng.standard_normal((BATCH, c, h, w)).astype(np.float32)


def _rel_diff(y, expected):
    """Largest elementwise relative difference; entries below 1e-3 of the largest magnitude
    are measured against that floor instead of their own size."""
    scale = np.maximum(np.abs(expected), 1e-3 * max(np.abs(expected).max(), 1e-12))
    return float(np.max(np.abs(y - expected) / scale))


def _allclose_tol(y, expected):
    """The smallest tol with |y - e| <= tol * |e| + tol * max|e| everywhere."""
    e = np.abs(expected)
    return float(np.max(np.abs(y - expected) / (e + max(e.max(), 1e-12))))


def _allclose(row, rtol):
    return row.get("rel_diff") is not None and \
        (row["rel_diff"] <= rtol or row.get("allclose", np.inf) <= rtol)


NOISE = 1e-6


def _noise(ms, net, x, y, draws=3):
    """The largest relative change of the output `y` when the input moves by a relative NOISE."""
    rng = np.random.default_rng(0)
    moved = (x * (1 + NOISE * rng.standard_normal((draws,) + x.shape))).astype(x.dtype)
    return max(_rel_diff(net(ms.Tensor(m)).asnumpy(), y) for m in moved)


def _param_count(net):
    return int(sum(np.prod(p.shape) for p in net.get_parameters()))


def _first_error(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    where = next((f"{pathlib.Path(f.filename).name}:{f.lineno}" for f in reversed(tb)
                  if "mindcv" in f.filename), "")
    return f"{type(exc).__name__}: {str(exc).splitlines()[0][:150] if str(exc) else ''}" + \
        (f" ({where})" if where else "")


def _mindspore_1x():
    """Under MindSpore 2.10: `ops.ResizeBilinear(size, align_corners, half_pixel_centers)(x)`
    as `ResizeBilinearV2` (2.x removed it; mindcv's pvt.py calls it) and `initializer(...)`
    returning initialised Tensors (rexnet.py reshapes one, which 2.10 refuses before
    `init_data`). Only for recording references: the weights come from the checkpoint."""
    import mindspore.common.initializer as init
    import mindspore.ops as ops

    class ResizeBilinear:
        def __init__(self, size, align_corners=False, half_pixel_centers=False):
            self.size = tuple(size)
            self.op = ops.ResizeBilinearV2(align_corners, half_pixel_centers)

        def __call__(self, x):
            return self.op(x, self.size)

    initializer = init.initializer
    ops.ResizeBilinear = ResizeBilinear
    init.initializer = lambda *a, **k: initializer(*a, **k).init_data()


def record(args):
    import mindspore as ms

    if args.mindspore_1x:
        _mindspore_1x()
    create_model = _import_models().create_model
    if args.threads:
        ms.set_context(runtime_num_threads=args.threads)

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in _models(args.models):
        meta_path = out / f"{name}.json"
        if meta_path.exists():
            continue
        meta = {"model": name}
        try:
            ms.set_seed(0)
            net = create_model(name, num_classes=NUM_CLASSES)
            meta["params"] = _param_count(net)
            if meta["params"] > args.max_params:
                meta["skipped"] = f"{meta['params']} parameters > --max-params"
            elif meta["params"] <= args.min_params:
                meta["skipped"] = f"{meta['params']} parameters <= --min-params"
            else:
                net.set_train(False)
                x = _input(name, net)
                y = net(ms.Tensor(x)).asnumpy()
                start = time.perf_counter()
                for _ in range(args.repeat):
                    net(ms.Tensor(x))
                meta["forward_ms"] = (time.perf_counter() - start) / args.repeat * 1e3
                ms.save_checkpoint(net, str(out / f"{name}.ckpt"))
                np.save(out / f"{name}.in.npy", x)
                np.save(out / f"{name}.out.npy", y)
        except Exception as exc:  # noqa: BLE001  (a model MindSpore cannot run is a row)
            meta["error"] = _first_error(exc)
        meta_path.write_text(json.dumps(meta))
        print(name, json.dumps(meta), flush=True)


def _train_step(ms, net, x):
    from mindspore import nn

    net.set_train(True)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    labels = ms.Tensor(np.arange(BATCH) % NUM_CLASSES, ms.int32)

    def forward(data, label):
        return loss_fn(net(data), label)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    loss, grads = grad_fn(ms.Tensor(x), labels)
    opt(grads)
    value = float(loss.asnumpy())
    if not np.isfinite(value):
        raise FloatingPointError(f"loss is {value}")
    return value


def run_one(name, ref, args):
    import mindspore as ms

    create_model = _import_models().create_model

    row = {"model": name}
    meta = json.loads((ref / f"{name}.json").read_text()) if ref and \
        (ref / f"{name}.json").exists() else {}
    if "skipped" in meta or (meta.get("params") or 0) > args.max_params or \
            (meta.get("params") or np.inf) <= args.min_params:
        row["skipped"] = meta.get("skipped", "too large")
        return row
    stage = "build"
    try:
        ms.set_seed(0)
        net = create_model(name, num_classes=NUM_CLASSES)
        row["params"] = _param_count(net)
        if row["params"] > args.max_params:
            row["skipped"] = f"{row['params']} parameters > --max-params"
            return row
        if row["params"] <= args.min_params:
            row["skipped"] = f"{row['params']} parameters <= --min-params"
            return row
        row["build"] = True
        stage = "forward"
        ckpt = ref / f"{name}.ckpt" if ref else None
        if ckpt is not None and ckpt.exists():
            stage = "load"
            not_loaded = ms.load_param_into_net(net, ms.load_checkpoint(str(ckpt)))
            row["not_loaded"] = len(not_loaded[0]) if not_loaded else 0
            x = np.load(ref / f"{name}.in.npy")
        else:
            x = _input(name, net)
        stage = "forward"
        net.set_train(False)
        y = net(ms.Tensor(x)).asnumpy()
        start = time.perf_counter()
        for _ in range(args.repeat):
            net(ms.Tensor(x))
        row["forward_ms"] = (time.perf_counter() - start) / args.repeat * 1e3
        row["forward"] = True
        if ckpt is not None and ckpt.exists():
            expected = np.load(ref / f"{name}.out.npy")
            row["rel_diff"] = _rel_diff(y, expected)
            row["allclose"] = _allclose_tol(y, expected)
            row["ms_forward_ms"] = meta.get("forward_ms")
            if row["rel_diff"] > args.rtol and args.noise:
                stage = "noise"
                row["noise"] = _noise(ms, net, x, y)
        stage = "step"
        row["loss"] = _train_step(ms, net, x)
        row["step"] = True
    except Exception as exc:  # noqa: BLE001  (the table reports each model's first failure)
        row["error"] = f"{stage}: {_first_error(exc)}"
    return row


def _rounding_only(row, rtol):
    """Over the tolerance, but within the model's own float32 noise."""
    return row.get("rel_diff", 0) > rtol and row["rel_diff"] <= row.get("noise", 0)


def run(args):
    _alias_mindspore()
    ref = pathlib.Path(args.ref) if args.ref else None
    rows = []
    print(f"{'model':28} {'build':5} {'fwd':4} {'step':4} {'rel diff':>9} {'allclose':>8} "
          f"{'ms/fwd':>8} "
          f"{'MS ms/fwd':>9} {'noise':>8}  error")
    for name in _models(args.models):
        row = run_one(name, ref, args)
        rows.append(row)
        if "skipped" in row:
            print(f"{name:28} skipped: {row['skipped']}", flush=True)
            continue
        diff = row.get("rel_diff")
        print(f"{name:28} {_mark(row, 'build'):5} {_mark(row, 'forward'):4} "
              f"{_mark(row, 'step'):4} {'' if diff is None else f'{diff:.2e}':>9} "
              f"{_num(row.get('allclose')):>8} "
              f"{row.get('forward_ms', float('nan')):8.1f} "
              f"{row.get('ms_forward_ms') or float('nan'):9.1f} {_noise_cell(row):>8}  "
              f"{row.get('error', '')}", flush=True)
    tried = [r for r in rows if "skipped" not in r]
    match = [r for r in tried if r.get("rel_diff") is not None and r["rel_diff"] <= args.rtol]
    close = [r for r in tried if _allclose(r, args.rtol)]
    rest = [r for r in tried if r.get("rel_diff") is not None and not _allclose(r, args.rtol)]
    print(f"\n{len(rows)} models, {len(rows) - len(tried)} skipped; of {len(tried)} tried: "
          f"{sum('build' in r for r in tried)} build, {sum('forward' in r for r in tried)} "
          f"forward, {sum('step' in r for r in tried)} step, {len(match)} match MindSpore "
          f"elementwise (rel diff <= {args.rtol:g}), {len(close)} as the test suite checks "
          f"(allclose <= {args.rtol:g}); of the other {len(rest)}, "
          f"{sum(_rounding_only(r, args.rtol) for r in rest)} differ by no more than their own "
          f"float32 noise (an input moved by {NOISE:g})")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))
    return rows


def _num(value):
    return "" if value is None else f"{value:.1e}"


def _noise_cell(row):
    return f"{row['noise']:.2e}" if "noise" in row else ""


def _mark(row, key):
    return "yes" if row.get(key) else "-"


THREAD_ENV = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                      "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")}


def _sized_models(args):
    """(name, params) from the `record` metadata in --sizes, smallest first, in range."""
    rows = [json.loads(p.read_text()) for p in pathlib.Path(args.sizes).glob("*.json")]
    rows = [r for r in rows if r.get("params") is not None and
            args.min_params < r["params"] <= args.max_params and
            (not args.models or any(fnmatch.fnmatch(r["model"], p) for p in args.models))]
    rows.sort(key=lambda r: (r["params"], r["model"]))
    return [(r["model"], r["params"]) for r in rows]


def _sub(cmd, timeout, pythonpath=True):
    env = dict(os.environ, GLOG_v="3", **THREAD_ENV)
    if not pythonpath:  # a PYTHONPATH meant for cellgrad (e.g. a snapshot) stays out of MindSpore's
        env.pop("PYTHONPATH", None)
    try:
        done = subprocess.run(["nice", "-n", "19", *cmd], env=env, timeout=timeout,
                              capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g} s"
    if done.returncode:
        return f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1][:200]}"
    return None


def stream(args):
    """One model at a time: record under MindSpore, run under cellgrad, keep the row, delete
    the checkpoint."""
    results = pathlib.Path(args.json)
    rows = json.loads(results.read_text()) if results.exists() else []
    done = {r["model"] for r in rows}
    script = str(pathlib.Path(__file__).resolve())
    bounds = ["--min-params", "0", "--max-params", "inf"]
    for name, params in _sized_models(args):
        if name in done:
            continue
        folder = pathlib.Path(args.scratch) / name
        shutil.rmtree(folder, ignore_errors=True)  # `record` skips a model it finds recorded
        start = time.perf_counter()
        row = {"model": name, "params": params}
        failed = _sub([args.ms_python, script, "record", "--out", str(folder), "--threads", "1",
                       *bounds, name], args.timeout, pythonpath=False)
        meta_path = folder / f"{name}.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        if failed or "error" in meta:
            # MindSpore cannot run it: cellgrad still builds, runs and steps it, uncompared
            row["ms_error"] = meta.get("error") or failed
            folder.mkdir(parents=True, exist_ok=True)
        row_path = folder / "row.json"
        failed = _sub([sys.executable, script, "run", "--ref", str(folder), "--json",
                       str(row_path), *bounds, name], args.timeout)
        if failed or not row_path.exists():
            row["error"] = f"run: {failed or 'no row written'}"
        else:
            row.update(json.loads(row_path.read_text())[0])
            row["ms_forward_ms"] = meta.get("forward_ms")
        for suffix in (".ckpt", ".in.npy"):
            (folder / f"{name}{suffix}").unlink(missing_ok=True)
        row["wall_s"] = round(time.perf_counter() - start, 1)
        rows.append(row)
        results.write_text(json.dumps(rows, indent=1))
        diff = row.get("rel_diff")
        print(f"{name:28} {params / 1e6:6.1f}M {_mark(row, 'build'):5} {_mark(row, 'forward'):4} "
              f"{_mark(row, 'step'):4} {'' if diff is None else f'{diff:.2e}':>9} "
              f"{_num(row.get('allclose')):>8} {row['wall_s']:7.0f}s  {row.get('error', '')}"
              f"{'  MindSpore: ' + row['ms_error'] if 'ms_error' in row else ''}", flush=True)
    return rows


def table(args):
    """The results JSON as a markdown table; --causes maps model names to the cause noted for
    a model that does not build, step or match."""
    rows = json.loads(pathlib.Path(args.json).read_text())
    causes = json.loads(pathlib.Path(args.causes).read_text()) if args.causes else {}
    lines = ["| model | params | build | forward | step | rel diff | allclose | cause |",
             "|---|---:|:-:|:-:|:-:|---:|---:|---|"]
    for r in sorted(rows, key=lambda r: (r.get("params") or 0, r["model"])):
        diff = r.get("rel_diff")
        cause = causes.get(r["model"]) or r.get("error", "") or \
            (f"MindSpore 2.10 cannot run it: {r['ms_error']}" if "ms_error" in r else "")
        lines.append(f"| {r['model']} | {(r.get('params') or 0) / 1e6:.1f}M | "
                     f"{_mark(r, 'build')} | {_mark(r, 'forward')} | {_mark(r, 'step')} | "
                     f"{'' if diff is None else f'{diff:.1e}'} | {_num(r.get('allclose'))} | "
                     f"{cause.replace('|', '/')} |")
    text = "\n".join(lines) + "\n"
    if args.md:
        pathlib.Path(args.md).write_text(text)
    else:
        print(text, end="")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="under MindSpore: checkpoints, inputs, outputs")
    rec.add_argument("--out", required=True)
    rn = sub.add_parser("run", help="under cellgrad: build, forward, step, compare")
    rn.add_argument("--ref", help="folder written by `record`")
    rn.add_argument("--rtol", type=float, default=1e-4)
    rn.add_argument("--json", help="also write the rows here")
    rn.add_argument("--no-noise", dest="noise", action="store_false",
                    help="skip measuring the float32 noise of models over the tolerance")
    rec.add_argument("--threads", type=int, default=0,
                     help="MindSpore's runtime_num_threads (default: MindSpore's own)")
    rec.add_argument("--mindspore-1x", action="store_true",
                     help="give MindSpore back the 1.x behaviour mindcv still relies on "
                          "(ops.ResizeBilinear; initializer Tensors usable before init_data), "
                          "for a reference of pvt_* and rexnet_*; cellgrad's run is unchanged")
    st = sub.add_parser("stream", help="record and run one model at a time, deleting "
                        "each checkpoint after its run")
    st.add_argument("--sizes", required=True,
                    help="a `record` folder whose metadata gives each model's parameter count")
    st.add_argument("--scratch", required=True, help="per-model folders (outputs kept)")
    st.add_argument("--json", required=True, help="results, appended to model by model")
    st.add_argument("--ms-python", required=True, help="the interpreter with MindSpore")
    st.add_argument("--timeout", type=float, default=1800, help="seconds per subprocess")
    tb = sub.add_parser("table", help="a results JSON as a markdown table")
    tb.add_argument("--json", required=True)
    tb.add_argument("--causes", help="JSON: model name -> cause")
    tb.add_argument("--md", help="write the table here (default: print it)")
    for p in (rec, rn, st):
        p.add_argument("models", nargs="*", help="names or fnmatch patterns (default: all)")
        p.add_argument("--max-params", type=float, default=30e6)
        p.add_argument("--min-params", type=float, default=0,
                       help="skip models with at most this many parameters")
        p.add_argument("--repeat", type=int, default=1, help="forward passes timed")
    args = parser.parse_args(argv)
    {"record": record, "run": run, "stream": stream, "table": table}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
