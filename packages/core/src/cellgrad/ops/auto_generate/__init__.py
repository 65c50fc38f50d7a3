"""Mirrors `mindspore.ops.auto_generate`: MindSpore's generated op classes (`gen_ops_prim`) and
op functions (`gen_ops_def`) in one namespace, as cellgrad's ops of the same names."""

from cellgrad.ops.auto_generate import gen_ops_def, gen_ops_prim  # noqa: F401
from cellgrad.ops.auto_generate.gen_ops_def import *  # noqa: F403
from cellgrad.ops.auto_generate.gen_ops_prim import *  # noqa: F403
