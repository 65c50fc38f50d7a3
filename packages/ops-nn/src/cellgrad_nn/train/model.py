"""`Model`, mirroring `mindspore.train.Model`: train, evaluate and predict with callbacks."""

from cellgrad import _checkparam, nn
from cellgrad.common.tensor import Tensor
from cellgrad_nn.train import metrics as _metrics
from cellgrad_nn.train import metrics_select, parallel
from cellgrad_nn.train.callbacks import CallbackList, CallbackParams, RunContext
from cellgrad_nn.train.progress import ProgressBar


class Model:
    """Mirrors `mindspore.train.Model`.

    With `loss_fn` and `optimizer` the train network is
    `TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)`; with an optimizer only,
    `network` must return the loss. `metrics` (names or {name: Metric}) are computed by
    `eval` on `WithEvalCell(network, loss_fn)` unless `eval_network` is given.
    `amp_level` and the `keep_batchnorm_fp32`/`loss_scale_manager` keywords build the train step
    as `amp.build_train_network` does (O2: float16 with BatchNorm in float32 and a
    `DynamicLossScaleManager()`; O3: all float16; the loss in float32).
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, nn.Cell):
            raise TypeError(f"For 'Model', network must be a Cell, but got "
                            f"{type(network).__name__}.")
        for arg in kwargs:  # boost_config_dict/acc_level configure boost_level's algorithms
            if arg not in ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict",
                           "acc_level"):
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 f"'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', "
                                 f"but got '{arg}'.")
        self._amp_config = {k: kwargs[k] for k in ("loss_scale_manager", "keep_batchnorm_fp32")
                            if k in kwargs}
        self._loss_scale_manager = self._amp_config.get("loss_scale_manager")
        if self._loss_scale_manager is not None and optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set "
                             "'loss_scale_manager'.")
        if eval_indexes is not None and (not isinstance(eval_indexes, list)
                                         or len(eval_indexes) != 3):
            raise ValueError(f"For 'Model', eval_indexes must be a list of 3 ints (loss, "
                             f"output, label positions), but got {eval_indexes!r}.")
        self._network, self._loss_fn, self._optimizer = network, loss_fn, optimizer
        self._amp_level, self._boost_level = amp_level, boost_level
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None."
                             "Please set amp_level='O0' to disable auto mixed precision or set "
                             "'optimizer' not be None to use auto mixed precision.")
        self._metric_fns = _build_metrics(metrics)
        if self._metric_fns and loss_fn is None and eval_network is None:
            raise ValueError("For 'Model', metrics need a loss_fn or an eval_network to "
                             "compute them.")
        self._train_network = self._build_train_network()
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        if eval_network is None and loss_fn is not None:
            self._eval_network = nn.WithEvalCell(network, loss_fn,
                                                 amp_level in ("O2", "O3", "auto"))
            self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._network

    @property
    def eval_network(self):
        return self._eval_network

    def _build_train_network(self):
        """As MindSpore's Model: `amp.build_train_network` at `amp_level` when there is an
        optimizer (MindSpore's CPU build refuses a loss-scale manager with an update cell; the
        loss-scaled step runs on a CPU in cellgrad, README: differs on purpose)."""
        if self._optimizer is None:
            return self._network if self._loss_fn is None else \
                nn.WithLossCell(self._network, self._loss_fn)
        from cellgrad_nn.amp.build import build_train_network

        return build_train_network(self._network, self._optimizer, self._loss_fn,
                                   level=self._amp_level, boost_level=self._boost_level,
                                   **self._amp_config)

    # ---- training ----

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False,
              sink_size=-1, initial_epoch=0):
        """Mirrors `Model.train`. Data always runs eagerly; `dataset_sink_mode` is accepted."""
        _check_epochs(epoch, initial_epoch, "Model.train")
        self._run_train(epoch, train_dataset, None, 1, callbacks, initial_epoch)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """Mirrors `Model.fit`: train, evaluating on `valid_dataset` every `valid_frequency`
        epochs (callbacks see the results as `cb_params.metrics`)."""
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', evaluating valid_dataset needs metrics.")
        _check_epochs(epoch, initial_epoch, "Model.fit")
        self._run_train(epoch, train_dataset, valid_dataset, valid_frequency, callbacks,
                        initial_epoch)

    def _run_train(self, epoch, dataset, valid_dataset, valid_frequency, callbacks,
                   initial_epoch):
        callbacks = CallbackList(callbacks)
        if not any(isinstance(c, ProgressBar) for c in callbacks.callbacks):
            bar = ProgressBar()
            if bar.enabled:
                callbacks.callbacks.insert(0, bar)
        with callbacks:  # as MindSpore, each callback's `with` spans the run
            self._train_loop(epoch, dataset, valid_dataset, valid_frequency, callbacks,
                             initial_epoch)

    def _train_loop(self, epoch, dataset, valid_dataset, valid_frequency, callbacks,
                    initial_epoch):
        batch_num = dataset.get_dataset_size()
        cb = self._train_params(epoch, dataset, batch_num, initial_epoch)
        run_context = RunContext(cb)
        shapes = ColumnShapes(_column_names(dataset))
        self._train_network.set_train(True)
        callbacks.on_train_begin(run_context)
        # `epoch` in all, as MindSpore's DatasetHelper: a dataset resumed with set_init_step
        # (at epoch `initial_epoch`) counts the epochs before it, as MindSpore's pipeline does
        rows = dataset.create_tuple_iterator(num_epochs=epoch)
        for cur_epoch in range(initial_epoch + 1, epoch + 1):
            cb.cur_epoch_num = cur_epoch
            cb.metrics = None
            callbacks.on_train_epoch_begin(run_context)
            for row in rows:
                shapes.check(row)
                cb.cur_step_num += 1
                cb.batch_size = row[0].shape[0] if row and row[0].ndim else 1
                cb.train_dataset_element = row
                callbacks.on_train_step_begin(run_context)
                cb.net_outputs = shapes.call(self._train_network, row, "Model.train")
                callbacks.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if valid_dataset is not None and (cur_epoch - initial_epoch) % valid_frequency == 0:
                cb.metrics = cb.eval_results = self.eval(valid_dataset)
                self._train_network.set_train(True)
            _reset(dataset)
            callbacks.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        callbacks.on_train_end(run_context)

    def _train_params(self, epoch, dataset, batch_num, initial_epoch):
        cb = CallbackParams()
        cb.mode = "train"
        cb.train_network = self._train_network
        cb.network = self._network
        cb.optimizer = self._optimizer
        cb.loss_fn = self._loss_fn
        cb.epoch_num = epoch
        cb.batch_num = batch_num
        cb.cur_epoch_num = initial_epoch
        cb.cur_step_num = initial_epoch * batch_num
        cb.initial_epoch = initial_epoch
        cb.train_dataset = dataset
        cb.dataset_sink_mode = False
        cb.parallel_mode = parallel.parallel_mode()
        cb.device_number = parallel.rank_and_size()[1]
        cb.net_outputs = None
        cb.metrics = None
        cb.list_callback = []
        return cb

    # ---- evaluation and prediction ----

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Mirrors `Model.eval`: {metric name: value} over `valid_dataset`."""
        if not self._metric_fns:
            raise ValueError("For 'Model.eval', the model has no metrics: pass metrics= to "
                             "Model.")
        callbacks = CallbackList(callbacks)
        with callbacks:
            return self._eval_loop(valid_dataset, callbacks)

    def _eval_loop(self, valid_dataset, callbacks):
        cb = CallbackParams(mode="eval", eval_network=self._eval_network,
                            valid_dataset=valid_dataset, cur_step_num=0, cur_epoch_num=1,
                            batch_num=valid_dataset.get_dataset_size(), net_outputs=None)
        run_context = RunContext(cb)
        for metric in self._metric_fns.values():
            metric.clear()
        self._eval_network.set_train(False)
        shapes = ColumnShapes(_column_names(valid_dataset))
        callbacks.on_eval_begin(run_context)
        callbacks.on_eval_epoch_begin(run_context)
        for row in valid_dataset.create_tuple_iterator(num_epochs=1):
            shapes.check(row)
            cb.cur_step_num += 1
            callbacks.on_eval_step_begin(run_context)
            outputs = shapes.call(self._eval_network, row, "Model.eval")
            cb.net_outputs = outputs
            self._update_metrics(outputs)
            callbacks.on_eval_step_end(run_context)
        results = {name: m.eval() for name, m in self._metric_fns.items()}
        cb.metrics = results
        callbacks.on_eval_epoch_end(run_context)
        _reset(valid_dataset)
        callbacks.on_eval_end(run_context)
        return results

    def _update_metrics(self, outputs):
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        for metric in self._metric_fns.values():
            if metric.indexes is not None:
                metric.update(*(outputs[i] for i in metric.indexes))
            elif self._eval_indexes is not None and isinstance(metric, _metrics.Loss):
                metric.update(outputs[self._eval_indexes[0]])
            elif self._eval_indexes is not None:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])
            else:
                metric.update(*outputs)

    def predict(self, *predict_data, backend=None, config=None):
        """Mirrors `Model.predict`: the network's output in predict mode."""
        self._network.set_train(False)
        return self._network(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1,
              sink_mode=True):
        """Mirrors `Model.build`; cellgrad runs eagerly, so there is nothing to compile."""
        return None


