"""An optimizer call inside a traced function, replayed as one call on arrays.

cellgrad-ops-nn's optimizers update every parameter in one kernel call (`group_update`); their
`construct` takes the gradients as Tensors or as plain arrays (the kernel and the
per-parameter fallback read either). So where the traced function calls such an optimizer, the
plan calls its `construct` with the replay's gradient arrays: no `Cell.__call__`, no Tensor per
gradient, no per-parameter Python — the same kernel on the same arrays, so the same numbers.
Any other optimizer (a subclass with its own `construct` or `_gradient`) stays an eager
island (`plan.IslandStep`).
"""

from cellgrad_jit.plan import Ref, _refs

__all__ = ["OptimizerStep", "fusable"]

_SAFE = None  # the `construct`s known to take gradient arrays, and Optimizer._gradient


def _known():
    global _SAFE
    if _SAFE is None:
        try:
            from cellgrad_nn.optim.adam import Adam
            from cellgrad_nn.optim.optimizer import Optimizer
        except ImportError:  # no cellgrad-ops-nn: no optimizer to fuse
            _SAFE = (frozenset(), None)
        else:
            _SAFE = (frozenset((Optimizer.construct, Adam.construct)), Optimizer._gradient)
    return _SAFE


def fusable(cell, args, kwargs, out):
    """Whether the island `cell(*args, **kwargs)` (args as `Ref` templates) is an optimizer
    call the plan may replace by `OptimizerStep`."""
    constructs, gradient = _known()
    cls = type(cell)
    if cls.construct not in constructs or getattr(cls, "_gradient", None) is not gradient:
        return False
    if "construct" in vars(cell) or kwargs or len(args) != 1:
        return False  # an instance-level construct, or not `optimizer(gradients)`
    grads = args[0]
    if not isinstance(grads, (tuple, list)) or not all(type(g) is Ref for g in grads):
        return False
    return not _refs(out, [])  # the result (True) holds no Tensor


class OptimizerStep:
    """`optimizer.construct(gradient arrays)`: the optimizer's one-call update."""
    __slots__ = ("cell", "grads", "why")

    def __init__(self, cell, grads, why):
        self.cell, self.grads, self.why = cell, [g.s for g in grads], why

    def slots(self):
        return list(self.grads)

    def run(self, env, saved):
        self.cell.construct(tuple(env[s] for s in self.grads))
