import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore._extends.parse.standard_method import ms_len
from mindspore.common.parameter import _Buffer
from mindspore.ops import auto_generate as gen
from mindspore.ops.auto_generate.gen_ops_def import Reciprocal, add_ext, bmm_ext, sub_ext
from mindspore.ops.function import array_func as af
from mindspore.ops.function.math_func import F
from mindspore.ops.operations import _csr_ops  # noqa: F401

ms.set_context(mode=ms.PYNATIVE_MODE)


def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, str(e).splitlines()[0])


x = Tensor(np.array([[3.0, -1.0, 2.0, 7.0], [0.5, 4.0, -2.0, 1.0], [6.0, 6.0, 0.0, -3.0]],
                    np.float32))
print(af.split_ext(x, 2, 1), af.split_ext(x, [1, 2]), af.split_ext(x, (2, 1), 0))
attempt("split float", lambda: af.split_ext(x, 1.5))
print(af.max_ext(x), af.max_ext(x, 1), af.max_ext(x, 0, True), af.min_ext(x), af.min_ext(x, -1))
attempt("max keepdim", lambda: af.max_ext(x, None, True))
attempt("min keepdim", lambda: af.min_ext(x, keepdim=True))
print(af.new_ones(x, (2, 3)), af.new_ones(x, 2, dtype=ms.int32).dtype, af.new_zeros(x, [1, 2]))
print(af.new_zeros(x, (2,), dtype=ms.float16).dtype)
print(af.gather_ext(x, 1, Tensor(np.array([[0, 0], [1, 3], [3, 2]], np.int64))))
print(add_ext(x, 1.0, 2.0), sub_ext(x, x, alpha=3), Reciprocal()(Tensor([2.0, 4.0])))
a = Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
b = Tensor(np.arange(18, dtype=np.float32).reshape(2, 3, 3))
print(bmm_ext(a, b))
print(F.inplace_index_add(Tensor(np.zeros((3, 2), np.float32)), Tensor([0, 2], ms.int32),
                          Tensor(np.ones((2, 2), np.float32)), 0))

y = Tensor(np.array([0.5, -0.25, 0.9], np.float32))
dy = Tensor(np.array([1.0, 2.0, -3.0], np.float32))
print(gen.TanhGrad()(y, dy), ops.grad(lambda p, q: gen.TanhGrad()(p, q), (0, 1))(y, dy))
print(gen.tracev2_grad_op(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor([3, 3, 2]), 0, 0,
                          2))
print(gen.tracev2_grad_op(Tensor(np.array([5.0, 6.0], np.float32)), Tensor([2, 3, 4]), 1, 1, 2))

print(ms_len([1, 2, 3]), ms_len(x), ms_len({"a": 1}), ms_len("abcd"))

t = Tensor(np.array([1.0, 2.0], np.float32))
buf = _Buffer(t, persistent=False)
print(isinstance(buf, _Buffer), isinstance(t, _Buffer), isinstance(Tensor(1.0), _Buffer),
      buf.persistent, type(buf).__name__, isinstance(nn.Cell, type))
attempt("buffer None", lambda: _Buffer(None))
attempt("buffer list", lambda: _Buffer([1.0]))

from mindspore.ops.composite.base import core  # noqa: E402


def flagged():
    return 1


print(core(flagged, tg=True) is flagged, flagged._func_graph_flags, core(flagged)._func_graph_flags)
print(core(tg=False, x=True)(flagged)._func_graph_flags)
