"""`ops.is_dynamic_sequence_element_unknown` and `ops.is_tensor_bool_cond` in PyNative, as
MindSpore 2.10 CPU answers them (recorded 2026-11-26)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.ops import functional as F


def test_element_unknown_refuses_every_eager_sequence():
    p = ops.is_dynamic_sequence_element_unknown
    assert p is F.is_dynamic_sequence_element_unknown and p.name == "IsElementUnknown"
    for seq in ((1, 2), [], ()):
        with pytest.raises(TypeError, match="^The input of IsElementUnknown should be variable "
                                            "length sequence.$"):
            p(seq)
    for other in (ms.Tensor(1), 1):
        with pytest.raises(TypeError, match="should be tuple or list but got"):
            p(other)
    with pytest.raises(RuntimeError, match="the number of input should be 1, but got 2"):
        p((1,), (2,))


def test_tensor_bool_cond():
    p = ops.is_tensor_bool_cond
    assert p is F.is_tensor_bool_cond and p.name == "IsTensorBoolCond"
    assert p(ms.Tensor(True)) is True and p(ms.Tensor(2.0)) is True
    assert p(ms.Tensor(np.array([0.5], np.float32))) is True
    for shape, text in (((2,), "(2)"), ((0,), "(0)")):
        with pytest.raises(ValueError, match=r"Only tensor which shape is \(\) or \(1,\) can be "
                                             r"converted to bool, but got tensor shape is "
                                             + text.replace("(", r"\(").replace(")", r"\)")):
            p(ms.Tensor(np.zeros(shape, np.bool_)))
    for other in (True, 1):
        with pytest.raises(TypeError, match="^The input of IsTensorBoolCond should be a tensor "
                                            "but got"):
            p(other)
