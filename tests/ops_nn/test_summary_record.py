"""cellgrad.train.SummaryRecord and the summary ops: TensorBoard event files read back by an
independent reader (summary_events.py: TFRecord framing with CRC checks, the Event protobuf
decoded by hand) and, when installed, TensorBoard's own EventAccumulator; MindSpore's errors.
Messages are MindSpore 2.10's (recorded by running it)."""

import io
import os
import time

import numpy as np
import pytest
import summary_events as se

import cellgrad as ms
from cellgrad import Tensor, nn, ops

pytest.importorskip("tensorboardX")  # test_summary_import.py covers its absence

SUMMARY_OPS = ("ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary")


def write(folder, **kwargs):
    with ms.train.SummaryRecord(str(folder), **kwargs) as record:
        record.add_value("scalar", "loss", Tensor(1.5, ms.float32))
        record.add_value("histogram", "w", Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        record.add_value("tensor", "t", Tensor(np.arange(4, dtype=np.int32).reshape(2, 2)))
        assert record.record(1) is True
        record.add_value("scalar", "loss", Tensor(np.array([0.25], np.float64)))
        record.record(2)
        return record.log_dir


def test_scalars_histograms_tensors_read_back_with_steps(tmp_path):
    path = write(tmp_path)
    evs = se.events(path)
    assert evs[0][2] == "brain.Event:2" and [e[0] for e in evs[1:]] == [1, 2]
    tags = se.by_tag(path)
    assert tags["loss"] == [(1, "scalar", 1.5), (2, "scalar", 0.25)]
    (step, kind, hist), = tags["w"]
    assert (step, kind) == (1, "histogram")
    # MindSpore's bins: 6 values -> 3 bins over [min, max]
    np.testing.assert_allclose(hist["bucket_limit"], [5 / 3, 10 / 3, 5.0])
    np.testing.assert_array_equal(hist["bucket"], [2, 2, 2])
    assert (hist["min"], hist["max"], hist["num"], hist["sum"], hist["sum_squares"]) == \
        (0.0, 5.0, 6.0, 15.0, 55.0)
    (step, kind, tensor), = tags["t"]
    assert tensor.dtype == np.int32 and tensor.tolist() == [[0, 1], [2, 3]]


def test_tensorboard_reads_the_files(tmp_path):
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    tensor_util = pytest.importorskip("tensorboard.util.tensor_util")
    write(tmp_path)
    acc = accumulator.EventAccumulator(str(tmp_path), size_guidance={"tensors": 0})
    acc.Reload()  # TensorBoard finds the file by "tfevents" in its name
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(1, 1.5), (2, 0.25)]
    assert acc.Histograms("w")[0].histogram_value.bucket == [2, 2, 2]
    np.testing.assert_array_equal(tensor_util.make_ndarray(acc.Tensors("t")[0].tensor_proto),
                                  [[0, 1], [2, 3]])


def test_tbparse_reads_the_files(tmp_path):
    tbparse = pytest.importorskip("tbparse")  # needs pandas and tensorboard
    write(tmp_path)
    reader = tbparse.SummaryReader(str(tmp_path))
    assert reader.scalars[["step", "tag", "value"]].values.tolist() == \
        [[1, "loss", 1.5], [2, "loss", 0.25]]
    (counts,) = reader.histograms["counts"]
    assert list(counts) == [2, 2, 2]
    (tensor,) = reader.tensors["value"]
    np.testing.assert_array_equal(tensor, [[0, 1], [2, 3]])


def test_file_name_log_dir_and_prefix_suffix(tmp_path):
    before = int(time.time())
    with ms.train.SummaryRecord(str(tmp_path), file_prefix="run1", file_suffix="_x") as record:
        name = os.path.basename(record.log_dir)
        assert os.path.dirname(record.log_dir) == os.path.realpath(tmp_path)
    parts = name.split(".")
    assert parts[:4] == ["run1", "out", "tfevents", "summary"] and name.endswith("_x")
    assert before <= int(parts[4]) <= time.time() and parts[5] == "0"
    assert not os.path.exists(record.log_dir)  # nothing recorded: no file, as MindSpore


