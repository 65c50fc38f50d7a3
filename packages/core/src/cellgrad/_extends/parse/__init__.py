"""Mirrors `mindspore._extends.parse`: its `compile_config` module."""
