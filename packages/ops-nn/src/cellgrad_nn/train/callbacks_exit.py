"""`OnRequestExit`: stop a run on a signal or a request file, keeping its state."""

import json
import os
import signal
import threading

from cellgrad import _checkparam as validator
from cellgrad import log as logger
from cellgrad_nn.train import parallel
from cellgrad_nn.train.callbacks import Callback
from cellgrad_nn.train.directories import make_directory


class OnRequestExit(Callback):
    """Mirrors `mindspore.train.OnRequestExit`: answers the signal `sig` (or `{"GracefulExit": 1}`
    in the JSON `config_file`) by saving `{directory}/rank_{id}/{file_name}_train.ckpt` (and
    `.mindir`) and, with `MS_ENABLE_GRACEFUL_EXIT=1`, stopping after the current step.

    As in MindSpore, without `MS_ENABLE_GRACEFUL_EXIT=1` the signal only makes the run save when
    it ends (it no longer kills the process), and a run that begins with that checkpoint present
    loads it. MindSpore marks the request in a `graceful_exit` Parameter its TrainOneStepCell
    adds (and all-reduces it between ranks); cellgrad keeps it in this callback, per process.
    The MindIR is the train network's loss network (MindSpore's also holds the update). The
    progress appended to a graceful exit's checkpoint keeps the optimizer's `global_step`
    Parameter rather than overwriting it with a scalar as MindSpore does (which then cannot be
    loaded back into the network).
    """

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./",
                 config_file=None, sig=signal.SIGTERM):
        super().__init__()
        self.save_ckpt = validator.check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = validator.check_isinstance("save_mindir", save_mindir, bool)
        self.sig = validator.check_isinstance("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.is_distributed = parallel.rank_and_size()[1] > 1
        self.integrated_save = True
        self.stop_train = False
        self.need_do_step_end = False
        if self.save_ckpt or self.save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    def on_train_begin(self, run_context):
        """Installs the signal handler; loads an earlier exit's checkpoint when there is one."""
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            from cellgrad import load_checkpoint

            load_checkpoint(f"{self.train_name}.ckpt",
                            net=run_context.original_args().train_network)

    def on_train_step_begin(self, run_context):
        self._do_step_begin(run_context)

    def on_train_step_end(self, run_context):
        self._do_step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self._do_step_end(run_context)

    def on_train_end(self, run_context):
        """After a request: saves the train network (and its MindIR)."""
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params.train_network, self.train_name,
                       cb_params.get("train_dataset_element"))

    def on_eval_begin(self, run_context):
        """Installs the signal handler; loads the eval (else train) checkpoint of an exit."""
        signal.signal(self.sig, self._handle_signal)
        if not self.save_ckpt:
            return
        from cellgrad import load_checkpoint

        eval_net = run_context.original_args().eval_network
        if os.path.isfile(f"{self.eval_name}.ckpt"):
            load_checkpoint(f"{self.eval_name}.ckpt", net=eval_net)
        elif os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=eval_net)

    def on_eval_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context):
        """After a request: saves the eval network (and its MindIR)."""
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params.eval_network, self.eval_name,
                       cb_params.get("eval_dataset_element"))

    def _handle_signal(self, signum, frame):
        logger.debug(f"signum: {signum}, frame: {frame}")
        self.exit = True

    def _do_step_begin(self, run_context):
        with self.lock:
            if self.use_graceful and (self._check_config_info() or self.exit):
                self.need_do_step_end = True

    def _do_step_end(self, run_context):
        with self.lock:
            if self.stop_train or not self.need_do_step_end:
                return
            logger.warning("Graceful exit is triggered, stop training.")
            cb_params = run_context.original_args()
            self._save(cb_params.train_network, self.train_name,
                       cb_params.get("train_dataset_element"), self._progress(cb_params))
            run_context.request_stop()
            self.stop_train = True

    def _progress(self, cb_params):
        """What MindSpore appends to the checkpoint of a graceful exit."""
        append_dict = {"epoch_num": cb_params.cur_epoch_num, "step_num": cb_params.cur_step_num,
                       "batch_num": cb_params.batch_num}
        manager = cb_params.get("loss_scale_mananger")  # MindSpore's spelling
        if manager is not None:
            append_dict["loss_scale"] = manager.get_loss_scale()
        optimizer = cb_params.get("optimizer") or getattr(cb_params.network, "optimizer", None)
        saved = {p.name for p in cb_params.train_network.get_parameters()}
        # MindSpore appends it even over the optimizer's own `global_step` Parameter (shape
        # (1,)), and its next run then fails to load the file; the Parameter is kept instead
        if optimizer is not None and "global_step" not in saved:
            append_dict["global_step"] = int(optimizer.global_step.asnumpy().reshape(-1)[0])
        return append_dict

    def _save(self, net, name, inputs, append_dict=None):
        if self.save_ckpt:
            from cellgrad import save_checkpoint

            save_checkpoint(net, name, integrated_save=self.integrated_save,
                            append_dict=append_dict)
        if self.save_mindir:
            _export_mindir(net, inputs, name)

    def _check_config_info(self):
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, encoding="utf-8") as f:
            try:
                config_info = json.load(f)
            except json.JSONDecodeError as e:
                logger.warning(f"Parse json file failed: {e}, please check json file: "
                               f"{self.remote_config_file}")
                return False
        return isinstance(config_info, dict) and config_info.get(self.key) == 1

    def _get_save_path(self, file_name):
        from cellgrad import get_context

        folder = os.getcwd() if self.save_path is None else self.save_path
        path = make_directory(os.path.join(folder, f"rank_{get_context('device_id')}"))
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")


def _export_mindir(net, inputs, file_name):
    """`export(net, *inputs)` as MINDIR. A train wrapper (a Cell with an optimizer) exports its
    loss network: tracing the wrapper would run its optimizer, an update of the saved state."""
    import cellgrad as ms

    if inputs is None:
        raise ValueError(f"For 'OnRequestExit', no dataset element was seen, so the MindIR "
                         f"{file_name}.mindir cannot be exported; pass save_mindir=False.")
    if getattr(net, "optimizer", None) is not None and getattr(net, "network", None) is not None:
        logger.warning(f"For 'OnRequestExit', the MindIR {file_name}.mindir holds the loss "
                       f"network of {type(net).__name__}, without its update.")
        net = net.network
    ms.export(net, *inputs, file_name=file_name, file_format="MINDIR")
