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


def test_import_mindcv_whole_and_run_its_data_pipeline(ms, tmp_path):
    """`import mindcv` (its data, optim and loss modules included) and mindcv's own
    create_dataset -> create_transforms -> create_loader over an image folder."""
    import mindcv
    from mindcv.data import create_dataset, create_loader, create_transforms
    from mindcv.optim import create_optimizer
    from PIL import Image

    rng = np.random.default_rng(0)
    for c in ("cat", "dog"):
        (tmp_path / "train" / c).mkdir(parents=True)
        for i in range(3):
            img = (rng.random((40, 48, 3)) * 255).astype(np.uint8)
            Image.fromarray(img).save(tmp_path / "train" / c / f"{i}.jpg")
    data = create_dataset(name="", root=str(tmp_path), split="train", shuffle=False,
                          num_parallel_workers=1)
    assert data.get_dataset_size() == 6
    loader = create_loader(data, batch_size=4, is_training=False, num_classes=2,
                           transform=create_transforms(dataset_name="", image_resize=32,
                                                       is_training=False),
                           num_parallel_workers=1, drop_remainder=False)
    batches = [(x.shape, x.dtype, y.asnumpy().tolist()) for x, y in loader]
    assert batches == [((4, 3, 32, 32), ms.float32, [0, 0, 0, 1]),
                       ((2, 3, 32, 32), ms.float32, [1, 1])]
    net = mindcv.models.create_model("mobilenet_v1_025", num_classes=2)
    opt = create_optimizer(net.trainable_params(), "adan", lr=0.01)
    assert opt.target == "CPU"
