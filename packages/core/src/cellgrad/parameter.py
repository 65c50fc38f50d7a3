"""`Parameter` and `ParameterTuple`, mirroring MindSpore's."""

import itertools
import re

import numpy as np

from cellgrad._construct import _cast, infer_array
from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad._param_attrs import ParallelAttributes
from cellgrad.common.tensor import Tensor

_unnamed = itertools.count(1)
_PREFIX_RE = re.compile(r"\w+[0-9a-zA-Z_.]*", re.ASCII)


def _check_name(value):
    if value is not None and not isinstance(value, str):
        raise ValueError("The type of the Parameter's name should be 'string' or 'None', "
                         f"but got {type(value)}.")


class Parameter(ParallelAttributes, Tensor):
    """Mirrors `mindspore.Parameter`: a named, trainable Tensor held by a Cell.

    `default_input` may be a Tensor (also the result of `initializer(...)`), a numpy array, a
    list or a Python number: `Parameter(3)` is a 0-d Int32, `Parameter(2.0)` Float32 and
    `Parameter(True)` Bool (MindSpore refuses bools). Without `name` the parameter is called
    `Parameter#<n>` until it is assigned as a Cell attribute, where it takes the attribute name.
    """

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        _check_name(name)
        arr, dt = _initial_value(default_input)
        self._data = arr
        self._dtype = dt
        self._name = name if name is not None else f"Parameter#{next(_unnamed)}"
        # True until a name is given: Cell attribute assignment then names it (semantics §11).
        self._generated_name = name is None
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        # Device placement and storage layout: accepted for MindSpore programs; numpy on the CPU.
        self.storage_format = storage_format
        self.device = device
        self.init_mode = None
        self.is_init = True

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        _check_name(value)
        if value is None:
            raise ValueError("The Parameter's name can not be None once set.")
        self._name = value
        self._generated_name = False

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"Parameter '{self._name}': requires_grad must be a bool, got "
                            f"{type(value).__name__}.")
        self._requires_grad = value
        # The leaf node is where gradient transforms collect this parameter's gradient; a frozen
        # parameter has none, so nothing is recorded for it.
        self._node = _tape.leaf_node() if value else None
        self._slot = 0

    @property
    def data(self):
        """The values as a plain Tensor sharing this parameter's memory (MindSpore 2.10: writes
        through it change the parameter; it prints as a Tensor)."""
        return make_tensor(self._data, None, 0, self._dtype)

    @data.setter
    def data(self, value):
        """Replace values, dtype and shape with `value`'s (as MindSpore's `param.data = t`)."""
        if not isinstance(value, TensorBuffer):
            raise TypeError(f"For 'Parameter.data' of '{self._name}', the value must be a "
                            f"Tensor, but got {type(value).__name__}.")
        self._data, self._dtype = value._data.copy(), value._dtype

    @property
    def has_init(self):
        """Always False: values are materialised when the parameter is created."""
        return False

    @property
    def inited_param(self):
        return None

    def register_hook(self, hook_fn):
        """Mirrors `Parameter.register_hook` (MindSpore names the argument `hook_fn` here)."""
        if not self.requires_grad:
            raise RuntimeError("The tensor requires grad is false, which can not register tensor "
                               "hook")
        return Tensor.register_hook(self, hook_fn)

    def value(self):
        """The current values as a new Tensor (mirrors `Parameter.value`)."""
        return Tensor(self._data.copy(), dtype=self._dtype)

    def set_data(self, data, slice_shape=False):
        """Replace the values, cast to this parameter's dtype; a new shape needs `slice_shape`."""
        if isinstance(data, TensorBuffer):
            arr, src = data._data, data._dtype
        elif isinstance(data, (bool, int, float, np.ndarray, np.generic, list, tuple)):
            arr, src = infer_array(data)
        else:
            raise TypeError(f"For 'Parameter.set_data' of '{self._name}', the data must be a "
                            f"Tensor, number or array, but got {type(data).__name__}.")
        if arr.shape != self._data.shape and not slice_shape:
            raise ValueError(
                f"For 'Parameter.set_data', the new data of shape {arr.shape} does not match "
                f"the shape {self._data.shape} of Parameter '{self._name}'; pass "
                "slice_shape=True to change the shape.")
        self._data = _cast(arr, src, self._dtype) if src is not self._dtype else arr.copy()
        return self

    def init_data(self, layout=None, set_sliced=False):
        """Values are materialised on creation; returns self (mirrors `Parameter.init_data`)."""
        return self

    def clone(self, init="same"):
        """A copy with the same name; `init` other than 'same' re-initialises the values."""
        if isinstance(init, str) and init == "same":
            value = self._data.copy()
        else:
            from cellgrad.common.initializer import apply_initializer

            value = apply_initializer(init, self.shape, self._dtype)
        p = Parameter(Tensor(value, dtype=self._dtype), name=self._name,
                      requires_grad=self._requires_grad)
        p._generated_name = self._generated_name
        return p

    def __repr__(self):
        return (f"Parameter (name={self._name}, shape={tuple(self.shape)}, dtype={self._dtype}, "
                f"requires_grad={self._requires_grad})")

    __str__ = __repr__

    def __reduce__(self):
        return (_rebuild_parameter,
                (self._data, self._dtype.py_name, self._name, self._requires_grad))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()


