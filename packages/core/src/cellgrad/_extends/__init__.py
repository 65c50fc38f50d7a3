"""Mirrors MindSpore's private `mindspore._extends` package as far as its own tests import it
(`mindspore._extends.parse.compile_config`, tests/st/ops/dynamic_sequence)."""
