"""The names the first-party packages provide, with MindSpore's spelling.

Consulted only when a name is missing, so the error can say which package to install
(`pip install cellgrad-ops-nn`). A package that is installed exports its names through its
entry point like any plugin; this table never makes a name available.
"""

OPS_NN = "cellgrad-ops-nn"
HOOKS = "cellgrad-hooks"
CHECKPOINT = "cellgrad-checkpoint"
DISTRIBUTED = "cellgrad-distributed"
DATASET = "cellgrad-dataset"
JIT = "cellgrad-jit"
CELL_HOOK_RUNNER = HOOKS

_NN_LAYERS = """
    Dense Conv1d Conv2d Conv3d Conv1dTranspose Conv2dTranspose Conv3dTranspose
    MaxPool1d MaxPool2d MaxPool3d AvgPool1d AvgPool2d AvgPool3d
    AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveMaxPool1d AdaptiveMaxPool2d
    BatchNorm1d BatchNorm2d BatchNorm3d LayerNorm GroupNorm InstanceNorm1d InstanceNorm2d
    InstanceNorm3d AdaptiveAvgPool3d AdaptiveMaxPool3d
    Dropout Dropout1d Dropout2d Dropout3d Flatten Identity Embedding
    RNN LSTM GRU RNNCell LSTMCell GRUCell Pad ZeroPad2d Upsample PixelShuffle
    MultiheadAttention TransformerEncoderLayer TransformerDecoderLayer TransformerEncoder
    TransformerDecoder Transformer
"""
_NN_ACTIVATIONS = """
    ReLU ReLU6 LeakyReLU PReLU RReLU ELU SeLU CELU GELU FastGelu SiLU Mish GLU
    Sigmoid Tanh Softmax LogSoftmax Softmin Softsign HSwish HSigmoid Hardtanh LogSigmoid
    HShrink SoftShrink Tanhshrink Threshold get_activation
"""
_NN_LOSSES = """
    LossBase L1Loss MSELoss RMSELoss MAELoss SmoothL1Loss HuberLoss SoftMarginLoss
    SoftmaxCrossEntropyWithLogits CrossEntropyLoss NLLLoss BCELoss BCEWithLogitsLoss
    KLDivLoss CosineEmbeddingLoss MarginRankingLoss MultiMarginLoss MultiLabelSoftMarginLoss
    TripletMarginLoss PoissonNLLLoss GaussianNLLLoss FocalLoss DiceLoss
"""
_NN_OPTIMIZERS = """
    Optimizer SGD Momentum Adam AdamWeightDecay AdaMax Adagrad Adadelta RMSProp Lamb LARS
    LazyAdam
    LearningRateSchedule ExponentialDecayLR NaturalExpDecayLR InverseDecayLR CosineDecayLR
    PolynomialDecayLR WarmUpLR exponential_decay_lr natural_exp_decay_lr inverse_decay_lr
    cosine_decay_lr polynomial_decay_lr warmup_lr piecewise_constant_lr
"""
_NN_TRAINING = """
    WithLossCell WithEvalCell WithGradCell TrainOneStepCell TrainOneStepWithLossScaleCell
    ForwardValueAndGrad DynamicLossScaleUpdateCell FixedLossScaleUpdateCell ClipByNorm
"""
_OPS_NN_FUNCTIONAL = """
    relu relu6 leaky_relu prelu rrelu elu selu celu gelu fast_gelu silu mish glu softmax
    log_softmax softmin softsign softplus hardswish hardsigmoid hardtanh logsigmoid
    hardshrink softshrink tanhshrink threshold
    dropout dropout1d dropout2d dropout3d dense bias_add
    conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d
    max_pool1d max_pool2d max_pool3d avg_pool1d avg_pool2d avg_pool3d
    adaptive_avg_pool1d adaptive_avg_pool2d adaptive_max_pool1d adaptive_max_pool2d
    adaptive_avg_pool3d adaptive_max_pool3d conv3d_transpose
    batch_norm layer_norm group_norm instance_norm pad one_hot embedding interpolate
    unfold fold pixel_shuffle cosine_similarity clip_by_norm clip_by_global_norm
    cross_entropy nll_loss binary_cross_entropy binary_cross_entropy_with_logits mse_loss
    l1_loss smooth_l1_loss huber_loss kl_div margin_ranking_loss cosine_embedding_loss
    segment_sum
"""
_OPS_NN_PRIMITIVES = """
    ReLU ReLU6 Elu GeLU FastGeLU HSwish HSigmoid Softmax LogSoftmax Softplus Softsign Mish
    Conv2D Conv3D Conv2DTranspose Conv3DTranspose MaxPool MaxPool3D AvgPool AvgPool3D
    Conv2DBackpropInput MaxPool3DWithArgmax AdaptiveAvgPool3D AdaptiveMaxPool3D
    AdaptiveAvgPool2D AdaptiveMaxPool2D BiasAdd BatchNorm LayerNorm Dropout Dropout2D Dropout3D
    OneHot Pad SoftmaxCrossEntropyWithLogits SparseSoftmaxCrossEntropyWithLogits
    BinaryCrossEntropy BCEWithLogitsLoss NLLLoss SmoothL1Loss KLDivLoss
"""
_OPS_NN_IMAGE_DETECTION = """
    ResizeBilinearV2 ResizeBilinear ResizeNearestNeighbor DepthToSpace
    SigmoidCrossEntropyWithLogits L2Normalize L2Loss LpNorm IOU iou BoundingBoxEncode
    BoundingBoxDecode bounding_box_encode bounding_box_decode CheckValid check_valid NMSWithMask
    ROIAlign CropAndResize crop_and_resize CTCLoss ctc_loss FloatStatus NPUAllocFloatStatus
    NPUGetFloatStatus NPUClearFloatStatus DropoutGenMask DropoutDoMask AdamWeightDecay
    grid_sample GridSampler2D GridSampler3D DepthwiseConv2dNative DeformableOffsets
    deformable_conv2d
    rotary_position_embedding ApplyRotaryPosEmb prompt_flash_attention incre_flash_attention
    fused_infer_attention_score ReshapeAndCache PagedAttention PagedAttentionMask
    speed_fusion_attention ring_attention_update
"""
_METRICS = """
    Metric Accuracy Loss Precision Recall F1 Fbeta TopKCategoricalAccuracy
    Top1CategoricalAccuracy Top5CategoricalAccuracy ConfusionMatrix get_metric_fn names
"""
_TRAIN = """
    Model Callback RunContext LossMonitor TimeMonitor History LambdaCallback ModelCheckpoint
    CheckpointConfig EarlyStopping ReduceLROnPlateau SummaryRecord SummaryCollector
    DatasetHelper connect_network_with_dataset OnRequestExit BackupAndRestore
    FlopsUtilizationCollector
""" + _METRICS
_COMMUNICATION = """
    init release get_rank get_group_size get_local_rank get_local_rank_size
    get_world_rank_from_group_rank get_group_rank_from_world_rank create_group destroy_group
    get_comm_name get_process_group_ranks GlobalComm HCCL_WORLD_COMM_GROUP
    NCCL_WORLD_COMM_GROUP MCCL_WORLD_COMM_GROUP
"""
_COMM_FUNC = "all_reduce all_gather_into_tensor reduce_scatter_tensor broadcast barrier CommHandle"
# (get_rank, get_world_size, get_backend, is_available and is_initialized answer a process
# alone without the package: cellgrad/mint/distributed.py)
_MINT_DISTRIBUTED = """
    P2POp TCPStore all_gather all_gather_into_tensor all_gather_into_tensor_uneven
    all_gather_object all_reduce all_to_all all_to_all_single barrier batch_isend_irecv broadcast
    broadcast_object_list destroy_process_group gather gather_object get_global_rank
    get_group_rank get_process_group_ranks init_process_group irecv isend new_group recv
    recv_object_list reduce reduce_scatter reduce_scatter_tensor reduce_scatter_tensor_uneven
    scatter scatter_object_list send send_object_list
"""
# mint.distributed's functions that ops also has, and ops' own
_OPS_COMM = """
    P2POp TCPStore all_gather all_gather_into_tensor all_gather_into_tensor_uneven
    all_gather_object all_reduce all_to_all all_to_all_single barrier batch_isend_irecv broadcast
    broadcast_object_list destroy_process_group gather_object get_backend get_global_rank
    get_group_rank get_process_group_ranks get_rank get_world_size init_process_group irecv
    is_available is_initialized isend new_group recv recv_object_list reduce reduce_scatter
    reduce_scatter_tensor reduce_scatter_tensor_uneven scatter_object_list send send_object_list
    gather_into_tensor scatter_tensor all_to_all_v_c set_comm_ops_inplace
    AlltoAll Barrier CollectiveGather CollectiveScatter Receive Reduce Send AllGatherV AlltoAllV
    AlltoAllVC ReduceScatterV BatchISendIRecv NeighborExchange NeighborExchangeV2 all_gather_matmul
    matmul_reduce_scatter
"""
_CHECKPOINT = """
    save_checkpoint load_checkpoint load_param_into_net ckpt_to_safetensors safetensors_to_ckpt
    CheckpointError load_checkpoint_async
"""

