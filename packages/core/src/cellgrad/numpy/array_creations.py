"""Mirrors `mindspore.numpy.array_creations`."""

__all__ = []
