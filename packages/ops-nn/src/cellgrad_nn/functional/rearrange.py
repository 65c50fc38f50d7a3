"""Rearrangements of channels and pixels: `ops.pixel_shuffle`, `ops.pixel_unshuffle`,
`ops.channel_shuffle`, composed of reshape and transpose (their gradients come from those)."""

from cellgrad_nn.functional import _checks


def _F():
    from cellgrad.ops import functional as F

    return F


def _factor(op, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"For '{op}', '{name}' must be a positive int, got {value!r}.")
    return value


def pixel_shuffle(input, upscale_factor):
    """Mirrors `mindspore.ops.pixel_shuffle`: (*, C r^2, H, W) -> (*, C, H r, W r)."""
    op = "pixel_shuffle"
    _checks.tensor(op, "input", input)
    r = _factor(op, "upscale_factor", upscale_factor)
    if input.ndim < 3 or input.shape[-3] % (r * r):
        raise ValueError(f"For '{op}', 'input' must be (*, C, H, W) with C divisible by "
                         f"upscale_factor^2={r * r}, got {_checks.describe(input)}.")
    F = _F()
    *lead, c, h, w = input.shape
    k = len(lead)
    x = F.reshape(input, (*lead, c // (r * r), r, r, h, w))
    x = F.transpose(x, (*range(k), k, k + 3, k + 1, k + 4, k + 2))
    return F.reshape(x, (*lead, c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """Mirrors `mindspore.ops.pixel_unshuffle`: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    op = "pixel_unshuffle"
    _checks.tensor(op, "input", input)
    r = _factor(op, "downscale_factor", downscale_factor)
    if input.ndim < 3 or input.shape[-1] % r or input.shape[-2] % r:
        raise ValueError(f"For '{op}', 'input' must be (*, C, H, W) with H and W divisible by "
                         f"downscale_factor={r}, got {_checks.describe(input)}.")
    F = _F()
    *lead, c, h, w = input.shape
    k = len(lead)
    x = F.reshape(input, (*lead, c, h // r, r, w // r, r))
    x = F.transpose(x, (*range(k), k, k + 2, k + 4, k + 1, k + 3))
    return F.reshape(x, (*lead, c * r * r, h // r, w // r))


def channel_shuffle(x, groups):
    """Mirrors `mindspore.ops.channel_shuffle`: (N, g * k, *) -> channels interleaved across
    the g groups."""
    op = "channel_shuffle"
    _checks.tensor(op, "x", x)
    g = _factor(op, "groups", groups)
    if x.ndim < 3 or x.shape[1] % g:
        raise ValueError(f"For '{op}', 'x' must be (N, C, *) with at least 3 dimensions and C "
                         f"divisible by groups={g}, got {_checks.describe(x)}.")
    F = _F()
    n, c, *rest = x.shape
    y = F.reshape(x, (n, g, c // g, *rest))
    y = F.swapaxes(y, 1, 2)
    return F.reshape(y, (n, c, *rest))
