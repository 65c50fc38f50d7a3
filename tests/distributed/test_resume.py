"""A data-parallel run of the main job resumed from its checkpoint ends where the
uninterrupted run ends, bit for bit (each process reads its shard of the resumed epochs in the
uninterrupted run's order)."""

import numpy as np
import pytest
from mpi_launch import run

import cellgrad as ms


def _digits(*args):
    done, _ = run(["-m", "cellgrad_digits"], "--limit", 200, "--no-plots", *args, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.stress
@pytest.mark.slow
def test_two_processes_resumed_equal_two_processes_uninterrupted(tmp_path):
    pytest.importorskip("cellgrad_digits", reason="the digits example is not installed")
    pytest.importorskip("sklearn")
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    _digits("--epochs", 4, "--out", straight)
    _digits("--epochs", 2, "--out", resumed)
    out = _digits("--epochs", 4, "--out", resumed, "--resume",
                  resumed / "checkpoints" / "digits-2_5.ckpt")
    assert "2 epoch(s) from epoch 2, 2 processes" in out
    a = ms.load_checkpoint(str(straight / "checkpoints" / "digits-4_5.ckpt"))
    b = ms.load_checkpoint(str(resumed / "checkpoints" / "digits_1-4_5.ckpt"))
    assert sorted(a) == sorted(b)
    for name in a:
        assert np.array_equal(a[name].asnumpy(), b[name].asnumpy()), name
