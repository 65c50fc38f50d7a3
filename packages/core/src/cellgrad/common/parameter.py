"""Mirrors `mindspore.common.parameter`: `Parameter` and `ParameterTuple` (defined in
`cellgrad.parameter`)."""

from cellgrad.parameter import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
