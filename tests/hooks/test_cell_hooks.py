"""Cell hooks: registration and handles, the fast path, the tape boundary of a hooked call,
return values, errors, removal, nested cells, higher orders. MindSpore's own numbers are in
the replayed programs (`ms_programs/`); these tests hold what replays cannot show and where
cellgrad differs on purpose."""

import gc
import weakref

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad._core import _tape


def t(*values):
    return Tensor(np.array(values, np.float32))


class Scale(nn.Cell):
    def __init__(self, k=3.0):
        super().__init__()
        self.w = Parameter(Tensor(np.full(2, k, np.float32)), name="w")

    def construct(self, a):
        return a * self.w


class Mul(nn.Cell):
    def construct(self, a, b=None):
        return a * 3 if b is None else a * b


class Pair(nn.Cell):
    def construct(self, a, b):
        return a * b, a + b


def grads(fn, *args, positions=0):
    return ms.grad(fn, grad_position=positions)(*args)


# ---- registration, handles, the fast path ----

def test_no_hooks_means_the_fast_path_and_removing_the_last_hook_restores_it():
    c = Mul()
    c(t(1, 2))
    assert c._fast and c._hooks is None
    h1 = c.register_forward_hook(lambda cell, args, out: None)
    h2 = c.register_backward_hook(lambda cell, gi, go: None)
    assert not c._fast and c._hooks is not None
    h1.remove()
    assert not c._fast
    h2.remove()
    assert c._fast and c._hooks is None
    np.testing.assert_array_equal(c(t(1, 2)).asnumpy(), [3, 6])


def test_every_registration_gives_a_new_handle_and_remove_is_idempotent():
    c = Mul()
    calls = []
    hook = lambda cell, args, out: calls.append(1)  # noqa: E731
    h1, h2 = c.register_forward_hook(hook), c.register_forward_hook(hook)
    assert h1 is not h2 and h1.handle_id != h2.handle_id
    c(t(1.0))
    assert len(calls) == 2
    h1.remove()
    h1.remove()
    c(t(1.0))
    assert len(calls) == 3
    h2.remove()
    c(t(1.0))
    assert len(calls) == 3


def test_handle_is_a_context_manager():
    c = Mul()
    with c.register_forward_hook(lambda cell, args, out: out * 10) as h:
        np.testing.assert_array_equal(c(t(1.0)).asnumpy(), [30])
    np.testing.assert_array_equal(c(t(1.0)).asnumpy(), [3])
    h.remove()  # still harmless after the context removed it


def test_a_handle_does_not_keep_its_cell_alive():
    c = Mul()
    h = c.register_backward_hook(lambda cell, gi, go: None)
    ref = weakref.ref(c)
    del c
    gc.collect()
    assert ref() is None
    h.remove()


def test_non_callable_hooks_are_rejected_with_mindsporess_message():
    c = Mul()
    for method in ("register_forward_pre_hook", "register_forward_hook",
                   "register_backward_pre_hook", "register_backward_hook"):
        with pytest.raises(TypeError, match="Expected a callable hook function, but got int."):
            getattr(c, method)(3)
    assert c._hooks is None


def test_a_hook_registered_inside_construct_is_added_on_every_call():
    calls = []

    class Registering(nn.Cell):
        def construct(self, a):
            self.register_forward_hook(lambda cell, args, out: calls.append(1))
            return a

    c = Registering()
    counts = []
    for _ in range(3):
        c(t(1.0))
        counts.append(len(calls))
    # as MindSpore: a hook added during a call already runs after that call's construct
    assert counts == [0, 2, 5]


# ---- the boundary keeps the call's own Tensors ----

