"""Mirrors `mindspore.ops.auto_generate`: MindSpore's generated op classes (`gen_ops_prim`) and
op functions (`gen_ops_def`) in one namespace, as cellgrad's ops of the same names. Names
resolve on first use, so one that a plugin provides (cellgrad-ops-nn) loads it only then."""

from cellgrad.ops.auto_generate import gen_ops_def, gen_ops_prim


def __getattr__(name):
    for module in (gen_ops_prim, gen_ops_def):
        if name in module.__dir__():
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(gen_ops_prim.__dir__()) | set(gen_ops_def.__dir__()))
