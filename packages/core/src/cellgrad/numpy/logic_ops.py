"""Mirrors `mindspore.numpy.logic_ops`."""

__all__ = []