def test_construct_gets_the_tensors_it_was_called_with():
    seen = []

    class Spy(nn.Cell):
        def construct(self, a, b=None):
            seen.append((a, b))
            return a * 2

    c = Spy()
    c.register_backward_hook(lambda cell, gi, go: None)
    x, y = t(1, 2), t(3, 4)

    def f(a, b):
        out = c(a, b=b)
        assert seen[-1][0] is a and seen[-1][1] is b
        return out.sum()

    ms.grad(f, (0, 1))(x, y)
    assert len(seen) == 1


def test_inputs_are_back_on_their_own_tape_place_after_the_call():
    c = Mul()
    c.register_backward_hook(lambda cell, gi, go: None)
    x = t(1, 2)

    def f(a):
        node = a._node
        out = c(a)
        assert a._node is node and a._slot == 0
        return (out + a).sum()

    np.testing.assert_array_equal(ms.grad(f)(x).asnumpy(), [4, 4])
    assert x._node is None


def test_an_in_place_update_of_an_input_inside_construct_keeps_its_gradient():
    class Overwrite(nn.Cell):
        def construct(self, a):
            a[0] = a[1] * 5
            return a * 2

    def f(cell, a):
        b = a * 1
        return cell(b).sum()

    plain = ms.grad(lambda a: f(Overwrite(), a))(t(1, 2))
    hooked_cell = Overwrite()
    seen = []
    hooked_cell.register_backward_hook(lambda cell, gi, go: seen.append(gi[0].asnumpy()))
    hooked = ms.grad(lambda a: f(hooked_cell, a))(t(1, 2))
    np.testing.assert_array_equal(plain.asnumpy(), [0, 12])
    np.testing.assert_array_equal(hooked.asnumpy(), [0, 12])
    np.testing.assert_array_equal(seen[0], [0, 12])


def test_an_output_that_is_an_input_or_a_parameter_is_handed_on_as_a_new_tensor():
    class Ident(nn.Cell):
        def construct(self, a):
            return a

    class Weight(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t(1, 1), name="w")

        def construct(self):
            return self.w

    seen = []
    ident, weight = Ident(), Weight()
    ident.register_backward_hook(lambda cell, gi, go: seen.append(("ident", gi, go)))
    weight.register_backward_hook(lambda cell, gi, go: seen.append(("weight", gi, go)))
    leaf = weight.w._node

    def f(a):
        out = ident(a)
        assert out is not a and np.shares_memory(out.asnumpy(), a.asnumpy())
        w = weight()
        assert w is not weight.w
        return (out * 3 * w).sum()

    gx, (gw,) = ms.grad(f, 0, weight.trainable_params())(t(1, 2))
    np.testing.assert_array_equal(gx.asnumpy(), [3, 3])
    np.testing.assert_array_equal(gw.asnumpy(), [3, 6])
    assert weight.w._node is leaf
    names = [s[0] for s in seen]
    assert names == ["weight", "ident"]
    np.testing.assert_array_equal(seen[1][1][0].asnumpy(), [3, 3])
    assert seen[0][1] == ()  # no Tensor input: grad_input is empty
    np.testing.assert_array_equal(seen[0][2][0].asnumpy(), [3, 6])


def test_forward_only_calls_create_no_boundary_and_run_no_backward_hooks():
    c = Mul()
    c.register_backward_hook(lambda cell, gi, go: pytest.fail("backward hook in forward"))
    x = t(1, 2)
    out = c(x)
    assert out._node is None and x._node is None


# ---- grad_input and grad_output ----

def test_keyword_tensor_inputs_reach_backward_hooks():
    """Differs on purpose: MindSpore leaves keyword Tensors out of grad_input."""
    seen = []

    def hook(cell, gi, go):
        seen.append(gi)
        return (gi[0], gi[1] * 100)

    c = Mul()
    c.register_backward_hook(hook)
    gx, gy = ms.grad(lambda a, b: c(a, b=b).sum(), (0, 1))(t(1, 2), t(3, 4))
    assert len(seen[0]) == 2
    np.testing.assert_array_equal(seen[0][0].asnumpy(), [3, 4])
    np.testing.assert_array_equal(seen[0][1].asnumpy(), [1, 2])
    np.testing.assert_array_equal(gx.asnumpy(), [3, 4])
    np.testing.assert_array_equal(gy.asnumpy(), [100, 200])


