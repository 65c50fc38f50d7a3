"""vmap, vjp, jvp, jacfwd, jacrev: values, structures, in/out axes, has_aux, errors."""
import numpy as np

import mindspore as ms
from mindspore import ops


def show(tag, v):
    if isinstance(v, (tuple, list)):
        print(tag, type(v).__name__, len(v))
        for i, e in enumerate(v):
            show(f"{tag}[{i}]", e)
    elif isinstance(v, ms.Tensor):
        print(tag, v.dtype, v.shape)
        print(np.array2string(v.asnumpy(), precision=5, suppress_small=True))
    else:
        print(tag, type(v).__name__, v)


def err(tag, fn):
    try:
        fn()
        print(tag, "no error")
    except Exception as e:  # noqa: BLE001
        print(tag, type(e).__name__)


x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
y = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 8 - 0.5)
b = ms.Tensor(np.array([0.5, -1.0, 2.0], np.float32))


def f(a, c):
    return ops.sin(a) * c


show("vmap0", ms.vmap(f)(x, x))
show("vmap_in", ms.vmap(f, in_axes=(1, None))(x, b[:2]))
show("vmap_out1", ms.vmap(f, in_axes=(0, 0), out_axes=1)(x, x))
def matvec(m, v):
    return ops.matmul(m, v)


def square1(a):
    return a * a + 1


def inner_vmap(a):
    return ms.vmap(square1)(a)


def total(a):
    return a.sum()


def amax(a):
    return a.max()


def two(a):
    return a * 2, (a.sum(), a - 1)


show("vmap_tuple_out", ms.vmap(two)(x))
err("vmap_out_axes_none", lambda: ms.vmap(two, out_axes=(1, (None, 0)))(x))
show("vmap_out_axes_tuple", ms.vmap(two, out_axes=(1, (0, 1)))(x))
show("vmap_nested", ms.vmap(inner_vmap)(x))
show("vmap_scalar_out", ms.vmap(total)(x))
show("ops_vmap", ops.vmap(amax, in_axes=1)(x))
err("vmap_bad_axis", lambda: ms.vmap(f, in_axes=(3, 0))(x, x))
err("vmap_size_mismatch", lambda: ms.vmap(f)(x, y))
err("vmap_all_none", lambda: ms.vmap(f, in_axes=None)(x, x))


def g(a, c):
    return ops.exp(a).sum(axis=1) * c.sum()


out, fn = ms.vjp(g, x, y)
show("vjp_out", out)
show("vjp_grads", fn(ms.Tensor(np.array([1.0, -2.0], np.float32))))
out, fn = ms.vjp(lambda a: a * a, x)
show("vjp_single", fn(ops.ones_like(x)))


def h(a):
    return a * a, a.sum()


out, fn, aux = ms.vjp(h, x, has_aux=True)
show("vjp_aux_out", out)
show("vjp_aux_aux", aux)
show("vjp_aux_g", fn(ops.ones_like(x)))

v = ms.Tensor(np.ones((2, 3), np.float32))


def sinx(a):
    return ops.sin(a) * a


def prod(a, c):
    return a * c


def sin2(a):
    return ops.sin(a) * 2


def scaled(a, c):
    return a * c.sum()


def colsum(a):
    return a.sum(axis=0)


def sq_aux(a):
    return a * a, a + 1


def sq_and_sum(a):
    return a * a, a.sum()


show("jvp", ms.jvp(sinx, x, v))
show("jvp_two", ms.jvp(prod, (x, x), (v, v * 2)))
show("jvp_aux", ms.jvp(h, x, v, has_aux=True))
show("jacrev", ms.jacrev(sin2)(b))
show("jacfwd", ms.jacfwd(sin2)(b))
show("jacrev_pos", ms.jacrev(scaled, grad_position=(0, 1))(b, b))
show("jacfwd_pos", ms.jacfwd(scaled, grad_position=(0, 1))(b, b))
show("jacrev_mat", ms.jacrev(colsum)(x))
show("jacfwd_mat", ms.jacfwd(colsum)(x))
show("jacrev_aux", ms.jacrev(sq_aux, has_aux=True)(b))
show("jacfwd_aux", ms.jacfwd(sq_aux, has_aux=True)(b))
show("jac_multi_out", ms.jacrev(sq_and_sum)(b))
show("jacfwd_multi_out", ms.jacfwd(sq_and_sum)(b))
