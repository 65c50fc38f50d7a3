"""amp.auto_mixed_precision(net, 'O2', dtype=ms.bfloat16) with real bfloat16 tensors (ml_dtypes):
cells compute in BFloat16, BatchNorm in Float32, the output is Float32, and a small net trains.
MindSpore 2.10's CPU has no bfloat16 MatMul/Conv2D kernels and stops at the first Dense;
cellgrad runs them (computed in float32, rounded to bfloat16)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, amp, nn

pytest.importorskip("ml_dtypes")


def _net():
    return nn.SequentialCell([
        nn.Conv2d(1, 4, 3, pad_mode="valid", weight_init="he_uniform"), nn.BatchNorm2d(4),
        nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(4 * 3 * 3, 3)])


def test_o2_bfloat16_dtypes_at_cell_boundaries():
    ms.set_seed(1)
    net = amp.auto_mixed_precision(_net(), "O2", dtype=ms.bfloat16)
    seen = {}
    backbone = [c for _, c in net.cells_and_names() if isinstance(c, nn.SequentialCell)][0]
    x = Tensor(np.random.default_rng(0).normal(size=(2, 1, 8, 8)).astype(np.float32))
    h = x
    for i, cell in enumerate(backbone):
        h = cell(h)
        seen[i] = h.dtype
    assert seen[0] is ms.bfloat16  # Conv2d
    assert seen[1] is ms.bfloat16  # BatchNorm2d runs in Float32, its output cast back
    assert seen[5] is ms.bfloat16  # Dense
    out = net(x)
    assert out.dtype is ms.float32 and out.shape == (2, 3)
    assert h.asnumpy().dtype.name == "bfloat16"


def test_o2_bfloat16_trains():
    ms.set_seed(2)
    net = amp.auto_mixed_precision(_net(), "O2", dtype=ms.bfloat16)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    rng = np.random.default_rng(3)
    x = Tensor(rng.normal(size=(8, 1, 8, 8)).astype(np.float32))
    y = Tensor(rng.integers(0, 3, size=8).astype(np.int32))
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    step = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, net.trainable_params())
    losses = []
    for _ in range(12):
        loss, grads = step(x, y)
        assert all(g.dtype is ms.float32 for g in grads)  # parameters stay Float32 at O2
        opt(grads)
        losses.append(float(loss))
    assert np.isfinite(losses).all() and losses[-1] < 0.7 * losses[0]