_MINT_NN = """
    AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d AdaptiveMaxPool2d
    AvgPool1d AvgPool2d AvgPool3d BCELoss BCEWithLogitsLoss BatchNorm1d BatchNorm2d BatchNorm3d
    ConstantPad1d ConstantPad2d ConstantPad3d Conv1d Conv2d Conv3d ConvTranspose2d
    CosineEmbeddingLoss ELU Flatten Fold GELU GroupNorm Hardshrink Hardsigmoid Hardswish
    Hardtanh Identity KLDivLoss L1Loss Linear LogSigmoid LogSoftmax MSELoss MaxUnpool2d Mish
    PReLU PixelShuffle ReLU ReLU6 ReflectionPad1d ReflectionPad2d ReflectionPad3d
    ReplicationPad1d ReplicationPad2d ReplicationPad3d SELU SiLU Sigmoid SmoothL1Loss
    SoftMarginLoss Softmax Tanh Threshold Unfold Upsample UpsamplingBilinear2d
    UpsamplingNearest2d ZeroPad1d ZeroPad2d ZeroPad3d
"""
_MINT_FUNCTIONAL = """
    adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d
    adaptive_max_pool2d avg_pool1d avg_pool2d avg_pool3d batch_norm binary_cross_entropy
    binary_cross_entropy_with_logits conv1d conv2d conv3d conv_transpose2d cosine_embedding_loss
    cross_entropy dropout dropout2d elu elu_ embedding flatten fold gelu glu grid_sample
    group_norm hardtanh hardtanh_ interpolate kl_div layer_norm leaky_relu linear log_softmax
    logsigmoid max_pool2d max_unpool2d mse_loss nll_loss normalize one_hot pad pixel_shuffle
    prelu relu relu6 relu_ sigmoid sigmoid_ silu soft_margin_loss softmax tanh threshold
    threshold_ unfold upsample
"""

