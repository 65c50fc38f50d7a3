import numpy as np
import mindspore as ms
from mindspore import ops, Tensor

x = Tensor(np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], np.float32))
y = Tensor(np.array([1.5, 2.0, 3.0], np.float32))
xi = Tensor(np.array([7, -7, 4], np.int32))


def show(name, f):
    try:
        r = f()
        rs = r if isinstance(r, tuple) else (r,)
        lines = [f"{name} {v.dtype} {v.shape} "
                 f"{np.round(v.asnumpy().astype(np.float64), 4).tolist()}"
                 if isinstance(v, Tensor) else f"{name} {type(v).__name__} {v!r}" for v in rs]
    except (TypeError, ValueError, RuntimeError) as e:
        print(name, "error", type(e).__name__)
        return
    print("\n".join(lines))


for n in ["tensor_add", "tensor_div", "tensor_floordiv", "tensor_ge", "tensor_gt", "tensor_le",
          "tensor_lt", "tensor_pow", "tensor_sub", "true_divide", "floordiv", "float_power_ext"]:
    show(n, lambda: getattr(ops, n)(x, y))
    show(n + "_int", lambda: getattr(ops, n)(xi, 2))
show("tensor_muls", lambda: ops.tensor_muls(xi, 2))
show("tensor_muls_err", lambda: ops.tensor_muls(x, y))
show("isnan_ext", lambda: ops.isnan_ext(x))
show("reduce_max", lambda: ops.reduce_max(x, 1))
show("reduce_min", lambda: ops.reduce_min(x))
show("std_mean", lambda: ops.std_mean(x, 1, 1, True))
show("var_mean", lambda: ops.var_mean(x))
show("trapz", lambda: ops.trapz(x))
show("trapz_x", lambda: ops.trapz(x, y))
show("trapz_dx", lambda: ops.trapz(x, dx=0.5, dim=0))
show("is_nonzero", lambda: ops.is_nonzero(Tensor([1.5])))
for n in ["scalar_add", "scalar_div", "scalar_eq", "scalar_floordiv", "scalar_ge", "scalar_gt",
          "scalar_le", "scalar_lt", "scalar_max", "scalar_min", "scalar_mod", "scalar_mul",
          "scalar_pow", "scalar_sub"]:
    show(n, lambda: getattr(ops, n)(7, 2))
    show(n + "_f", lambda: getattr(ops, n)(7.5, -2))
show("scalar_log", lambda: ops.scalar_log(2.0))
show("scalar_uadd", lambda: ops.scalar_uadd(-3))
show("scalar_usub", lambda: ops.scalar_usub(3))
show("scalar_cast", lambda: ops.scalar_cast(3.7, ms.int64))
show("scalar_cast_err", lambda: ops.scalar_cast(3.7, ms.int32))
show("bool_not", lambda: ops.bool_not(True))
for n in ["augassign_add", "augassign_sub", "augassign_mul", "augassign_mod"]:
    show(n, lambda: getattr(ops, n)(x, y))
for n in ["augassign_add", "augassign_sub", "augassign_mul", "augassign_div",
          "augassign_floordiv", "augassign_mod"]:
    show(n + "_s", lambda: getattr(ops, n)(7, 2))
show("tuple_div", lambda: ops.tuple_div((6, 4), (3, 2)))
show("tuple_equal", lambda: ops.tuple_equal((6, 4), (6, 4)))
show("list_equal", lambda: ops.list_equal([6, 4], [6, 5]))
show("shape_mul", lambda: ops.shape_mul((2, 3, 4)))
show("grad_trapz", lambda: ms.grad(lambda a, b: ops.trapz(a, b).sum(), (0, 1))(x, y))
show("grad_std_mean", lambda: ms.grad(lambda a: ops.std_mean(a, 1)[0].sum())(x))
