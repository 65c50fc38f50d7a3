"""SummaryCollector(collect_landscape) checkpoints and SummaryLandscape's landscapes, end to end
(the losses themselves are replayed against MindSpore in ms_programs/summary_landscape.py)."""

import glob
import json
import os
import struct

import numpy as np
import pytest

pytest.importorskip("cellgrad_dataset")
pytest.importorskip("tensorboardX")

import cellgrad.dataset as ds  # noqa: E402

import cellgrad as ms  # noqa: E402
from cellgrad import SummaryCollector, SummaryLandscape, SummaryRecord, nn  # noqa: E402
from cellgrad.train import Loss, Model  # noqa: E402

RNG = np.random.default_rng(5)
X = RNG.normal(size=(24, 4)).astype(np.float32)
Y = (X[:, 0] - X[:, 2] > 0).astype(np.int32)
SETTINGS = {"landscape_size": 3, "unit": "step", "num_samples": 12,
            "create_landscape": {"train": True, "result": True}, "intervals": [[2, 3, 4, 5]]}


def _data():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(6)


def callback_fn():
    net = nn.Dense(4, 2)
    metrics = {"Loss": Loss()}
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, metrics=metrics), net, _data(), metrics


def _train(summary_dir, settings=SETTINGS, epochs=2):
    ms.set_seed(2)
    net = nn.Dense(4, 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.2, 0.9))
    collector = SummaryCollector(str(summary_dir),
                                 collect_specified_data={"collect_landscape": settings})
    model.train(epochs, _data(), callbacks=[collector], dataset_sink_mode=False)


def _tensors(folder):
    """{tag: array} of the tensor summaries (and {tag: text} of the texts) in `folder`."""
    from tensorboardX.proto import event_pb2

    out = {}
    for path in glob.glob(os.path.join(folder, "*tfevents*")):
        data, i = open(path, "rb").read(), 0
        while i < len(data):
            (n,) = struct.unpack("<Q", data[i:i + 8])
            event = event_pb2.Event()
            event.ParseFromString(data[i + 12:i + 12 + n])
            i += n + 16
            for v in event.summary.value:
                if v.HasField("tensor") and v.tensor.tensor_content:
                    shape = [d.size for d in v.tensor.tensor_shape.dim]
                    out[v.tag] = np.frombuffer(v.tensor.tensor_content, np.float64).reshape(shape)
                elif v.HasField("tensor") and v.tensor.string_val:
                    out[v.tag] = v.tensor.string_val[0].decode()
    return out


def _loss_of(ckpt):
    model, net, data, _ = callback_fn()
    ms.load_param_into_net(net, ms.load_checkpoint(ckpt))
    model.train_network.set_train(True)
    losses = [float(model.train_network(*batch).asnumpy()) for batch in
              data.take(2).create_tuple_iterator()]
    return np.mean(losses)


def test_collector_saves_the_interval_checkpoints_and_metadata(tmp_path):
    _train(tmp_path)
    ckpt_dir = tmp_path / "ckpt_dir"
    assert sorted(os.listdir(ckpt_dir)) == [f"Dense_{i}_step.ckpt" for i in (2, 3, 4, 5)] + \
        ["train_metadata.json"]
    meta = json.loads((ckpt_dir / "train_metadata.json").read_text())
    assert meta == {"epoch_group": {"0": [2, 3, 4, 5]},
                    "model_params_file_map": {str(i): str(ckpt_dir / f"Dense_{i}_step.ckpt")
                                              for i in (2, 3, 4, 5)},
                    "step_per_epoch": 4, "unit": "step", "num_samples": 12,
                    "landscape_size": 3, "create_landscape": {"train": True, "result": True}}
    assert set(ms.load_checkpoint(str(ckpt_dir / "Dense_3_step.ckpt"))) == {"weight", "bias"}


def test_collector_by_epoch_and_its_checks(tmp_path):
    _train(tmp_path, dict(SETTINGS, unit="epoch", intervals=[[1, 2, 3]]), epochs=3)
    assert sorted(os.listdir(tmp_path / "ckpt_dir"))[:3] == [
        "Dense_1_epoch.ckpt", "Dense_2_epoch.ckpt", "Dense_3_epoch.ckpt"]
    with pytest.raises(ValueError, match="should be less than 256 and more than 3, but got the: 2"):
        SummaryCollector(str(tmp_path / "a"), collect_specified_data={
            "collect_landscape": dict(SETTINGS, landscape_size=2)})
    with pytest.raises(TypeError, match=r"For `intervals` the type should be a valid type of "
                                        r"\['list'\], but got NoneType"):
        SummaryCollector(str(tmp_path / "b"), collect_specified_data={
            "collect_landscape": {"landscape_size": 4}})
    # MindSpore 2.10's collector texts (no closing period, unlike SummaryLandscape's)
    with pytest.raises(ValueError, match=r'For "SummaryCollector", the length of each list in '
                                         r'"intervals" should not be less than three, but got '
                                         r'the: \[1, 2\]$'):
        SummaryCollector(str(tmp_path / "c"), collect_specified_data={
            "collect_landscape": dict(SETTINGS, intervals=[[1, 2]])})
    with pytest.raises(TypeError, match=r'For "SummaryCollector", the value of each list in '
                                        r'"intervals" should be int, but got the: '
                                        r"<class 'str'>$"):
        SummaryCollector(str(tmp_path / "d"), collect_specified_data={
            "collect_landscape": dict(SETTINGS, intervals=[[1, 2, "a"]])})


