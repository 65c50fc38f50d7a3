"""nn functional ops and their primitive classes (`cellgrad.ops.relu`, `softmax`, `ops.ReLU`).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ("_math", "activation", "softmax", "linear", "dropout", "norm",
                     "cross_entropy", "losses", "encoding", "norm_prims", "roi", "ctc",
                     "grid_sample")


def _ops(module: str, names: str) -> dict:
    return {f"ops.{n}": f"{module}:{n}" for n in names.split()}


EXPORTS: dict = {
    **_ops("activation", "relu relu6 leaky_relu elu gelu silu softplus hardswish hardsigmoid"),
    **_ops("activation_extra", "selu celu mish softsign hardtanh logsigmoid softmin hardshrink "
                               "softshrink tanhshrink threshold fast_gelu prelu glu rrelu"),
    **_ops("softmax", "softmax log_softmax"),
    **_ops("linear", "dense bias_add"),
    **_ops("dropout", "dropout dropout1d dropout2d dropout3d"),
    **_ops("norm", "batch_norm layer_norm group_norm"),
    **_ops("cross_entropy", "cross_entropy nll_loss"),
    **_ops("losses", "binary_cross_entropy binary_cross_entropy_with_logits mse_loss l1_loss "
                     "smooth_l1_loss kl_div huber_loss cosine_similarity margin_ranking_loss "
                     "cosine_embedding_loss"),
    **_ops("margin_losses", "soft_margin_loss multi_margin_loss multilabel_soft_margin_loss "
                            "multilabel_margin_loss triplet_margin_loss hinge_embedding_loss "
                            "gaussian_nll_loss"),
    **_ops("encoding", "one_hot embedding"),
    **_ops("rearrange", "pixel_shuffle pixel_unshuffle channel_shuffle"),
    **_ops("clip", "clip_by_global_norm clip_by_norm"),
    **_ops("primitives", "ReLU ReLU6 Elu GeLU HSwish HSigmoid Softplus Softmax LogSoftmax "
                         "FastGeLU Mish Softsign BiasAdd BatchNorm LayerNorm OneHot "
                         "SoftmaxCrossEntropyWithLogits "
                         "SparseSoftmaxCrossEntropyWithLogits BinaryCrossEntropy "
                         "BCEWithLogitsLoss NLLLoss SmoothL1Loss KLDivLoss Dropout Dropout2D "
                         "Dropout3D"),
    # issue 29: image, detection, CTC, float-status and optimizer primitives
    **_ops("image_prims", "ResizeBilinearV2 ResizeBilinear ResizeNearestNeighbor DepthToSpace"),
    **_ops("norm_prims", "SigmoidCrossEntropyWithLogits L2Normalize L2Loss LpNorm"),
    **_ops("detection", "IOU iou BoundingBoxEncode BoundingBoxDecode bounding_box_encode "
                        "bounding_box_decode CheckValid check_valid NMSWithMask"),
    **_ops("roi", "ROIAlign CropAndResize crop_and_resize"),
    **_ops("ctc", "CTCLoss ctc_loss"),
    **_ops("device_prims", "FloatStatus NPUAllocFloatStatus NPUGetFloatStatus "
                           "NPUClearFloatStatus DropoutGenMask DropoutDoMask"),
    **_ops("optim_prims", "AdamWeightDecay"),
    **_ops("grid_sample", "grid_sample GridSampler2D GridSampler3D"),
    **_ops("flash_attention", "flash_attention_score"),
    **_ops("attention_kernels", "rotary_position_embedding ApplyRotaryPosEmb "
                                "prompt_flash_attention incre_flash_attention "
                                "fused_infer_attention_score ReshapeAndCache PagedAttention "
                                "PagedAttentionMask speed_fusion_attention "
                                "ring_attention_update"),
    **_ops("ops_ext", "unfold fold adaptive_avg_pool2d_ext bidense LogSoftmaxExt"),
    "ops.operations.nn_ops.FlashAttentionScore": "flash_attention:FlashAttentionScore",
    **_ops("pool_extra", "lp_pool1d lp_pool2d max_unpool1d max_unpool2d max_unpool3d MaxUnpool2D "
                         "MaxUnpool3D fractional_max_pool2d fractional_max_pool3d "
                         "FractionalMaxPoolWithFixedKsize FractionalMaxPool3DWithFixedKsize LRN"),
    **_ops("nn_prims_extra", "CeLU SeLU HShrink SoftShrink GLU PReLU Dense SoftMarginLoss "
                             "MultiMarginLoss TripletMarginLoss CTCLossV2 Gelu FastGelu "
                             "ChannelShuffle MultilabelMarginLoss RmsNorm soft_shrink lrn"),
    **_ops("image_extra", "affine_grid AffineGrid MaxPoolWithArgmax MaxPoolWithArgmaxV2 RGBToHSV "
                          "HSVToRGB swiglu Dilation2D ExtractImagePatches"),
    **_ops("resize_extra", "ResizeNearestNeighborV2 ResizeLinear1D ResizeBicubic "
                           "ResizeArea UpsampleNearest3D UpsampleTrilinear3D Im2Col Col2Im "
                           "col2im CTCGreedyDecoder ctc_greedy_decoder AdjustHue "
                           "AdjustSaturation"),
    **_ops("fractional_pool", "FractionalMaxPool FractionalAvgPool NonMaxSuppressionV3"),
}
