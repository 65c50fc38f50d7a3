"""`BackupAndRestore`: a run that died mid-training restarts from its last backup."""

import os
import stat

from cellgrad import _checkparam as validator
from cellgrad import log as logger
from cellgrad_nn.train.callbacks import Callback
from cellgrad_nn.train.directories import make_directory


class BackupAndRestore(Callback):
    """Mirrors `mindspore.train.BackupAndRestore`: saves the train network (weights and
    optimizer state) to `backup_dir/backup.ckpt` every `save_freq` epochs, loads it back when a
    run begins and the file is there, and removes it when a run ends (`delete_checkpoint`).

    As in MindSpore, the epoch to go on from is the caller's: `Model.train(epoch, data,
    callbacks=..., initial_epoch=<epochs done>)`.
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        ckpt_dir = make_directory(backup_dir)
        self.backup_file = os.path.join(ckpt_dir, "backup.ckpt")
        if save_freq != "epoch":
            self.save_freq = validator.check_positive_int(save_freq)
        else:
            self.save_freq = 1
        self.delete_checkpoint = validator.check_bool(delete_checkpoint)

    def on_train_begin(self, run_context):
        """Loads the backup into the train network, when there is one."""
        if os.path.exists(self.backup_file):
            from cellgrad import load_checkpoint

            train_net = run_context.original_args().train_network
            logger.info(f"Restore checkpoint file is {self.backup_file}, load checkpoint into "
                        f"train net.")
            load_checkpoint(self.backup_file, net=train_net)

    def on_train_epoch_end(self, run_context):
        """Backs the train network up every `save_freq` epochs."""
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            from cellgrad import save_checkpoint

            logger.info(f"Train task end, backup checkpoint file: {self.backup_file}.")
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        """Removes the backup of a run that finished (`delete_checkpoint`)."""
        cur_epoch_num = run_context.original_args().cur_epoch_num
        if self.delete_checkpoint:
            logger.info(f"Delete restore checkpoint file {self.backup_file} at {cur_epoch_num} "
                        f"epoch.")
            os.chmod(self.backup_file, stat.S_IWRITE)
            os.remove(self.backup_file)