def test_one_instance_at_a_time_closed_record_and_context(tmp_path, capsys):
    record = ms.train.SummaryRecord(str(tmp_path / "a"))
    with pytest.raises(RuntimeError, match="only one instance is supported in a training "
                                           "process, you are trying to create a new one when "
                                           "the existing instance number is 1"):
        ms.train.SummaryRecord(str(tmp_path / "b"))
    record.close()
    record.close()  # twice is harmless and does not free a second slot
    assert ms.train.SummaryRecord.count == 0
    assert record.record(3) is False
    assert "The record writer is closed" in capsys.readouterr().err
    with pytest.raises(ValueError, match="SummaryRecord has been closed"):
        record.__enter__()
    with ms.train.SummaryRecord(str(tmp_path / "b")):
        assert ms.train.SummaryRecord.count == 1
    assert ms.train.SummaryRecord.count == 0


@pytest.mark.parametrize("args, error, message", [
    (("scalar", "a", np.float32(1)), TypeError,
     'For "SummaryRecord", the parameter "value" expect to be Tensor, but got float32'),
    (("scalar", "a", 1.0), TypeError,
     'For "SummaryRecord", the parameter "value" expect to be Tensor, but got float'),
    (("scalar", "", Tensor(1.0)), ValueError,
     'For "SummaryRecord", the parameter "name" type should be str, but got <class \'str\'>.'),
    (("scalar", 3, Tensor(1.0)), ValueError,
     'For "SummaryRecord", the parameter "name" type should be str, but got <class \'int\'>.'),
    (("text", "a", Tensor(1.0)), ValueError,
     'For "SummaryRecord.add_value", no such "plugin" of \'text\' , expect value is one of '
     '[tensor, scalar, image, histogram, train_lineage, eval_lineage, dataset_graph, '
     'custom_lineage_data, graph, landscape]'),
    (("scalar", "a", Tensor([1.0, 2.0])), ValueError,
     'For "SummaryRecord", the v rank must be less than or equal to 1, but got 2.'),
    (("image", "a", Tensor(np.zeros((3, 4, 4), np.float32))), ValueError,
     'For "SummaryRecord", the tensor seems not to hold a valid image.'),
    (("histogram", "a", Tensor(1.0)), ValueError,
     'For "SummaryRecord", the value should not be empty.'),
    (("tensor", "a", Tensor(1.0)), ValueError,
     'For "SummaryRecord", the value should not be empty.'),
    (("graph", "a", Tensor(1.0)), ValueError,
     "MindInsight's lineage/graph/landscape data, which cellgrad's TensorBoard files do not "
     "hold"),
])
def test_add_value_errors(tmp_path, args, error, message):
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        with pytest.raises(error) as info:
            record.add_value(*args)
        assert message in str(info.value)
        record.add_value("scalar", "ok", Tensor([2.0]))  # a value of one element is a scalar


def test_record_and_set_mode_errors(tmp_path):
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        for step, name in ((1.5, "float"), (True, "bool")):
            with pytest.raises(TypeError, match=f"The type of 'step' should be 'int', but got "
                                                f"type '{name}'."):
                record.record(step)
        with pytest.raises(TypeError, match=r"The type of 'train_network' should be one of "
                                            r"'\['Cell', 'NoneType'\]', but got type 'int'."):
            record.record(1, train_network=3)
        with pytest.raises(ValueError, match="'test' is not a recognized mode, expect the "
                                             "parameter \"mode\" is \"train\" or \"eval\""):
            record.set_mode("test")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"log_dir": 3}, TypeError, "The log_dir is invalid, the type should be string."),
    ({"file_prefix": "a/b"}, ValueError, "The 'a/b' is illegal, it must be match regular"),
    ({"max_file_size": "1"}, TypeError,
     "For 'SummaryRecord', the 'max_file_size' should be int type, but got type <class 'str'>"),
    ({"raise_exception": 1}, TypeError,
     "The type of 'raise_exception' should be 'bool', but got type 'int'."),
    ({"export_options": {"x": "npy"}}, ValueError,
     'For "SummaryRecord", the keys {\'x\'} of "export_options" are unsupported, expect the '
     "follow keys: ['tensor_format']"),
])
def test_constructor_errors(tmp_path, kwargs, error, message):
    kwargs = {"log_dir": str(tmp_path), **kwargs}
    with pytest.raises(error) as info:
        ms.train.SummaryRecord(**kwargs)
    assert message in str(info.value)
    assert ms.train.SummaryRecord.count == 0


def test_a_file_as_log_dir_is_rejected(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(NotADirectoryError, match="is a file path, it should be a directory"):
        ms.train.SummaryRecord(str(target))


def test_a_directory_that_cannot_be_written_fails_at_once(tmp_path, monkeypatch):
    def refuse(path, mode=0o777, exist_ok=False):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "makedirs", refuse)
    with pytest.raises(TypeError, match="For 'SummaryRecord', no write permission on the "
                                        "directory: the log_dir .* cannot be created"):
        ms.train.SummaryRecord(str(tmp_path / "new"))
    monkeypatch.undo()
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(PermissionError, match="For 'SummaryCollector', the summary_dir .* is "
                                              "not writable"):
        ms.train.SummaryCollector(str(tmp_path))
    assert ms.train.SummaryRecord.count == 0


