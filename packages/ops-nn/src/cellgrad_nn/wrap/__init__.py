"""Training wrappers (`cellgrad.nn.WithLossCell`, `TrainOneStepCell`, loss scaling).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_WHERE = {
    "cells": "WithLossCell WithEvalCell TrainOneStepCell",
    "loss_scale": "TrainOneStepWithLossScaleCell FixedLossScaleUpdateCell "
                  "DynamicLossScaleUpdateCell",
    "cell_extra": "ForwardValueAndGrad WithGradCell ParameterUpdate GradAccumulationCell "
                  "PipelineCell MicroBatchInterleaved VirtualDatasetCellTriple GetNextSingleOp "
                  "TimeDistributed PipelineGradReducer Jvp Vjp",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
_LOSS_SCALE = ("reciprocal grad_overflow ascend_grad_overflow tensor_grad_scale "
               "tensor_grad_scale_row_tensor tensor_grad_scale_pipeline "
               "tensor_shard_grad_scale_pipeline grad_scale shard_grad_scale")
EXPORTS.update({f"nn.wrap.loss_scale.{name}": f"loss_scale_funcs:{name}"
                for name in _LOSS_SCALE.split()})
# AllFinite and NPU*FloatStatusV2 (loss_scale_funcs) are not exported: the path table puts them
# at mindspore.amp, whose public names (tests/ops_nn/test_amp.py) do not include them.
EXPORTS["nn.wrap.loss_scale.RowTensorInner"] = "loss_scale_funcs:RowTensorInner"
EXPORTS["nn.wrap.cell_wrapper.grad_scale"] = "loss_scale_funcs:cell_wrapper_grad_scale"
