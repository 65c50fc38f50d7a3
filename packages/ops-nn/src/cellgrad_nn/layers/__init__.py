"""Layers (`cellgrad.nn.Dense`, `Conv2d`, `BatchNorm2d`, activations, pooling, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_WHERE = {
    "linear": "Dense Linear BiDense Flatten Identity",
    "combined": "Conv2dBnAct DenseBnAct",
    "rearrange": "PixelShuffle PixelUnshuffle ChannelShuffle Unflatten Roll CentralCrop Unfold",
    "math": "MatMul Norm Moments ReduceLogSumExp Tril Triu Range OneHot L1Regularizer",
    "activation": "ReLU ReLU6 LeakyReLU ELU GELU SiLU Sigmoid Tanh Softmax LogSoftmax "
                  "get_activation HSwish HSigmoid Mish Softsign Tanhshrink LogSigmoid SeLU "
                  "FastGelu HShrink SoftShrink Hardtanh Threshold CELU GLU Softmin Softmax2d "
                  "PReLU RReLU",
    "conv": "Conv1d Conv2d Conv3d Conv1dTranspose Conv2dTranspose Conv3dTranspose",
    "norm": "BatchNorm1d BatchNorm2d BatchNorm3d LayerNorm GroupNorm InstanceNorm1d "
            "InstanceNorm2d InstanceNorm3d",
    "pool": "MaxPool1d MaxPool2d MaxPool3d AvgPool1d AvgPool2d AvgPool3d AdaptiveMaxPool1d "
            "AdaptiveMaxPool2d AdaptiveMaxPool3d AdaptiveAvgPool1d AdaptiveAvgPool2d "
            "AdaptiveAvgPool3d",
    "dropout": "Dropout Dropout1d Dropout2d Dropout3d",
    "embedding": "Embedding EmbeddingLookup ClipByNorm",
    "padding": "Pad ConstantPad1d ConstantPad2d ConstantPad3d ZeroPad2d ReflectionPad1d "
               "ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
               "ReplicationPad3d",
    "upsample": "Upsample",
    "image_quality": "SSIM MSSSIM PSNR",
    "pool_extra": "LPPool1d LPPool2d MaxUnpool1d MaxUnpool2d MaxUnpool3d FractionalMaxPool2d "
                  "FractionalMaxPool3d LRN ImageGradients",
    "matrix": "MatDet MatInverse MatrixDiag MatrixDiagPart MatrixSetDiag LGamma DiGamma IGamma "
              "LBeta",
    "ext": "AvgPool1dExt AvgPool2dExt AvgPool3dExt MaxPool2dExt DropoutExt Dropout2dExt "
           "EmbeddingExt LayerNormExt LogSoftmaxExt PReLUExt L1LossExt",
    "embedding_extra": "MultiFieldEmbeddingLookup",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
EXPORTS["nn.layer.CosineSimilarity"] = "embedding_extra:CosineSimilarity"
EXPORTS["nn.layer.math.CosineSimilarity"] = "embedding_extra:CosineSimilarity"
