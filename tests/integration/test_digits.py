"""The main job end to end: `cellgrad-digits` on a small slice, interrupted and killed runs.

Needs every package: core, ops-nn, checkpoint and the digits example (tox env `all`).
"""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

pytest.importorskip("cellgrad_digits")
pytest.importorskip("cellgrad_checkpoint")

from cellgrad_digits import cli, data  # noqa: E402
from cellgrad_digits.net import DigitsNet  # noqa: E402

import cellgrad as ms  # noqa: E402

# a run writes digits-E_S.ckpt; a later run in the same folder digits_1-E_S.ckpt, digits_2-...
CKPT = re.compile(r"digits(?:_\d+)?-(\d+)_(\d+)\.ckpt$")


def checkpoints(out, prefix=None):
    """The run's checkpoint files by epoch (of one prefix: 'digits', 'digits_1', ...)."""
    folder = os.path.join(out, "checkpoints")
    if not os.path.isdir(folder):
        return []
    names = [n for n in os.listdir(folder) if CKPT.search(n)
             and (prefix is None or n.startswith(prefix + "-"))]
    return sorted((os.path.join(folder, n) for n in names),
                  key=lambda p: int(CKPT.search(p).group(1)))


def run_cli(args, **kwargs):
    return subprocess.run([sys.executable, "-m", "cellgrad_digits", *args], capture_output=True,
                          text=True, timeout=300, **kwargs)


def test_one_epoch_on_a_slice_trains_saves_reloads_and_plots(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = str(tmp_path / "out")
    code = cli.main(["--epochs", "2", "--limit", "400", "--batch-size", "16", "--out", out,
                     "--seed", "1"])
    text = capsys.readouterr().out
    assert code == 0, text
    # numpy 1.26 wheels carry OpenBLAS "0.3.23.dev": the version is not all digits
    accuracy = float(re.search(r"^test accuracy: (0\.\d{4}|1\.0000) \(numpy's BLAS: \w+ "
                               r"[\w.]+, .*\d+ thread\(s\)\)$", text, re.M).group(1))
    assert accuracy > 0.5  # chance is 0.1
    assert re.search(r"test accuracy \d\.\d{4} \(identical\)", text)
    assert "confusion matrix" in text
    files = checkpoints(out)
    assert [CKPT.search(f).group(1) for f in files] == ["1", "2"]
    params = ms.load_checkpoint(files[-1])
    assert int(params["epoch_num"].asnumpy()) == 2
    net = DigitsNet(data.CLASSES)
    not_loaded, _ = ms.load_param_into_net(net, params)
    assert not_loaded == []
    for png in ("curves.png", "confusion_matrix.png", "misclassified.png"):
        path = os.path.join(out, png)
        assert os.path.getsize(path) > 1000
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_resume_continues_from_the_saved_epoch(tmp_path):
    out = str(tmp_path / "out")
    first = run_cli(["--epochs", "1", "--limit", "200", "--out", out, "--no-plots"])
    assert first.returncode == 0, first.stderr
    (ckpt,) = checkpoints(out)
    second = run_cli(["--epochs", "2", "--limit", "200", "--out", out, "--no-plots",
                      "--resume", ckpt])
    assert second.returncode == 0, second.stderr
    assert "1 epoch(s) from epoch 1" in second.stdout
    # the second run's files take MindSpore's next prefix: digits_1-2_N.ckpt
    names = sorted(os.path.basename(f) for f in checkpoints(out))
    assert names == ["digits-1_5.ckpt", "digits_1-2_5.ckpt"]  # 160 images: 5 steps an epoch
    again = run_cli(["--epochs", "2", "--limit", "200", "--out", out, "--resume",
                     checkpoints(out)[-1]])
    assert again.returncode != 0 and "is at epoch 2; ask for more --epochs" in again.stderr


def test_wrong_checkpoint_for_resume_is_refused(tmp_path):
    path = str(tmp_path / "other.ckpt")
    ms.save_checkpoint({"w": ms.Tensor(np.ones(2, np.float32))}, path)
    run = run_cli(["--epochs", "1", "--limit", "100", "--out", str(tmp_path), "--resume", path])
    assert run.returncode != 0 and "has no epoch_num" in run.stderr


# A run that waits, at a chosen checkpoint, inside the save: after the file's bytes are written
# and before the atomic rename (os.replace), so a signal then lands mid-save.
PAUSING_RUN = textwrap.dedent("""
    import os, signal, sys, time
    # a terminal's Ctrl-C: a job started in the background of a non-interactive shell (as CI
    # may start this suite) inherits SIGINT ignored, and Python then leaves it ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    real_replace = os.replace
    saves = 0

    def replace(src, dst, *a, **k):
        global saves
        if dst.endswith(".ckpt"):
            saves += 1
            if saves == int(os.environ["PAUSE_AT_SAVE"]):
                open(os.environ["PAUSE_MARKER"], "w").close()
                time.sleep(120)
        return real_replace(src, dst, *a, **k)

    os.replace = replace
    from cellgrad_digits.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def start_paused(tmp_path, out, pause_at):
    marker = str(tmp_path / f"paused-{pause_at}")
    env = dict(os.environ, PAUSE_AT_SAVE=str(pause_at), PAUSE_MARKER=marker)
    proc = subprocess.Popen([sys.executable, "-c", PAUSING_RUN, "--epochs", "6", "--limit",
                             "200", "--out", out, "--no-plots"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not os.path.exists(marker):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run never reached the save"
        time.sleep(0.05)
    return proc


@pytest.mark.slow
def test_sigkill_during_a_checkpoint_save_leaves_the_last_one_loadable(tmp_path):
    out = str(tmp_path / "out")
    proc = start_paused(tmp_path, out, pause_at=3)  # epochs 1 and 2 are saved
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    files = checkpoints(out)
    assert [CKPT.search(f).group(1) for f in files] == ["1", "2"]
    params = ms.load_checkpoint(files[-1])
    assert int(params["epoch_num"].asnumpy()) == 2
    resumed = run_cli(["--epochs", "3", "--limit", "200", "--out", out, "--no-plots",
                       "--resume", files[-1]])
    assert resumed.returncode == 0, resumed.stderr
    assert "1 epoch(s) from epoch 2" in resumed.stdout
    assert "test accuracy: " in resumed.stdout


@pytest.mark.slow
def test_keyboard_interrupt_says_how_to_resume(tmp_path):
    out = str(tmp_path / "out")
    proc = start_paused(tmp_path, out, pause_at=2)
    proc.send_signal(signal.SIGINT)  # KeyboardInterrupt in the middle of saving epoch 2
    # the start's allowance: under a loaded CI (two tox envs on two cores) 60 s was exceeded
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 130, stderr
    hint = re.search(r"interrupted; continue with --resume (\S+)", stderr)
    assert hint, stderr
    params = ms.load_checkpoint(hint.group(1))
    assert int(params["epoch_num"].asnumpy()) == 1
    leftovers = [n for n in os.listdir(os.path.join(out, "checkpoints"))
                 if not CKPT.search(n)]
    assert leftovers == []  # an interrupted save leaves no temporary file behind
