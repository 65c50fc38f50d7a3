"""Mirrors `mindspore.common.parameter`: `Parameter` and `ParameterTuple` (defined in
`cellgrad.parameter`)."""

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
