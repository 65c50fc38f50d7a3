"""`mint.nn.functional` names that are an ops-nn function under torch-style argument names:
name -> (`cellgrad.ops` function, mint's parameters, renames; None drops an argument).

`inplace=True` is accepted and the result returned, as `x = F.relu(x, inplace=True)` uses it;
cellgrad never writes into the input.
"""

_DROP = {"inplace": None}

FUNCTIONAL = {
    "adaptive_avg_pool1d": ("adaptive_avg_pool1d", "input, output_size", {}),
    "adaptive_avg_pool2d": ("adaptive_avg_pool2d", "input, output_size", {}),
    "adaptive_avg_pool3d": ("adaptive_avg_pool3d", "input, output_size", {}),
    "adaptive_max_pool2d": ("adaptive_max_pool2d", "input, output_size, return_indices=False", {}),
    "binary_cross_entropy": ("binary_cross_entropy", "input, target, weight=None, "
                             "reduction='mean'", {"input": "logits", "target": "labels"}),
    "binary_cross_entropy_with_logits": (
        "binary_cross_entropy_with_logits",
        "input, target, weight=None, reduction='mean', pos_weight=None", {}),
    "conv_transpose2d": ("conv_transpose2d", "input, weight, bias=None, stride=1, padding=0, "
                         "output_padding=0, groups=1, dilation=1", {}),
    "cosine_embedding_loss": ("cosine_embedding_loss", "input1, input2, target, margin=0.0, "
                              "reduction='mean'", {}),
    "cross_entropy": ("cross_entropy", "input, target, weight=None, ignore_index=-100, "
                      "reduction='mean', label_smoothing=0.0", {}),
    "dropout": ("dropout", "input, p=0.5, training=True, inplace=False", _DROP),
    "dropout2d": ("dropout2d", "input, p=0.5, training=True, inplace=False", _DROP),
    "elu": ("elu", "input, alpha=1.0, inplace=False", {"input": "input_x", **_DROP}),
    "elu_": ("elu", "input, alpha=1.0", {"input": "input_x"}),
    "embedding": ("embedding", "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
                  "scale_grad_by_freq=False", {}),
    "gelu": ("gelu", "input, approximate='none'", {}),
    "glu": ("glu", "input, dim=-1", {"input": "x", "dim": "axis"}),
    "grid_sample": ("grid_sample", "input, grid, mode='bilinear', padding_mode='zeros', "
                    "align_corners=None", {}),
    "hardshrink": ("hardshrink", "input, lambd=0.5", {}),
    "hardsigmoid": ("hardsigmoid", "input", {}),
    "hardswish": ("hardswish", "input", {}),
    "group_norm": ("group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05", {}),
    "hardtanh": ("hardtanh", "input, min_val=-1.0, max_val=1.0, inplace=False", _DROP),
    "hardtanh_": ("hardtanh", "input, min_val=-1, max_val=1", {}),
    "layer_norm": ("layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05", {}),
    "leaky_relu": ("leaky_relu", "input, negative_slope=0.01", {"negative_slope": "alpha"}),
    "linear": ("dense", "input, weight, bias=None", {}),
    "logsigmoid": ("logsigmoid", "input", {"input": "x"}),
    "max_pool2d": ("max_pool2d", "input, kernel_size, stride=None, padding=0, dilation=1, "
                   "ceil_mode=False, return_indices=False", {"input": "x"}),
    "mse_loss": ("mse_loss", "input, target, reduction='mean'", {}),
    "nll_loss": ("nll_loss", "input, target, weight=None, ignore_index=-100, reduction='mean'",
                 {"input": "inputs"}),
    "pad": ("pad", "input, pad, mode='constant', value=None",
            {"input": "input_x", "pad": "padding"}),
    "pixel_shuffle": ("pixel_shuffle", "input, upscale_factor", {}),
    "prelu": ("prelu", "input, weight", {}),
    "relu": ("relu", "input, inplace=False", _DROP),
    "relu_": ("relu", "input", {}),
    "relu6": ("relu6", "input, inplace=False", {"input": "x", **_DROP}),
    "sigmoid": ("sigmoid", "input", {}),
    "sigmoid_": ("sigmoid", "input", {}),
    "silu": ("silu", "input, inplace=False", _DROP),
    "smooth_l1_loss": ("smooth_l1_loss", "input, target, reduction='mean', beta=1.0", {}),
    "soft_margin_loss": ("soft_margin_loss", "input, target, reduction='mean'", {}),
    "softshrink": ("softshrink", "input, lambd=0.5", {}),
    "tanh": ("tanh", "input", {}),
    "threshold": ("threshold", "input, threshold, value, inplace=False",
                  {"threshold": "thr", **_DROP}),
    "threshold_": ("threshold", "input, threshold, value", {"threshold": "thr"}),
}

# Written out in `functional.py`: defaults or arguments that need more than a rename.
WRITTEN = ("avg_pool1d avg_pool2d avg_pool3d batch_norm conv1d conv2d conv3d flatten "
           "log_softmax softmax one_hot normalize interpolate upsample kl_div adaptive_max_pool1d "
           "unfold fold conv_tbc max_unpool2d").split()