def test_grad_input_is_none_where_no_wanted_gradient_depends_on_the_input():
    c = Scale(2.0)
    seen = []
    c.register_backward_hook(lambda cell, gi, go: seen.append((gi, go)))
    x = t(1, 2)
    (gw,) = ms.grad(lambda a: c(a).sum(), None, c.trainable_params())(x)
    np.testing.assert_array_equal(gw.asnumpy(), [1, 2])
    assert seen[0][0] == (None,)
    np.testing.assert_array_equal(seen[0][1][0].asnumpy(), [1, 1])
    gx = ms.grad(lambda a: c(a).sum())(x)
    np.testing.assert_array_equal(gx.asnumpy(), [2, 2])
    np.testing.assert_array_equal(seen[1][0][0].asnumpy(), [2, 2])


def test_grad_input_of_a_constant_input_is_none_and_replacing_it_changes_nothing():
    c = Pair()
    seen = []
    c.register_backward_hook(lambda cell, gi, go: seen.append(gi) or (gi[0], None))
    x, k = t(1, 2), t(3, 4)
    gx = ms.grad(lambda a: (c(a, k)[0] * 2).sum())(x)
    np.testing.assert_array_equal(gx.asnumpy(), [6, 8])
    assert seen[0][1] is None


def test_backward_hook_sees_only_its_own_cells_gradients_not_those_of_hook_ops():
    c = Mul()
    seen = []
    c.register_forward_pre_hook(lambda cell, args: (args[0] * 5,))
    c.register_forward_hook(lambda cell, args, out: out * 7)
    c.register_backward_hook(lambda cell, gi, go: seen.append((gi[0].asnumpy(),
                                                               go[0].asnumpy())))
    g = ms.grad(lambda a: c(a).sum())(t(1, 2))
    np.testing.assert_array_equal(g.asnumpy(), [105, 105])
    # grad_output is w.r.t. the hook-modified output, grad_input w.r.t. the modified input,
    # and the backward hook sees the gradients of its cell's call, not the ops around it
    np.testing.assert_array_equal(seen[0][1], [1, 1])
    np.testing.assert_array_equal(seen[0][0], [21, 21])


def test_bare_tensor_return_is_accepted_for_one_input_only():
    c = Mul()
    c.register_backward_hook(lambda cell, gi, go: gi[0] * 10)
    np.testing.assert_array_equal(grads(lambda a: c(a).sum(), t(1, 2)).asnumpy(), [30, 30])
    p = Pair()
    p.register_backward_hook(lambda cell, gi, go: gi[0])
    with pytest.raises(TypeError, match="The backward hook return value size is 1 not equal to "
                                        "expect grad input size 2.*'Pair'"):
        ms.grad(lambda a, b: p(a, b)[0].sum(), (0, 1))(t(1, 2), t(3, 4))


def test_wrong_shape_or_dtype_from_a_backward_hook_names_the_cell_and_hook():
    def wrong_shape(cell, gi, go):
        return (Tensor(np.ones(3, np.float32)),)

    def wrong_dtype(cell, gi, go):
        return (Tensor(np.ones(2, np.int32)),)

    def not_a_tensor(cell, gi, go):
        return 5.0

    for hook, error, text in ((wrong_shape, ValueError, r"shape \(2,\).*got shape \(3,\)"),
                              (wrong_dtype, ValueError, "dtype Float32.*dtype Int32"),
                              (not_a_tensor, TypeError, "must be a Tensor.*got float")):
        c = Mul()
        c.register_backward_hook(hook)
        with pytest.raises(error, match=rf"'Mul', the backward hook '.*{hook.__name__}'.*{text}"):
            grads(lambda a, c=c: c(a).sum(), t(1, 2))


