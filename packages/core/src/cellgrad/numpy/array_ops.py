"""Mirrors `mindspore.numpy.array_ops`."""

__all__ = []
