"""`SummaryCollector`, mirroring `mindspore.train.SummaryCollector`: the callback that writes a
run's loss, learning rate, weight histograms, input images and the summary ops' values to
TensorBoard event files through `SummaryRecord`.

`collect_landscape` saves the checkpoints `SummaryLandscape` reads (summary_landscape.py).
What MindSpore collects for MindInsight only (graphs, lineage, dataset graphs) has no place in
a TensorBoard file; two pieces of the lineage are written as
TensorBoard data instead: the learning rate as the scalar 'learning_rate/auto' on every
collected step (MindSpore keeps only the last one, in the train lineage) and the metrics of an
evaluation as scalars 'eval/<metric>' (MindSpore's eval lineage). `custom_lineage_data` is
written once as the text 'custom_lineage_data'.
"""

import re

import numpy as np

from cellgrad import log as logger
from cellgrad.common.tensor import Tensor
from cellgrad_nn.train.callbacks import Callback
from cellgrad_nn.train.summary_landscape import LandscapeCheckpoints
from cellgrad_nn.train.summary_record import SummaryRecord, check_export_options, make_directory

_TENSOR = "tensor"


def _check_type(name, value, types):
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        names = [t.__name__ for t in types]
        raise TypeError(f"For `{name}` the type should be a valid type of {names}, but got "
                        f"{type(value).__name__}.")


def _can_save_checkpoints():
    """Whether `save_checkpoint` (package cellgrad-checkpoint) is installed and enabled."""
    from cellgrad import plugins

    try:
        from cellgrad import save_checkpoint  # noqa: F401
    except plugins.PluginNameError:
        return False
    return True