def test_backward_pre_hook_replaces_grad_output_and_checks_its_size():
    c = Pair()
    c.register_backward_pre_hook(lambda cell, go: (go[0] * 0, go[1] * 10))
    ga, gb = ms.grad(lambda a, b: sum(o.sum() for o in c(a, b)), (0, 1))(t(1, 2), t(3, 4))
    np.testing.assert_array_equal(ga.asnumpy(), [10, 10])
    np.testing.assert_array_equal(gb.asnumpy(), [10, 10])
    c2 = Pair()
    c2.register_backward_pre_hook(lambda cell, go: (go[0], go[0], go[1]))
    with pytest.raises(TypeError, match="The backward pre hook return value size is 3 not "
                                        "equal to expect output size 2"):
        ms.grad(lambda a, b: sum(o.sum() for o in c2(a, b)), (0, 1))(t(1, 2), t(3, 4))


def test_tuple_outputs_with_non_tensor_elements_and_namedtuples():
    from collections import namedtuple

    Out = namedtuple("Out", "value scale")

    class Named(nn.Cell):
        def construct(self, a):
            return Out(a * 2, 3)

    c = Named()
    seen = []
    c.register_backward_pre_hook(lambda cell, go: seen.append(len(go)))

    def f(a):
        out = c(a)
        assert isinstance(out, Out) and out.scale == 3
        return (out.value * out.scale).sum()

    np.testing.assert_array_equal(grads(f, t(1, 2)).asnumpy(), [6, 6])
    assert seen == [1]


# ---- bprop cells, mixed precision, higher orders ----

def test_hooks_on_a_cell_with_bprop():
    """Backward hooks see bprop's gradients, as MindSpore; forward hooks run too (MindSpore
    returns a dummy handle from register_forward_hook on a bprop cell and never calls it)."""

    class Custom(nn.Cell):
        def construct(self, a):
            return a * 3

        def bprop(self, a, out, dout):
            return (dout * 100,)

    c = Custom()
    seen = []
    c.register_forward_hook(lambda cell, args, out: out * 2)
    c.register_backward_hook(lambda cell, gi, go: seen.append((gi[0].asnumpy(),
                                                               go[0].asnumpy())))
    g = grads(lambda a: c(a).sum(), t(1, 2))
    np.testing.assert_array_equal(g.asnumpy(), [200, 200])
    np.testing.assert_array_equal(seen[0][0], [200, 200])
    np.testing.assert_array_equal(seen[0][1], [1, 1])


def test_hooks_see_a_mixed_precision_cells_dtypes():
    c = Scale(1.0)
    c.to_float(ms.float16)
    seen = []
    c.register_backward_hook(lambda cell, gi, go: seen.append((gi[0].dtype, go[0].dtype)))
    g = grads(lambda a: c(a).sum(), t(1, 2))
    # MindSpore 2.10 casts inside the cell: grad_input has the input's dtype (checked there)
    assert seen == [(ms.float32, ms.float16)]
    assert g.dtype == ms.float32


def test_hooks_are_differentiated_for_higher_orders():
    class Cube(nn.Cell):
        def construct(self, a):
            return a * a * a

    c = Cube()
    c.register_backward_hook(lambda cell, gi, go: (gi[0] * 2,))
    f = lambda a: c(a).sum()  # noqa: E731
    x = t(1, 2)
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), [6, 24])  # 2 * 3a^2
    np.testing.assert_allclose(ms.grad(ms.grad(f))(x).asnumpy(), [12, 24])  # 2 * 6a


# ---- order, nesting, removal ----

