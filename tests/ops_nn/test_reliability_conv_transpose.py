"""Issue 21 item 6: nn.Conv{1,2,3}dTranspose in pad_mode 'valid'/'same' have MindSpore's output
shapes (`in*s + max(d*(k-1)+1-s, 0)` for 'valid', `in*s` for 'same') and values.

fixtures/conv_transpose_shapes.json is recorded from MindSpore 2.10 by
fixtures/record_conv_transpose_shapes.py (120 random configurations, outputs for 18)."""

import json
import os

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn

_FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "conv_transpose_shapes.json")
with open(_FIXTURE) as _f:
    CONFIGS = json.load(_f)["configs"]
CELLS = {1: nn.Conv1dTranspose, 2: nn.Conv2dTranspose, 3: nn.Conv3dTranspose}


def _run(index):
    cfg = CONFIGS[index]
    r = cfg["rank"]
    one = (lambda v: v[0]) if r == 1 else tuple
    rng = np.random.default_rng(index)
    w = rng.standard_normal((2, 3) + tuple(cfg["kernel"])).astype(np.float32)
    x = rng.standard_normal((1, 2) + tuple(cfg["size"])).astype(np.float32)
    cell = CELLS[r](2, 3, one(cfg["kernel"]), stride=one(cfg["stride"]),
                    pad_mode=cfg["pad_mode"], dilation=one(cfg["dilation"]),
                    weight_init=ms.Tensor(w))
    return cfg, x, w, cell(ms.Tensor(x)).asnumpy()


def test_fixture_follows_the_shape_formula():
    assert len(CONFIGS) == 120
    for cfg in CONFIGS:
        want = [n * s + max(d * (k - 1) + 1 - s, 0) if cfg["pad_mode"] == "valid" else n * s
                for n, k, s, d in zip(cfg["size"], cfg["kernel"], cfg["stride"],
                                      cfg["dilation"])]
        assert cfg["shape"][2:] == want


@pytest.mark.stress
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_shape_and_values_as_mindspore(index):
    cfg, _, _, y = _run(index)
    assert list(y.shape) == cfg["shape"], cfg
    if "output" in cfg:
        np.testing.assert_allclose(y.reshape(-1), cfg["output"], rtol=1e-4, atol=2e-4)


@pytest.mark.stress
@pytest.mark.parametrize("index", range(0, len(CONFIGS), 3))
def test_values_as_torch_conv_transpose_cropped(index):
    torch = pytest.importorskip("torch")
    cfg, x, w, y = _run(index)
    fn = (None, torch.nn.functional.conv_transpose1d, torch.nn.functional.conv_transpose2d,
          torch.nn.functional.conv_transpose3d)[cfg["rank"]]
    full = fn(torch.from_numpy(x), torch.from_numpy(w), stride=tuple(cfg["stride"]),
              dilation=tuple(cfg["dilation"])).numpy()
    # MindSpore's output = torch's full output zero-extended at the end ('valid') or cropped
    # to in*stride with the extra split before/after ('same')
    want = full
    for a, (n, k, s, d) in enumerate(zip(cfg["size"], cfg["kernel"], cfg["stride"],
                                          cfg["dilation"])):
        axis, span = 2 + a, d * (k - 1) + 1
        if span < s:
            widths = [(0, 0)] * want.ndim
            widths[axis] = (0, s - span)
            want = np.pad(want, widths)
        if cfg["pad_mode"] == "same" and span > s:
            lo = (span - s) // 2
            want = np.take(want, range(lo, lo + n * s), axis=axis)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)


def test_issue_examples():
    x = ms.Tensor(np.ones((1, 1, 8, 8), np.float32))
    assert nn.Conv2dTranspose(1, 1, 1, stride=2, pad_mode="valid")(x).shape == (1, 1, 16, 16)
    assert nn.Conv2dTranspose(1, 1, 2, stride=3, pad_mode="valid")(x).shape == (1, 1, 24, 24)
    assert nn.Conv2dTranspose(1, 1, 1, stride=3, pad_mode="same")(x).shape == (1, 1, 24, 24)
    assert nn.Conv2dTranspose(1, 1, 5, stride=2, pad_mode="valid",
                              dilation=2)(x).shape == (1, 1, 23, 23)
