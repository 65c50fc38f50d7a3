"""mindcv, a real MindSpore client, unchanged on cellgrad: a few small registry models build,
load MindSpore's checkpoint, give MindSpore's eval output and take a training step.
(`tools/mindcv_registry.py run` does the same for the whole registry.)"""

import importlib.util
import json
import pathlib
import sys

import numpy as np
import pytest

if importlib.util.find_spec("mindcv") is None:  # importing it needs `mindspore` resolved first
    pytest.skip("mindcv is not installed", allow_module_level=True)

HERE = pathlib.Path(__file__).parent
FIXTURES = HERE / "mindcv_fixtures"
sys.path.insert(0, str(HERE.parent.parent / "tools"))
import mindcv_registry  # noqa: E402

MODELS = sorted(p.stem for p in FIXTURES.glob("*.ckpt"))


@pytest.fixture(scope="module")
def ms():
    mindcv_registry._alias_mindspore()
    import mindspore

    return mindspore


@pytest.mark.parametrize("name", MODELS)
def test_model_matches_mindspore_on_its_checkpoint(ms, name):
    models = mindcv_registry._import_models()
    ms.set_seed(0)
    net = models.create_model(name, num_classes=10)
    params = ms.load_checkpoint(str(FIXTURES / f"{name}.ckpt"))
    not_loaded, ckpt_not_loaded = ms.load_param_into_net(net, params)
    assert not not_loaded and not ckpt_not_loaded
    meta = json.loads((FIXTURES / f"{name}.json").read_text())
    assert sum(int(np.prod(p.shape)) for p in net.get_parameters()) == meta["params"]
    net.set_train(False)
    out = net(ms.Tensor(mindcv_registry._input(name))).asnumpy()
    expected = np.load(FIXTURES / f"{name}.out.npy")
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


@pytest.mark.parametrize("name", MODELS[:1])
def test_model_takes_a_training_step(ms, name):
    models = mindcv_registry._import_models()
    ms.set_seed(0)
    net = models.create_model(name, num_classes=10)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    loss = mindcv_registry._train_step(ms, net, mindcv_registry._input(name))
    assert np.isfinite(loss)
    moved = [not np.array_equal(b, p.asnumpy()) for b, p in zip(before, net.trainable_params())]
    assert sum(moved) > len(moved) // 2