# distribution -> namespace ("" is the top level) -> names
PROVIDES = {
    OPS_NN: {
        "nn": (_NN_LAYERS + _NN_ACTIVATIONS + _NN_LOSSES + _NN_OPTIMIZERS + _NN_TRAINING
               + _METRICS).split(),
        "train": (_TRAIN + "ProgressBar build_train_network").split(),
        "amp": ("auto_mixed_precision custom_mixed_precision build_train_network get_white_list "
                "get_black_list LossScaler StaticLossScaler DynamicLossScaler all_finite "
                "LossScaleManager FixedLossScaleManager DynamicLossScaleManager").split(),
        "nn.optim.optimizer": ["opt_init_args_register"],
        "": (_TRAIN + "build_train_network").split(),
        "ops": (_OPS_NN_FUNCTIONAL + _OPS_NN_PRIMITIVES + _OPS_NN_IMAGE_DETECTION).split()
        + ["ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary"],
        "mint": ["conv2d", "conv_tbc", "erf", "erfc", "erfinv"],
        "mint.nn": _MINT_NN.split(),
        "mint.nn.functional": _MINT_FUNCTIONAL.split(),
        "mint.special": ["erfc", "log_softmax"],
        "nn.probability.distribution": (
            "Distribution Normal Uniform Exponential Gamma Beta Cauchy Logistic Bernoulli "
            "Geometric Poisson Categorical TransformedDistribution LogNormal Gumbel HalfNormal "
            "Laplace StudentT").split(),
        "nn.probability.bijector": (
            "Bijector Exp PowerTransform ScalarAffine Softplus GumbelCDF Invert").split(),
    },
    HOOKS: {"ops": ["HookBackward", "InsertGradientOf"]},
    DATASET: {},  # whole sub-packages: MODULES below
    JIT: {"": ["export", "load", "save_mindir", "load_mindir"], "train": ["export", "load"],
          "train.serialization": ["export", "load"], "nn": ["GraphCell"]},
    CHECKPOINT: {"": _CHECKPOINT.split(), "train": _CHECKPOINT.split()},
    DISTRIBUTED: {
        "communication": _COMMUNICATION.split(),
        "communication.comm_func": _COMM_FUNC.split(),
        "nn": ["DistributedGradReducer", "SyncBatchNorm"],
        "mint.nn": ["SyncBatchNorm"],
        "mint.distributed": _MINT_DISTRIBUTED.split(),
        "ops": ["AllReduce", "AllGather", "ReduceScatter", "Broadcast"] + _OPS_COMM.split(),
    },
}

# sub-package -> the distribution that provides it whole (`cellgrad._plugin_modules`)
MODULES = {"dataset": DATASET, "mindrecord": DATASET}

_by_qualname = None


def provider(qualname):
    """The first-party distribution that provides `qualname` ("nn.Dense"), or None; at an
    alias path ("nn.optim.momentum.Momentum", see `cellgrad._paths`), the name it stands for."""
    global _by_qualname
    if _by_qualname is None:
        _by_qualname = {
            f"{ns}.{name}" if ns else name: dist
            for dist, namespaces in PROVIDES.items()
            for ns, names in namespaces.items()
            for name in names
        }
    found = _by_qualname.get(qualname)
    if found is None:
        from cellgrad._namespace import source_of

        source = source_of(qualname)
        found = None if source is None else _by_qualname.get(source)
    return found
