"""Names whose signature differs from MindSpore 2.10 on purpose, each with the reason.

The README's "differs on purpose" section lists them too; a stale entry (the name matches now,
or cellgrad no longer provides it) fails `test_allow_list_entries_are_current`.
"""

ALLOWED = {
    "ops.Primitive": "cellgrad's primitive classes take their name from the class, so the "
                     "base class needs no `name` argument",
}
