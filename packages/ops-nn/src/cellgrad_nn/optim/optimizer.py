"""`nn.Optimizer`: parameters, groups, learning rates and the step loop shared by every
optimizer. A subclass implements `_update(i, param, grad, lr)` on numpy arrays, in place.

State names follow MindSpore (`global_step`, `learning_rate`, `moments.<param>`, ...), so a
checkpoint of a train network holds the optimizer state under the names MindSpore writes.
"""

import numbers

import numpy as np

from cellgrad import Parameter, ParameterTuple
from cellgrad._errors import ShapeError
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell, CellList
from cellgrad_nn._kernels.update import group_update
from cellgrad_nn.optim.in_backward import InBackward
from cellgrad_nn.optim.lr_schedule import LearningRateSchedule

# The kernel rounds as numpy 2 computes the per-parameter path (NEP 50 scalar promotion); under
# numpy 1.x's value-based casting that path rounds some moments differently (1 ulp), so there
# the per-parameter path runs and the numbers stay what they were.
_NUMPY_1 = int(np.__version__.split(".")[0]) < 2


class _LearningRate:
    """One learning rate: fixed (a Parameter), per step (a Parameter holding a list), or a
    LearningRateSchedule; `value(step)` gives the float for a step."""

    def __init__(self, owner, lr, name):
        if isinstance(lr, LearningRateSchedule):
            self.kind, self.holder = "schedule", lr
            return
        if isinstance(lr, (list, tuple)):
            lr = Tensor(np.asarray(lr, np.float32))
        if isinstance(lr, Tensor) and lr.ndim == 1:
            if lr.shape[0] == 0:
                raise ValueError(f"For '{owner}', the learning_rate list must not be empty.")
            self.kind, self.holder = "list", _LearningRateList(lr, name)
            self.size = lr.shape[0]
            return
        if isinstance(lr, Tensor) and lr.ndim == 0:
            self.kind = "fixed"
        elif isinstance(lr, numbers.Real) and not isinstance(lr, bool):
            if lr < 0:
                raise ValueError(f"For '{owner}', the learning_rate must be >= 0, but got {lr}.")
            lr, self.kind = Tensor(np.float32(lr)), "fixed"
        else:
            raise TypeError(f"For '{owner}', the learning_rate must be a float, a list, a 1-D or "
                            f"0-D Tensor or a LearningRateSchedule, but got "
                            f"{type(lr).__name__}.")
        self.holder = Parameter(lr.astype(np.float32) if lr.dtype != "Float32" else lr,
                                name=name)

    @property
    def dynamic(self):
        return self.kind != "fixed"

    def value(self, step):
        if self.kind == "fixed":
            return float(self.holder.asnumpy())
        if self.kind == "list":
            return self.holder.at(step)
        return float(self.holder(Tensor(np.array([step], np.int32))).asnumpy())

    def tensor(self, step):
        if self.kind == "fixed":
            return self.holder
        return Tensor(np.float32(self.value(step)))


class _ConvertToCell(LearningRateSchedule):
    """A fixed group learning rate among dynamic ones (MindSpore's `_ConvertToCell`)."""

    def __init__(self, learning_rate):
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _LearningRateList(LearningRateSchedule):
    """A learning rate per step: the list is a Parameter of this cell (so, as in MindSpore,
    it is listed after the optimizer's own Parameters); past its end the last value holds."""

    def __init__(self, values, name):
        super().__init__()
        self.learning_rate = Parameter(values.astype(np.float32), name=name)

    def at(self, step):
        values = self.learning_rate.asnumpy()
        return float(values[min(step, len(values) - 1)])

    def construct(self, global_step):
        """The rates at `global_step`, in its shape (a gather, as MindSpore: `[1]` -> `[lr]`)."""
        steps = np.asarray(global_step.asnumpy() if isinstance(global_step, Tensor)
                           else global_step)
        values = self.learning_rate.asnumpy()
        return Tensor(values[np.minimum(steps, len(values) - 1)].astype(np.float32))


def _weight_decay(owner, value):
    # MindSpore's checks: an int or float (bool included) >= 0, or a Cell (a schedule called
    # with the global step each step)
    if isinstance(value, Cell):
        return value
    if not isinstance(value, (int, float)):
        raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or "
                        f"Cell.but got {type(value)}")
    if value < 0:
        raise ValueError(f"For '{owner}', the 'weight_decay' must be float and must >= 0, but "
                         f"got '{value}' with type '{type(value).__name__}'.")
    return float(value)


