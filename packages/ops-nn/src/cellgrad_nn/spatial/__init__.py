"""Spatial nn ops: convolution, pooling, padding, interpolation (`ops.conv2d`, `ops.MaxPool`).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ("conv", "transpose", "pool", "pad", "interpolate", "deformable")

_WHERE = {
    "conv": "conv1d conv2d conv3d Conv2D Conv3D",
    "transpose": "conv_transpose2d conv3d_transpose Conv3DTranspose Conv2DBackpropInput "
                 "Conv2DTranspose",
    "pool": "max_pool2d avg_pool2d adaptive_avg_pool2d adaptive_max_pool2d MaxPool AvgPool "
            "AdaptiveAvgPool2D AdaptiveMaxPool2D",
    "pool_nd": "max_pool3d avg_pool1d avg_pool3d adaptive_avg_pool1d adaptive_max_pool1d "
               "adaptive_avg_pool3d adaptive_max_pool3d MaxPool3D MaxPool3DWithArgmax AvgPool3D "
               "AdaptiveAvgPool3D AdaptiveMaxPool3D",
    "pad": "pad Pad",
    "interpolate": "interpolate upsample",
    "depthwise": "DepthwiseConv2dNative",
    "deformable": "DeformableOffsets deformable_conv2d",
}

EXPORTS: dict = {f"ops.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
EXPORTS["ops.operations._grad_ops.DeformableOffsetsGrad"] = "deformable:DeformableOffsetsGrad"
EXPORTS.update({f"ops.operations._grad_ops.{name}": f"pool_grad_prims:{name}" for name in (
    "MaxPoolGradWithArgmax MaxPoolGradWithArgmaxV2 MaxPoolGradGrad MaxPool3DGradGrad "
    "MaxPoolGradGradWithArgmax LRNGrad PadV3Grad ROIAlignGrad FractionalAvgPoolGrad "
    "FractionalMaxPoolGrad PSROIPoolingGrad").split()})
EXPORTS["ops.operations.nn_ops.PSROIPooling"] = "pool_grad_prims:PSROIPooling"