def _initial_value(default_input):
    if isinstance(default_input, TensorBuffer):
        return default_input._data.copy(), default_input._dtype
    if isinstance(default_input, bool):
        return infer_array(default_input)
    # MindSpore makes Python numbers Int32/Float32 parameters (a Tensor of an int is Int64).
    if isinstance(default_input, int) and not isinstance(default_input, np.generic):
        return infer_array(default_input, "int32")
    if isinstance(default_input, float):  # np.float64 too, as in MindSpore
        return infer_array(default_input, "float32")
    if isinstance(default_input, (np.ndarray, np.generic, list)):
        return infer_array(default_input)
    from cellgrad.common.initializer import Initializer

    if isinstance(default_input, Initializer):
        raise TypeError(
            f"Parameter: an {type(default_input).__name__} initializer has no shape; pass "
            "initializer(init, shape, dtype) (a Tensor) as 'default_input'.")
    raise TypeError(
        "Parameter: 'default_input' must be a Tensor, numpy array, list or Python number, got "
        f"{type(default_input).__name__}.")


def _rebuild_parameter(arr, py_name, name, requires_grad):
    from cellgrad._core._buffer import dtype_by_short

    return Parameter(Tensor(arr, dtype=dtype_by_short(py_name)), name=name,
                     requires_grad=requires_grad)


def check_prefix(prefix, what):
    """MindSpore's rule for name prefixes: empty, or a word followed by [0-9a-zA-Z_.]."""
    if not isinstance(prefix, str):
        raise TypeError(f"For '{what}', the prefix must be a str, got {type(prefix).__name__}.")
    if prefix and not _PREFIX_RE.fullmatch(prefix):
        raise ValueError(f"For '{what}', the prefix '{prefix}' is illegal: it must match "
                         r"'\w+[0-9a-zA-Z_.]*'.")


class ParameterTuple(tuple):
    """Mirrors `mindspore.ParameterTuple`: a tuple of uniquely named Parameters with `clone`."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        seen, names = set(), set()
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError("ParameterTuple: every element must be a Parameter, got "
                                f"{type(p).__name__}.")
            if id(p) in seen:
                continue
            if p.name in names:
                raise ValueError(f"ParameterTuple: the name '{p.name}' is used by two different "
                                 "Parameters; give each parameter a unique name.")
            seen.add(id(p))
            names.add(p.name)
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Copies named `<prefix>.<name>`, initialised by `init` ('same' copies the values)."""
        check_prefix(prefix, "ParameterTuple.clone")
        if not prefix:
            raise ValueError("For 'ParameterTuple.clone', the prefix must not be empty.")
        out = []
        for p in self:
            q = p.clone(init)
            q.name = f"{prefix}.{p.name}"
            out.append(q)
        return ParameterTuple(out)
