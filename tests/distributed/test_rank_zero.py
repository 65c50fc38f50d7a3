"""Logs and checkpoints in a multi-process job come from rank 0: `LossMonitor`, the progress
bar and `ModelCheckpoint` as another rank sees them (the rank is what ops-nn's
`train.parallel` interface reports; the 2-process run is in test_multiprocess.py)."""

import io
import os

import numpy as np
import pytest
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import nn
from cellgrad.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint, ProgressBar
from cellgrad_nn.train import parallel

pytest.importorskip("cellgrad_checkpoint", reason="ModelCheckpoint needs cellgrad-checkpoint")


def _fit(callbacks):
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    data = NumpySlicesDataset({"x": np.ones((8, 3), np.float32),
                               "y": np.zeros((8, 2), np.float32)}, shuffle=False).batch(4)
    model.train(2, data, callbacks=callbacks)


@pytest.fixture
def as_rank(monkeypatch):
    def set_rank(rank, size=2):
        monkeypatch.setattr(parallel, "rank_and_size", lambda: (rank, size))
    return set_rank


@pytest.mark.parametrize("rank, printed", [(0, True), (1, False)])
def test_loss_monitor_prints_on_rank_0_only(as_rank, capsys, rank, printed):
    as_rank(rank)
    _fit([LossMonitor(1)])
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if line.startswith("epoch: ")]) == (4 if printed else 0)


@pytest.mark.parametrize("rank, shown", [(0, True), (1, False)])
def test_progress_bar_on_rank_0_only(as_rank, rank, shown):
    as_rank(rank)
    out = io.StringIO()
    _fit([ProgressBar(enabled=True, file=out)])
    assert ("epoch 2/2" in out.getvalue()) is shown


def test_checkpoints_from_rank_0_only(as_rank, tmp_path):
    as_rank(1)
    other = ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2))
    _fit([other])
    assert os.listdir(tmp_path) == []
    assert other.latest_ckpt_file_name == str(tmp_path / "net-2_2.ckpt")  # rank 0's file
    as_rank(0)
    _fit([ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2))])
    assert sorted(os.listdir(tmp_path)) == ["net-1_2.ckpt", "net-2_2.ckpt"]


def test_every_rank_saves_when_asked(as_rank, tmp_path):
    for rank in (0, 1):
        as_rank(rank)
        _fit([ModelCheckpoint("net", str(tmp_path),
                              CheckpointConfig(save_checkpoint_steps=4, all_ranks=True))])
    assert sorted(os.listdir(tmp_path)) == ["rank_0", "rank_1"]
    for rank in (0, 1):
        assert os.listdir(tmp_path / f"rank_{rank}") == ["net-2_2.ckpt"]


def test_one_process_saves_where_it_always_did(tmp_path):
    _fit([ModelCheckpoint("net", str(tmp_path),
                          CheckpointConfig(save_checkpoint_steps=4, all_ranks=True))])
    assert os.listdir(tmp_path) == ["net-2_2.ckpt"]


def test_the_interface_without_a_job():
    assert parallel.rank_and_size() == (0, 1)
    assert parallel.is_main_process()
    assert parallel.parallel_mode() == "stand_alone"
    assert parallel.grad_reducer([]) is None
