"""`experimental.optim.Optimizer`: parameter groups, one learning-rate Parameter per group and
the shared gradient preprocessing (maximize, weight decay). Subclasses update numpy arrays of
the parameters in place, group by group, in MindSpore's float32 arithmetic."""

import logging
from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from cellgrad import Parameter, ParameterTuple
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell

_log = logging.getLogger("cellgrad")


def not_less_than(owner, name, value, low=0.0):
    if value < low:
        raise ValueError(f"For {owner}, the {name} must be greater than or equal to {low}, "
                         f"but got {value}.")


def greater_than(owner, name, value, low=0.0):
    if value <= low:
        raise ValueError(f"For {owner}, the {name} must be greater than {low}, but got {value}.")


def in_range(owner, name, value, low, high, closed_low=True, closed_high=False):
    ok = (low <= value if closed_low else low < value) and \
        (value <= high if closed_high else value < high)
    if not ok:
        interval = f"{'[' if closed_low else '('}{low}, {high}{']' if closed_high else ')'}"
        raise ValueError(f"For '{owner}', the '{name}' must be in range of {interval}, but got "
                         f"{value} with type '{type(value).__name__}'.")


def _negative(owner, name, value):
    return (f"For '{owner}', the '{name}' must be float and must >= 0, but got '{value}' with "
            f"type '{type(value).__name__}'.")


def check_adam_args(lr, betas, eps, weight_decay):
    """The argument checks Adam and AdamW share (PyTorch's messages)."""
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Optimizer(Cell):
    """Mirrors `mindspore.experimental.optim.Optimizer`: `param_groups` (dicts holding
    `params`, a Parameter `lr` and the group's options), `defaults`, `state` and
    `add_param_group`; `construct(gradients)` is the subclass's step."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        param_groups = self._parameters_base_check(params, "params")
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        self.parameters = []
        self.lrs = []
        self.group_start_id = [0]
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        self.parameters = ParameterTuple(self.parameters)

    def __repr__(self):
        out = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            out += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    if key == "lr" and isinstance(value, Parameter):
                        value = value.value()
                    out += f"    {key}: {value}\n"
        return out + ")"

    __str__ = __repr__

    def add_param_group(self, param_group):
        """Adds a group: its parameters and options, missing options taken from `defaults`."""
        group_id = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        self.parameters += tuple(param_group["params"])
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        lr = self._build_single_lr(param_group.get("lr"), f"learning_rate_group_{group_id}")
        weight_decay = self._preprocess_weight_decay(param_group.get("weight_decay", 0.0))
        self.lrs.append(lr)
        param_group["lr"] = lr
        param_group["weight_decay"] = weight_decay
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(param_group["params"]))

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, "
                            f"but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError("Param group must be a dict.")
        params = param_group["params"]
        if isinstance(params, Parameter):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Parameter):
                raise TypeError("Optimizer can only optimize Parameters, but one of the params "
                                f"is {type(param)}")
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            _log.warning("Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if seen.intersection(ids):
            raise ValueError("some parameters appear in more than one parameter group.")
        return param_group

    def _build_single_lr(self, learning_rate, name):
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            if learning_rate < 0:
                raise ValueError(_negative(self.cls_name, "learning rate", learning_rate))
            return Parameter(Tensor(np.float32(learning_rate)), name)
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim == 0:
                return Parameter(Tensor(learning_rate.asnumpy().astype(np.float32)), name)
            raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be "
                             "scalar Tensor")
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float or "
                        f"Tensor, but got {type(learning_rate)}.")

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            if weight_decay < 0:
                raise ValueError(_negative(self.cls_name, "weight_decay", weight_decay))
            return weight_decay
        raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be int or float.but "
                        f"got {type(weight_decay)}")

    def construct(self, *hyper_params):
        raise NotImplementedError

    # The step helpers the optimizers share.

    def _clones(self, init=0.0):
        """One float32 buffer per parameter, filled with `init` (MindSpore's cloned state)."""
        return [np.full(p.shape, init, np.float32) for p in self.parameters]

    def _group_lr(self, group_id):
        """The group's learning rate: its Parameter, or a float the user put in the group."""
        lr = self.param_groups[group_id].get("lr")
        if isinstance(lr, float):
            return np.float32(lr)
        return np.float32(self.lrs[group_id].asnumpy())

    def _groups(self, gradients, negate=True, decay=True):
        """Yields (group, lr, [(index, param array, gradient array)]) per group: gradients
        negated for `maximize` and with `weight_decay * param` added (MindSpore's order)."""
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{self.cls_name}', the number of gradients "
                             f"({len(gradients)}) must equal the number of parameters "
                             f"({len(self.parameters)}).")
        for group_id, group in enumerate(self.param_groups):
            start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
            wd = np.float32(group.get("weight_decay", 0.0))
            items = []
            for i in range(start, end):
                param = self.parameters[i].asnumpy()
                grad = np.asarray(gradients[i].asnumpy(), np.float32)
                if negate and group.get("maximize"):
                    grad = -grad
                if decay and wd != 0:
                    grad = param * wd + grad
                items.append((i, param, grad))
            yield group, self._group_lr(group_id), items
