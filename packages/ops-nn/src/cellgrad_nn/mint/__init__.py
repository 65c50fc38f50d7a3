"""`mindspore.mint`'s names that need ops-nn: `mint.nn.functional`, the `mint.nn` layers and
`mint.conv2d`/`mint.erf`. Read by `cellgrad_nn.plugin` without importing the modules below."""

from cellgrad_nn.mint._table import FUNCTIONAL, WRITTEN

OP_MODULES = ("special",)

# mint.nn layers whose constructor is nn's own (same parameters as MindSpore 2.10's mint.nn).
_SAME_AS_NN = ("AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool2d BCELoss "
               "ConstantPad1d ConstantPad2d ConstantPad3d CosineEmbeddingLoss Flatten Identity "
               "L1Loss Linear LogSigmoid MSELoss PixelShuffle ReLU ReflectionPad1d "
               "ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
               "ReplicationPad3d Sigmoid SoftMarginLoss Tanh Upsample ZeroPad2d").split()

# mint.nn cells with torch-style constructors (`cells.py`).
_CELLS = ("GELU Softmax LogSoftmax SiLU ReLU6 ELU Hardtanh Threshold Hardshrink Hardsigmoid "
          "Hardswish Mish SELU ZeroPad1d ZeroPad3d SmoothL1Loss BCEWithLogitsLoss Conv1d Conv2d "
          "Conv3d BatchNorm1d BatchNorm2d BatchNorm3d GroupNorm PReLU AvgPool1d AvgPool2d "
          "AvgPool3d UpsamplingNearest2d UpsamplingBilinear2d KLDivLoss AdaptiveMaxPool1d Unfold "
          "Fold ConvTranspose2d MaxUnpool2d").split()

EXPORTS: dict = {
    **{f"mint.nn.functional.{name}": f"functional:{name}" for name in (*FUNCTIONAL, *WRITTEN)},
    **{f"mint.nn.{name}": f"layers:{name}" for name in _SAME_AS_NN},
    **{f"mint.nn.{name}": f"cells:{name}" for name in _CELLS},
    "mint.nn.LayerNorm": "losses:LayerNorm",
    "mint.nn.CrossEntropyLoss": "losses:CrossEntropyLoss",
    "mint.conv2d": "functional:conv2d",
    "mint.conv_tbc": "functional:conv_tbc",
    "mint.erf": "special:erf",
    "mint.erfc": "special:erfc",
    "mint.erfinv": "special:erfinv",
    "mint.special.erfc": "special:erfc",
    "mint.special.log_softmax": "special:log_softmax",
}
