"""`mindspore.amp.build_train_network`: the mixed-precision train step `Model` builds.

Per level (MindSpore 2.10's `_config_level`): O2 casts the network to float16 keeping
BatchNorm/LayerNorm in float32 and scales the loss with a `DynamicLossScaleManager()`; O3 casts
everything to float16; O1 applies the white list. With a float16 network the loss is computed in
float32 (the network output and the label are cast first). MindSpore's CPU build refuses a
loss-scale manager with an update cell ("Only `loss_scale_manager=None` or ... are supported on
device `CPU`"); cellgrad runs that step on a CPU as MindSpore runs it on a GPU (README: differs
on purpose).
"""

from cellgrad import nn
from cellgrad.dtype import bfloat16, float16, float32
from cellgrad_nn.amp import mixed
from cellgrad_nn.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager


def _config(level):
    """MindSpore's per-level defaults; a fresh manager each time (it holds state)."""
    low = level in ("O2", "O3")
    return {"keep_batchnorm_fp32": level == "O2",
            "cast_model_type": float16 if low else float32,
            "loss_scale_manager": DynamicLossScaleManager() if level == "O2" else None}


def _check_level(level, boost_level):
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                        f"'auto'],but got type {type(level)}.")
    if level not in mixed.AMP_LEVELS:
        raise ValueError(f"The 'level' should be in : {list(mixed.AMP_LEVELS)}, but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got "
                         f"{boost_level}.")


def _check_kwargs(kwargs):
    for arg in kwargs:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in kwargs and kwargs["cast_model_type"] not in (float16, float32):
        raise TypeError(f"The 'cast_model_type' should be one of [mindspore.float16, "
                        f"mindspore.float32], but got '{kwargs['cast_model_type']!r}'.")
    if "keep_batchnorm_fp32" in kwargs and not isinstance(kwargs["keep_batchnorm_fp32"], bool):
        raise TypeError(f"The type of 'keep_batchnorm_fp32' should be 'bool', but got type "
                        f"'{type(kwargs['keep_batchnorm_fp32']).__name__}'.")
    manager = kwargs.get("loss_scale_manager")
    if manager and not isinstance(manager, LossScaleManager):
        raise TypeError(f"The type of 'loss_scale_manager' should be one of "
                        f"'['LossScaleManager', 'GroupLossScaleManager']', but got type "
                        f"'{type(manager).__name__}'.")


class WithLossCell(nn.Cell):
    """The loss of a low-precision network, computed in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        mixed._get_attr_from_cell(self, backbone)

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(mixed.to_float32(out), mixed.to_float32(label))


def apply_amp(network, config, level):
    """MindSpore's `_auto_mixed_precision_process`: the network as the level and the
    `cast_model_type`/`keep_batchnorm_fp32` settings make it (O2/O3 in place)."""
    if config["cast_model_type"] == float16:
        network.to_float(float16)
        if config["keep_batchnorm_fp32"]:
            mixed._keep_float32(network, tuple(mixed.get_black_list()), float16)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(float16)
    elif config["cast_model_type"] == float32 and level in ("O2", "O3"):
        pass
    else:
        network = mixed.auto_mixed_precision(network, level)
    return network


def add_loss(network, loss_fn, cast_model_type):
    """`WithLossCell`, with the loss in float32 when the network runs in low precision."""
    if not isinstance(loss_fn, nn.Cell):
        raise TypeError(f"The type of 'loss_fn' should be 'Cell', but got type "
                        f"'{type(loss_fn).__name__}'.")
    if cast_model_type in (float16, bfloat16) or \
            getattr(network, "_amp_level", None) in ("O2", "O3", "auto"):
        return WithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def _check_not_scaling(network):
    """A loss-scale manager around a network that already runs a (loss-scaled) train step would
    scale twice and update the parameters twice."""
    for name, cell in network.cells_and_names():
        if isinstance(cell, nn.TrainOneStepCell):
            where = f" (its sub-cell '{name}')" if name else ""
            raise ValueError(f"For 'build_train_network', 'loss_scale_manager' cannot be used "
                             f"with a network that is already a training step{where}: "
                             f"{type(cell).__name__}; pass the network it wraps, or no "
                             f"loss_scale_manager.")


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """Mirrors `mindspore.amp.build_train_network`: the train step of `network` at `level`
    (settings in `kwargs`: cast_model_type, keep_batchnorm_fp32, loss_scale_manager)."""
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(f"The type of 'optimizer' should be one of '['Optimizer', 'FreezeOpt', "
                        f"'AdaSumByGradWrapCell', 'AdaSumByDeltaWeightWrapCell']', but got type "
                        f"'{type(optimizer).__name__}'.")
    _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_config(level), **kwargs)
    network = apply_amp(network, config, level)
    if loss_fn:
        network = add_loss(network, loss_fn, config["cast_model_type"])
    manager = config["loss_scale_manager"]
    if manager is not None:
        _check_not_scaling(network)
    loss_scale = None
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer,
                                                    scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()
