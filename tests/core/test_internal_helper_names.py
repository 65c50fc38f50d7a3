"""Internal names of MindSpore 2.10 that its own tests import (`_checkparam.check_input_format`,
`common.parameter._is_parameter_generated`, `_c_expression.security`), with MindSpore's
behaviour."""

import pytest

from cellgrad import _checkparam


def test_check_input_format_accepts_only_nchw():
    assert _checkparam.check_input_format("NCHW") == "NCHW"
    with pytest.raises(ValueError, match="^The data format must be NCHW, but got NHWC.$"):
        _checkparam.check_input_format("NHWC")