def test_nested_cells_run_inner_backward_hooks_first_even_without_input_gradients():
    """With no input gradient wanted MindSpore runs the outer cell's backward hook before the
    first inner cell's; here inner cells always come first."""
    log = []

    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Scale(2.0)
            self.b = Scale(3.0)

        def construct(self, x):
            return self.b(self.a(x))

    net = Two()
    for name, cell in (("outer", net), ("a", net.a), ("b", net.b)):
        cell.register_backward_hook(lambda c, gi, go, n=name: log.append(n))
    ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(t(1, 2))
    assert log == ["b", "a", "outer"]


def test_a_hook_removed_during_backward_does_not_run_even_on_the_same_cell():
    """MindSpore fails here ('OrderedDict mutated during iteration')."""
    c = Mul()
    handles, log = {}, []

    def first(cell, gi, go):
        log.append("first")
        handles["second"].remove()

    c.register_backward_hook(first)
    handles["second"] = c.register_backward_hook(lambda cell, gi, go: log.append("second"))
    grads(lambda a: c(a).sum(), t(1, 2))
    grads(lambda a: c(a).sum(), t(1, 2))
    assert log == ["first", "first"]


def test_removing_the_last_hook_during_backward():
    c = Mul()
    handles = {}

    def once(cell, gi, go):
        handles["once"].remove()
        return (gi[0] * 2,)

    handles["once"] = c.register_backward_hook(once)
    np.testing.assert_array_equal(grads(lambda a: c(a).sum(), t(1, 2)).asnumpy(), [6, 6])
    assert c._hooks is None and c._fast
    np.testing.assert_array_equal(grads(lambda a: c(a).sum(), t(1, 2)).asnumpy(), [3, 3])


def test_always_call_forward_hooks_run_when_a_pre_hook_raises():
    c = Mul()
    seen = []
    c.register_forward_pre_hook(lambda cell, args: 1 / 0)
    c.register_forward_hook(lambda cell, args, out: seen.append(out), always_call=True)
    with pytest.raises(ZeroDivisionError):
        c(t(1.0))
    assert seen == [None]


def test_an_always_call_hook_that_raises_after_an_error_warns():
    class Bad(nn.Cell):
        def construct(self, a):
            raise RuntimeError("construct failed")

    c = Bad()
    c.register_forward_hook(lambda cell, args, out: 1 / 0, always_call=True)
    with pytest.warns(RuntimeWarning, match="always_call=True.*division by zero"):
        with pytest.raises(RuntimeError, match="construct failed"):
            c(t(1.0))


# ---- hooks that raise ----

@pytest.mark.parametrize("kind", ["forward_pre", "forward", "backward_pre", "backward"])
def test_a_raising_hook_names_the_cell_and_leaves_the_tape_clean(kind):
    def boom(*args):
        raise KeyError("boom")

    c = Scale(3.0)
    getattr(c, f"register_{kind}_hook")(boom)
    x = t(1, 2)
    pretty = kind.replace("_", " ")
    with pytest.raises(KeyError, match=rf"For 'Scale', the {pretty} hook 'boom' raised KeyError: "
                                       "'boom'") as info:
        ms.grad(lambda a: c(a).sum(), 0, c.trainable_params())(x)
    assert isinstance(info.value.__cause__, KeyError)
    assert _tape.recording_depth() == 0 and _tape.is_grad_enabled()
    assert x._node is None
    plain = Scale(3.0)
    gx, (gw,) = ms.grad(lambda a: plain(a).sum(), 0, plain.trainable_params())(x)
    np.testing.assert_array_equal(gx.asnumpy(), [3, 3])
    np.testing.assert_array_equal(gw.asnumpy(), [1, 2])


def test_an_exception_class_that_cannot_take_a_message_propagates_unchanged():
    class Strict(Exception):
        def __init__(self, code, detail):
            super().__init__(code, detail)

    def hook(cell, args, out):
        raise Strict(7, "x")

    c = Mul()
    c.register_forward_hook(hook)
    with pytest.raises(Strict) as info:
        c(t(1.0))
    assert info.value.args == (7, "x")
