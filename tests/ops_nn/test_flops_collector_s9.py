"""FlopsUtilizationCollector and flops_collection: matrix-product FLOPs of a step, counted by
hand here, and MindSpore 2.10's report lines and argument checks."""

import re

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn
from cellgrad.flops_count import FlopCounter


def _dataset(n=64, batch=32):
    ds = pytest.importorskip("cellgrad.dataset")
    rng = np.random.default_rng(0)
    data = {"x": rng.random((n, 10), dtype=np.float32),
            "y": rng.integers(0, 5, (n,)).astype(np.int32)}
    return ds.NumpySlicesDataset(data=data, shuffle=False).batch(batch)


def _model(net, **metrics):
    crit = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return ms.train.Model(network=net, optimizer=opt, loss_fn=crit, **metrics)


def test_dense_step_matches_mindspores_documented_count(capsys):
    # MindSpore's docstring: Dense(10, 5) at batch 32 -> 6400 (forward + weight gradient)
    train = _dataset()
    cb = ms.train.FlopsUtilizationCollector(train.get_dataset_size(), computility=10e6)
    _model(nn.Dense(10, 5)).train(1, train, callbacks=[cb])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("Full model flops is 6400.000000000001, Full hardware flops is "
                        "6400.000000000001, Shard model flops is 6400, Shard hardware flops is "
                        "6400.")
    # step 1 of data_size 2 prints; step 2 (a multiple of data_size) does not, as in MindSpore
    assert len(lines) == 2
    m = re.fullmatch(r"Train per step time: +([\d.]+) ms mfu:([\d.]+)% hfu:([\d.]+)%", lines[1])
    assert m and m.group(2) == m.group(3)
    # the step time is printed to 0.001 ms: a fast step's mfu is known only within that
    ms_step = float(m.group(1))
    lo, hi = (100 * 1000 * (6400 / 10e6) / t for t in (ms_step + 5e-4, max(ms_step - 5e-4, 1e-9)))
    assert lo - 0.02 <= float(m.group(2)) <= hi + 0.02
    assert ms.flops_collection() == (6400, 6400, 6400, 6400, False)


def test_two_layer_counts_input_gradient_of_hidden_layer():
    b, sizes = 8, (10, 20, 5)
    net = nn.SequentialCell(nn.Dense(10, 20), nn.ReLU(), nn.Dense(20, 5))
    x = ms.Tensor(np.ones((b, 10), np.float32))
    fwd = [2 * b * i * o for i, o in zip(sizes[:-1], sizes[1:])]
    with FlopCounter() as c:
        net(x)
    assert c.flops == sum(fwd)
    c = FlopCounter().start()
    ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    # forward, both weight gradients, the hidden layer's input gradient (not the data's)
    assert c.stop("probe") == 2 * sum(fwd) + fwd[1]
    assert ms.flops_collection("probe") == (c.flops,) * 4 + (False,)


def test_conv_and_matmul_counts():
    conv = nn.Conv2d(4, 6, 3, group=2, pad_mode="valid", has_bias=False)
    x = ms.Tensor(np.ones((2, 4, 7, 7), np.float32))
    with FlopCounter() as c:
        conv(x)
    assert c.flops == 2 * (2 * 6 * 5 * 5) * (2 * 3 * 3)
    a = ms.Tensor(np.ones((3, 4, 5), np.float32))
    w = ms.Tensor(np.ones((3, 5, 2), np.float32))
    with FlopCounter() as c:
        ms.ops.BatchMatMul()(a, w)
        ms.ops.relu(a)                      # elementwise work is not counted
    assert c.flops == 2 * 3 * 4 * 2 * 5


def test_eval_phase_and_errors(capsys):
    valid = _dataset()
    model = _model(nn.Dense(10, 5), metrics={"acc"})
    cb = ms.train.FlopsUtilizationCollector(1)
    model.eval(valid, callbacks=[cb])
    # forward only; data_size 1 makes every step a multiple, so no per-step line (MindSpore's rule)
    assert capsys.readouterr().out == (
        "Full model flops is 3200.0, Full hardware flops is 3200.0, Shard model flops is 3200, "
        "Shard hardware flops is 3200.\n")
    assert ms.flops_collection("eval") == (3200, 3200, 3200, 3200, False)
    with pytest.raises(RuntimeError, match="no step of phase 'nothing' has been counted"):
        ms.flops_collection("nothing")
    with pytest.raises(ValueError, match=r"The 'data_size' must be int and must > 0, but got "
                                         r"'0' with type 'int'\."):
        ms.train.FlopsUtilizationCollector(0)
    with pytest.raises(TypeError, match="The 'data_size' must be int, but got 'float'"):
        ms.train.FlopsUtilizationCollector(1.5)
    with pytest.raises(TypeError, match="The 'full_flops' must be a bool, but got int."):
        ms.train.FlopsUtilizationCollector(2, 1, 1)
    with pytest.raises(TypeError, match="The 'enable_ma_collector' must be a bool, but got int."):
        ms.train.FlopsUtilizationCollector(2, 1, True, 1)


def test_ma_collector_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MA_LOG_DIR", str(tmp_path))
    cb = ms.train.FlopsUtilizationCollector(2, enable_ma_collector=True)  # quiet: computility 1
    _model(nn.Dense(10, 5)).train(1, _dataset(), callbacks=[cb])
    assert capsys.readouterr().out == ""
    flops = (tmp_path / "flops_rank_0.txt").read_text().splitlines()
    assert re.fullmatch(r'flops\{type="model_flops", rank_id="0"\} 6400 \d+', flops[0])
    assert re.fullmatch(r'flops\{type="hardware_flops", rank_id="0"\} 6400 \d+', flops[1])
    step = (tmp_path / "time_step_rank_0.txt").read_text()
    assert re.fullmatch(r'time_monitor\{type="per_step_time", rank_id="0"\} [\d.e-]+ \d+\n', step)


def test_ma_files_are_rewritten_whole(tmp_path, monkeypatch):
    """Each write replaces the file: a shorter line never keeps the tail of a longer one (the
    per-step time's length changes from step to step)."""
    monkeypatch.setenv("MA_LOG_DIR", str(tmp_path))
    for name in ("flops_rank_0.txt", "time_step_rank_0.txt"):
        (tmp_path / name).write_text("x" * 500 + "\n" * 5)
    cb = ms.train.FlopsUtilizationCollector(2, enable_ma_collector=True)
    _model(nn.Dense(10, 5)).train(1, _dataset(), callbacks=[cb])
    assert len((tmp_path / "flops_rank_0.txt").read_text().splitlines()) == 2
    step = (tmp_path / "time_step_rank_0.txt").read_text()
    assert re.fullmatch(r'time_monitor\{type="per_step_time", rank_id="0"\} [\d.e-]+ \d+\n', step)
