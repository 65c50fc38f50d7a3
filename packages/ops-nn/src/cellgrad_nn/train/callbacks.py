"""Training callbacks, mirroring `mindspore.train.Callback`, `RunContext`, `LossMonitor`, ...

`Model` calls `on_train_begin`, `on_train_epoch_begin`, `on_train_step_begin`,
`on_train_step_end`, `on_train_epoch_end`, `on_train_end` (and `on_eval_*` in `eval`) with a
`RunContext` whose `original_args()` holds the run's state (`cb_params`: `cur_epoch_num`,
`cur_step_num`, `batch_num`, `net_outputs`, `train_network`, `optimizer`, ...). As in
MindSpore, the `on_*` methods call the older `begin`/`epoch_begin`/`step_begin`/`step_end`/
`epoch_end`/`end` by default.
"""

import contextlib
import time

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad_nn.train import parallel


def _numpy1_str(value):
    """`str(value)` as MindSpore (numpy 1.x) writes it: numpy 2 spells the metrics' numpy
    scalars `np.float64(9.0)` inside a dict, numpy 1.x `9.0`."""
    if np.lib.NumpyVersion(np.__version__) < "2.0.0":
        return str(value)
    with np.printoptions(legacy="1.25"):
        return str(value)


class CallbackParams(dict):
    """The run's state: a dict whose keys are also attributes (`cb_params.cur_step_num`)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self[name] = value


class RunContext:
    """Mirrors `mindspore.train.RunContext`: the run's state and a way to stop it."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        """Stop training after the current step."""
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


class Callback:
    """Mirrors `mindspore.train.Callback`: override the moments you need."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def begin(self, run_context):
        """Before training (or evaluation) starts."""

    def epoch_begin(self, run_context):
        """Before each epoch."""

    def step_begin(self, run_context):
        """Before each step."""

    def step_end(self, run_context):
        """After each step."""

    def epoch_end(self, run_context):
        """After each epoch."""

    def end(self, run_context):
        """After training (or evaluation) ends."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


class CallbackList(Callback):
    """Several callbacks called in order (what `Model` calls)."""

    MOMENTS = ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end")

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        callbacks = list(callbacks)
        bad = [c for c in callbacks if not isinstance(c, Callback)]
        if bad:
            raise TypeError(f"For 'Model', each callback must be a Callback, but got "
                            f"{type(bad[0]).__name__}.")
        self.callbacks = callbacks

    def __enter__(self):
        """Enters every callback's context, as MindSpore's `_CallbackManager` does."""
        self._stack = contextlib.ExitStack()
        try:
            for callback in self.callbacks:
                self._stack.enter_context(callback)
        except BaseException:
            self._stack.close()  # leave the ones entered so far
            raise
        return self

    def __exit__(self, *exc):
        return self._stack.__exit__(*exc)

    def _call(self, moment, run_context):
        for callback in self.callbacks:
            getattr(callback, moment)(run_context)


def _define_moments():
    for phase in ("train", "eval"):
        for moment in CallbackList.MOMENTS:
            name = f"on_{phase}_{moment}"
            setattr(CallbackList, name, lambda self, rc, name=name: self._call(name, rc))


_define_moments()


def step_loss(net_outputs):
    """The loss a step returned, as a float (the first output when there are several)."""
    if isinstance(net_outputs, (tuple, list)):
        net_outputs = net_outputs[0]
    if isinstance(net_outputs, Tensor):
        return float(np.mean(net_outputs.asnumpy()))
    return net_outputs


class LossMonitor(Callback):
    """Mirrors `mindspore.train.LossMonitor`: prints the loss every `per_print_times` steps."""

    def __init__(self, per_print_times=1):
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) \
                or per_print_times < 0:
            raise ValueError(f"For 'LossMonitor', per_print_times must be an int >= 0, but got "
                             f"{per_print_times!r}.")
        self._per_print_times = per_print_times
        self._last_print_time = 0
        self._prints = True

    def on_train_begin(self, run_context):
        self._last_print_time = run_context.original_args().get("cur_step_num", 0)
        self._prints = parallel.is_main_process()  # one log per job, from rank 0

    def step_end(self, run_context):
        cb = run_context.original_args()
        loss = step_loss(cb.net_outputs)
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        if isinstance(loss, float) and not np.isfinite(loss):
            raise ValueError(f"In epoch: {cb.cur_epoch_num} step: {step_in_epoch}, loss is NAN "
                             f"or INF, training process cannot continue, terminating training.")
        if self._per_print_times and self._prints and \
                cb.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb.cur_step_num
            print(f"epoch: {cb.cur_epoch_num} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("metrics") and self._prints:
            print(f"Eval result: epoch {cb.cur_epoch_num}, metrics: {_numpy1_str(cb.metrics)}")


class TimeMonitor(Callback):
    """Mirrors `mindspore.train.TimeMonitor`: prints each epoch's time and time per step."""

    def __init__(self, data_size=None, data_time=False):
        if data_size is not None and (isinstance(data_size, bool) or
                                      not isinstance(data_size, int) or data_size < 1):
            raise ValueError(f"For 'TimeMonitor', data_size must be a positive int, but got "
                             f"{data_size!r}.")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb = run_context.original_args()
        steps = cb.get("batch_num") or self.data_size or 1
        mode = cb.get("mode", "")
        print(f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: "
              f"{epoch_ms / steps:5.3f} ms", flush=True)


class History(Callback):
    """Mirrors `mindspore.train.History`: each epoch's loss (and eval metrics, in `fit`)."""

    def __init__(self):
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("mode") == "eval":
            return
        self.epoch["epoch"].append(cb.cur_epoch_num)
        loss = step_loss(cb.get("net_outputs"))
        if loss is not None:
            self.history.setdefault("net_output", []).append(loss)
        for name, value in (cb.get("metrics") or {}).items():
            self.history.setdefault(name, []).append(value)


class LambdaCallback(Callback):
    """Mirrors `mindspore.train.LambdaCallback`: a callback from functions."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        given = dict(locals())
        given.pop("self")
        for name, fn in given.items():
            if fn is not None:
                if not callable(fn):
                    raise TypeError(f"For 'LambdaCallback', {name} must be callable, but got "
                                    f"{type(fn).__name__}.")
                setattr(self, name, fn)