def test_landscapes_are_written_as_tensor_summaries(tmp_path, capsys):
    _train(tmp_path)
    np.random.seed(1)
    SummaryLandscape(str(tmp_path)).gen_landscapes_with_multi_process(callback_fn,
                                                                      device_ids=[0])
    got = _tensors(tmp_path)
    pca, rand = "landscape_[2, 5]", "landscape_[5]"
    assert got[f"{pca}/x"].shape == got[f"{pca}/y"].shape == (3,)
    assert got[f"{pca}/z"].shape == (3, 3) and got[f"{rand}/z"].shape == (3, 3)
    assert np.all(np.diff(got[f"{pca}/x"]) > 0)
    # the last checkpoint is the origin of the PCA plane, and its loss the convergence point
    assert got[f"{pca}/path_x"][-1] == 0 and got[f"{pca}/path_y"][-1] == 0
    final_loss = _loss_of(str(tmp_path / "ckpt_dir" / "Dense_5_step.ckpt"))
    np.testing.assert_allclose(got[f"{pca}/path_z"][-1], final_loss, rtol=1e-5)
    np.testing.assert_allclose(got[f"{pca}/convergence"], [0, 0, final_loss], rtol=1e-5)
    # the random plane is centred on the final parameters too
    np.testing.assert_allclose(got[f"{rand}/x"], [-1, 0, 1])
    np.testing.assert_allclose(got[f"{rand}/z"][1, 1], final_loss, rtol=1e-5)
    assert f"{rand}/path_z" not in got
    meta = json.loads(got[f"{pca}/metadata/text_summary"])
    assert meta == {"decomposition": "PCA", "unit": "step", "step_per_epoch": 4}
    out = capsys.readouterr().out
    assert "Drawing landscape path total progress is 4/4, landscape path loss is" in out
    assert out.count("Drawing landscape total progress: 3/3.") == 2


def test_worker_processes_give_the_same_landscape(tmp_path):
    _train(tmp_path)
    settings = {"create_landscape": {"train": True, "result": False}}
    one, two = tmp_path / "one", tmp_path / "two"
    landscape = SummaryLandscape(str(tmp_path))
    landscape.gen_landscapes_with_multi_process(callback_fn, settings, [0], str(one))
    landscape.gen_landscapes_with_multi_process(callback_fn, settings, [0, 1], str(two))
    a, b = _tensors(one), _tensors(two)
    for field in ("z", "path_z", "x", "y"):
        np.testing.assert_allclose(a[f"landscape_[2, 5]/{field}"],
                                   b[f"landscape_[2, 5]/{field}"], rtol=1e-6)


def test_collect_landscape_rewrites_the_metadata(tmp_path):
    _train(tmp_path, dict(SETTINGS, intervals=[[1, 2, 3, 4, 5, 6]]))
    landscape = SummaryLandscape(str(tmp_path))
    landscape.gen_landscapes_with_multi_process(
        callback_fn, {"landscape_size": 4, "intervals": [[1, 2, 3], [4, 5, 6]],
                      "create_landscape": {"train": True, "result": False}}, [0])
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    assert meta["landscape_size"] == 4
    assert meta["epoch_group"] == {"0": [1, 2, 3], "1": [4, 5, 6]}
    got = _tensors(tmp_path)
    assert got["landscape_[1, 3]/z"].shape == got["landscape_[4, 6]/z"].shape == (4, 4)


def test_bad_arguments_raise_and_close_the_record(tmp_path):
    landscape = SummaryLandscape(str(tmp_path))
    with pytest.raises(TypeError, match='"device_ids" type should be int'):
        landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=["0"])
    with pytest.raises(ValueError, match='"device_ids" should be between 0 and 7, but got 8'):
        landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[8])
    with pytest.raises(TypeError, match=r"`device_ids` the type should be .*\['list'\]"):
        landscape.gen_landscapes_with_multi_process(callback_fn)
    with pytest.raises(FileNotFoundError, match="train_metadata.json file path of .* not exists"):
        landscape.gen_landscapes_with_multi_process(callback_fn, {"landscape_size": 5}, [0])
    with pytest.raises(FileNotFoundError, match="please use summary_collector"):
        landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
    SummaryRecord(str(tmp_path)).close()  # every failed call closed its record


def test_clean_ckpt_removes_the_checkpoints(tmp_path):
    _train(tmp_path)
    SummaryLandscape(str(tmp_path)).clean_ckpt()
    assert not (tmp_path / "ckpt_dir").exists()
