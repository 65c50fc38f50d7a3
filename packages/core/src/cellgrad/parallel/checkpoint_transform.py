"""`mindspore.parallel`'s checkpoint helpers that mean something on one device.

`merge_sliced_parameter` joins a Parameter's slices along axis 0 (the layout MindSpore's data
and pipeline parallel runs save without a strategy); `load_segmented_checkpoints` loads every
`.ckpt` file of a directory into one dict. The strategy-file transforms
(`transform_checkpoints`, `build_searched_strategy`, ...) read the protobuf layouts MindSpore's
auto-parallel compiler writes for model-parallel runs, which cellgrad never produces; they say
so (`cellgrad._not_provided`).
"""

import glob
import os

import numpy as np


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """Mirrors `mindspore.parallel.merge_sliced_parameter`: the slices (in rank order)
    concatenated along axis 0 into one Parameter with the first slice's name, requires_grad
    and layerwise_parallel. A model-parallel `strategy` is not supported (see the module)."""
    from cellgrad.common.tensor import Tensor
    from cellgrad.parameter import Parameter

    name = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For '{name}', the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"For '{name}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For '{name}', the argument 'strategy' should be dict, but got "
                        f"{type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError(f"For '{name}', the element in 'sliced_parameters' should be "
                        f"'Parameter', but got {type(first)} at index 0.")
    shape = tuple(first.shape)
    for index, param in enumerate(sliced_parameters):
        if not isinstance(param, Parameter):
            raise TypeError(f"For '{name}', the element in 'sliced_parameters' should be "
                            f"'Parameter', but got {type(param)} at index {index}.")
        pshape = tuple(param.shape)
        if param.name != first.name or len(pshape) != len(shape) or pshape[1:] != shape[1:]:
            raise ValueError(
                f"For '{name}', please make sure that the elements in 'slice_parameters' have the "
                f"same name, dimension length and shape except 0 axis. The name, dimension "
                f"length, shape except 0 axis should be {first.name}, {len(shape)}, {shape[1:]}, "
                f"but got name: {param.name}, dimension length: {len(pshape)}, shape except 0 "
                f"axis: {pshape[1:]} at index {index}.")
    if strategy:
        if first.name not in strategy:
            raise KeyError(f"For '{name}', the parameter name {first.name} should be a key in the "
                           "'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        raise ValueError(f"For '{name}', a 'strategy' describes a model-parallel layout from "
                         "MindSpore's auto-parallel compiler, which cellgrad does not have: merge "
                         "the slices without it (concatenated along axis 0)")
    data = np.concatenate([p.asnumpy() for p in sliced_parameters])
    return Parameter(Tensor(data, dtype=first.dtype), first.name, first.requires_grad,
                     first.layerwise_parallel)


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None,
                               dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                               choice_func=None):
    """Mirrors `mindspore.load_segmented_checkpoints`: `load_checkpoint` of every `*.ckpt` file
    in `ckpt_file_dir` (in name order), their dicts merged (loaded into `net` when given)."""
    from cellgrad import load_checkpoint

    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a "
                         f"directory")
    parameter_dict = {}
    for checkpoint_file in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        parameter_dict.update(load_checkpoint(checkpoint_file, net, strict_load, filter_prefix,
                                              dec_key, dec_mode, specify_prefix, choice_func))
    return parameter_dict
