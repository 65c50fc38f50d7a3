"""Mirrors `mindspore._extends.parse.compile_config`: the graph compiler's switches, which
MindSpore's tests set around graph-mode cases (tests/st/ops/dynamic_sequence/*.py set
`GRAD_FOR_SCALAR`, `FALLBACK_SUPPORT_LIST_DICT_INPLACE`, ...). They hold MindSpore's defaults and
whatever is assigned; cellgrad compiles no graph, so eager execution (its PyNative behaviour:
in-place list/dict updates, gradients for scalars, Python recursion) is what they select.
"""

AUTO_PASSES_OPTIMIZE_PATH = ""
CHECK_BPROP = ""
ENABLE_RECOMPUTE_BEFORE_INLINE = ""
FALLBACK_SUPPORT_LIST_DICT_INPLACE = ""
FOR_HALF_UNROLL = ""
GRAD_FOR_SCALAR = ""
JIT_ENABLE_AUGASSIGN_INPLACE = "1"
PRE_LIFT = ""
RECURSIVE_EVAL = ""
