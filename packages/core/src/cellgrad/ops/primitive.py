"""Mirrors `mindspore.ops.primitive`: the `Primitive` base, `PrimitiveWithInfer`,
`PrimitiveWithCheck`, `prim_attr_register`, `prim_arg_register` and `constexpr`.

In PyNative a primitive runs when called: a subclass's `__call__` runs as written (MindSpore
does not call `infer_shape`/`infer_dtype` then either); a primitive without its own `__call__`
runs the cellgrad primitive of the same name (`Primitive('Add')(x, y)`) with its attributes,
and a user-defined one with a name cellgrad has no kernel for runs its Python infer (the
value `infer_value` returns is the result) or says there is no kernel, as MindSpore does.
"""

import copy
import functools
import inspect

import numpy as np

__all__ = ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr",
           "prim_arg_register", "prim_attr_register"]


class Primitive:
    """Mirrors `mindspore.ops.Primitive(name)`.

    A subclass that defines no `__init__` (directly or through a base below `Primitive`) takes
    no arguments and is named after its class; MindSpore's would require `name`.
    """

    _repr_ignore_list = ["input_names", "output_names"]

    def __init__(self, name):
        self.name = name
        self.attrs = {}
        self.init_attrs = {"name": name}
        self._update_parameter = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for klass in cls.__mro__:
            if "__init__" in vars(klass):
                if klass in globals().get("_BASES", ()):
                    cls.__init__ = _named_after_class
                break

    def add_prim_attr(self, name, value):
        """Add an attribute: it shows in `attrs`, in the repr and as `self.<name>`."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def _set_prim_arg(self, name, value):
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name):
        """Delete an attribute added by `add_prim_attr` (nothing happens when there is none)."""
        if name in self.__dict__ and name in self.attrs:
            del self.__dict__[name]
            del self.attrs[name]
        return self

    def set_device(self, device_target):
        """Record the device to run on (cellgrad runs every primitive on the CPU)."""
        return self.add_prim_attr("primitive_target", device_target)

    def set_stage(self, stage):
        """Record the pipeline stage (used by semi-auto parallel; recorded only)."""
        return self.add_prim_attr("stage", stage)

    def shard(self, in_strategy=None, out_strategy=None):
        """Record the sharding strategies (operator-level parallelism; on one device the
        primitive runs whole)."""
        for arg, value in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
            if value is not None and not isinstance(value, tuple):
                raise TypeError(f"For '{self.name}', the '{arg}' should be a tuple, but got "
                                f"{type(value).__name__}.")
        if in_strategy is not None:
            self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def recompute(self, mode=True):
        """Record the recompute flag (MindSpore uses it in graph mode only)."""
        if not isinstance(mode, bool):
            raise TypeError(f"For 'Primitive', the type of 'mode' must be bool, but got "
                            f"{type(mode).__name__}.")
        return self.add_prim_attr("recompute", mode)

    def set_prim_instance_name(self, instance_name):
        """Set the name of this instance (`self.instance_name`)."""
        self.instance_name = instance_name
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Record the input and output names (attributes `input_names`, `output_names`)."""
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)

    @property
    def update_parameter(self):
        """Whether the primitive updates the value of a parameter."""
        return self._update_parameter

    def check_elim(self, *args):
        """Whether the call can be skipped: (True, output) or (False, None)."""
        return (False, None)

    def __getattr__(self, item):
        if item == "infer_dynamic_shape":
            return None
        attrs = self.__dict__.get("attrs")
        if attrs is not None and item in attrs:
            return attrs[item]
        raise AttributeError(f"'{self.__dict__.get('name', type(self).__name__)}' object has "
                             f"no attribute '{item}'")

    def __call__(self, *args):
        should_elim, output = self.check_elim(*args)
        if should_elim:
            return output
        return _run_by_name(self, args)

    def __deepcopy__(self, memo):
        init = type(self).__init__
        if hasattr(init, "decorated_func") or init is _named_after_class or type(self) in _BASES:
            return type(self)(**self.init_attrs)  # MindSpore's: rebuilt from its arguments
        # an __init__ that does not record its arguments: copy the state
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        clone.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return clone

    def __repr__(self):
        attr = ", ".join(f"{k}={v}" for k, v in self.attrs.items()
                         if k not in Primitive._repr_ignore_list)
        return f"Prim[{self.name}]" + (f"<{attr}>" if attr else "")


class PrimitiveWithCheck(Primitive):
    """Mirrors `mindspore.ops.PrimitiveWithCheck(name)`: `check_shape`/`check_dtype` hooks."""

    def __init__(self, name):
        Primitive.__init__(self, name)

    def __check__(self, *args):
        """Run `check_dtype` and (for known shapes) `check_shape` on {'shape', 'dtype'}
        dictionaries."""
        self.check_dtype(*(x["dtype"] for x in args))
        shapes = [x["shape"] for x in args]
        if all(s is not None and -1 not in s and -2 not in s for s in shapes):
            self.check_shape(*shapes)

    def check_shape(self, *args):
        """Check the input shapes (a scalar's is ())."""
        return None

    def check_dtype(self, *args):
        """Check the input dtypes."""
        return None


