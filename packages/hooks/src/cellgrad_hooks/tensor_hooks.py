"""`Tensor.register_hook`: a hook on the gradient of one Tensor, kept on its tape node.

A Tensor computed while a gradient transform records has a tape node; the hook joins that
node's `hooks` and sees the gradient of this Tensor's output slot once all of it has arrived
(a Tensor used twice: one call with the sum). A Tensor without a node (made outside a gradient
transform) gets a leaf node to carry the hook, as a Parameter has one; gradient transforms
hand such a leaf's hooks to the alias they differentiate (cellgrad's `autodiff._targets`), and
the hook runs on the gradient collected there.
"""

from cellgrad._core._buffer import TensorBuffer

from cellgrad._core import _tape
from cellgrad_hooks.boundary import is_boundary_hook
from cellgrad_hooks.handles import TensorHookHandle
from cellgrad_hooks.invoke import (
    HookReturnTypeError,
    call_in_backward,
    check_grad,
    check_hook_fn,
    hook_name,
    to_tensor,
)

__all__ = ["register"]


class _TensorHook:
    """The tape-node hook for one `register_hook`: runs `fn` on one output slot's gradient."""

    __slots__ = ("fn", "slot", "shape", "dtype")

    def __init__(self, fn, slot, shape, dtype):
        self.fn = fn
        self.slot = slot
        self.shape = shape
        self.dtype = dtype

    def __call__(self, node, gs):
        if gs is None or gs[self.slot] is None:
            return None
        g = gs[self.slot]
        recorded = isinstance(g, TensorBuffer)
        ret = call_in_backward(self._where, self.fn, to_tensor(g, self.dtype), recorded=recorded)
        if ret is None:
            return None
        ret = check_grad(ret, self.shape, self.dtype,
                         f"The Tensor hook '{hook_name(self.fn)}': the gradient it returns",
                         HookReturnTypeError)
        new = list(gs)
        new[self.slot] = ret if recorded else ret._data
        return tuple(new)

    def _where(self):
        return f"The Tensor hook '{hook_name(self.fn)}'"


def register(tensor, hook):
    """Mirrors `Tensor.register_hook`: `hook(grad)` may return a replacement gradient."""
    check_hook_fn(hook)
    if not isinstance(tensor, TensorBuffer):
        raise TypeError(f"register_hook needs a Tensor, got {type(tensor).__name__}.")
    node = tensor._node
    if node is None:
        node = _tape.leaf_node()
        tensor._node = node
        tensor._slot = 0
    if node.hooks is None:
        node.hooks = []
    h = _TensorHook(hook, tensor._slot, tuple(tensor.shape), tensor._dtype)
    hooks = node.hooks
    at = next((i for i, x in enumerate(hooks) if is_boundary_hook(x)), len(hooks))
    hooks.insert(at, h)
    return TensorHookHandle(node, h)


def hooks_of(tensor):
    """The hook functions registered on `tensor` (MindSpore's `Tensor.hooks()`)."""
    node = tensor._node
    if node is None or not node.hooks:
        return []
    return [h.fn for h in node.hooks if isinstance(h, _TensorHook) and h.slot == tensor._slot]
