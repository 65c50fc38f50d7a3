"""Mirrors `mindspore.common.parameter`: `Parameter` and `ParameterTuple` (defined in
`cellgrad.parameter`) and the private `_Buffer` that marks a Tensor as a Cell buffer."""

from cellgrad.common.tensor import Tensor
from cellgrad.parameter import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]

PARAMETER_NAME_DEFAULT = "Parameter"
_GENERATED_PARAMETER_NAME_PREFIX = PARAMETER_NAME_DEFAULT + "#"  # unnamed: "Parameter#<n>"


def _is_parameter_generated(param_name):
    """Mirrors `mindspore.common.parameter._is_parameter_generated`: whether `param_name` is
    the name an unnamed Parameter was given."""
    if not param_name or not isinstance(param_name, str):
        return False
    return param_name.startswith(_GENERATED_PARAMETER_NAME_PREFIX)


class _BufferMeta(type(Tensor)):
    # `isinstance(t, _Buffer)` holds for any Tensor that `_Buffer(...)` marked, as MindSpore's
    def __instancecheck__(cls, instance):
        if cls is _Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer",
                                                                       False):
            return True
        return super().__instancecheck__(instance)


class _Buffer(Tensor, metaclass=_BufferMeta):
    """Mirrors `mindspore.common.parameter._Buffer(data, *, persistent=True)`: `data` detached
    from autodiff (`ops.stop_gradient`) and marked as a buffer, which a Cell registers
    (`register_buffer`) when it is assigned as an attribute; `persistent` says whether it
    belongs to the Cell's `state_dict`. The result is a Tensor, not a `_Buffer` instance."""

    def __new__(cls, data, *, persistent=True):
        from cellgrad.ops import stop_gradient

        if data is None:
            raise ValueError("For create Buffer, input data should not be None")
        if not isinstance(data, Tensor):
            raise TypeError("For create Buffer, type of input data should be Tensor")
        t = stop_gradient(data)
        t._is_buffer = True
        t.persistent = persistent
        return t