class PrimitiveWithInfer(Primitive):
    """Mirrors `mindspore.ops.PrimitiveWithInfer(name)`: `infer_shape`/`infer_dtype`/
    `infer_value` hooks."""

    def __init__(self, name):
        Primitive.__init__(self, name)

    def infer_shape(self, *args):
        """The output shape from the input shapes."""
        return None

    def infer_dtype(self, *args):
        """The output dtype from the input dtypes."""
        return None

    def infer_value(self, *args):
        """The output value from constant inputs (None when it cannot be inferred)."""
        return None

    def __infer__(self, *args):
        """Infer dtype, shape and value at once from {'dtype', 'shape', 'value'} dictionaries."""
        return {track: getattr(self, "infer_" + track)(*(x[track] for x in args))
                for track in ("dtype", "shape", "value")}


_BASES = (Primitive, PrimitiveWithCheck, PrimitiveWithInfer)


def _named_after_class(self):
    _init_base(self, type(self).__name__)
    del self.init_attrs["name"]


def _init_base(self, class_name):
    for base in (PrimitiveWithInfer, PrimitiveWithCheck, Primitive):
        if isinstance(self, base):
            base.__init__(self, class_name)
            return


def _register(fn, record):
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        _init_base(self, getattr(type(self), "substitute_name", type(self).__name__))
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        del arguments["self"]
        del self.init_attrs["name"]
        for name, value in arguments.items():
            record(self, name, value)
            self.init_attrs[name] = value
        fn(self, *args, **kwargs)

    deco.decorated_func = fn
    return deco


def prim_attr_register(fn):
    """Mirrors `mindspore.ops.prim_attr_register`: decorates a primitive's `__init__` so its
    arguments (defaults included) become attributes, and names the primitive after its class."""
    return _register(fn, Primitive.add_prim_attr)


def prim_arg_register(fn):
    """Mirrors `mindspore.ops.prim_arg_register`: as `prim_attr_register`, for the
    initialisation arguments of a primitive."""
    return _register(fn, Primitive._set_prim_arg)


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Mirrors `mindspore.ops.constexpr`: wraps `fn` in a primitive that calls it on its
    (Python) arguments. In PyNative it runs eagerly, as MindSpore's does."""

    def decorator(fn):
        class ProxyOp(PrimitiveWithInfer):
            """Runs the constexpr function."""

            def __init__(self):
                super().__init__(name if name else fn.__name__)
                self.fn = fn
                self.add_prim_attr("constexpr_prim", True)
                if not reuse_result:
                    self.add_prim_attr("forbid_reuse_result", True)

            def __infer__(self, *args):
                return {"dtype": None, "shape": None, "value": fn(*(a["value"] for a in args))}

            def __call__(self, *args, **kwargs):
                return fn(*args, **kwargs)

        return ProxyOp() if get_instance else ProxyOp

    if fn is not None:
        return decorator(fn)
    return decorator


# MindSpore CPU kernels without a Python Primitive (ops/_cpu_kernels.py registers them)
_KERNELS_BY_NAME = {}


def kernel_by_name(cls):
    """Register `cls` as the kernel a user Primitive named `cls.__name__` runs."""
    _KERNELS_BY_NAME[cls.__name__] = cls
    return cls


def _run_by_name(prim, args):
    """Run the cellgrad primitive named `prim.name` with `prim`'s attributes; for a name
    cellgrad does not have, run the Python infer (its value is the result, as in MindSpore's
    PyNative) or say there is no kernel."""
    import cellgrad.ops as ops

    cls = getattr(ops, prim.name, None) if prim.name.isidentifier() else None
    if cls is None:
        cls = _KERNELS_BY_NAME.get(prim.name)
    if isinstance(cls, type) and issubclass(cls, Primitive) and cls.__call__ is not \
            Primitive.__call__:
        init = getattr(cls.__init__, "decorated_func", cls.__init__)
        params = list(inspect.signature(init).parameters)[1:]
        return cls(**{k: v for k, v in prim.attrs.items() if k in params})(*args)
    if isinstance(prim, PrimitiveWithInfer):
        value = prim.__infer__(*map(_abstract, args))["value"]
        if value is not None:
            return value
    elif isinstance(prim, PrimitiveWithCheck):
        prim.__check__(*map(_abstract, args))
    raise RuntimeError(f"Unsupported op [{prim.name}] on CPU: cellgrad has no primitive named "
                       f"'{prim.name}'. A user-defined primitive runs in PyNative when its class "
                       f"defines __call__ (or infer_value returns its result).")


def _abstract(arg):
    """What MindSpore's infer functions get for an argument. A Tensor's dtype is its element
    dtype here (MindSpore passes its TensorType, `Tensor[Float32]`) and its value None."""
    from cellgrad._core._buffer import TensorBuffer
    from cellgrad.dtype import to_dtype

    if isinstance(arg, TensorBuffer):
        return {"shape": list(arg.shape), "dtype": arg.dtype, "value": None}
    try:
        dtype = to_dtype(type(arg))
    except TypeError:
        dtype = None
    return {"shape": list(np.shape(arg)) if isinstance(arg, (tuple, list)) else [],
            "dtype": dtype, "value": arg}
