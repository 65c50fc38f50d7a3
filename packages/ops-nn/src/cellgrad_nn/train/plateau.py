"""Callbacks that watch a value over epochs: `EarlyStopping`, `ReduceLROnPlateau`."""

import copy

import numpy as np

from cellgrad_nn.train.callbacks import Callback, step_loss


class _Monitor(Callback):
    """Watches `monitor` ('loss', or an eval metric as 'eval_<name>' or '<name>')."""

    def __init__(self, owner, monitor, min_delta, mode):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"For '{owner}', mode must be 'auto', 'min' or 'max', but got "
                             f"{mode!r}.")
        self.owner = owner
        self.monitor = monitor
        if mode == "auto":
            mode = "max" if "acc" in monitor or monitor.startswith("fmeasure") else "min"
        self.mode = mode
        self.min_delta = abs(min_delta) if mode == "max" else -abs(min_delta)

    def _worst(self):
        return -np.inf if self.mode == "max" else np.inf

    def is_improvement(self, current, reference):
        if self.mode == "max":
            return current - self.min_delta > reference
        return current - self.min_delta < reference

    def _current(self, cb):
        values = {"loss": step_loss(cb.get("net_outputs"))}
        for name, value in (cb.get("eval_results") or cb.get("metrics") or {}).items():
            values[name] = value
            values.setdefault(f"eval_{name}", value)
        if self.monitor not in values or values[self.monitor] is None:
            known = sorted(k for k, v in values.items() if v is not None)
            raise ValueError(f"For '{self.owner}', the monitored value {self.monitor!r} is not "
                             f"available; available: {known}.")
        return float(values[self.monitor])


class EarlyStopping(_Monitor):
    """Mirrors `mindspore.train.EarlyStopping`: stop when `monitor` stops improving."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False,
                 mode="auto", baseline=None, restore_best_weights=False):
        super().__init__("EarlyStopping", monitor, min_delta, mode)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights = restore_best_weights
        self.on_train_begin(None)

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self._worst() if self.baseline is None else self.baseline
        self.best_weights = None

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        current = self._current(cb)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
            if self.restore_best_weights:
                self.best_weights = {p.name: copy.deepcopy(p.asnumpy())
                                     for p in cb.train_network.get_parameters()}
        if self.wait >= self.patience:
            self.stopped_epoch = cb.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                for p in cb.train_network.get_parameters():
                    p.asnumpy()[...] = self.best_weights[p.name]

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")


class ReduceLROnPlateau(_Monitor):
    """Mirrors `mindspore.train.ReduceLROnPlateau`: scale the learning rate by `factor` when
    `monitor` stops improving for `patience` epochs."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False,
                 mode="auto", min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__("ReduceLROnPlateau", monitor, min_delta, mode)
        if not 0 <= factor < 1:
            raise ValueError(f"For 'ReduceLROnPlateau', factor must be in [0, 1), but got "
                             f"{factor!r}.")
        self.factor, self.patience, self.verbose = factor, patience, verbose
        self.cooldown, self.min_lr = cooldown, min_lr
        self.on_train_begin(None)

    def on_train_begin(self, run_context):
        self.wait = 0
        self.cooldown_counter = 0
        self.best = self._worst()

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        current = self._current(cb)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
            return
        if self.cooldown_counter > 0:
            return
        self.wait += 1
        if self.wait >= self.patience:
            self._reduce(cb)
            self.cooldown_counter = self.cooldown
            self.wait = 0

    def _reduce(self, cb):
        lr = cb.optimizer.learning_rate
        data = lr.asnumpy()
        if data.ndim != 0:
            raise ValueError("For 'ReduceLROnPlateau', the optimizer's learning_rate must be a "
                             "fixed number, not a list or a LearningRateSchedule.")
        old = float(data)
        new = max(old * self.factor, self.min_lr)
        if old - new > np.finfo(np.float32).eps:
            data[...] = new
            if self.verbose:
                print(f"Epoch {cb.cur_epoch_num}: ReduceLROnPlateau reducing learning rate to "
                      f"{new}.")
