"""Mirrors `mindspore.dataset.core`: holds `config` (`mindspore.dataset.core.config`)."""

from cellgrad_dataset import config

__all__ = ["config"]
