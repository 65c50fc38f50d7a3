"""Run MindSpore's own CPU PyNative public-API tests on cellgrad and print the pass rate per area.

    # once, under real MindSpore: which of the selected tests pass there
    python tools/ms_testsuite.py --source MS --record-baseline --python /path/to/ms/python \\
        --baseline tools/ms_testsuite/baseline.json --commit SHA
    # under cellgrad (`mindspore` resolves to cellgrad): pass rate of MindSpore's passes
    python tools/ms_testsuite.py --source MS --baseline tools/ms_testsuite/baseline.json \\
        [--areas ops tensor] [--jobs 2] [--timeout 120] [--causes 20] [--results OUT.json]

`--source` is a MindSpore source checkout (nothing is fetched): its `tests/st` files that carry
a CPU mark (`cpu_linux`, `platform_x86_cpu`) and its `tests/ut/python` files under `--paths`;
the checkout's root is on PYTHONPATH for the helpers its tests import (`tests.mark_utils`,
`tests.st.utils.test_utils`, ...). With a baseline, the selection is the baseline's files.
Files run with pytest in worker processes, several files of one folder per worker (`--batch`;
importing MindSpore costs seconds), each test under a time limit (`--timeout`). A worker that
goes silent (a hang in native code) is killed, as is one that crashes; its running test is
recorded as a timeout or crash and the rest of its files run again in a new worker.

The table has one row per area (ops, tensor, nn, grad/cell/hooks, optimizers, other): the
tests selected, those passing on MindSpore (from the baseline), those of them passing on
cellgrad, and the percentage, for all tests and separately for tests that ran in PYNATIVE_MODE
and in GRAPH_MODE (cellgrad runs GRAPH_MODE eagerly). `--causes N` ranks why MindSpore's passes
fail on cellgrad (missing name, error-message mismatch, numeric mismatch, ...).
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent / "ms_testsuite"
DEFAULT_PATHS = [
    "tests/st/ops", "tests/st/tensor", "tests/st/nn", "tests/st/pynative", "tests/st/optimizer",
    "tests/st/optimizer_ex", "tests/st/high_grad", "tests/st/vmap", "tests/st/mint",
    "tests/st/numpy_native", "tests/st/sparse", "tests/st/train", "tests/st/parameter",
    "tests/ut/python/ops", "tests/ut/python/nn", "tests/ut/python/pynative_mode",
    "tests/ut/python/optimizer", "tests/ut/python/train", "tests/ut/python/parameter_feature",
    "tests/ut/python/vmap",
]
AREAS = ["ops", "tensor", "nn", "grad/cell/hooks", "optimizers", "other"]
CPU_MARK = re.compile(r"cpu_linux|platform_x86_cpu")
# words of a file name (test_acos_grad_op.py: test, acos, grad, op)
GRAD_WORDS = {"grad", "grads", "hook", "hooks", "bprop", "jvp", "vjp", "vmap", "jacfwd", "jacrev",
              "hessian", "cell", "recompute", "autograd", "backward"}
OPTIM_NAME = re.compile(r"optim|lr_schedule|dynamic_lr|learning_rate|momentum|adam|adagrad|"
                        r"adadelta|rmsprop|ftrl|sgd|lamb|lars")


def area_of(file):
    """The report area of a test file (a path relative to the checkout)."""
    parts = file.split("/")
    name = parts[-1]
    folders = parts[:-1]
    if any("optim" in f for f in folders) or OPTIM_NAME.search(name):
        return "optimizers"
    if any(f in ("pynative", "pynative_mode", "high_grad", "vmap") for f in folders):
        return "grad/cell/hooks"
    if GRAD_WORDS & set(re.split(r"[_.]", name)):
        return "grad/cell/hooks"
    if "tensor" in folders or name.startswith("test_tensor"):
        return "tensor"
    if "nn" in folders:
        return "nn"
    if any(f in ("ops", "mint", "numpy_native", "sparse") for f in folders):
        return "ops"
    return "other"


def scan(source, paths):
    """The candidate test files under `paths` of the checkout (relative, posix)."""
    found = []
    for rel in paths:
        root = source / rel
        files = [root] if root.is_file() else sorted(root.rglob("test_*.py"))
        for f in files:
            relf = f.relative_to(source).as_posix()
            if "/st/" in relf and not CPU_MARK.search(f.read_text(errors="replace")):
                continue
            found.append(relf)
    return sorted(set(found))


def batches(files, size):
    """Chunks of at most `size` files of one folder (same-named files of two folders cannot
    share a pytest session), in the order they run."""
    by_dir = collections.defaultdict(list)
    for f in files:
        by_dir[f.rsplit("/", 1)[0]].append(f)
    chunks = [[fs[i:i + size] for i in range(0, len(fs), size)]
              for _, fs in sorted(by_dir.items())]
    # round robin over the folders: a run cut short by --deadline samples every folder
    return [c[i] for i in range(max(map(len, chunks), default=0)) for c in chunks if i < len(c)]


class Runner:
    """Runs batches of test files in pytest workers under a watchdog."""

    def __init__(self, source, python, alias, timeout, workdir, grace=30.0, startup=180.0,
                 attempts=6, log=None, stub_ut_vm=False):
        self.source, self.python, self.alias = source, python, alias
        self.stub_ut_vm = stub_ut_vm
        self.timeout, self.grace, self.startup, self.attempts = timeout, grace, startup, attempts
        self.workdir = pathlib.Path(workdir)
        self.ini = self.workdir / "pytest.ini"
        self.ini.write_text("[pytest]\n")
        self.log = log or (lambda msg: None)
        self.results = {}
        self.file_errors = {}
        self.lock = threading.Lock()
        self.counter = 0

    def env(self, out, skip):
        env = dict(os.environ)
        path = [str(HERE), str(self.source)]
        if env.get("PYTHONPATH"):
            path.append(env["PYTHONPATH"])
        env.update(PYTHONPATH=os.pathsep.join(path), MS_TESTSUITE_OUT=str(out),
                   MS_TESTSUITE_SKIP=str(skip), MS_TESTSUITE_TIMEOUT=str(self.timeout),
                   MS_TESTSUITE_ALIAS="1" if self.alias else "0", GLOG_v="3",
                   OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1",
                   MS_TESTSUITE_STUB_UT_VM="1" if self.stub_ut_vm else "0")
        return env

    def _worker(self, files, skip):
        """One pytest process: its records and how it ended ('ok', 'timeout', 'crash: ...')."""
        with self.lock:
            self.counter += 1
            n = self.counter
        out = self.workdir / f"w{n}.jsonl"
        skip_file = self.workdir / f"w{n}.skip.json"
        skip_file.write_text(json.dumps(sorted(skip)))
        cwd = self.workdir / f"cwd{n}"
        cwd.mkdir()
        cmd = [self.python, "-m", "pytest", "-p", "ms_testsuite_plugin", "-c", str(self.ini),
               "--rootdir", str(self.source), "-q", "--no-header", "-p", "no:cacheprovider",
               "--continue-on-collection-errors", *[str(self.source / f) for f in files]]
        with open(self.workdir / f"w{n}.log", "w") as log:
            proc = subprocess.Popen(cmd, cwd=cwd, env=self.env(out, skip_file), stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            ended, size, last = "ok", -1, time.monotonic()
            while proc.poll() is None:
                time.sleep(0.2)
                now = time.monotonic()
                cur = out.stat().st_size if out.exists() else 0
                if cur != size:
                    size, last = cur, now
                limit = self.timeout + self.grace + (self.startup if cur == 0 else 0)
                if now - last > limit:
                    os.killpg(proc.pid, 9)
                    proc.wait()
                    ended = "timeout"
            if ended == "ok" and proc.returncode not in (0, 1, 5):
                ended = f"crash: the worker exited with {_exit_text(proc.returncode)}"
        records = []
        if out.exists():
            for line in out.read_text().splitlines():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:  # a line cut short by the kill
                    pass
        if ended.startswith("crash"):  # pytest's own error (a conftest that does not import)
            said = [ln[1:].strip() for ln in (self.workdir / f"w{n}.log").read_text(
                errors="replace").splitlines() if ln.startswith("E ")]
            if said:
                ended += f": {said[-1]}"
        return records, ended

    def run(self, files):
        """Run `files` to the end: every collected test gets a result."""
        skip = set()
        collected = set()
        for _ in range(self.attempts):
            records, ended = self._worker(files, skip)
            started = None
            got_collected = False
            for r in records:
                if r["event"] == "collected":
                    got_collected = True
                    collected.update(r["ids"])
                elif r["event"] == "collect_error":
                    self.file_errors[r["file"]] = r["error"]
                elif r["event"] == "start":
                    started = r["id"]
                elif r["event"] == "result":
                    self.results[r["id"]] = r
                    skip.add(r["id"])
                    if started == r["id"]:
                        started = None
            if ended == "ok":
                return
            if not got_collected:
                if len(files) > 1:  # which file hangs or crashes on import is found alone
                    for f in files:
                        self.run([f])
                    return
                why = ("timeout while importing the file" if ended == "timeout"
                       else f"while importing the file, {ended}")
                self.file_errors[files[0]] = why
                return
            if started is not None:
                error = (f"timeout: no progress for {self.timeout + self.grace:g} s"
                         if ended == "timeout" else ended)
                self.results[started] = {"id": started, "outcome": "failed", "error": error}
                skip.add(started)
                self.log(f"  {started}: {error}")
            if collected <= skip:
                return
        for tid in collected - skip:
            self.results[tid] = {"id": tid, "outcome": "failed",
                                 "error": "not run: its worker kept hanging or crashing"}


def _exit_text(rc):
    if rc < 0:
        import signal

        try:
            return f"signal {signal.Signals(-rc).name}"
        except ValueError:
            return f"signal {-rc}"
    return f"status {rc}"


def run_all(source, files, python, alias, timeout, jobs, batch, workdir, grace, startup,
            quiet=False, deadline=None, stub_ut_vm=False):
    """Run the files; returns (results, file errors, the files run, seconds). Past `deadline`
    (seconds from now) no new batch starts: the files not run are left out."""
    def log(msg):
        if not quiet:
            print(msg, file=sys.stderr, flush=True)

    runner = Runner(source, python, alias, timeout, workdir, grace=grace, startup=startup,
                    log=log, stub_ut_vm=stub_ut_vm)
    todo = batches(files, batch)
    t0 = time.monotonic()
    done = []

    def one(b):
        if deadline is not None and time.monotonic() - t0 > deadline:
            return False
        runner.run(b)
        return True

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, b): b for b in todo}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            b = futures[fut]
            if not fut.result():
                continue
            done.extend(b)
            log(f"[{i}/{len(todo)} {time.monotonic() - t0:.0f}s] {b[0]}"
                + (f" (+{len(b) - 1})" if len(b) > 1 else ""))
    if len(done) < len(files):
        log(f"deadline: {len(files) - len(done)} of {len(files)} files not run")
    return runner.results, runner.file_errors, sorted(done), time.monotonic() - t0


PREFLIGHT = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import cellgrad
    import cellgrad.nn
for w in caught:
    if w.category.__name__ == "PluginWarning":
        print(w.message)
"""