def _reset(dataset):
    """`dataset.reset()` where MindSpore's Model calls it (after each training epoch and each
    evaluation): a no-op for a pipeline's running iterator, but a dataset object that is its
    own iterator (MindSpore's tests' `MindData`) starts again there."""
    reset = getattr(dataset, "reset", None)
    if callable(reset):
        reset()


def _column_names(dataset):
    """The dataset's column names for error messages; MindSpore's Model needs only
    `get_dataset_size` and `create_tuple_iterator` of a dataset, so any object with those
    two trains (positions name the columns then)."""
    get = getattr(dataset, "get_col_names", None)
    return get() if callable(get) else [f"column {i}" for i in range(64)]


def _check_epochs(epoch, initial_epoch, where):
    """MindSpore's checks and messages (`Validator.check_positive_int` and friends)."""
    _checkparam.check_positive_int(epoch)
    _checkparam.check_non_negative_int(initial_epoch)
    if initial_epoch >= epoch:
        raise ValueError(f"For '{where}', the parameter 'epoch' must bigger than parameter "
                         f"'initial_epoch', but got the parameter 'epoch' is {epoch}, "
                         f"'initial_epoch' is {initial_epoch}.")


def _build_metrics(metrics):
    if metrics is None:
        return {}
    if isinstance(metrics, dict):  # MindSpore's `get_metrics`: a dict or a set, nothing else
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, _metrics.Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' "
                                f"must be string and value in 'metrics' must be Metric, but got "
                                f"key:{type(name)}, value:{type(metric)}.")
        return dict(metrics)
    if isinstance(metrics, set):
        return {name: metrics_select.get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but "
                    f"got {metrics}")


