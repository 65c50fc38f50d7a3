"""Names MindSpore keeps at its loss and loss-scale module paths: `get_half_ln_2_pi`,
`constexpr`, `RowTensorInner`; the Ascend-only `NPU*FloatStatusV2` primitives."""

import math

import numpy as np
import pytest

import cellgrad as ms
from cellgrad.nn.loss import loss as loss_module
from cellgrad.nn.wrap import loss_scale


def test_loss_module_path_names():
    assert loss_module.get_half_ln_2_pi() == pytest.approx(0.5 * math.log(2 * math.pi))
    assert loss_module.constexpr is ms.ops.constexpr


def test_loss_scale_path_names():
    from cellgrad.common.sparse_tensor import RowTensorInner

    assert loss_scale.RowTensorInner is RowTensorInner
    from cellgrad_nn.wrap import loss_scale_funcs

    for name in ("NPUGetFloatStatusV2", "NPUClearFloatStatusV2"):
        prim = getattr(loss_scale_funcs, name)()
        with pytest.raises(RuntimeError, match=f"Unsupported op \\[{name}\\] on CPU"):
            prim(ms.Tensor(np.zeros(8, np.int32)))


def test_device_only_optimizer_wrappers(monkeypatch):
    from cellgrad import nn

    opt = nn.Momentum(nn.Dense(2, 1).trainable_params(), 0.1, 0.9)
    for name in ("AdaSumByGradWrapCell", "AdaSumByDeltaWeightWrapCell"):
        with pytest.raises(RuntimeError, match="Stand alone mode is not supported"):
            getattr(nn, name)(opt)
        with pytest.raises(TypeError, match="'optimizer'"):
            getattr(nn, name)(3)
    monkeypatch.delenv("MS_ENABLE_TFT", raising=False)
    with pytest.raises(ValueError, match="MS_ENABLE_TFT"):
        nn.OptTFTWrapper(opt)
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    with pytest.raises(ValueError, match="only support on Ascend"):
        nn.OptTFTWrapper(opt)
    with pytest.raises(TypeError, match="must be Optimizer"):
        nn.OptTFTWrapper(3)
