"""`mindspore.ops.composite` leftovers: the `augassign_*` MultitypeFuncGraphs behind `x op= y`,
`tail` and `zip_operation`, and the forward-mode helper `linearize` (`derivative` is in `_jet`)."""

import operator

from cellgrad.ops.composite import MultitypeFuncGraph


def _augassign(name, fn):
    graph = MultitypeFuncGraph(f"augassign_{name}")
    for types in (("Number", "Number"), ("Tensor", "Tensor"), ("Tensor", "Number"),
                  ("Number", "Tensor"), ("String", "String"), ("List", "List"),
                  ("Tuple", "Tuple")):
        graph.register(*types)(fn)
    return graph


augassign_add = _augassign("add", operator.add)
augassign_sub = _augassign("sub", operator.sub)
augassign_mul = _augassign("mul", operator.mul)
augassign_div = _augassign("div", operator.truediv)
augassign_floordiv = _augassign("floordiv", operator.floordiv)
augassign_mod = _augassign("mod", operator.mod)


class _Tail:
    """Mirrors `mindspore.ops.tail`: a tuple or list without its first element (MindSpore 2.10
    returns None in PyNative; this is its graph-mode result)."""

    def __call__(self, *args):
        if len(args) != 1 or not isinstance(args[0], (tuple, list)):
            raise TypeError("For 'tail', the input must be one tuple or list.")
        return args[0][1:]


class _ZipOperation:
    """Mirrors `mindspore.ops.zip_operation`: the sequences zipped into a tuple of tuples
    (MindSpore 2.10 returns None in PyNative; this is its graph-mode result)."""

    def __call__(self, *args):
        if not args or not all(isinstance(a, (tuple, list)) for a in args):
            raise TypeError("For 'zip_operation', every input must be a tuple or list.")
        return tuple(zip(*args))


tail = _Tail()
zip_operation = _ZipOperation()


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def linearize(fn, inputs):
    """Mirrors `mindspore.ops.linearize`: `(fn(*inputs), jvp_fn)` where `jvp_fn(v)` is the
    Jacobian-vector product at `inputs`."""
    from cellgrad.func_transforms import jvp

    primals = _as_tuple(inputs)
    out = fn(*primals)

    def jvp_fn(*tangents):
        tangents = tangents[0] if len(tangents) == 1 and isinstance(tangents[0], (tuple, list)) \
            else tangents
        return jvp(fn, primals, tuple(tangents) if len(primals) > 1 else tangents[0])[1]

    return out, jvp_fn


__all__ = ["augassign_add", "augassign_sub", "augassign_mul", "augassign_div",
           "augassign_floordiv", "augassign_mod", "tail", "zip_operation", "linearize"]
