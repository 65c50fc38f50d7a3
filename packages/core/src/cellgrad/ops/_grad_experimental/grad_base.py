"""Mirrors `mindspore.ops._grad_experimental.grad_base`: the bprop / Taylor-rule registries."""

from collections import UserDict

from cellgrad.ops.primitive import Primitive

__all__ = ["BpropRegistry", "TaylorFpropRegistry", "bprop_getters", "bprops",
           "get_bprop_fn", "get_taylor_fprop_fn", "taylor_fprop_getters", "taylor_fprops"]


class _Registry(UserDict):
    """Functions keyed by Primitive class (its id and its name) or by primitive name."""

    def register(self, prim):
        """Decorator: register the function for `prim` (a Primitive subclass or a name)."""

        def deco(fn):
            if isinstance(prim, str):
                self[prim] = fn
            elif isinstance(prim, type) and issubclass(prim, Primitive):
                self[id(prim)] = fn
                self[prim.__name__] = fn
            else:
                raise TypeError(f"For 'register', 'prim' must be a Primitive subclass or a "
                                f"str, but got {type(prim).__name__}.")
            return fn

        return deco

    def get(self, prim_obj, default=None):
        """The function registered for a primitive object (by class, then name) or name."""
        if isinstance(prim_obj, str):
            return self.data.get(prim_obj, default)
        if isinstance(prim_obj, Primitive):
            key = id(type(prim_obj))
            if key in self.data:
                return self.data[key]
            return self.data.get(prim_obj.name, default)
        return default


class BpropRegistry(_Registry):
    """Mirrors `grad_base.BpropRegistry`: bprop getters by Primitive class or name."""


class TaylorFpropRegistry(_Registry):
    """Mirrors `grad_base.TaylorFpropRegistry`: Taylor-rule getters by Primitive or name."""


bprop_getters = BpropRegistry()
bprops = BpropRegistry()
taylor_fprop_getters = TaylorFpropRegistry()
taylor_fprops = TaylorFpropRegistry()


def get_bprop_fn(prim, get_closure=False):
    """Mirrors `grad_base.get_bprop_fn`: the bprop registered for `prim` (a getter is called
    with `prim` unless `get_closure`), else the plain bprop, else None."""
    out = bprop_getters.get(prim, None)
    if out is None:
        return bprops.get(prim, None)
    if get_closure:
        return out
    return out(prim)


def get_taylor_fprop_fn(prim):
    """Mirrors `grad_base.get_taylor_fprop_fn`: the Taylor rule registered for `prim`."""
    out = taylor_fprop_getters.get(prim, None)
    if out is None:
        return taylor_fprops.get(prim, None)
    return out(prim)