class _WrappedWeightDecay(Cell):
    """Mirrors MindSpore's `_WrappedWeightDecay`: a weight-decay schedule times loss_scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(np.float32(loss_scale))

    def construct(self, global_step):
        return self.weight_decay(global_step) * self.loss_scale


def _decay_value(owner, value):
    """A schedule's weight decay for this step as a float (it gives a number or a Tensor of one
    element)."""
    arr = np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)
    if arr.size != 1:
        raise ValueError(f"For '{owner}', a dynamic weight_decay must give one value per step, "
                         f"but it gave shape {arr.shape}.")
    return float(arr.reshape(()))


class Optimizer(Cell):
    """Mirrors `mindspore.nn.Optimizer`: `optimizer(gradients)` updates the parameters in
    place, in the order of `optimizer.parameters`, and advances `global_step`."""

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        owner = type(self).__name__
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, numbers.Real) \
                or loss_scale <= 0:
            raise ValueError(f"For '{owner}', the 'loss_scale' must be a positive float, but "
                             f"got {loss_scale!r}.")
        self.loss_scale = float(loss_scale)
        self.global_step = Parameter(Tensor(np.zeros(1, np.int32)), name="global_step")
        self.is_group_params_ordered = isinstance(parameters, (list, tuple)) and any(
            isinstance(g, dict) and "order_params" in g for g in parameters)
        params, group_lr, group_wd = _parse_params(owner, parameters)
        default = _LearningRate(owner, learning_rate, "learning_rate")
        self.dynamic_lr = default.dynamic
        self.is_group = group_lr is not None
        self.is_group_lr = self.is_group and any(lr is not None for lr in group_lr)
        if not self.is_group_lr:
            self.learning_rate = default.holder
        wd = _weight_decay(owner, weight_decay)
        self._lrs = [default] * len(params)
        # As MindSpore: a single weight decay skips parameters named like normalization
        # shifts and scales ('beta', 'gamma'); a group's weight decay applies to all its own.
        self._wds = [wd if self.is_group or ("beta" not in p.name and "gamma" not in p.name)
                     else 0.0 for p in params]
        # per parameter: a float, or the Cell whose value `_wds` takes at each step
        if self.is_group:
            made = {}
            for i, (glr, gwd) in enumerate(zip(group_lr, group_wd)):
                if glr is not None:  # (group index, lr): named by the group, as MindSpore
                    gi, lr = glr
                    # one schedule Cell shared by groups stays one (it runs once per step)
                    key = id(lr) if isinstance(lr, LearningRateSchedule) else gi
                    if key not in made:
                        made[key] = _LearningRate(owner, lr, f"learning_rate_group_{gi}")
                    self._lrs[i] = made[key]
                    self.dynamic_lr = self.dynamic_lr or made[key].dynamic
                if gwd is not None:
                    self._wds[i] = _weight_decay(owner, gwd)
            if made:
                self.group_lr = [lr.holder for lr in made.values()]
            sizes = {lr.size for lr in [default, *made.values()] if lr.kind == "list"}
            if len(sizes) > 1:
                raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group "
                                 "must be the same size as the argument 'learning_rate'.")
        if self.is_group_lr:  # as MindSpore: one entry per parameter, in its order
            holders = [lr.holder for lr in self._lrs]
            self.learning_rate = CellList(
                [h if isinstance(h, Cell) else _ConvertToCell(h) for h in holders],
                auto_prefix=False) if self.dynamic_lr else ParameterTuple(holders)
        self._wd_sources = list(self._wds)
        self._wd_cells = list({id(w): w for w in self._wds if isinstance(w, Cell)}.values())
        if self._wd_cells:
            self._wds = [0.0 if isinstance(w, Cell) else w for w in self._wds]
        self.parameters = ParameterTuple(params)
        self._decay_buffers = [None] * len(params)
        # each distinct learning rate once, evaluated once per step (a schedule is a Cell call)
        self._lr_kinds = list({id(lr): lr for lr in self._lrs}.values())
        self._lr_slots = [self._lr_kinds.index(lr) for lr in self._lrs]
        self._mindspore_internals(wd)

    # ---- MindSpore's API ----

    def get_lr(self):
        """The learning rate of the current step (a tuple per parameter with group lrs)."""
        step = int(self.global_step.asnumpy()[0])
        if self.is_group_lr:
            return tuple(lr.tensor(step) for lr in self._lrs)
        return self._lrs[0].tensor(step) if self._lrs else self.learning_rate

    def get_lr_parameter(self, param):
        """The learning-rate Parameter (or schedule) of `param`, or a list for a list."""
        index = {id(p): i for i, p in enumerate(self.parameters)}
        many = isinstance(param, list)
        if not many and not isinstance(param, Parameter):
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' "
                            f"type, but got {type(param)}.")
        found = []
        for p in (param if many else [param]):
            if not isinstance(p, Parameter):
                raise TypeError(f"For '{type(self).__name__}', the type of 'parameter' should be "
                                f"'Parameter', but got type '{type(p).__name__}'.")
            if id(p) not in index:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in "
                                 f"optimizer, please check whether the argument 'param' is "
                                 f"correct.")
            holder = self._lrs[index[id(p)]].holder
            # MindSpore gives the Parameter inside its fixed/list wrappers, a schedule as is
            found.append(holder.learning_rate if isinstance(holder, _LearningRateList)
                         else holder)
        return found if many else found[0]

    def construct(self, gradients):
        params = self.parameters
        if not isinstance(gradients, (tuple, list)) or len(gradients) != len(params):
            got = len(gradients) if isinstance(gradients, (tuple, list)) else \
                type(gradients).__name__
            raise ShapeError(f"For '{type(self).__name__}', the gradients must be a tuple of "
                             f"{len(params)} Tensors (one per parameter), but got {got}.")
        step_array = self.global_step.asnumpy()
        early = self.__dict__.get("_in_backward")
        if early is not None and early.pending:  # part of this step ran in the backward
            early.finish(gradients)
            step_array += 1
            return True
        step = int(step_array[0])
        if self._wd_cells:
            self._step_weight_decay()
        lrs = [lr.value(step) for lr in self._lr_kinds]
        done = self._update_group(params, gradients, lrs)
        slots = self._lr_slots
        for i in range(done, len(params)):
            data = params[i].asnumpy()
            grad = self._gradient(i, data, gradients[i])
            self._update(i, data, grad, lrs[slots[i]])
        step_array += 1
        return True

    def _step_weight_decay(self):
        """`_wds` for this step: each weight-decay schedule called once with global_step."""
        owner = type(self).__name__
        values = {id(c): _decay_value(owner, c(self.global_step)) for c in self._wd_cells}
        self._wds = [values[id(w)] if isinstance(w, Cell) else w for w in self._wd_sources]

    def _updates_in_backward(self, network, keep_grads=True):
        """A context manager under which the next backward of `network` also updates each
        parameter once its gradient is complete (`optim.in_backward`); the next call of this
        optimizer then completes the step. Unless `keep_grads`, the gradients of parameters
        updated early are not kept (the caller reads none of them). None when this optimizer
        or step cannot."""
        cls = type(self)
        # (a hook on this optimizer's own call could change the gradients it is given)
        if not self.__dict__.get("_fast", False) or cls.construct is not Optimizer.construct \
                or self._wd_cells \
                or self._group is None or \
                cls._update is not cls._group_owner or \
                cls._gradient is not Optimizer._gradient or _NUMPY_1:
            return None
        early = self.__dict__.get("_in_backward")
        if early is None:
            early = self.__dict__["_in_backward"] = InBackward(self)
        return early.scope(network, keep_grads)

    # ---- MindSpore's optimizer internals, which optimizers written for MindSpore use ----

    def _mindspore_internals(self, weight_decay):
        from cellgrad.ops import AssignAdd
        from cellgrad.ops.composite import HyperMap, Map

        self._parameters = self.parameters
        sources = self._wd_sources
        dynamic = [isinstance(w, Cell) for w in sources]
        self.decay_flags = tuple(d or w > 0 for d, w in zip(dynamic, sources))
        self.exec_weight_decay = any(self.decay_flags)
        self.dynamic_weight_decay = any(dynamic) or isinstance(weight_decay, Cell)
        self.dynamic_decay_flags = tuple(dynamic) if self.is_group else \
            isinstance(weight_decay, Cell)
        # MindSpore keeps the decay multiplied by loss_scale: it is added to scaled gradients.
        scale = self.loss_scale
        wrapped = {}

        def held(w):
            if not isinstance(w, Cell):
                return Tensor(np.float32(w * scale))
            if id(w) not in wrapped:
                wrapped[id(w)] = _WrappedWeightDecay(w, scale)
            return wrapped[id(w)]

        self.weight_decay = (tuple(held(w) for w in sources) if self.is_group
                             else held(weight_decay))
        self.reciprocal_scale = Tensor(np.float32(1.0 / self.loss_scale))
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor(np.array([1], np.int32))
        self.optim_filter = (True,) * len(self._wds)
        self.use_parallel = False
        self.grad_centralization = False
        self.hyper_map, self.map_, self.assignadd = HyperMap(), Map(), AssignAdd()
        self.map_reverse, self.hyper_map_reverse = Map(None, True), HyperMap(None, True)
        self._target, self._is_device = "CPU", False

    @property
    def target(self):
        """Mirrors `Optimizer.target`: where parameters are updated ('CPU' here)."""
        return self._target

    @target.setter
    def target(self, value):
        raise NotImplementedError  # as MindSpore's base: optimizers that can move override it

    def _set_base_target(self, value):
        """Mirrors `Optimizer._set_base_target` (the setter optimizers written for MindSpore
        call): only 'CPU' is possible on a CPU."""
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got "
                            f"{type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', "
                             f"'Ascend' ,'GPU'], but got {value}")
        if value != "CPU":
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' or "
                             "'Ascend' in the 'CPU' environment.")
        self._is_device = False
        self._target = value

    def _is_dynamic_lr_or_weight_decay(self):
        return self.dynamic_lr or self.dynamic_weight_decay

    def get_weight_decay(self):
        """Mirrors `Optimizer.get_weight_decay`: the weight decay of this step, times
        loss_scale (a tuple with groups; a schedule is called with global_step)."""
        if not self.dynamic_weight_decay:
            return self.weight_decay
        if self.is_group:
            return tuple(w(self.global_step) if isinstance(w, Cell) else w
                         for w in self.weight_decay)
        return self.weight_decay(self.global_step)

    def flatten_gradients(self, gradients):
        """Mirrors `Optimizer.flatten_gradients` (gradients are never flattened here)."""
        return gradients

    def decay_weight(self, gradients):
        """Mirrors `Optimizer.decay_weight`: gradient + weight_decay * loss_scale * param for
        the parameters `decay_flags` selects (the gradient is still loss-scaled here)."""
        if not self.exec_weight_decay:
            return gradients
        return tuple(g + p * (w * self.loss_scale) if w > 0 else g
                     for g, p, w in zip(gradients, self._parameters, self._wds))

    def gradients_centralization(self, gradients):
        """Mirrors `Optimizer.gradients_centralization` (enabled only by parameter groups with
        `grad_centralization`, which cellgrad does not apply: the gradients pass)."""
        return gradients

    def scale_grad(self, gradients):
        """Mirrors `Optimizer.scale_grad`: gradients divided by `loss_scale`."""
        if not self.need_scale:
            return gradients
        return tuple(g * self.reciprocal_scale for g in gradients)

    # ---- for subclasses ----

    def _update(self, i, param, grad, lr):
        raise NotImplementedError(f"{type(self).__name__} must implement _update")

    def _update_group(self, params, gradients, lrs):
        """Update parameters 0, 1, ... in one kernel call (`update.group_update`) and return
        how many it took; `_update` does the rest. An optimizer with such a kernel sets
        `_group = (kind, states, options)`: states are ParameterTuples, options the kernel's
        keywords; `_group_options()` may add per-step ones."""
        cls = type(self)
        if self._group is None or cls._update is not cls._group_owner or \
                cls._gradient is not Optimizer._gradient or _NUMPY_1:
            return 0
        kind, states, options = self._group
        return group_update(kind, params, gradients, states, lrs, self._lr_slots, self._wds,
                            self.loss_scale, **options, **self._group_options())

    _group = None  # (kind, states, options) for `group_update`
    _group_owner = None  # the `_update` the kernel reproduces (a subclass's own disables it)

    def _group_options(self):
        return {}

    def _gradient(self, i, data, grad):
        """The gradient as an array, unscaled by loss_scale, with weight decay added."""
        g = grad.asnumpy() if isinstance(grad, Tensor) else np.asarray(grad)
        if g.shape != data.shape:
            raise ShapeError(f"For '{type(self).__name__}', the gradient of "
                             f"'{self.parameters[i].name}' has shape {g.shape}, but the "
                             f"parameter has shape {data.shape}.")
        wd = self._wds[i] if self._decays_in_gradient else 0.0
        if self.loss_scale == 1.0 and wd == 0.0:
            return g
        buf = self._decay_buffers[i]
        if buf is None:
            buf = self._decay_buffers[i] = np.empty_like(data)
        np.multiply(g, 1.0 / self.loss_scale, out=buf)
        if wd:
            buf += data * wd
        return buf

    _decays_in_gradient = True  # AdamWeightDecay decays the parameter instead

    def _state(self, prefix, init="zeros"):
        """Per-parameter state named `<prefix>.<param name>`, as MindSpore clones it."""
        return self.parameters.clone(prefix=prefix, init=init)

    def _scalar(self, name, value, dtype=np.float32):
        return Parameter(Tensor(np.asarray(value, dtype)), name=name)


def opt_init_args_register(fn):
    """Mirrors `mindspore.nn.optim.optimizer.opt_init_args_register`: records an optimizer's
    constructor arguments (`init_params`, `init_learning_rate`, `init_args`) before it runs."""
    import functools
    import inspect

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        arguments = inspect.signature(fn).bind(self, *args, **kwargs)
        arguments.apply_defaults()
        arguments = dict(arguments.arguments)
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            self.init_params = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            self.init_learning_rate = None if isinstance(lr, Cell) else lr
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return deco


def _parse_params(owner, parameters):
    """`(params, group lrs or None, group weight decays)` from a list of Parameters or of
    group dicts (`params`, `lr`, `weight_decay`, `grad_centralization`, `order_params`)."""
    if parameters is None:  # MindSpore's ValueError (every optimizer says 'Optimizer')
        raise ValueError("For 'Optimizer', the argument parameters can not be None.")
    if isinstance(parameters, (list, tuple)):
        parameters = list(parameters)
    elif hasattr(parameters, "__iter__") and not isinstance(parameters, (str, dict, Tensor)):
        parameters = list(parameters)
    else:
        raise TypeError(f"For '{owner}', the argument 'parameters' must be a list of "
                        f"Parameters or of group dicts, but got {type(parameters).__name__}.")
    if not parameters:
        raise ValueError("For 'Optimizer', the argument parameters must not be empty.")
    if all(isinstance(p, dict) for p in parameters):
        return _parse_groups(owner, parameters)
    bad = next((p for p in parameters if not isinstance(p, Parameter)), None)
    if bad is not None:
        raise TypeError(f"For '{owner}', all elements of the argument 'parameters' must be "
                        f"Parameters or group dicts, but got {type(bad).__name__}.")
    _check_unique(owner, parameters)
    return parameters, None, None


def _check_unique(owner, params, grouped=False):
    seen = set()
    for p in params:
        if id(p) in seen:
            if grouped:  # MindSpore's message for a parameter in two groups
                raise RuntimeError(f"For 'Optimizer', the {p.name} parameter already exists, it "
                                   f"does not support repeated setting. Please check whether the "
                                   f"optimizer parameter has been set multiple times.")
            raise ValueError(f"For '{owner}', the parameter '{p.name}' is given twice; each "
                             f"parameter must appear once.")
        seen.add(id(p))


def _parse_groups(owner, groups):
    params, lrs, wds, order = [], [], [], None
    known = {"params", "lr", "weight_decay", "grad_centralization"}
    for gi, g in enumerate(groups):
        if "order_params" in g:
            order = list(g["order_params"])
            continue
        unknown = set(g) - known
        if unknown or "params" not in g:
            raise ValueError(f"For '{owner}', a parameter group is a dict with 'params' and "
                             f"optionally 'lr', 'weight_decay', 'grad_centralization', but got "
                             f"keys {sorted(g)}.")
        group = list(g["params"])
        bad = next((p for p in group if not isinstance(p, Parameter)), None)
        if bad is not None:
            raise TypeError(f"For '{owner}', group 'params' must hold Parameters, but got "
                            f"{type(bad).__name__}.")
        params += group
        lrs += [(gi, g["lr"]) if "lr" in g else None] * len(group)
        wds += [g.get("weight_decay")] * len(group)
    _check_unique(owner, params, grouped=True)
    if order is not None:
        where = {id(p): i for i, p in enumerate(params)}
        missing = [p.name for p in order if id(p) not in where]
        if missing:
            raise ValueError(f"For '{owner}', 'order_params' holds parameters that are in no "
                             f"group: {missing}.")
        picks = [where[id(p)] for p in order]
        params, lrs, wds = ([seq[i] for i in picks] for seq in (params, lrs, wds))
    return params, lrs, wds
