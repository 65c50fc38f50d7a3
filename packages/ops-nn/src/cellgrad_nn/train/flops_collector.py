"""`FlopsUtilizationCollector`: a step's model FLOPs and their rate against the card's peak.

MindSpore 2.10 reads the FLOPs from a compiled graph and refuses PyNative ("now only support
graph mode"); cellgrad counts the first step's matrix products as they run
(`cellgrad.flops_count.FlopCounter`: forward and backward) and reports like MindSpore:
the counts once, then per step `<Mode> per step time: t ms, mfu:x% hfu:y%`, where
mfu = FLOPs / step time / `computility` (the peak FLOP/s of the device, e.g. the CPU's
measured GEMM rate).
"""

import os
import stat
import time
from math import floor

from cellgrad import _checkparam as Validator
from cellgrad.flops_count import FlopCounter, flops_collection
from cellgrad_nn.train.callbacks import Callback


class FlopsUtilizationCollector(Callback):
    """Mirrors `mindspore.train.FlopsUtilizationCollector(data_size, computility=1,
    full_flops=True, enable_ma_collector=False)` (see the module docstring)."""

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ''
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size = None
        self._counter = None
        Validator.check_bool(full_flops, "full_flops")
        Validator.check_bool(enable_ma_collector, "enable_ma_collector")
        Validator.check_positive_int(data_size, "data_size")

    def step_begin(self, run_context):
        """Records the step's start; the first step's FLOPs are counted as it runs."""
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = run_context.original_args().get("batch_num")
            if isinstance(batch_num, int) and batch_num > 0:
                self.batch_step_size = batch_num
        if not self.mfu_calculated and self._counter is None:
            self._counter = FlopCounter().start()
        self.step_time = time.time()

    def _collect(self, mode):
        """Stops the first step's count and takes MindSpore's four numbers from it."""
        if mode not in ("train", "eval"):
            if self.verbose:
                raise ValueError('FlopsUtilizationCollector only support train and eval mode!')
            return False
        if self._counter is not None:
            self._counter.stop(mode)
            self._counter = None
        (self.full_model_flops, self.full_hardware_flops, self.shard_model_flops,
         self.shard_hardware_flops, _) = flops_collection(mode)
        return True

    def step_end(self, run_context):
        """Prints the FLOPs after the first step and mfu/hfu after each step (MindSpore's text);
        with `enable_ma_collector` also writes them to `$MA_LOG_DIR` as MindSpore does."""
        step_seconds = (time.time() - self.step_time) * 1000
        cb_params = run_context.original_args()
        if not self.mfu_calculated:
            if not self._collect(cb_params.mode):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            shard_mf_dir = os.path.realpath(os.getenv('MA_LOG_DIR', './'))
            if self.ma:
                flops_path = os.path.join(shard_mf_dir, "flops_rank_0.txt")
                self.time_step_path = os.path.join(shard_mf_dir, "time_step_rank_0.txt")
                stamp = int(round(time.time() * 1000))
                with os.fdopen(os.open(flops_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                       stat.S_IWUSR | stat.S_IRUSR), 'w') as f:
                    f.write(f"flops{{type=\"model_flops\", rank_id=\"0\"}} "
                            f"{self.shard_model_flops} {stamp}\n")
                    f.write(f"flops{{type=\"hardware_flops\", rank_id=\"0\"}} "
                            f"{self.shard_hardware_flops} {stamp}\n")
            if self.verbose:
                shard = (f"Shard model flops is {self.shard_model_flops}, "
                         f"Shard hardware flops is {self.shard_hardware_flops}.")
                if self.full_flops:
                    shard = (f"Full model flops is {self.full_mfu * self.computility}, "
                             f"Full hardware flops is {self.full_hfu * self.computility}, "
                             + shard)
                print(shard, flush=True)
        if cb_params.get("dataset_sink_mode"):
            step_seconds = step_seconds / self.batch_step_size
        if self.ma:
            with os.fdopen(os.open(self.time_step_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                   stat.S_IWUSR | stat.S_IRUSR), 'w') as f:
                f.write(f"time_monitor{{type=\"per_step_time\", rank_id=\"0\"}} {step_seconds} "
                        f"{int(round(time.time() * 1000))}\n")
        train_log = f"{cb_params.mode.title()} per step time: {step_seconds:5.3f} ms"
        # MindSpore skips the line on every data_size-th step; so does cellgrad
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu, hfu = ((self.full_mfu, self.full_hfu) if self.full_flops
                        else (self.shard_mfu, self.shard_hfu))
            mfu, hfu = 1000 * mfu / step_seconds, 1000 * hfu / step_seconds

            def floored_percentage(index, val, digits):
                val *= 10 ** (digits + 2)
                return index + '{1:.{0}f}%'.format(digits, floor(val) / 10 ** digits)
            train_log += floored_percentage(' mfu:', mfu, 2)
            train_log += floored_percentage(' hfu:', hfu, 2)
            print(train_log, flush=True)

    def end(self, run_context):
        """Stops a count a run ended inside of."""
        if self._counter is not None:
            self._counter.stop()
            self._counter = None
