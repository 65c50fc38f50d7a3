"""Saving checkpoints while training: `CheckpointConfig` and `ModelCheckpoint`.

Files are named as MindSpore names them, `{prefix}-{epoch}_{step_in_epoch}.ckpt`, and hold
the whole train network (weights and optimizer state). They are written with
`cellgrad.save_checkpoint` (the cellgrad-checkpoint package), which writes atomically: a run
killed mid-save leaves the previous checkpoints intact, and `Model.train(initial_epoch=...)`
resumes from the last one.

As MindSpore's, a new `ModelCheckpoint` whose prefix already names checkpoint files in its
directory (an earlier run's) takes the next free prefix, `{prefix}_{n}`, and rotation removes
only files of its own prefix, oldest first: a rerun never deletes the files it just wrote
because an earlier run reached higher epochs.
"""

import os
import re
import threading
import time

from cellgrad_nn.train import parallel
from cellgrad_nn.train.callbacks import Callback

_ASYNC_SAVE_THREAD = "asyn_save_ckpt"  # MindSpore's name for it, which save_checkpoint uses


class CheckpointConfig:
    """Mirrors `mindspore.train.CheckpointConfig`: when to save and how many files to keep."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, remove_redundancy=False, format="ckpt",
                 **kwargs):
        for name, value in (("save_checkpoint_steps", save_checkpoint_steps),
                            ("save_checkpoint_seconds", save_checkpoint_seconds),
                            ("keep_checkpoint_max", keep_checkpoint_max),
                            ("keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 0):
                raise ValueError(f"For 'CheckpointConfig', {name} must be an int >= 0, but got "
                                 f"{value!r}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds:
            raise ValueError("For 'CheckpointConfig', save_checkpoint_steps and "
                             "save_checkpoint_seconds cannot both be 0.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', format must be 'ckpt' or 'safetensors', "
                             f"but got {format!r}.")
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max
        self.keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = self._check_append_info(append_info)
        self.enc_key, self.enc_mode = enc_key, enc_mode
        self.exception_save = exception_save
        self.crc_check = crc_check
        self.remove_redundancy = remove_redundancy
        self.format = format
        # cellgrad's keyword (MindSpore's CheckpointConfig takes **kwargs): in a multi-process
        # job every rank saves, into `<directory>/rank_<rank>`, instead of rank 0 alone.
        self.all_ranks = bool(kwargs.pop("all_ranks", False))

    @staticmethod
    def _check_append_info(append_info):
        if append_info is None:
            return []
        info = []
        for item in append_info:
            if item in ("epoch_num", "step_num") or isinstance(item, dict):
                info.append(item)
            else:
                raise ValueError(f"For 'CheckpointConfig', append_info entries must be "
                                 f"'epoch_num', 'step_num' or a dict, but got {item!r}.")
        return info

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes}


class ModelCheckpoint(Callback):
    """Mirrors `mindspore.train.ModelCheckpoint`: save the train network during training,
    keeping at most `keep_checkpoint_max` files of this prefix in `directory`."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        if not isinstance(prefix, str) or not prefix or "/" in prefix or os.sep in prefix:
            raise ValueError(f"For 'ModelCheckpoint', prefix must be a non-empty file name "
                             f"prefix, but got {prefix!r}.")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', config must be a CheckpointConfig, but got "
                            f"{type(config).__name__}.")
        self._directory = os.path.abspath(directory if directory is not None else ".")
        self._config = config or CheckpointConfig()
        self._prefix = _free_prefix(self._save_directory(), prefix)
        self._pattern = re.compile(re.escape(self._prefix)
                                   + r"-(\d+)_(\d+)\.(?:ckpt|safetensors)$")
        self._last_saved_step = None
        self._last_time = time.time()
        self.latest_ckpt_file_name = ""

    def _save_directory(self):
        """Where this process writes: the directory, or its `rank_<r>` with all_ranks."""
        rank, size = parallel.rank_and_size()
        if size > 1 and self._config.all_ranks:
            return os.path.join(self._directory, f"rank_{rank}")
        return self._directory

    def step_end(self, run_context):
        cb = run_context.original_args()
        cfg = self._config
        due = bool(cfg.save_checkpoint_steps) and cb.cur_step_num % cfg.save_checkpoint_steps == 0
        if cfg.save_checkpoint_seconds and \
                time.time() - self._last_time >= cfg.save_checkpoint_seconds:
            due = True
        if due:
            self._save(cb)

    def end(self, run_context):
        cb = run_context.original_args()
        if cb.get("mode", "train") == "train" and self._last_saved_step != cb.cur_step_num:
            self._save(cb)
        # As MindSpore: training ends when the last asynchronous save has reached its file.
        for thread in threading.enumerate():
            if thread.name == _ASYNC_SAVE_THREAD and thread is not threading.current_thread():
                thread.join()

    def _save(self, cb):
        from cellgrad import save_checkpoint

        # Data-parallel processes hold the same parameters: one file per job, from rank 0,
        # unless CheckpointConfig(all_ranks=True).
        rank, size = parallel.rank_and_size()
        directory = self._save_directory()
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        ext = "safetensors" if self._config.format == "safetensors" else "ckpt"
        path = os.path.join(directory, f"{self._prefix}-{cb.cur_epoch_num}_{step_in_epoch}.{ext}")
        if size > 1 and rank != 0 and not self._config.all_ranks:
            self._last_saved_step = cb.cur_step_num
            self._last_time = time.time()
            self.latest_ckpt_file_name = path
            return
        os.makedirs(directory, exist_ok=True)
        network = self._config.saved_network or cb.train_network
        save_checkpoint(network, path, integrated_save=self._config.integrated_save,
                        async_save=self._config.async_save,
                        append_dict=self._append_dict(cb), enc_key=self._config.enc_key,
                        enc_mode=self._config.enc_mode, crc_check=self._config.crc_check,
                        format=self._config.format)
        self._last_saved_step = cb.cur_step_num
        self._last_time = time.time()
        self.latest_ckpt_file_name = path
        self._rotate(directory, os.path.basename(path))

    def _append_dict(self, cb):
        extra = {}
        for item in self._config.append_info:
            if item == "epoch_num":
                extra["epoch_num"] = cb.cur_epoch_num
            elif item == "step_num":
                extra["step_num"] = cb.cur_step_num
            else:
                extra.update(item)
        return extra or None

    def _rotate(self, directory, saved):
        keep = self._config.keep_checkpoint_max
        if not keep:
            return
        found = []
        for name in os.listdir(directory):
            match = self._pattern.match(name)
            if match and name != saved:
                try:
                    mtime = os.stat(os.path.join(directory, name)).st_mtime_ns
                except FileNotFoundError:
                    continue
                found.append((mtime, int(match.group(1)), int(match.group(2)), name))
        # oldest first, as MindSpore (by modification time; a run that restarts at epoch 1
        # under the same prefix keeps its new files); the file just written always stays
        for *_, name in sorted(found)[:max(0, len(found) - (keep - 1))]:
            try:
                os.remove(os.path.join(directory, name))
            except FileNotFoundError:  # removed by someone else meanwhile: nothing to do
                pass


def _free_prefix(directory, prefix):
    """MindSpore's rule for a prefix already used in `directory`: `{prefix}_{n}`, n one more
    than the largest taken (1 when only `{prefix}-...` files exist)."""
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return prefix
    taken = 0
    for name in names:
        if not name.endswith((".ckpt", ".safetensors")) or name.endswith("_breakpoint.ckpt"):
            continue
        if not name.startswith(prefix) or name[len(prefix):len(prefix) + 1].isalpha():
            continue
        rest = name[len(prefix):]
        dash = rest.find("-")
        if dash == 0:
            taken = max(taken, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            taken = max(taken, int(rest[1:dash]) + 1)
    return f"{prefix}_{taken}" if taken else prefix
