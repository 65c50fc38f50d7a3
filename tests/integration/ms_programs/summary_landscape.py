# replay needs: tensorboardX
"""SummaryLandscape: PCA and random loss landscapes from hand-made checkpoints, its checks."""
import json
import os
import shutil
import tempfile

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import SummaryLandscape, Tensor, nn
from mindspore.train import Loss, Model

rng = np.random.default_rng(3)
X = rng.normal(size=(16, 4)).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 0).astype(np.int32)


def callback_fn():
    net = nn.Dense(4, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    metrics = {"Loss": Loss()}
    data = ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)
    return Model(net, loss, metrics=metrics), net, data, metrics


root = tempfile.mkdtemp()
ckpt_dir = os.path.join(root, "ckpt_dir")
os.makedirs(ckpt_dir)
w0, dw1, dw2 = (rng.normal(size=(2, 4)) for _ in range(3))
b0, db1, db2 = (rng.normal(size=2) for _ in range(3))
files = {}
for step in range(1, 6):
    path = os.path.join(ckpt_dir, f"Dense_{step}_step.ckpt")
    weight = w0 + 0.3 * step * dw1 + 0.05 * step ** 2 * dw2
    bias = b0 + 0.3 * step * db1 - 0.05 * step ** 2 * db2
    ms.save_checkpoint([{"name": "weight", "data": Tensor(weight.astype(np.float32))},
                        {"name": "bias", "data": Tensor(bias.astype(np.float32))}], path)
    files[str(step)] = path
meta = {"epoch_group": {"0": [1, 2, 3, 4, 5]}, "model_params_file_map": files,
        "step_per_epoch": 5, "unit": "step", "num_samples": 8, "landscape_size": 3}
landscape = SummaryLandscape(root)
for create in ({"train": True, "result": False}, {"train": False, "result": True}):
    with open(os.path.join(ckpt_dir, "train_metadata.json"), "w", encoding="utf-8") as f:
        json.dump(dict(meta, create_landscape=create), f)
    np.random.seed(0)  # the random directions of the 'result' landscape
    landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
print(sorted({name.split(".")[0] for name in os.listdir(root)}))

for bad in ({"landscape_size": None}, {"create_landscape": None}, {"num_samples": None},
            {"intervals": None}, {"landscape_size": 2}, {"unit": "day"}, {"colour": 1},
            {"create_landscape": {"train": True}}, {"intervals": [[1, 2]]}):
    try:
        landscape.gen_landscapes_with_multi_process(callback_fn, collect_landscape=bad,
                                                    device_ids=[0])
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
landscape.clean_ckpt()
print(os.path.exists(ckpt_dir))
try:  # last: MindSpore leaves its SummaryRecord open after this error
    SummaryLandscape(root).gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
except FileNotFoundError as e:
    print("FileNotFoundError", e.args[0].replace(root, "<root>"))
shutil.rmtree(root)