def preflight(python):
    """Warnings of cellgrad's plugins that failed to load (the run would measure without them)."""
    done = subprocess.run([python, "-c", PREFLIGHT], capture_output=True, text=True)
    if done.returncode:
        return [f"cellgrad does not import: {done.stderr.strip().splitlines()[-1:]}"]
    return done.stdout.splitlines()


def split_id(tid):
    file, _, name = tid.partition("::")
    return file, name


def baseline_from(results, file_errors, files, commit, python, paths):
    """The baseline JSON: per file, the tests passing on MindSpore (with the mode they ran
    in) and the names of the others."""
    version = subprocess.run([python, "-c", "import mindspore; print(mindspore.__version__)"],
                             capture_output=True, text=True, env=dict(os.environ, GLOG_v="3"))
    per_file = {f: {"passed": {}, "failed": [], "skipped": []} for f in files}
    for tid, r in sorted(results.items()):
        file, name = split_id(tid)
        entry = per_file.setdefault(file, {"passed": {}, "failed": [], "skipped": []})
        if r["outcome"] == "passed":
            entry["passed"][name] = r.get("mode")
        elif r["outcome"] == "skipped":
            entry["skipped"].append(name)
        else:
            entry["failed"].append(name)
    for file, error in file_errors.items():
        per_file.setdefault(file, {"passed": {}, "failed": [], "skipped": []})["error"] = error
    return {"source_commit": commit, "mindspore": version.stdout.strip(),
            "paths": paths, "files": per_file}


