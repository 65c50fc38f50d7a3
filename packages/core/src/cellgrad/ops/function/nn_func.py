"""Mirrors `mindspore.ops.function.nn_func`: its functional ops are `cellgrad.ops`'s
(`cellgrad._paths.WHOLE_OPS`), plus `interpolate_ext`, the function MindSpore's
`mint.nn.functional.interpolate` is, which its upsample tests import from here."""

from cellgrad._namespace import plugin_names as _plugin_names


def interpolate_ext(input, size=None, scale_factor=None, mode="nearest",  # noqa: A002
                    align_corners=None, recompute_scale_factor=None):
    """Mirrors `nn_func.interpolate_ext`: `mint.nn.functional.interpolate` (cellgrad-ops-nn)."""
    from cellgrad.mint.nn import functional

    return functional.interpolate(input, size, scale_factor, mode, align_corners,
                                  recompute_scale_factor)


__getattr__, __dir__ = _plugin_names(__name__)
