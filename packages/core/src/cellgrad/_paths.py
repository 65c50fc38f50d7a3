"""Where MindSpore's module paths find their names: the core's table of alias modules.

Real code imports `mindspore.train.callback`, `mindspore.nn.optim.momentum`,
`mindspore.ops.operations as P`, ... (../shared/usage/api-usage.md). Each such path is a real
small module of cellgrad (`cellgrad/nn/optim/momentum.py`) ending with the namespace lines
    from cellgrad._namespace import plugin_names as _plugin_names
    __getattr__, __dir__ = _plugin_names(__name__)
and this table says which names it has and in which namespace each one lives: the same
object, looked up there on first use, so a name a plugin provides (cellgrad-ops-nn's
`nn.Momentum`) appears at every path of MindSpore that holds it, and when the plugin is missing
the error names the path written and the package to install. A plugin may also export names
into these paths directly (`export("nn.optim.optimizer.opt_init_args_register", ...)`).

The names are MindSpore 2.10's (recorded in tests/core/module_paths-2.10.json by
tests/core/ms_programs/record_module_paths.py; tests/core/test_module_paths.py holds the table
to that file). This module is data only: `cellgrad._namespace` reads it.
"""

# path -> {namespace the names live in: "names at that path"} ("" is the top level)
PATHS = {
    "": {
        "log": "get_level get_log_config",
        "profiler": "Profiler",
    },
    "common": {  # MindSpore's tests import these from here (`from mindspore.common import ...`)
        "": "DeviceCtx Generator Int JitConfig QuantDtype TensorType Type bfloat16 bool_ byte "
            "complex128 complex64 double dtype_to_nptype dtype_to_pytype float16 float32 "
            "float64 float_ from_numpy get_py_obj_dtype get_rng_state half initial_seed int16 "
            "int32 int64 int8 int_ intc intp is_tensor jit_class lazy_inline long manual_seed "
            "pytype_to_dtype seed set_recursion_limit set_rng_state short single swap_tensors "
            "tensor_type ubyte uint16 uint32 uint64 uint8 uintc uintp ushort",
    },
    "communication.management": {
        "communication": "GlobalComm HCCL_WORLD_COMM_GROUP MCCL_WORLD_COMM_GROUP "
                         "NCCL_WORLD_COMM_GROUP create_group destroy_group get_comm_name "
                         "get_group_rank_from_world_rank get_group_size get_local_rank "
                         "get_local_rank_size get_process_group_ranks get_rank "
                         "get_world_rank_from_group_rank init release",
    },
    "nn.dynamic_lr": {
        "nn": "cosine_decay_lr exponential_decay_lr inverse_decay_lr natural_exp_decay_lr "
              "piecewise_constant_lr polynomial_decay_lr warmup_lr",
    },
    "nn.layer": {
        "nn": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
              "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool1dExt AvgPool2d AvgPool2dExt "
              "AvgPool3d AvgPool3dExt BatchNorm1d BatchNorm2d BatchNorm3d BiDense CELU CellDict "
              "CellList CentralCrop ChannelShuffle ClipByNorm ConstantPad1d ConstantPad2d "
              "ConstantPad3d Conv1d Conv1dTranspose Conv2d Conv2dBnAct Conv2dThor Conv2dTranspose "
              "Conv3d Conv3dTranspose Dense DenseBnAct DenseThor DiGamma Dropout Dropout1d "
              "Dropout2d Dropout2dExt Dropout3d DropoutExt ELU Embedding EmbeddingExt "
              "EmbeddingLookup EmbeddingLookupThor EmbeddingThor FastGelu Flatten "
              "FractionalMaxPool2d FractionalMaxPool3d GELU GLU GRU GRUCell GroupNorm HShrink "
              "HSigmoid HSwish Hardtanh IGamma Identity ImageGradients InstanceNorm1d "
              "InstanceNorm2d InstanceNorm3d L1Regularizer LBeta LGamma LPPool1d LPPool2d LRN LSTM "
              "LSTMCell LayerNorm LayerNormExt LeakyReLU Linear LogSigmoid LogSoftmax "
              "LogSoftmaxExt MSSSIM MatDet MatInverse MatMul MatrixDiag MatrixDiagPart "
              "MatrixSetDiag MaxPool1d MaxPool2d MaxPool2dExt MaxPool3d MaxUnpool1d MaxUnpool2d "
              "MaxUnpool3d Mish Moments MultiFieldEmbeddingLookup MultiheadAttention Norm OneHot "
              "PReLU PReLUExt PSNR Pad PixelShuffle PixelUnshuffle RNN RNNCell RReLU Range ReLU "
              "ReLU6 ReduceLogSumExp ReflectionPad1d ReflectionPad2d ReflectionPad3d "
              "ReplicationPad1d ReplicationPad2d ReplicationPad3d Roll SSIM SeLU SequentialCell "
              "SiLU Sigmoid SoftShrink Softmax Softmax2d Softmin Softsign SyncBatchNorm Tanh "
              "Tanhshrink Threshold TimeDistributed Transformer TransformerDecoder "
              "TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer Tril Triu "
              "Unflatten Unfold Upsample ZeroPad2d get_activation",
    },
    "nn.layer.activation": {
        "nn": "CELU ELU FastGelu GELU GLU HShrink HSigmoid HSwish Hardtanh LRN LeakyReLU "
              "LogSigmoid LogSoftmax LogSoftmaxExt Mish PReLU PReLUExt RReLU ReLU ReLU6 SeLU SiLU "
              "Sigmoid SoftShrink Softmax Softmax2d Softmin Softsign Tanh Tanhshrink Threshold "
              "get_activation",
    },
    "nn.layer.basic": {
        "nn": "ClipByNorm Dense Dropout Dropout1d Dropout2d Dropout2dExt Dropout3d DropoutExt "
              "Flatten Identity L1Regularizer Linear MatrixDiag MatrixDiagPart MatrixSetDiag Norm "
              "OneHot Pad Roll Tril Triu Unflatten Unfold Upsample",
    },
    "nn.layer.channel_shuffle": {
        "nn": "ChannelShuffle",
    },
    "nn.layer.combined": {
        "nn": "Conv2dBnAct DenseBnAct",
    },
    "nn.layer.container": {
        "nn": "CellDict CellList SequentialCell",
    },
    "nn.layer.conv": {
        "nn": "Conv1d Conv1dTranspose Conv2d Conv2dTranspose Conv3d Conv3dTranspose",
    },
    "nn.layer.dense": {
        "nn": "BiDense",
    },
    "nn.layer.embedding": {
        "nn": "Embedding EmbeddingExt EmbeddingLookup MultiFieldEmbeddingLookup",
    },
    "nn.layer.image": {
        "nn": "CentralCrop ImageGradients MSSSIM PSNR PixelShuffle PixelUnshuffle SSIM",
    },
    "nn.layer.math": {
        "nn": "DiGamma IGamma LBeta LGamma MatDet MatInverse MatMul Moments Range ReduceLogSumExp",
    },
    "nn.layer.normalization": {
        "nn": "BatchNorm1d BatchNorm2d BatchNorm3d GroupNorm InstanceNorm1d InstanceNorm2d "
              "InstanceNorm3d LayerNorm LayerNormExt SyncBatchNorm",
    },
    "nn.layer.padding": {
        "nn": "ConstantPad1d ConstantPad2d ConstantPad3d ReflectionPad1d ReflectionPad2d "
              "ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d ZeroPad2d",
    },
    "nn.layer.pooling": {
        "nn": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
              "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool1dExt AvgPool2d AvgPool2dExt "
              "AvgPool3d AvgPool3dExt FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d "
              "MaxPool1d MaxPool2d MaxPool2dExt MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d",
    },
    "nn.layer.rnn_cells": {
        "nn": "GRUCell LSTMCell RNNCell",
    },
    "nn.layer.rnns": {
        "nn": "GRU LSTM RNN",
    },
    "nn.layer.timedistributed": {
        "nn": "TimeDistributed",
    },
    "nn.layer.transformer": {
        "nn": "MultiheadAttention Transformer TransformerDecoder TransformerDecoderLayer "
              "TransformerEncoder TransformerEncoderLayer",
    },
    "nn.learning_rate_schedule": {  # LearningRateSchedule: only here in MindSpore
        "nn": "CosineDecayLR ExponentialDecayLR InverseDecayLR LearningRateSchedule "
              "NaturalExpDecayLR PolynomialDecayLR WarmUpLR",
    },
    "nn.loss": {
        "nn": "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss DiceLoss "
              "FocalLoss GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss L1LossExt "
              "LossBase MAELoss MSELoss MarginRankingLoss MultiClassDiceLoss "
              "MultiLabelSoftMarginLoss MultiMarginLoss MultilabelMarginLoss NLLLoss "
              "PoissonNLLLoss RMSELoss SampledSoftmaxLoss SmoothL1Loss SoftMarginLoss "
              "SoftmaxCrossEntropyWithLogits TripletMarginLoss TripletMarginWithDistanceLoss",
    },
    "nn.loss.loss": {
        "nn": "BCELoss BCEWithLogitsLoss CTCLoss Cell CosineEmbeddingLoss CrossEntropyLoss "
              "DiceLoss FocalLoss GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss "
              "L1LossExt LossBase MAELoss MSELoss MarginRankingLoss MultiClassDiceLoss "
              "MultiLabelSoftMarginLoss MultiMarginLoss MultilabelMarginLoss NLLLoss "
              "PoissonNLLLoss RMSELoss SampledSoftmaxLoss SmoothL1Loss SoftMarginLoss "
              "SoftmaxCrossEntropyWithLogits TripletMarginLoss TripletMarginWithDistanceLoss "
              "get_activation",
        "": "Parameter Tensor constexpr",
    },
    "nn.metrics": {
        "nn": "Accuracy BleuScore ConfusionMatrix ConfusionMatrixMetric CosineSimilarity Dice F1 "
              "Fbeta HausdorffDistance Loss MAE MSE MeanSurfaceDistance Metric "
              "OcclusionSensitivity Perplexity Precision ROC Recall RootMeanSquareDistance "
              "Top1CategoricalAccuracy Top5CategoricalAccuracy TopKCategoricalAccuracy auc "
              "get_metric_fn get_metrics names rearrange_inputs",
    },
    "nn.optim": {
        "nn": "ASGD AdaFactor AdaMax AdaSumByDeltaWeightWrapCell AdaSumByGradWrapCell Adadelta "
              "Adagrad Adam AdamOffload AdamWeightDecay FTRL LARS Lamb LazyAdam Momentum "
              "OptTFTWrapper Optimizer ProximalAdagrad RMSProp Rprop SGD thor",
    },
    "nn.optim.ada_grad": {
        "nn": "Adagrad Optimizer",
        "": "jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.adafactor": {
        "nn": "AdaFactor Optimizer",
        "": "Parameter ParameterTuple Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.adadelta": {
        "nn": "Adadelta Optimizer",
        "": "Tensor",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.adam": {
        "nn": "Adam AdamOffload AdamWeightDecay Optimizer",
        "": "Parameter Tensor jit",
        "common.initializer": "initializer",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.adamax": {
        "nn": "AdaMax Optimizer",
        "": "Parameter Tensor jit",
        "common.initializer": "initializer",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.asgd": {
        "nn": "ASGD Optimizer",
        "": "Parameter Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.ftrl": {
        "nn": "FTRL Optimizer",
        "": "jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.lamb": {
        "nn": "Lamb Optimizer",
        "": "Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.lars": {
        "nn": "LARS Optimizer",
        "": "Parameter Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.lazyadam": {
        "nn": "LazyAdam Optimizer",
        "": "Parameter Tensor jit",
        "common.initializer": "initializer",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.momentum": {
        "nn": "Momentum Optimizer",
        "": "Parameter Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.optimizer": {
        "nn": "Optimizer",
    },
    "nn.optim.proximal_ada_grad": {
        "nn": "Optimizer ProximalAdagrad",
        "": "Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.rmsprop": {
        "nn": "Optimizer RMSProp",
        "": "jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.rprop": {
        "nn": "Optimizer Rprop",
        "": "jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.optim.sgd": {
        "nn": "Optimizer SGD",
        "": "Parameter Tensor jit",
        "nn.optim.optimizer": "opt_init_args_register",
    },
    "nn.wrap": {
        "nn": "DistributedGradReducer DynamicLossScaleUpdateCell FixedLossScaleUpdateCell "
              "ForwardValueAndGrad GetNextSingleOp GradAccumulationCell MicroBatchInterleaved "
              "ParameterUpdate PipelineCell PipelineGradReducer TimeDistributed TrainOneStepCell "
              "TrainOneStepWithLossScaleCell VirtualDatasetCellTriple WithEvalCell WithGradCell "
              "WithLossCell",
    },
    "nn.wrap.cell_wrapper": {
        "nn": "Cell DistributedGradReducer ForwardValueAndGrad GetNextSingleOp "
              "GradAccumulationCell MicroBatchInterleaved ParameterUpdate PipelineCell "
              "TrainOneStepCell VirtualDatasetCellTriple WithEvalCell WithGradCell WithLossCell",
        "": "ExitByRequest ParallelMode Parameter ParameterTuple Tensor",
    },
    "nn.wrap.grad_reducer": {
        "nn": "DistributedGradReducer",
    },
    "nn.wrap.loss_scale": {
        "nn": "Cell DynamicLossScaleUpdateCell FixedLossScaleUpdateCell TrainOneStepCell "
              "TrainOneStepWithLossScaleCell",
        "": "ParallelMode Parameter Tensor",
        "amp": "AllFinite NPUClearFloatStatusV2 NPUGetFloatStatusV2",
    },
    "train.callback": {
        "train": "BackupAndRestore Callback CheckpointConfig EarlyStopping "
                 "FlopsUtilizationCollector History LambdaCallback LearningRateScheduler "
                 "LossMonitor ModelCheckpoint OnRequestExit ReduceLROnPlateau RunContext "
                 "SummaryCollector SummaryLandscape TimeMonitor TrainFaultTolerance",
    },
    "train.loss_scale_manager": {
        "train": "DynamicLossScaleManager FixedLossScaleManager LossScaleManager",
    },
    "train.metrics": {
        "train": "Accuracy BleuScore ConfusionMatrix ConfusionMatrixMetric CosineSimilarity Dice "
                 "F1 Fbeta HausdorffDistance Loss MAE MSE MeanSurfaceDistance Metric "
                 "OcclusionSensitivity Perplexity Precision ROC Recall RootMeanSquareDistance "
                 "Top1CategoricalAccuracy Top5CategoricalAccuracy TopKCategoricalAccuracy auc "
                 "get_metric_fn names rearrange_inputs",
    },
    "train.model": {
        "train": "Model",
        "": "ParallelMode",
    },
    "train.serialization": {
        "train": "async_ckpt_thread_status build_searched_strategy ckpt_to_safetensors export "
                 "export_split_mindir get_ckpt_path_with_strategy load load_checkpoint "
                 "load_checkpoint_async load_distributed_checkpoint load_param_into_net "
                 "merge_sliced_parameter restore_group_info_list safetensors_to_ckpt "
                 "save_checkpoint",
        "": "Generator Parameter Tensor sync_pipeline_shared_parameters",
        "common.initializer": "initializer",
        "communication": "get_group_size get_rank",
        "ops": "Cast",
    },    "train.callback._callback": {
        "train": "Callback RunContext",
    },
    "train.callback._loss_monitor": {
        "train": "Callback LossMonitor",
    },
    "train.callback._time_monitor": {
        "train": "Callback TimeMonitor",
    },
    "train.callback._checkpoint": {
        "train": "Callback CheckpointConfig ModelCheckpoint",
    },
    "train.summary": {"train": "SummaryRecord"},
    "common.generator": {"": "Generator get_rng_state initial_seed manual_seed seed "
                             "set_rng_state"},
    "train.dataset_helper": {"train": "DatasetHelper connect_network_with_dataset"},
    "communication._comm_helper": {"communication": "GlobalComm"},
    "train.summary.summary_record": {"train": "SummaryRecord"},
    "nn.metrics.metric": {
        "nn": "Metric rearrange_inputs",
    },
    "profiler.profiling": {
        "profiler": "Profiler",
    },
}

# Paths holding every Primitive class of `cellgrad.ops` (those plugins provide included), as
# MindSpore's `ops.operations` does; cellgrad does not keep the split into nn_ops, math_ops, ...
# PATHS adds the other names of `ops` they have.
# Paths that hold every name of `cellgrad.ops` (MindSpore's `ops.functional` re-exports the
# functional ops, plugins' included).
WHOLE_OPS = ("ops.functional", "ops.function", "ops.function.math_func",
             "ops.function.nn_func", "ops.function.array_func", "ops.function.random_func")

EVERY_PRIMITIVE = ("ops.operations", "ops.operations.nn_ops", "ops.operations.math_ops",
                   "ops.operations.array_ops", "ops.operations.comm_ops",
                   "ops.operations.other_ops", "ops.operations.random_ops",
                   "ops.operations.image_ops")
PATHS.update({path: {"ops": "prim_attr_register"} for path in EVERY_PRIMITIVE[1:]})
PATHS.update({
    "ops": {"": "Tensor",  # MindSpore's ops namespace holds the Tensor class too
            "ops._functional_graph": "is_sequence_shape_unknown is_sequence_value_unknown "
                                     "is_dynamic_sequence_element_unknown is_tensor_bool_cond",
            "ops._prim_nms": "CombinedNonMaxSuppression",
            "ops._image_extra": "ExtractGlimpse ExtractVolumePatches "
                                "SampleDistortedBoundingBoxV2 ScaleAndTranslate SparseSlice",
            "ops._deform_attn": "multi_scale_deformable_attn_function",
            "ops._moe_ops": "GroupTopk moe_init_routing_v2 moe_token_permute moe_token_unpermute",
            "ops._rotated_iou": "rotated_iou",
            "ops.operations._inner_ops": "CopyWithSlice",
            "ops._op_info": "CustomRegOp DataType"},
    "ops.composite.base": {
        "ops.composite": "GradOperation HyperMap Map MultitypeFuncGraph add_flags tail "
                         "zip_operation",
        "": "Parameter ParameterTuple Tensor jit",
    },
    "ops.operations.sparse_ops": {
        "ops": "SparseTensorDenseAdd SparseTensorDenseMatmul SparseToDense",
    },
    "ops.operations._grad_ops": {},  # plugins' backward Primitives (DeformableOffsetsGrad)
    "ops.auto_generate": {},  # `ops.auto_generate.TanhGrad()` without importing it, as MindSpore
    "ops.functional": {
        "ops._functional_graph": "is_sequence_shape_unknown is_sequence_value_unknown "
                                 "is_dynamic_sequence_element_unknown is_tensor_bool_cond"},
    "ops.operations": {"ops": "ReduceOp"},
    "ops.operations.comm_ops": {"ops": "ReduceOp Tensor prim_attr_register"},
    "ops.operations.array_ops": {"ops": "Tensor prim_attr_register"},
    "ops.operations.math_ops": {"ops": "Tensor prim_attr_register"},
    "ops.operations.other_ops": {"ops": "prim_arg_register prim_attr_register"},
})

# MindSpore 1.x names that MindSpore 2.10 no longer has, where the object is unambiguous:
# old qualname -> current qualname. They resolve with a DeprecationWarning naming the current
# path; a moved module path (a file of its own) warns when it is imported.
MOVED = {
    "ms_function": "jit",
    "common.api.ms_function": "jit",
    "_checkparam.Validator": "_checkparam",  # its static methods are the module's functions
    "_checkparam.Rel": "_checkparam",  # its constants are the module's
    "nn.metrics.metric": "train",
    "profiler.profiling": "profiler",
}
