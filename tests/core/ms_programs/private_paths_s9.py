import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore._c_expression import CreationType, get_code_extra
from mindspore._extends.parse import standard_method as sm
from mindspore.numpy import utils_const as uc
from mindspore.ops import auto_generate as gen

ms.set_context(mode=ms.PYNATIVE_MODE)


def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, str(e).splitlines()[0])


rng = np.random.default_rng(0)
x1 = Tensor(rng.normal(size=(2, 3, 4)).astype(np.float32))
x2 = Tensor(rng.normal(size=(2, 5, 4)).astype(np.float32))
g = Tensor(rng.normal(size=(2, 3, 5)).astype(np.float32))
for p in (0.0, 1.0, 2.0, 3.0, 0.5, 1.5, float("inf")):
    print(p, gen.CdistGrad(p)(g, x1, x2, ops.cdist(x1, x2, p)))
for p in ("a", True, 2):
    attempt(p, lambda p=p: gen.CdistGrad(p)(g, x1, x2, ops.cdist(x1, x2, 2.0)))
a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
print(gen.SumExt()(a), gen.SumExt()(a, (1,), True), gen.SumExt()(a, 0, False, ms.int32))
print(gen.Pow()(a, 2.0), gen.add(a, a), gen.gen_ops_prim.Pow is ops.Pow)

print(repr(CreationType.DEFAULT), str(CreationType.MULTI_OUTPUT), int(CreationType.CUSTOM_BPROP))
print(CreationType.NO_GRAD_MODE.name, CreationType.NO_GRAD_MODE.value)
print(get_code_extra(attempt), get_code_extra(attempt.__code__))

x = Tensor(np.arange(12.0).reshape(3, 4))
print(sm.var(x), sm.var(x, 1, 1, True), sm.reshape(x, 4, 3).shape, sm.reshape(x, (12,)).shape)
print(sm.topk(x, 2), sm.argmax(x, 1), sm.take(x, Tensor([0, 11])), sm.swapaxes(x, 0, 1).shape)
print(sm.squeeze(sm.unsqueeze(x, 0)).shape, sm.view(x, 2, 6).shape, sm.diagonal(x, 1))
print(sm.searchsorted(Tensor([1.0, 3.0, 5.0]), Tensor([2.0, 5.0]), side="right"))
print(sm.to_int(x).dtype, sm.to_half(x).dtype, sm.to_bool(x).dtype, sm.to_double(x).dtype)
print(repr(sm.tensor_bool(Tensor([4.0]))), repr(sm.tensor_bool(Tensor(0))))
attempt("tensor_bool", lambda: sm.tensor_bool(Tensor([1.0, 2.0])))
attempt("tensor_bool", lambda: sm.tensor_bool(Tensor(np.ones((1, 1)))))

print(uc._infer_out_shape((5,), (6, 1), (7, 1, 5), (8, 1, 6, 1)), uc._can_broadcast((2, 3), (4, 3)))
attempt("infer", lambda: uc._infer_out_shape((2, 3), (4, 3)))
print(uc._canonicalize_axis(0, 2), uc._canonicalize_axis(-1, 3), uc._canonicalize_axis((2, -3), 3))
attempt("axis", lambda: uc._canonicalize_axis((0, -2), 2))
attempt("axis", lambda: uc._canonicalize_axis(3, 2))
attempt("axis", lambda: uc._canonicalize_axis(1.0, 2))
print(uc._add_unit_axes((2, 3), 4), uc._add_unit_axes(5, 3, True), uc._expanded_shape(3, 7, 1))
print(uc._tile_size((1, 3), (4, 3), 2), uc._broadcast_tuples(1, (0, 1)))
print(uc._seq_prod((2, 3), (4, 5)), uc._broadcast_tuples([1, 2], 0))
print(uc._is_shape_empty((2, 0)), uc._is_shape_empty([2, 3]), uc._cumprod((2, 3, 4)))
print(uc._iota(ms.int32, 4), uc._iota(ms.float32, 3, False))
try:
    uc._is_shape_empty(3)
except TypeError:
    print("TypeError")
attempt("elem", lambda: uc._check_element_int((1, 2.0)))
