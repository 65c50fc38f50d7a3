"""`mindspore._c_expression.security`, which MindSpore's tests/security_utils.py imports."""


def test_security_is_off_so_summary_tests_run():
    from cellgrad._c_expression import security

    assert security.enable_security() is False
    assert security.__name__ == "cellgrad._c_expression.security"