class ColumnShapes:
    """Checks that every batch has the columns' shapes and dtypes of the first one, and names
    the column when the network rejects a batch."""

    def __init__(self, names):
        self.names = names
        self.first = None

    def describe(self, row):
        return ", ".join(f"{n}: shape {tuple(v.shape)} {v.dtype}" for n, v in zip(self.names, row))

    def check(self, row):
        sig = [(tuple(v.shape[1:]), v.dtype) if isinstance(v, Tensor) else None for v in row]
        if self.first is None:
            self.first = sig
            return
        for name, got, want in zip(self.names, sig, self.first):
            if got != want:
                raise ValueError(f"Column '{name}' of this batch has shape {_batched(got[0])} "
                                 f"and dtype {got[1]}, but the first batch had "
                                 f"{_batched(want[0])} and {want[1]}; every batch must have the "
                                 f"same shape and dtype per column.")

    def call(self, network, row, where):
        try:
            return network(*row)
        except (ValueError, TypeError) as exc:
            message = f"{where}: the network rejected the batch ({self.describe(row)}): {exc}"
            try:
                error = type(exc)(message)
            except Exception:  # an exception class with its own constructor: keep it as is
                raise exc from None
            raise error from exc


def _batched(shape):
    return "(" + ", ".join(("N",) + tuple(map(str, shape))) + ")"