class Summarized(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scalar, self.hist = ops.ScalarSummary(), ops.HistogramSummary()
        self.image, self.tensor = ops.ImageSummary(), ops.TensorSummary()

    def construct(self, x):
        y = x * 2
        self.scalar("mean", y.mean())
        self.hist("y", y)
        self.tensor("x", x)
        return y


def test_summary_ops_queue_the_newest_value_for_the_next_record(tmp_path):
    net = Summarized()
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        assert net.scalar("direct", Tensor(1.0)) is None
        net(Tensor(np.array([1.0, 3.0], np.float32)))
        net(Tensor(np.array([2.0, 4.0], np.float32)))  # the newest value per name is recorded
        record.record(5)
        record.record(6)  # nothing queued: no event
        path = record.log_dir
    tags = se.by_tag(path)
    assert tags["mean"] == [(5, "scalar", 6.0)] and tags["direct"] == [(5, "scalar", 1.0)]
    assert tags["x"][0][2].tolist() == [2.0, 4.0] and tags["y"][0][2]["sum"] == 12.0
    assert [e[0] for e in se.events(path)] == [0, 5]


def test_summary_op_attributes_and_paths():
    for name in SUMMARY_OPS:
        op = getattr(ops, name)()
        assert isinstance(op, ops.Primitive) and op.name == name
        assert op.attrs["side_effect_io"] is True
        assert getattr(ms.ops.operations, name) is getattr(ops, name)
    assert ops.ScalarSummary().attrs["channel_name"] == "ms_scalar_summary"


@pytest.mark.parametrize("op, name, value, error, message", [
    ("ScalarSummary", "x", Tensor([1.0, 2.0]), ValueError,
     'For "ScalarSummary", the v rank must be less than or equal to 1, but got 2.'),
    ("ImageSummary", "im", Tensor(np.zeros((3, 4, 4), np.float32)), ValueError,
     'For "ImageSummary", the tensor seems not to hold a valid image.'),
    ("TensorSummary", "t", np.zeros(3), TypeError,
     'For "TensorSummary", the parameter "value" expect to be Tensor, but got ndarray'),
    ("HistogramSummary", 3, Tensor([1.0]), TypeError,
     'For "HistogramSummary", the name must be valid string, but got "3".'),
    ("ImageSummary", "", Tensor(np.zeros((1, 3, 4, 4), np.float32)), ValueError,
     "For 'ImageSummary', the name must be valid string, but got ''."),
])
def test_summary_op_bad_values_raise_at_record_naming_the_op(tmp_path, op, name, value, error,
                                                             message):
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        getattr(ops, op)()(name, value)
        with pytest.raises(error) as info:
            record.record(1)
        assert str(info.value) == message
        ops.ScalarSummary()("fine", Tensor(1.0))
        assert record.record(2) is True  # the bad value was dropped with the queue
        path = record.log_dir
    assert se.by_tag(path) == {"fine": [(2, "scalar", 1.0)]}


def test_eval_mode_keeps_summary_op_values_queued_and_plugin_filter(tmp_path):
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        record.set_mode("eval")
        ops.ScalarSummary()("op", Tensor(1.0))
        record.add_value("scalar", "added", Tensor(2.0))
        record.record(1)
        record.set_mode("train")
        record.add_value("scalar", "kept", Tensor(3.0))
        record.add_value("tensor", "dropped", Tensor([3.0]))
        record.record(2, plugin_filter=lambda plugin: plugin == "scalar")
        path = record.log_dir
    assert se.by_tag(path) == {"added": [(1, "scalar", 2.0)], "op": [(2, "scalar", 1.0)],
                               "kept": [(2, "scalar", 3.0)]}


def test_histogram_leaves_out_nan_and_inf_and_uses_mindsporess_bins(tmp_path):
    values = np.concatenate([np.linspace(-1, 1, 100), [np.nan, np.inf, -np.inf]])
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        record.add_value("histogram", "h", Tensor(values.astype(np.float32)))
        record.add_value("histogram", "same", Tensor(np.full(4, 2.0, np.float32)))
        record.record(0)
        path = record.log_dir
    tags = se.by_tag(path)
    hist = tags["h"][0][2]
    assert hist["num"] == 100 and len(hist["bucket"]) == 11  # 100 // 10 + 1
    assert hist["bucket"].sum() == 100 and (hist["min"], hist["max"]) == (-1.0, 1.0)
    same = tags["same"][0][2]  # one value: MindSpore widens the range by 0.5 each side
    np.testing.assert_allclose(same["bucket_limit"], [2.0, 2.5])
    assert same["bucket"].tolist() == [0, 4]


def test_images_on_mindsporess_grid_and_scaling(tmp_path, capsys):
    image = pytest.importorskip("PIL.Image")
    batch = np.zeros((10, 1, 2, 3), np.float32)
    batch[1] = 1.0
    with ms.train.SummaryRecord(str(tmp_path)) as record:
        record.add_value("image", "gray", Tensor(batch))
        record.add_value("image", "two_channels", Tensor(np.ones((1, 2, 2, 2), np.float32)))
        record.record(4)
        path = record.log_dir
    assert "which means Summary tensor is not Image" in capsys.readouterr().err
    tags = se.by_tag(path)
    assert "two_channels" not in tags  # dropped, as MindSpore drops it
    (step, _, got), = tags["gray"]
    assert (step, got["width"], got["height"], got["colorspace"]) == (4, 24, 4, 3)
    pixels = np.asarray(image.open(io.BytesIO(got["png"])))
    assert pixels.shape == (4, 24, 3)
    assert (pixels[:2, 3:6] == 255).all() and (pixels[:2, :3] == 0).all()  # [0, 1] -> x255
    assert (pixels[2:, 6:] == 0).all()


def test_image_of_a_wider_range_is_scaled_as_mindspore_does(tmp_path):
    pytest.importorskip("PIL.Image")
    from cellgrad_nn.train.summary_values import image_hwc

    hwc = image_hwc(np.array([[[[-2.0, 2.0]]]], np.float32))
    # shifted by the minimum, scaled by 255 / (max - min + 1)
    assert hwc.dtype == np.uint8 and hwc[0, :, 0].tolist() == [0, int(4 * 255 / 5)]


def test_tensor_export_as_npy(tmp_path):
    with ms.train.SummaryRecord(str(tmp_path), export_options={"tensor_format": "npy"}) as rec:
        rec.add_value("tensor", "w/a", Tensor(np.arange(3, dtype=np.float32)))
        rec.record(7)
    (folder,) = [p for p in os.listdir(tmp_path) if p.startswith("export_")]
    got = np.load(tmp_path / folder / "tensor" / "w%2Fa_7.npy")
    assert got.tolist() == [0.0, 1.0, 2.0]


def test_max_file_size_stops_writing_with_a_warning(tmp_path, capsys):
    with ms.train.SummaryRecord(str(tmp_path), max_file_size=150) as record:
        for step in range(1, 10):
            record.add_value("scalar", "loss", Tensor(float(step)))
            assert record.record(step) is True
        path = record.log_dir
    assert "'max_file_size' reached" in capsys.readouterr().err
    assert os.path.getsize(path) <= 150
    steps = [s for s, _, _ in se.by_tag(path)["loss"]]
    assert steps == list(range(1, len(steps) + 1)) and 0 < len(steps) < 9


def test_each_record_is_on_disk_before_close(tmp_path):
    record = ms.train.SummaryRecord(str(tmp_path))
    try:
        for step in (1, 2):
            record.add_value("scalar", "loss", Tensor(float(step)))
            record.record(step)
        # what a crash would leave: the file as it is now
        assert se.by_tag(record.log_dir)["loss"] == [(1, "scalar", 1.0), (2, "scalar", 2.0)]
    finally:
        record.close()


@pytest.mark.parametrize("raise_exception", [False, True])
def test_a_write_error_is_logged_or_raised(tmp_path, monkeypatch, capsys, raise_exception):
    from cellgrad_nn.train import summary_record

    def broken(self, data):
        raise OSError("disk gone")

    with ms.train.SummaryRecord(str(tmp_path), raise_exception=raise_exception) as record:
        monkeypatch.setattr(summary_record._EventFile, "_write", broken)
        record.add_value("scalar", "loss", Tensor(1.0))
        if raise_exception:
            with pytest.raises(OSError, match="disk gone"):
                record.record(1)
        else:
            assert record.record(1) is True
        assert "writing" in capsys.readouterr().err
        record.add_value("scalar", "loss", Tensor(2.0))
        assert record.record(2) is True  # writing stopped: nothing more is attempted
