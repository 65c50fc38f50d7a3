"""pytest plugin loaded by tools/ms_testsuite.py (`-p ms_testsuite_plugin`) in each worker.

It keeps MindSpore's CPU tests (a `tests/st` test needs the `cpu_linux` or `platform_x86_cpu`
mark; `tests/ut` tests all run on MindSpore's CPU build), drops the ids an earlier attempt
already finished, and appends one JSON record per event to $MS_TESTSUITE_OUT as it happens, so
the driver knows which test was running when it had to kill a hung or crashed worker.

Several files share one interpreter (importing MindSpore costs seconds): the context mode a
module sets when imported is replayed when its first test runs, as if it had its own process.
With MS_TESTSUITE_ALIAS=1 `mindspore` resolves to cellgrad; MS_TESTSUITE_TIMEOUT bounds each
test's call (a SIGALRM; a hang in native code is the driver's watchdog's).
"""

import json
import os
import signal

import pytest

if os.environ.get("MS_TESTSUITE_ALIAS") == "1":
    from cellgrad.ms_replay import install_alias

    install_alias()

if os.environ.get("MS_TESTSUITE_STUB_UT_VM") == "1":
    # tests/ut/python/__init__.py imports tests.vm_impl, which registers Python kernels for
    # MindSpore's own VM back end (through its internals: ops.vm_impl_registry,
    # _c_expression.typing, ops.auto_generate); no test calls it, cellgrad has no such back end
    import sys
    import types

    _vm = types.ModuleType("tests.vm_impl")
    _vm.vm = types.ModuleType("tests.vm_impl.vm")
    sys.modules["tests.vm_impl"], sys.modules["tests.vm_impl.vm"] = _vm, _vm.vm

CPU_MARKS = ("cpu_linux", "platform_x86_cpu")
MODES = {0: "graph", 1: "pynative"}

_out = open(os.environ["MS_TESTSUITE_OUT"], "a", buffering=1)  # noqa: SIM115 (lives with the worker)
_skip = set()
if os.environ.get("MS_TESTSUITE_SKIP"):
    with open(os.environ["MS_TESTSUITE_SKIP"]) as f:
        _skip = set(json.load(f))
_timeout = float(os.environ.get("MS_TESTSUITE_TIMEOUT") or 0)
_module_modes = {}
_initial_mode = None
_last_module = None
_outcomes = {}


class TestTimeout(BaseException):
    """Raised in a test that ran past the time limit (a BaseException: `except Exception` in
    the test must not swallow it)."""


def _emit(**record):
    _out.write(json.dumps(record) + "\n")


def _mindspore():
    import sys

    return sys.modules.get("mindspore")


def _mode():
    ms = _mindspore()
    try:
        return None if ms is None else ms.get_context("mode")
    except Exception:  # noqa: BLE001  (a broken context is the test's problem, not ours)
        return None


def _set_mode(mode):
    ms = _mindspore()
    if ms is not None and mode is not None and _mode() != mode:
        try:
            ms.set_context(mode=mode)
        except Exception:  # noqa: BLE001
            pass


def error_text(longrepr):
    """The one-line `ExcType: message` of a failure report."""
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.strip()
    lines = [ln[1:].strip() for ln in str(longrepr).splitlines() if ln.startswith("E ")]
    if lines:
        return lines[-1]
    text = str(longrepr).strip().splitlines()
    return text[-1] if text else ""


def pytest_collectreport(report):
    global _initial_mode
    path = getattr(report, "fspath", None) or report.nodeid
    if report.failed:
        _emit(event="collect_error", file=report.nodeid.split("::")[0],
              error=error_text(report.longrepr))
        return
    if report.nodeid.endswith(".py") and "::" not in report.nodeid:
        if _initial_mode is None:
            _initial_mode = _mode()
        _module_modes[report.nodeid] = _mode()
        _set_mode(_initial_mode)
        _emit(event="module", file=path)


def pytest_collection_modifyitems(session, config, items):
    keep = []
    for item in items:
        path = item.nodeid.split("::")[0]
        if item.nodeid in _skip:
            continue
        if "tests/st/" in path and not any(item.get_closest_marker(m) for m in CPU_MARKS):
            continue
        keep.append(item)
    items[:] = keep
    _emit(event="collected", ids=[item.nodeid for item in items])


def pytest_runtest_setup(item):
    global _last_module
    module = item.nodeid.split("::")[0]
    if module != _last_module:
        _last_module = module
        _set_mode(_module_modes.get(module, _initial_mode))
    _emit(event="start", id=item.nodeid)


def _alarm(signum, frame):
    raise TestTimeout(f"timeout: the test ran longer than {_timeout:g} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if _timeout > 0:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, _timeout)
    try:
        yield
    finally:
        if _timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, 0)


def pytest_runtest_logreport(report):
    seen = _outcomes.setdefault(report.nodeid, {"outcome": "passed", "error": None})
    if report.when == "call":
        seen["mode"] = MODES.get(_mode())
    if report.failed and seen["outcome"] != "failed":
        seen["outcome"] = "failed" if report.when == "call" else "error"
        seen["error"] = error_text(report.longrepr)
    elif report.skipped and seen["outcome"] == "passed":
        seen["outcome"] = "skipped"
    if report.when == "teardown":
        _emit(event="result", id=report.nodeid, **_outcomes.pop(report.nodeid))
