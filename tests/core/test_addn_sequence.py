"""`ops.addn` as one op (its gradient passes to every input, fan-in summed by the engine) and
`_sequence_ops.SequenceAddN` of Tensors or of Python numbers (MindSpore's graph mode sums a
`mutable` tuple of scalars: its tests/st/ops/dynamic_sequence/test_dynamic_sequence_addn.py)."""

import numpy as np
import pytest

from cellgrad import Tensor, ops
from cellgrad.ops.operations._sequence_ops import SequenceAddN
from cellgrad.testing import gradcheck


def test_addn_values_and_gradient():
    a, b = Tensor(np.array([1.0, 2.0])), Tensor(np.array([0.5, -1.0]))
    np.testing.assert_array_equal(ops.addn([a, b, a]).asnumpy(), [2.5, 3.0])
    assert gradcheck(lambda x, y: ops.addn([x, y, x]) ** 2, a, b)
    ga, gb = ops.grad(lambda x, y: ops.addn((x, y, x)).sum(), (0, 1))(a, b)
    assert ga.asnumpy().tolist() == [2.0, 2.0] and gb.asnumpy().tolist() == [1.0, 1.0]
    single = ops.addn([a])
    assert single is not a and single.asnumpy().tolist() == [1.0, 2.0]


def test_addn_shape_error():
    with pytest.raises(ValueError, match=r"shape of input\[1\]: \(3\), shape of input\[0\]: "
                                         r"\(2\)"):
        ops.addn([Tensor(np.zeros(2)), Tensor(np.zeros(3))])


def test_sequence_addn():
    assert SequenceAddN()((1, 2, 3, 4, 5, 6)) == 21
    assert SequenceAddN()([1.5, 2]) == 3.5
    out = SequenceAddN()((Tensor([[1, 2]]), Tensor([[2, 3]])))
    assert out.asnumpy().tolist() == [[3, 5]]
    with pytest.raises(RuntimeError, match="Sequence length should not be 0."):
        SequenceAddN()(())
    with pytest.raises(TypeError, match="'SequenceAddN'"):
        SequenceAddN()((Tensor(1), 2))