def tests_of(baseline):
    """{test id: (passed on MindSpore, mode)} of a baseline."""
    out = {}
    for file, entry in baseline["files"].items():
        for name, mode in entry["passed"].items():
            out[f"{file}::{name}"] = (True, mode)
        for name in entry["failed"] + entry["skipped"]:
            out[f"{file}::{name}"] = (False, None)
    return out


# --- failure causes ---------------------------------------------------------------------

def _ms(name):
    return re.sub(r"^cellgrad\b", "mindspore", name)


CAUSES = [
    (re.compile(r"module '([\w.]+)' has no attribute '(\w+)'"),
     lambda m: f"missing name: {_ms(m[1])}.{m[2]}"),
    (re.compile(r"cannot import name '(\w+)' from '([\w.]+)'"),
     lambda m: f"missing name: {_ms(m[2])}.{m[1]}"),
    (re.compile(r"No module named '([\w.]+)'"), lambda m: f"missing module: {_ms(m[1])}"),
    (re.compile(r"'(Tensor|StubTensor|Parameter)' object has no attribute '(\w+)'"),
     lambda m: f"missing name: Tensor.{m[2]}"),
    (re.compile(r"type object '(\w+)' has no attribute '(\w+)'"),
     lambda m: f"missing name: {m[1]}.{m[2]}"),
    (re.compile(r"'(\w+)' object has no attribute '(\w+)'"),
     lambda m: f"missing attribute: {m[1]}.{m[2]}"),
    (re.compile(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'"),
     lambda m: f"signature: {m[1]}() has no argument {m[2]!r}"),
    (re.compile(r"(\w+)\(\) (?:takes|missing) .*argument"),
     lambda m: f"signature: {m[1]}() positional arguments differ"),
    (re.compile(r"DID NOT RAISE <class '(?:[\w.]+\.)?(\w+)'>"),
     lambda m: f"no error raised where MindSpore raises {m[1]}"),
    (re.compile(r"Regex pattern did not match|Pattern '.*' does not match"),
     lambda m: "error-message mismatch"),
    (re.compile(r"Not equal to tolerance|Arrays are not|Mismatched elements|not almost equal"
                r"|assert False\b|allclose|array_equal|isclose"),
     lambda m: "numeric mismatch"),
    (re.compile(r"`(np\.\w+)` was removed in the NumPy 2.0 release"),
     lambda m: f"numpy 2 (cellgrad's venv) has no {m[1]}; the test uses it"),
    (re.compile(r"^timeout|TestTimeout: timeout"), lambda m: "timeout"),
    (re.compile(r"^crash"), lambda m: "crash"),
    (re.compile(r"^while importing the file, crash: the worker exited with status \d+$"),
     lambda m: "pytest error while importing the file"),
    (re.compile(r"^not run"), lambda m: "not run (worker kept hanging)"),
]


def cause_of(error):
    """A short, countable cause for a failure's one-line error."""
    error = re.sub(r"\s+", " ", error or "").strip().split(" + ")[0]  # pytest's "+ where"s
    for pattern, name in CAUSES:
        m = pattern.search(error)
        if m:
            return name(m)
    if error.startswith("assert"):
        return "assertion in the test: " + re.sub(r"\d+(\.\d+)?", "N", error)[:80]
    kind, _, msg = error.partition(":")
    if not msg:
        return error[:100] or "unknown"
    msg = re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", msg.strip())
    msg = re.sub(r"\[[^\]]*\]|\([^)]*\)", "(..)", msg)
    return f"{kind.strip()}: {msg[:90]}"


# numpy 2 renamed a type pytest names parameters after (`np.bool_.__name__` is 'bool'): an id
# recorded under MindSpore's numpy 1.x is looked up under its numpy 2 spelling too
NUMPY2_IDS = [(re.compile(r"(?<=[\[-])bool_(?=[-\]])"), "bool")]


def outcome_on_cellgrad(tid, results, file_errors):
    """(passed, error) of one test id on cellgrad."""
    r = results.get(tid)
    for pattern, new in NUMPY2_IDS:
        if r is None:
            r = results.get(pattern.sub(new, tid))
    if r is not None:
        return r["outcome"] == "passed", r.get("error") or r["outcome"]
    file = split_id(tid)[0]
    if file in file_errors:
        return False, file_errors[file]
    return False, "not collected on cellgrad (its parametrization or the file's selection differs)"


# --- tables -----------------------------------------------------------------------------

def summarize(tests, results, file_errors, areas):
    """Rows of (area, tests, ms passes, cellgrad passes) for all / pynative / graph."""
    rows = {a: collections.Counter() for a in areas}
    for tid, (ms_pass, mode) in tests.items():
        a = area_of(split_id(tid)[0])
        if a not in rows:
            continue
        c = rows[a]
        c["tests"] += 1
        if not ms_pass:
            continue
        cg_pass = outcome_on_cellgrad(tid, results, file_errors)[0]
        for key in ("", mode or "other"):
            c["ms" + key] += 1
            c["cg" + key] += cg_pass
    return rows


def _pct(a, b):
    return f"{100 * a / b:5.1f}%" if b else "    -"


def table(rows):
    head = (f"{'area':<16}{'tests':>7}{'MindSpore':>10}{'cellgrad':>9}{'%':>7}"
            f" | {'PyNative MS':>11}{'cg':>6}{'%':>7} | {'GRAPH MS':>8}{'cg':>6}{'%':>7}")
    lines = [head, "-" * len(head)]
    total = collections.Counter()
    for a, c in list(rows.items()) + [("total", None)]:
        if c is None:
            c = total
        else:
            total.update(c)
        lines.append(
            f"{a:<16}{c['tests']:>7}{c['ms']:>10}{c['cg']:>9}{_pct(c['cg'], c['ms']):>7}"
            f" | {c['mspynative']:>11}{c['cgpynative']:>6}"
            f"{_pct(c['cgpynative'], c['mspynative']):>7}"
            f" | {c['msgraph']:>8}{c['cggraph']:>6}{_pct(c['cggraph'], c['msgraph']):>7}")
    return "\n".join(lines)


def causes(tests, results, file_errors, areas):
    """Counter of causes over MindSpore's passes that fail on cellgrad, with examples."""
    count, example = collections.Counter(), {}
    for tid, (ms_pass, _) in tests.items():
        if not ms_pass or area_of(split_id(tid)[0]) not in areas:
            continue
        passed, error = outcome_on_cellgrad(tid, results, file_errors)
        if passed:
            continue
        c = cause_of(error)
        count[c] += 1
        example.setdefault(c, (tid, error))
    return count, example


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True, type=pathlib.Path,
                   help="a MindSpore source checkout (its root holds tests/)")
    p.add_argument("--baseline", type=pathlib.Path,
                   help="the baseline JSON to compare with (or to write, with --record-baseline)")
    p.add_argument("--record-baseline", action="store_true",
                   help="run under real MindSpore (--python) and write --baseline (an existing "
                        "baseline gains the files it does not have yet)")
    p.add_argument("--rerecord", action="store_true",
                   help="with --record-baseline: record again the files the baseline has")
    p.add_argument("--python", default=sys.executable,
                   help="the interpreter that runs the tests (MindSpore's for a baseline)")
    p.add_argument("--commit", help="the checkout's commit, stored in the baseline")
    p.add_argument("--areas", nargs="+", choices=AREAS, default=AREAS)
    p.add_argument("--paths", nargs="+", default=None,
                   help=f"folders or files of the checkout to select from (default: "
                        f"the baseline's files, else {' '.join(DEFAULT_PATHS)})")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per test")
    p.add_argument("--grace", type=float, default=30.0,
                   help="seconds past --timeout a silent worker is given before it is killed")
    p.add_argument("--startup", type=float, default=180.0,
                   help="extra seconds a worker may take to import before its first record")
    p.add_argument("--batch", type=int, default=8, help="files per worker (same folder)")
    p.add_argument("--causes", type=int, default=20, help="print the top N failure causes")
    p.add_argument("--results", type=pathlib.Path, help="write per-test results as JSON")
    p.add_argument("--workdir", type=pathlib.Path,
                   help="keep the workers' logs and records here (default: a temp dir)")
    p.add_argument("--deadline", type=float,
                   help="seconds after which no new batch starts (the rest is left out)")
    p.add_argument("--stub-ut-vm", action="store_true",
                   help="replace tests.vm_impl (which tests/ut/python/__init__.py imports to "
                        "register kernels for MindSpore's VM back end) by an empty module")
    p.add_argument("--load-results", type=pathlib.Path,
                   help="print the tables of an earlier run's --results instead of running")
    p.add_argument("--list", action="store_true", help="print the selected files and exit")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)

    source = args.source.resolve()
    if not (source / "tests").is_dir():
        p.error(f"--source {source} has no tests/ folder (expected a MindSpore checkout)")
    baseline = None
    if args.baseline and not args.record_baseline:
        baseline = json.loads(args.baseline.read_text())
    if args.paths:
        files = scan(source, args.paths)
        if baseline is not None:
            files = [f for f in files if f in baseline["files"]]
    elif baseline is not None:
        files = sorted(f for f in baseline["files"] if (source / f).exists())
    else:
        files = scan(source, DEFAULT_PATHS)
    files = [f for f in files if area_of(f) in args.areas]
    if args.record_baseline and args.baseline and args.baseline.exists() and not args.rerecord:
        recorded = json.loads(args.baseline.read_text())["files"]  # resume: record the rest
        files = [f for f in files if f not in recorded]
    if args.list:
        for f in files:
            print(f"{area_of(f):<16} {f}")
        return 0
    if args.record_baseline and not args.baseline:
        p.error("--record-baseline needs --baseline FILE to write")

    broken = []
    if not args.load_results:
        workdir = args.workdir or pathlib.Path(tempfile.mkdtemp(prefix="ms_testsuite_"))
        workdir.mkdir(parents=True, exist_ok=True)
        print(f"{len(files)} files; workers' logs in {workdir}", file=sys.stderr, flush=True)
        broken = [] if args.record_baseline else preflight(args.python)
    for line in broken:
        print(f"warning: {line}", file=sys.stderr, flush=True)
    if args.load_results:  # tables and causes of an earlier run's --results
        saved = json.loads(args.load_results.read_text())
        results, file_errors, took = saved["results"], saved["file_errors"], saved["seconds"]
        files = [f for f in files if f in set(saved["files"])]
    else:
        results, file_errors, files, took = run_all(
            source, files, args.python, not args.record_baseline, args.timeout, args.jobs,
            args.batch, workdir, args.grace, args.startup, quiet=args.quiet,
            deadline=args.deadline, stub_ut_vm=args.stub_ut_vm)

    if args.record_baseline:
        data = baseline_from(results, file_errors, files, args.commit, args.python,
                             args.paths or DEFAULT_PATHS)
        if args.baseline.exists():  # recorded in parts: this part's files replace theirs
            old = json.loads(args.baseline.read_text())
            old["files"].update(data["files"])
            data["files"] = old["files"]
            data["paths"] = sorted(set(old.get("paths", [])) | set(data["paths"]))
        args.baseline.parent.mkdir(parents=True, exist_ok=True)
        args.baseline.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
        passed = sum(len(e["passed"]) for e in data["files"].values())
        print(f"baseline: {len(results)} tests run now; {len(data['files'])} files, {passed} "
              f"passing tests on MindSpore {data['mindspore']}; written to {args.baseline} "
              f"({took:.0f} s)")
        return 0

    if baseline is not None:
        tests = {t: v for t, v in tests_of(baseline).items() if split_id(t)[0] in set(files)}
    else:  # no baseline: every collected test counts as a MindSpore pass
        tests = {tid: (True, r.get("mode")) for tid, r in results.items()
                 if r["outcome"] != "skipped"}
    if args.results:
        args.results.write_text(json.dumps(
            {"results": results, "file_errors": file_errors, "files": files, "seconds": took,
             "warnings": broken}, indent=0, sort_keys=True))
    print(table(summarize(tests, results, file_errors, args.areas)))
    for line in broken:
        print(f"warning: measured without a plugin: {line}")
    print(f"({len(files)} files in {took:.0f} s with {args.jobs} jobs"
          + ("" if baseline else "; no baseline: every collected, unskipped test counts")
          + ")")
    if baseline is None and file_errors:  # their tests are unknown: counted as files
        print(f"\n{len(file_errors)} files did not import (their tests are not in the table):")
        for c, n in collections.Counter(map(cause_of, file_errors.values())).most_common(
                args.causes or 10):
            print(f"{n:6}  {c}")
    if args.causes:
        count, example = causes(tests, results, file_errors, args.areas)
        if count:
            print(f"\ntop failure causes (of {sum(count.values())} MindSpore passes failing):")
            for c, n in count.most_common(args.causes):
                print(f"{n:6}  {c}    e.g. {example[c][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
