"""cellgrad.train.SummaryCollector under Model.train/fit/eval: the steps it collects on
(MindSpore's collect_freq rule: the first step, then every collect_freq), the loss, the
learning rate, weight histograms, input images and the summary ops' values, read back by an
independent reader (summary_events.py); MindSpore's argument errors."""

import numpy as np
import pytest
import summary_events as se
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import Tensor, nn, ops

pytest.importorskip("tensorboardX")


class Net(nn.Cell):
    """A classifier of 1x2x2 'images' that reports through the summary ops."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.scalar, self.tensor = ops.ScalarSummary(), ops.TensorSummary()

    def construct(self, x):
        y = self.dense(x.reshape(x.shape[0], 4))
        self.scalar("logit_mean", y.mean())
        self.tensor("first_logits", y[0])
        return y


def dataset(n=40, batch=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.random((n, 1, 2, 2)).astype(np.float32)
    y = rng.integers(0, 3, n).astype(np.int32)
    return NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)


def model(lr=0.1, metrics=None):
    ms.set_seed(0)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, ms.train.Model(net, loss, nn.Momentum(net.trainable_params(), lr, 0.9),
                               metrics=metrics)


class Outputs(ms.train.Callback):
    """The loss of every step and the summary-op values the network queued in it."""

    def __init__(self):
        self.loss = {}

    def step_end(self, run_context):
        cb = run_context.original_args()
        self.loss[cb.cur_step_num] = float(cb.net_outputs.asnumpy())


def test_train_collects_loss_lr_histograms_images_and_ops_on_mindsporess_steps(tmp_path):
    net, m = model(lr=nn.ExponentialDecayLR(0.1, 0.5, 2))
    outputs = Outputs()
    collector = ms.train.SummaryCollector(str(tmp_path), collect_freq=3)
    m.train(2, dataset(), callbacks=[outputs, collector])  # 5 steps an epoch
    tags = se.by_tag(se.event_file(str(tmp_path)))
    steps = [1, 3, 6, 9]
    assert [s for s, _, _ in tags["loss/auto"]] == steps
    np.testing.assert_allclose([v for _, _, v in tags["loss/auto"]],
                               [outputs.loss[s] for s in steps], rtol=1e-6)
    # the rate each collected step used: 0.1 * 0.5 ** ((step - 1) / 2)
    np.testing.assert_allclose([v for _, _, v in tags["learning_rate/auto"]],
                               [0.1 * 0.5 ** ((s - 1) / 2) for s in steps], rtol=1e-6)
    weight = tags["dense.weight/auto"][-1][2]
    assert weight["num"] == 12 and weight["sum"] == pytest.approx(
        float(net.dense.weight.asnumpy().sum()), rel=1e-5)  # the last step's weights
    assert [s for s, _, _ in tags["dense.bias/auto"]] == steps
    assert [s for s, _, _ in tags["input_data/auto"]] == steps  # NCHW with 1 channel
    assert [s for s, _, _ in tags["logit_mean"]] == steps
    assert tags["first_logits"][0][2].shape == (3,)


def test_histogram_regular_and_keep_default_action(tmp_path):
    _, m = model()
    only = {"collect_metric": True, "histogram_regular": r".*bias"}
    m.train(1, dataset(), callbacks=[ms.train.SummaryCollector(
        str(tmp_path), collect_freq=2, collect_specified_data=only, keep_default_action=False)])
    tags = se.by_tag(se.event_file(str(tmp_path)))
    # nothing else collected; the network's own summary ops still write
    assert set(tags) == {"loss/auto", "dense.bias/auto", "logit_mean", "first_logits"}
    assert [s for s, _, _ in tags["loss/auto"]] == [1, 2, 4]


def test_inputs_that_are_not_images_are_skipped_with_a_warning(tmp_path, capsys):
    ms.set_seed(0)
    net = nn.Dense(4, 2)
    m = ms.train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    x = np.ones((8, 4), np.float32)
    data = NumpySlicesDataset((x, x[:, :2]), column_names=["x", "y"], shuffle=False).batch(4)
    m.train(1, data, callbacks=[ms.train.SummaryCollector(str(tmp_path), collect_freq=1)])
    assert "The input data of network are not image" in capsys.readouterr().err
    tags = se.by_tag(se.event_file(str(tmp_path)))
    assert "input_data/auto" not in tags and [s for s, _, _ in tags["loss/auto"]] == [1, 2]
    assert [v for _, _, v in tags["learning_rate/auto"]] == pytest.approx([0.1, 0.1])


def test_tensor_summaries_follow_collect_tensor_freq(tmp_path):
    _, m = model()
    m.train(2, dataset(), callbacks=[ms.train.SummaryCollector(
        str(tmp_path), collect_freq=4, collect_tensor_freq=3)])
    tags = se.by_tag(se.event_file(str(tmp_path)))
    assert [s for s, _, _ in tags["first_logits"]] == [1, 3, 6, 9]  # 1, then range(0, 11, 3)
    assert [s for s, _, _ in tags["loss/auto"]] == [1, 4, 8]  # every collect_freq


def test_fit_writes_validation_metrics_and_custom_lineage_text(tmp_path):
    _, m = model(metrics={"accuracy"})
    collector = ms.train.SummaryCollector(str(tmp_path), collect_freq=5,
                                          custom_lineage_data={"run": "a", "seed": 0})
    m.fit(2, dataset(), dataset(seed=1), callbacks=[collector])
    tags = se.by_tag(se.event_file(str(tmp_path)))
    accuracy = tags["eval/accuracy"]
    assert [s for s, _, _ in accuracy] == [5, 10] and all(0 <= v <= 1 for _, _, v in accuracy)
    assert m.eval(dataset(seed=1))["accuracy"] == pytest.approx(accuracy[-1][2])
    (step, _, text), = tags["custom_lineage_data/text_summary"]
    assert step == 1 and text == ["- run: a\n- seed: 0"]


def test_eval_writes_its_metrics_and_no_train_data(tmp_path):
    _, m = model(metrics={"accuracy", "loss"})
    result = m.eval(dataset(), callbacks=[ms.train.SummaryCollector(str(tmp_path))])
    tags = se.by_tag(se.event_file(str(tmp_path)))
    assert set(tags) == {"eval/accuracy", "eval/loss"}
    assert tags["eval/loss"] == [(0, "scalar", pytest.approx(result["loss"], rel=1e-6))]


def test_model_enters_the_collector_so_its_file_is_open_only_during_the_run(tmp_path):
    _, m = model()
    seen = []

    class Probe(ms.train.Callback):
        def step_end(self, run_context):
            seen.append(ms.train.SummaryRecord.count)

    m.train(1, dataset(), callbacks=[ms.train.SummaryCollector(str(tmp_path)), Probe()])
    assert seen == [1] * 5 and ms.train.SummaryRecord.count == 0
    with ms.train.SummaryRecord(str(tmp_path / "next")):  # the slot is free again
        pass


def test_a_collector_entered_by_the_user_and_by_model_is_two_records(tmp_path):
    _, m = model()
    with ms.train.SummaryCollector(str(tmp_path)) as collector:
        # as MindSpore: Model enters the callback again, a second SummaryRecord
        with pytest.raises(RuntimeError, match="only one instance is supported"):
            m.train(1, dataset(), callbacks=[collector])
    assert ms.train.SummaryRecord.count == 0


def test_the_file_survives_a_crash_in_the_middle_of_a_run(tmp_path):
    _, m = model()

    class Crash(ms.train.Callback):
        def step_end(self, run_context):
            if run_context.original_args().cur_step_num == 4:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        m.train(1, dataset(), callbacks=[ms.train.SummaryCollector(str(tmp_path), 2), Crash()])
    assert ms.train.SummaryRecord.count == 0  # closed by the `with` Model runs callbacks in
    tags = se.by_tag(se.event_file(str(tmp_path)))
    assert [s for s, _, _ in tags["loss/auto"]] == [1, 2, 4]


def test_callbacks_are_used_without_model_too(tmp_path):
    """A collector driven by hand (no `with`) opens its record at begin and closes it at end."""
    collector = ms.train.SummaryCollector(str(tmp_path), collect_freq=1,
                                          collect_specified_data={"collect_metric": True},
                                          keep_default_action=False)
    from cellgrad_nn.train.callbacks import CallbackParams

    cb = CallbackParams(mode="train", cur_step_num=0, cur_epoch_num=1, epoch_num=1,
                        batch_num=2, dataset_sink_mode=False)
    run = ms.train.RunContext(cb)
    collector.begin(run)
    for step, loss in ((1, 0.5), (2, 0.25)):
        cb.cur_step_num, cb.net_outputs = step, Tensor(np.float32(loss))
        collector.step_end(run)
    collector.end(run)
    assert ms.train.SummaryRecord.count == 0
    tags = se.by_tag(se.event_file(str(tmp_path)))
    assert tags["loss/auto"] == [(1, "scalar", 0.5), (2, "scalar", 0.25)]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"collect_freq": 0}, ValueError,
     'For "SummaryCollector", the value of `collect_freq` should be greater than 0, but got '
     '`0`.'),
    ({"collect_freq": 1.5}, TypeError,
     "For `collect_freq` the type should be a valid type of ['int'], but got float."),
    ({"collect_specified_data": {"foo": True}}, ValueError,
     'For "SummaryCollector", the keys {\'foo\'} of `collect_specified_data` are unsupported, '
     "expect the follow keys: ['collect_metric', 'collect_graph', 'collect_train_lineage', "
     "'collect_eval_lineage', 'collect_input_data', 'collect_dataset_graph', "
     "'histogram_regular', 'collect_landscape']"),
    ({"collect_specified_data": {"histogram_regular": "("}}, ValueError,
     "For `collect_specified_data`, the value of `histogram_regular` is not a valid regular "
     "expression. Detail: missing ), unterminated subpattern at position 0."),
    ({"collect_specified_data": {"collect_metric": 1}}, TypeError,
     "For `collect_metric` the type should be a valid type of ['bool'], but got int."),
    ({"keep_default_action": 1}, TypeError,
     "For `keep_default_action` the type should be a valid type of ['bool'], but got int."),
    ({"custom_lineage_data": {"a": [1]}}, TypeError,
     "For `the value of custom_lineage_data -> a` the type should be a valid type of ['int', "
     "'str', 'float'], but got list."),
    ({"custom_lineage_data": [1]}, TypeError,
     "For `custom_lineage_data` the type should be a valid type of ['dict', 'NoneType'], but "
     "got list."),
    ({"collect_tensor_freq": -1}, ValueError,
     'For "SummaryCollector", the value of `collect_tensor_freq` should be greater than 0, but '
     "got `-1`."),
])
def test_argument_errors(tmp_path, kwargs, error, message):
    with pytest.raises(error) as info:
        ms.train.SummaryCollector(str(tmp_path), **kwargs)
    assert str(info.value) == message


def test_without_cellgrad_checkpoint_the_default_landscape_is_left_out(tmp_path, monkeypatch):
    from cellgrad import plugins

    monkeypatch.setenv("CELLGRAD_DISABLED_PLUGINS", "cellgrad-checkpoint")
    plugins.reset()
    try:
        collector = ms.SummaryCollector(str(tmp_path / "a"))
        assert collector._landscape is None
        with pytest.raises(plugins.PluginNameImportError, match="cellgrad-checkpoint"):
            ms.SummaryCollector(str(tmp_path / "b"), collect_specified_data={
                "collect_landscape": {"landscape_size": 4, "unit": "step",
                                      "create_landscape": {"train": True, "result": True},
                                      "num_samples": 4, "intervals": [[1, 2, 3]]}})
    finally:
        monkeypatch.delenv("CELLGRAD_DISABLED_PLUGINS")
        plugins.reset()