class SummaryCollector(Callback):
    """Mirrors `mindspore.train.SummaryCollector` (see the module docstring for what a
    TensorBoard file holds). Opens its SummaryRecord in `with` or at train begin."""

    _DEFAULT_SPECIFIED_DATA = {
        'collect_metric': True,
        'collect_graph': True,
        'collect_train_lineage': True,
        'collect_eval_lineage': True,
        'collect_input_data': True,
        'collect_dataset_graph': True,
        'histogram_regular': None,
        'collect_landscape': {'landscape_size': 40, 'unit': 'step', 'num_samples': 2048,
                              'create_landscape': {'train': True, 'result': True},
                              'intervals': [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                            [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
    }

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        self._summary_dir = make_directory(summary_dir, "summary_dir", "SummaryCollector")
        self._check_positive("collect_freq", collect_freq)
        self._check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._check_positive("max_file_size", max_file_size, allow_none=True)
        self._collect_freq, self._collect_tensor_freq = collect_freq, collect_tensor_freq
        self._max_file_size = max_file_size
        self._export_options = check_export_options(export_options)
        _check_type("keep_default_action", keep_default_action, (bool,))
        self._collect_specified_data = self._process_specified_data(collect_specified_data,
                                                                    keep_default_action)
        landscape = self._collect_specified_data.get("collect_landscape")
        asked = isinstance(collect_specified_data, dict) and \
            "collect_landscape" in collect_specified_data
        if landscape and not _can_save_checkpoints():
            if asked:  # its checkpoints need cellgrad-checkpoint: the error naming it, now
                from cellgrad import save_checkpoint  # noqa: F401
            landscape = None  # the default's: left out without cellgrad-checkpoint
        self._landscape = LandscapeCheckpoints(self._summary_dir, landscape) if landscape else None
        self._custom_lineage_data = self._check_custom_lineage(custom_lineage_data)
        self._num_process = num_process
        self._record = None
        self._owns_record = False
        self._first_step = True
        self._tensor_collect_range = None
        self._optimizer = None
        self._lr = None
        self._has_saved_custom_data = False
        self._is_parse_loss_success = True
        self._last_step = 0

    # ---- arguments ----

    def _check_positive(self, name, value, allow_none=False):
        if allow_none and value is None:
            return
        _check_type(name, value, (int,))
        if value <= 0:
            raise ValueError(f'For "SummaryCollector", the value of `{name}` should be greater '
                             f'than 0, but got `{value}`.')

    def _process_specified_data(self, specified, keep_default):
        _check_type("collect_specified_data", specified, (dict, type(None)))
        if specified is None:
            return dict(self._DEFAULT_SPECIFIED_DATA) if keep_default else {}
        for key in specified:
            _check_type(key, key, (str,))
        unexpected = set(specified) - set(self._DEFAULT_SPECIFIED_DATA)
        if unexpected:
            raise ValueError(f'For "SummaryCollector", the keys {unexpected} of '
                             f'`collect_specified_data` are unsupported, expect the follow keys: '
                             f'{list(self._DEFAULT_SPECIFIED_DATA)}')
        if "histogram_regular" in specified:
            regular = specified["histogram_regular"]
            _check_type("histogram_regular", regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.compile(regular)
                except re.error as exc:
                    raise ValueError(f"For `collect_specified_data`, the value of "
                                     f"`histogram_regular` is not a valid regular expression. "
                                     f"Detail: {exc}.") from exc
        for key in set(self._DEFAULT_SPECIFIED_DATA) - {"histogram_regular", "collect_landscape"}:
            if key in specified:
                _check_type(key, specified[key], (bool,))
        _check_type("collect_landscape", specified.get("collect_landscape"), (dict, type(None)))
        return {**self._DEFAULT_SPECIFIED_DATA, **specified} if keep_default else dict(specified)

    @staticmethod
    def _check_custom_lineage(data):
        _check_type("custom_lineage_data", data, (dict, type(None)))
        for key, value in (data or {}).items():
            _check_type(f"custom_lineage_data -> {key}", key, (str,))
            _check_type(f"the value of custom_lineage_data -> {key}", value, (int, str, float))
        return data

    # ---- the record ----

    def __enter__(self):
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step = True
        return self

    def __exit__(self, *err):
        self._record.close()
        self._record = None

    # ---- the callback ----

    def begin(self, run_context):
        cb = run_context.original_args()
        if cb.get("mode") not in ("train", "eval"):
            raise ValueError(f"Only support `train` (model.train) and `eval` (model.eval) mode, "
                             f"but got `{cb.get('mode')}` mode.")
        if self._record is None:  # cellgrad's Model calls callbacks without `with`
            self.__enter__()
            self._owns_record = True
        self._record.set_mode(cb.mode)

    def step_begin(self, run_context):
        cb = run_context.original_args()
        if cb.mode == "train" and self._collect_specified_data.get("collect_train_lineage") \
                and (self._first_step or cb.cur_step_num % self._collect_freq == 0):
            self._lr = self._learning_rate(cb)  # the rate this step uses

    def step_end(self, run_context):
        cb = run_context.original_args()
        if cb.mode != "train":
            return
        if self._custom_lineage_data and not self._has_saved_custom_data:
            self._record_text(cb.cur_step_num)
        if not cb.get("dataset_sink_mode", False):
            self._collect_tensor_data(cb)
        if self._landscape:
            self._landscape.step_end(cb)

    def epoch_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("dataset_sink_mode", False):
            self._collect_tensor_data(cb)
        if cb.mode == "train" and cb.get("metrics"):
            self._record_metrics(cb.metrics, cb.cur_step_num)
        if self._landscape:
            self._landscape.epoch_end(cb)
        self._record.flush()

    def end(self, run_context):
        cb = run_context.original_args()
        if cb.mode == "eval" and cb.get("metrics"):
            self._record_metrics(cb.metrics, self._last_step)
        self._record.set_mode("eval")  # as MindSpore: the summary ops' values stay queued
        self._record.record(step=0)
        if self._landscape:
            self._landscape.end(cb)
        if self._owns_record:
            self.__exit__()
            self._owns_record = False

    # ---- what is collected ----

    def _collect_tensor_data(self, cb):
        current = cb.cur_epoch_num if cb.get("dataset_sink_mode", False) else cb.cur_step_num
        if self._first_step:
            self._tensor_collect_range = self._get_tensor_collect_range(cb)
            self._collect_at_step_end(cb, None)
            self._first_step = False
            self._record.flush()
        elif current % self._collect_freq == 0 and current in self._tensor_collect_range:
            self._collect_at_step_end(cb, None)
        elif current in self._tensor_collect_range:
            self._collect_at_step_end(cb, lambda plugin: plugin == _TENSOR)
        elif current % self._collect_freq == 0:
            self._collect_at_step_end(cb, lambda plugin: plugin != _TENSOR)

    def _get_tensor_collect_range(self, cb):
        """MindSpore's steps for tensor summaries: every `collect_tensor_freq`, else about 20
        spread over the run."""
        total = cb.epoch_num * (1 if cb.get("dataset_sink_mode", False) else cb.batch_num)
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        limit = 20
        if len(range(0, total + 1, self._collect_freq)) > limit:
            freq = total // (limit - 1)
            if freq > 1:
                return range(0, total + 1, freq)[:limit]
            return range(0, total + 1)[:limit + 1]
        return range(0, total + 1, self._collect_freq)

    def _collect_at_step_end(self, cb, plugin_filter):
        self._collect_input_data(cb)
        self._collect_metric(cb)
        self._collect_histogram(cb)
        if self._lr is not None:
            self._record.add_value("scalar", "learning_rate/auto", self._lr)
            self._lr = None
        self._last_step = cb.cur_step_num
        self._record.record(cb.cur_step_num, plugin_filter=plugin_filter)

    def _collect_input_data(self, cb):
        if not self._collect_specified_data.get("collect_input_data"):
            return
        data = cb.get("train_dataset_element")
        if isinstance(data, (list, tuple)) and data:
            data = data[0]
        try:
            self._record.add_value("image", "input_data/auto", data)
        except (TypeError, ValueError):
            logger.warning("The input data of network are not image, so will not collect by "
                           "SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False

    def _collect_metric(self, cb):
        if not self._collect_specified_data.get("collect_metric") \
                or not self._is_parse_loss_success:
            return
        output = cb.get("net_outputs")
        if isinstance(output, (list, tuple)) and output:
            output = output[0]
        if not isinstance(output, (int, float, Tensor)):
            logger.warning("The output type could not be identified, expect type is one of [int, "
                           "float, Tensor, list, tuple], so no loss was recorded in "
                           "SummaryCollector.")
            self._is_parse_loss_success = False
            return
        array = output.asnumpy() if isinstance(output, Tensor) else output
        self._record.add_value("scalar", "loss/auto", Tensor(np.mean(array)))

    def _collect_histogram(self, cb):
        if "histogram_regular" not in self._collect_specified_data:
            return
        optimizer = self._find_optimizer(cb)
        if optimizer is None:
            return
        regular = self._collect_specified_data["histogram_regular"]
        params = [p for p in optimizer.parameters if re.match(regular, p.name)] \
            if regular is not None else list(optimizer.parameters)[:5]
        for param in params:
            self._record.add_value("histogram", param.name + "/auto", param)

    def _find_optimizer(self, cb):
        from cellgrad_nn.optim.optimizer import Optimizer

        if self._optimizer is None:
            found = cb.get("optimizer")
            if found is None:
                network = cb.train_network if cb.mode == "train" else cb.get("eval_network")
                cells = [c for _, c in network.cells_and_names()] if network is not None else []
                found = next((c if isinstance(c, Optimizer) else c.optimizer for c in cells
                              if isinstance(c, Optimizer)
                              or isinstance(getattr(c, "optimizer", None), Optimizer)), None)
            if not isinstance(found, Optimizer):
                logger.warning("Can not find optimizer in network, or the optimizer does not "
                               "inherit MindSpore's optimizer, so we will not collect data about "
                               "optimizer in SummaryCollector.")
                found = False
            self._optimizer = found
        return self._optimizer or None

    def _learning_rate(self, cb):
        optimizer = self._find_optimizer(cb)
        if optimizer is None:
            return None
        lr = optimizer.get_lr()
        lr = lr[0] if isinstance(lr, tuple) else lr  # group rates: the first group's
        return Tensor(np.float32(np.asarray(lr.asnumpy()).reshape(-1)[0]))

    def _record_metrics(self, metrics, step):
        for name, value in metrics.items():
            try:
                number = float(np.mean(value.asnumpy() if isinstance(value, Tensor) else value))
            except (TypeError, ValueError):
                continue  # a metric that is not a number (a confusion matrix) has no curve
            self._record.add_value("scalar", f"eval/{name}", Tensor(np.float32(number)))
        self._record.record(step)

    def _record_text(self, step):
        lines = "\n".join(f"- {key}: {value}" for key, value in self._custom_lineage_data.items())
        self._record._write_text(step, "custom_lineage_data", lines)
        self._has_saved_custom_data = True
