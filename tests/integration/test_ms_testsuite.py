"""tools/ms_testsuite.py on a tiny generated MindSpore-like checkout (no MindSpore needed).

The fake checkout has a `tests/st/ops` file whose CPU test passes in both modes (and a GPU-only
test the selection leaves out) and a `tests/st/tensor` file with a failing test, one that
sleeps past the time limit, one that hangs with the alarm blocked (only the watchdog can stop
it), one that aborts the interpreter, and passing tests after each. The baseline is recorded
with a `mindspore` shim that is cellgrad, then the run compares cellgrad with it.
"""

import json
import pathlib
import sys
import textwrap

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import ms_testsuite  # noqa: E402

OPS = """
import pytest
import mindspore as ms


@pytest.mark.cpu_linux
@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_add(mode):
    ms.set_context(mode=mode)
    out = ms.ops.add(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
    assert out.asnumpy().tolist() == [4.0, 6.0]


@pytest.mark.platform_gpu
def test_gpu_only():
    raise AssertionError("a GPU-only test must not be selected")
"""

TENSOR = """
import os
import signal
import time

import pytest
import mindspore as ms


@pytest.mark.cpu_linux
def test_a_fails():
    ms.Tensor([1.0]).{method}()


@pytest.mark.cpu_linux
def test_b_sleeps():
    time.sleep(60)


@pytest.mark.cpu_linux
def test_c_after_sleep():
    assert ms.Tensor([2.0]).asnumpy()[0] == 2.0


@pytest.mark.cpu_linux
def test_d_hangs():
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    time.sleep(60)


@pytest.mark.cpu_linux
def test_e_after_hang():
    pass


@pytest.mark.cpu_linux
def test_f_aborts():
    os.abort()


@pytest.mark.cpu_linux
def test_g_after_abort():
    pass
"""


def make_checkout(root, method):
    for folder in ("tests", "tests/st", "tests/st/ops", "tests/st/tensor"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").write_text("")
    (root / "tests/st/ops/test_fake_ops.py").write_text(textwrap.dedent(OPS))
    (root / "tests/st/tensor/test_fake_tensor.py").write_text(TENSOR.format(method=method))
    shim = root / "shim/mindspore"  # MindSpore's stand-in while the baseline is recorded
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text(
        "import sys\nimport cellgrad\ncellgrad.__version__ = 'shim'\n"
        "sys.modules['mindspore'] = cellgrad\n")
    return root


@pytest.mark.slow  # ~40 s: two runs of worker processes, a watchdog kill and an abort
def test_baseline_then_run(tmp_path, capsys, monkeypatch):
    source = make_checkout(tmp_path / "ms", method="asnumpy")  # passes while recording
    monkeypatch.setenv("PYTHONPATH", str(source / "shim"))
    fast = ["--timeout", "2", "--grace", "2", "--startup", "60", "--jobs", "2", "--quiet"]
    baseline = tmp_path / "baseline.json"
    assert ms_testsuite.main(["--source", str(source), "--record-baseline", "--baseline",
                              str(baseline), "--commit", "abc", *fast,
                              "--paths", "tests/st"]) == 0
    data = json.loads(baseline.read_text())
    assert data["source_commit"] == "abc" and data["mindspore"] == "shim"
    ops = data["files"]["tests/st/ops/test_fake_ops.py"]
    assert ops["passed"] == {"test_add[0]": "graph", "test_add[1]": "pynative"}
    tensor = data["files"]["tests/st/tensor/test_fake_tensor.py"]
    assert sorted(tensor["passed"]) == ["test_a_fails", "test_c_after_sleep",
                                        "test_e_after_hang", "test_g_after_abort"]
    assert sorted(tensor["failed"]) == ["test_b_sleeps", "test_d_hangs", "test_f_aborts"]
    capsys.readouterr()

    # the same checkout, now with test_a_fails calling a Tensor method cellgrad lacks
    source = make_checkout(tmp_path / "ms2", method="no_such_method")
    monkeypatch.delenv("PYTHONPATH")
    results = tmp_path / "results.json"
    assert ms_testsuite.main(["--source", str(source), "--baseline", str(baseline),
                              "--results", str(results), *fast]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:9]}
    # area, tests, MindSpore passes, cellgrad passes, %, | PyNative ms cg % | GRAPH ms cg %
    assert rows["ops"][1:5] == ["2", "2", "2", "100.0%"]
    assert rows["ops"][6:9] == ["1", "1", "100.0%"]  # PyNative
    assert rows["ops"][10:13] == ["1", "1", "100.0%"]  # GRAPH_MODE
    assert rows["tensor"][1:5] == ["7", "4", "3", "75.0%"]
    assert rows["total"][1:5] == ["9", "6", "5", "83.3%"]
    assert "1  missing name: Tensor.no_such_method" in out
    assert "timeout" not in out  # tests failing on MindSpore too are no cellgrad failure

    got = json.loads(results.read_text())["results"]
    name = "tests/st/tensor/test_fake_tensor.py::"
    assert got[name + "test_b_sleeps"]["error"].endswith("timeout: the test ran longer than 2 s")
    assert got[name + "test_d_hangs"]["error"] == "timeout: no progress for 4 s"
    assert got[name + "test_f_aborts"]["error"] == "crash: the worker exited with signal SIGABRT"
    for after in ("test_c_after_sleep", "test_e_after_hang", "test_g_after_abort"):
        assert got[name + after]["outcome"] == "passed"
    assert "tests/st/ops/test_fake_ops.py::test_gpu_only" not in got


def test_areas():
    assert ms_testsuite.area_of("tests/st/ops/cpu/test_add_op.py") == "ops"
    assert ms_testsuite.area_of("tests/st/tensor/test_addmm.py") == "tensor"
    assert ms_testsuite.area_of("tests/st/nn/test_dense.py") == "nn"
    assert ms_testsuite.area_of("tests/st/pynative/test_pynative_hook.py") == "grad/cell/hooks"
    assert ms_testsuite.area_of("tests/st/ops/test_ops_grad.py") == "grad/cell/hooks"
    assert ms_testsuite.area_of("tests/ut/python/optimizer/test_optimizer.py") == "optimizers"
    assert ms_testsuite.area_of("tests/st/ops/cpu/test_apply_adagrad_op.py") == "optimizers"
    assert ms_testsuite.area_of("tests/st/train/test_model.py") == "other"


def test_causes():
    cause = ms_testsuite.cause_of
    assert cause("AttributeError: module 'cellgrad' has no attribute 'vmap'") == (
        "missing name: mindspore.vmap")
    assert cause("ImportError: cannot import name 'jvp' from 'cellgrad.ops' (x.py)") == (
        "missing name: mindspore.ops.jvp")
    assert cause("AttributeError: 'Tensor' object has no attribute 'triu'") == (
        "missing name: Tensor.triu")
    assert cause("TypeError: pad() got an unexpected keyword argument 'value'") == (
        "signature: pad() has no argument 'value'")
    assert cause("Failed: DID NOT RAISE <class 'ValueError'>") == (
        "no error raised where MindSpore raises ValueError")
    assert cause("AssertionError: Regex pattern did not match.") == "error-message mismatch"
    assert cause("AssertionError: \nNot equal to tolerance rtol=1e-05") == "numeric mismatch"
    assert cause("ValueError: x has 3 dims, expected 2") == "ValueError: x has N dims, expected N"
