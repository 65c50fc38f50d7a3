"""Names whose signature differs from MindSpore 2.10 on purpose, each with the reason.

The README's "differs on purpose" section lists them too; a stale entry (the name matches now,
or cellgrad no longer provides it) fails `test_allow_list_entries_are_current`.
"""

ALLOWED = {
    "load_param_into_net": "keyword-only additions after MindSpore's parameters: `prefix` and "
                           "`name_map` rename checkpoint names, `on_mismatch='skip'` skips "
                           "(and reports) shape/dtype mismatches instead of raising",
    "train.load_param_into_net": "the same function as `load_param_into_net` (keyword-only "
                                 "`prefix`, `name_map`, `on_mismatch`)",
    "train.serialization.load_param_into_net": "the same function as `load_param_into_net` at "
                                               "MindSpore 1.x's module path",
}
