"""Mirrors `mindspore.numpy.math_ops`."""

__all__ = []
