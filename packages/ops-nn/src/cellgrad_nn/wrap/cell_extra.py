"""The other wrappers of `mindspore.nn.wrap.cell_wrapper`: `ForwardValueAndGrad`,
`WithGradCell`, `ParameterUpdate`, the micro-batch cells (`GradAccumulationCell`,
`PipelineCell`, `MicroBatchInterleaved`) as they run with one stage and one device,
`VirtualDatasetCellTriple`, `GetNextSingleOp` and `nn.TimeDistributed`."""

from types import FunctionType, MethodType

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.parameter import Parameter, ParameterTuple
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_nn.wrap import loss_scale_funcs as _scale


class ForwardValueAndGrad(Cell):
    """Mirrors `mindspore.nn.ForwardValueAndGrad`: (network(*inputs), gradients) with
    `GradOperation(get_all, get_by_list, sens_param)`."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError("For 'ForwardValueAndGrad', the argument 'network' must be cell, "
                            f"function type or method type, but got '{type(network)}'")
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', the type of '{name}' must be bool, "
                                f"but got '{type(value)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError("For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the "
                            "argument 'weights' must be Parameters array, but got "
                            f"'{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = ops.GradOperation(get_all=get_all, get_by_list=get_by_list,
                                      sens_param=sens_param)

    def construct(self, *inputs):
        grad_inputs = inputs
        if self.sens_param:
            inputs = inputs[:-1]
        loss = self.network(*inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*grad_inputs)
        else:
            grads = self.grad(self.network)(*grad_inputs)
        return loss, grads


class WithGradCell(Cell):
    """Mirrors `mindspore.nn.WithGradCell`: the gradients of (network + loss_fn) with respect
    to the network's trainable parameters, `sens` as the output's sensitivity if given."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        from cellgrad_nn.wrap.cells import WithLossCell

        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ParameterUpdate(Cell):
    """Mirrors `mindspore.nn.ParameterUpdate`: assigns its input to the parameter."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got "
                            f"{type(param)}.")
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x


def _micro_batches(cls_name, count, inputs):
    """The inputs cut into `count` equal slices along axis 0 (MindSpore's `_MicroBatch`)."""
    for each in inputs:
        if each.shape[0] % count:
            raise ValueError(f"For '{cls_name}', the first dimension of every input must be "
                             f"divisible by {count}, but got shape {each.shape}.")
    for i in range(count):
        yield tuple(each[(each.shape[0] // count) * i:(each.shape[0] // count) * (i + 1)]
                    for each in inputs)


def _check_count(cls_name, arg, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the argument '{arg}' must be integer, but got the "
                        f"type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', the argument '{arg}' must be large than 0, but got "
                         f"{value}.")


class _MicroBatchSum(Cell):
    """network's outputs summed over `micro_size` slices of the batch: what gradient
    accumulation and a pipeline of one stage compute on one device."""

    _arg = "micro_size"

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        if not isinstance(network, Cell):
            raise TypeError(f"For '{name}', the argument 'network' must cell type, but got the "
                            f"type : {type(network)}.")
        _check_count(name, self._arg, micro_size)
        self.network = network
        self.micro_size = micro_size

    def construct(self, *inputs):
        ret = None
        for micro in _micro_batches(type(self).__name__, self.micro_size, inputs):
            output = self.network(*micro)
            ret = output if ret is None else ret + output
        return ret


class GradAccumulationCell(_MicroBatchSum):
    """Mirrors `mindspore.nn.GradAccumulationCell`: the loss summed over `micro_size` slices of
    the batch, so one backward accumulates their gradients."""


class PipelineCell(_MicroBatchSum):
    """Mirrors `mindspore.nn.PipelineCell`: with one pipeline stage (a single process), the
    network's outputs summed over `micro_size` micro-batches; `stage_config` and
    `segment_config` set `pipeline_stage` / `pipeline_segment` of the named sub-cells."""

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(network, micro_size)
        for config, attr in ((stage_config, "pipeline_stage"),
                             (segment_config, "pipeline_segment")):
            if config is None:
                continue
            left = dict(config)
            for cell_name, cell in network.cells_and_names():
                if cell_name and cell_name in left:
                    setattr(cell, attr, left.pop(cell_name))
            if str(network) in left:
                setattr(network, attr, left.pop(str(network)))
            if left:
                arg = "stage_config" if attr == "pipeline_stage" else "segment_config"
                raise KeyError(f"For 'PipelineCell', the argument '{arg}' : {left} is not found "
                               f"in 'network' : {network}")

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend",
              level=0):
        raise ValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")


class MicroBatchInterleaved(_MicroBatchSum):
    """Mirrors `mindspore.nn.MicroBatchInterleaved`: the network run on `interleave_num` slices
    of the batch and the outputs added (the interleaving only overlaps communication, which one
    process has none of)."""

    _arg = "interleave_num"

    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num


class VirtualDatasetCellTriple(Cell):
    """Mirrors `mindspore.nn.VirtualDatasetCellTriple` (deprecated): backbone(a, b, c); the
    dataset split it marks is the identity with data-parallel degree 1."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class GetNextSingleOp(Cell):
    """Mirrors `mindspore.nn.GetNextSingleOp`: reads a device data queue, which only a graph
    sunk to Ascend/GPU has; here calling it says to iterate the dataset instead."""

    def __init__(self, dataset_types, dataset_shapes, queue_name):
        super().__init__()
        if len(dataset_types) != len(dataset_shapes):
            raise ValueError("For 'GetNextSingleOp', 'dataset_types' and 'dataset_shapes' must "
                             f"have the same length, but got {len(dataset_types)} and "
                             f"{len(dataset_shapes)}.")
        self.dataset_types, self.dataset_shapes = list(dataset_types), list(dataset_shapes)
        self.queue_name = queue_name

    def construct(self):
        raise RuntimeError(f"For 'GetNextSingleOp', the device queue '{self.queue_name}' exists "
                           "only for a dataset sunk to an Ascend/GPU device; cellgrad runs on "
                           "the CPU: iterate the dataset (dataset.create_tuple_iterator()) and "
                           "pass its columns to the network instead.")


class TimeDistributed(Cell):
    """Mirrors `mindspore.nn.TimeDistributed`: `layer` applied to every time step of the
    `time_axis`, as one call on the time steps folded into the batch (`reshape_with_axis`) or
    a stack of per-step calls."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, (Cell, ops.Primitive)):
            raise TypeError("For 'TimeDistributed', the 'layer' must be Cell or Primitive "
                            f"instance, but got type: {type(layer).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor):
            raise TypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")
        ndim = inputs.ndim
        if ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the inputs shape must be at least 3D, but "
                             f"got {ndim}.")
        time_axis = self.time_axis % ndim
        if self.reshape_with_axis is None:
            steps = [self._step(step, time_axis) for step in ops.unstack(inputs, time_axis)]
            return ops.stack(steps, time_axis)
        axis = self.reshape_with_axis % ndim
        new_time = ndim - 2 if axis == ndim - 1 else (axis + 1 if time_axis > axis else axis - 1)
        pos = min(new_time, axis)
        low, high = sorted((new_time, time_axis))
        perm = tuple(range(ndim))
        inputs = ops.transpose(inputs, perm[:low] + (perm[high],) + perm[low:high]
                               + perm[high + 1:])
        shape = inputs.shape
        folded = inputs.reshape(shape[:pos] + (-1,) + shape[pos + 2:])
        outputs = self.layer(folded)
        if not isinstance(outputs, Tensor):
            raise TypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")
        if pos >= outputs.ndim or folded.shape[pos] != outputs.shape[pos]:
            raise ValueError("For 'TimeDistributed', the 'reshape_with_axis' is invalid in the "
                             f"input and output: 'reshape_pos': {pos}, 'inputs_shape': "
                             f"{folded.shape}, 'outputs_shape': {outputs.shape}. You may try pass "
                             "parameters without 'reshape_with_axis'.")
        new_shape = outputs.shape[:pos] + shape[pos:pos + 2] + outputs.shape[pos + 1:]
        return outputs.reshape((-1,) + new_shape[1:])

    def _step(self, step, time_axis):
        out = self.layer(step)
        if not isinstance(out, Tensor):
            raise TypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")
        if time_axis > out.ndim:
            raise ValueError(f"For 'TimeDistributed', the value of 'time_axis' must be in range "
                             f"of [{-out.ndim - 1}, {out.ndim}], but got {time_axis}.")
        return out


class PipelineGradReducer(Cell):
    """Mirrors `mindspore.nn.PipelineGradReducer`: with one pipeline stage the micro-batch
    gradients are already summed (by `PipelineCell`'s sum of losses), so each gradient is
    divided by `scale_sense` (times the degree, 1) and the `accu_grads.<param>` buffers are
    cleared, as MindSpore's sharded path does."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.accu_grads = parameters.clone(prefix="accu_grads", init="zeros")
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(Tensor(scale_sense, mstype.float32)
                                     if not isinstance(scale_sense, Tensor) else scale_sense,
                                     name="scale_sense")
        self.opt_shard = bool(opt_shard)

    def construct(self, grads):
        if len(grads) != len(self.accu_grads):
            raise ValueError(f"For 'PipelineGradReducer', 'grads' must hold one gradient per "
                             f"parameter ({len(self.accu_grads)}), but got {len(grads)}.")
        return tuple(_scale.tensor_shard_grad_scale_pipeline(self.scale_sense * self.degree, g,
                                                              accu)
                     for g, accu in zip(grads, self.accu_grads))


class Vjp(Cell):
    """Mirrors `mindspore.nn.Vjp` (deprecated for `ops.vjp`): (fn(*inputs), the gradients of
    fn's output weighted by the last argument `v` with respect to the inputs)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.grad_single_value = ops.GradOperation(sens_param=True)

    def construct(self, *args):
        front = args[:-1]
        output = self.fn(*front)
        grad = self.grad_single_value if len(front) == 1 else self.grad
        return output, grad(self.fn)(*args)


class Jvp(Cell):
    """Mirrors `mindspore.nn.Jvp` (deprecated for `ops.jvp`): (fn(*inputs), the derivative of
    fn's output along the last argument `v`, one tangent per input)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        import cellgrad

        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return cellgrad.jvp(self.fn, inputs[0], v[0] if isinstance(v, tuple) else v)
        return cellgrad.jvp(self.fn, tuple(inputs), tuple(v))
