"""Mirrors `mindspore.dataset.core.config`: the same module as `cellgrad.dataset.config`."""

import sys

from cellgrad_dataset import config as _config

sys.modules[__name__] = _config
