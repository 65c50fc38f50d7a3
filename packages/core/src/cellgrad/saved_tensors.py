"""Pack and unpack hooks for the tensors the tape saves for backward (`ms.saved_tensors_hooks`).

Inside the context every op recorded on the tape hands each array it keeps for its backward
rule to `pack_hook` (as a Tensor: the op's input or output Tensor itself when the array is
one of theirs) and keeps only what the hook returns; the tape's own reference is dropped. When
the gradient walk reaches the op, `unpack_hook` turns each packed object back into the Tensor
the rule computes with, just before the rule runs. The hook point is an op observer
(`cellgrad.observe`), installed only while a context is open, plus one node hook per recorded
op. As in MindSpore, the innermost open context's hooks apply.
"""

import numpy as np

__all__ = ["saved_tensors_hooks", "register_saved_tensors_hooks"]

_stack = []        # (pack_hook, unpack_hook) of the open contexts, innermost last
_watch = {}        # "handle": the observer handle while any context is open
_packing = []      # non-empty while a pack_hook runs: ops it records are not packed again


class _Unpack:
    """A node hook that restores the node's saved arrays from their packed forms."""

    __slots__ = ("packed", "unpack_hook")

    def __init__(self, packed, unpack_hook):
        self.packed = packed          # per saved value: (True, packed object) or (False, value)
        self.unpack_hook = unpack_hook

    def __call__(self, node, grads):
        if grads is None:
            return None               # the walk passes this node without running its rule
        saved = []
        for was_packed, value in self.packed:
            if was_packed:
                value = _as_array(self.unpack_hook(value), node)
            saved.append(value)
        node.saved = tuple(saved)
        return None


def _as_array(value, node):
    from cellgrad.common.tensor import Tensor

    if not isinstance(value, Tensor):
        raise RuntimeError(
            f"For 'saved_tensors_hooks', the unpack_hook must return a Tensor (the value the "
            f"backward of '{node.op.name}' computes with), but got {type(value).__name__}.")
    return value.asnumpy() if value._data is None else value._data


def _tensor_for(array, inputs, outputs):
    """The Tensor `array` belongs to (an output or input of the op), else a new one on it."""
    from cellgrad.common.tensor import Tensor

    for t in outputs:
        if isinstance(t, Tensor) and t._data is array:
            return t
    for t in inputs:
        if isinstance(t, Tensor) and t._data is array:
            return t
    return Tensor(array)


def _pack(node, inputs, result, pack_hook, unpack_hook):
    hooks = node.hooks
    if hooks and any(isinstance(h, _Unpack) for h in hooks):
        return                        # already packed (an op that returned an earlier output)
    saved = node.saved
    if not saved:
        return
    outputs = result if isinstance(result, tuple) else (result,)
    packed = []
    for value in saved:
        if type(value) is np.ndarray:
            _packing.append(True)
            try:
                packed.append((True, pack_hook(_tensor_for(value, inputs, outputs))))
            finally:
                _packing.pop()
        else:
            packed.append((False, value))  # shapes, attributes, None: kept as they are
    node.saved = tuple(None if p else v for p, v in packed)
    unpacker = _Unpack(packed, unpack_hook)
    if hooks is None:
        node.hooks = [unpacker]
    else:
        hooks.append(unpacker)


def _observer():
    from cellgrad.observe import Observer

    class _Packer(Observer):
        def op_end(self, op, inputs, attrs, result):
            if not _stack or _packing:
                return
            first = result[0] if isinstance(result, tuple) and result else result
            node = getattr(first, "_node", None)
            if node is None or node.op is not op:
                return                # not recorded (no gradient flows), or not this op's node
            _pack(node, inputs, result, *_stack[-1])

    return _Packer()


def _push(hooks):
    from cellgrad import observe

    _stack.append(hooks)
    if "handle" not in _watch:
        _watch["handle"] = observe.add_observer(_observer())


def _pop():
    _stack.pop()
    if not _stack and "handle" in _watch:
        _watch.pop("handle").remove()


def _check_hook(name, hook):
    if not callable(hook):
        raise TypeError(f"For 'saved_tensors_hooks', the argument '{name}' must be callable, "
                        f"but got {type(hook).__name__}.")


class saved_tensors_hooks:
    """Mirrors `mindspore.saved_tensors_hooks`: inside the context, the tensors the forward
    saves for backward go through `pack_hook` when saved and `unpack_hook` when the backward
    needs them."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self.pushed = False

    def __enter__(self):
        _check_hook("pack_hook", self.pack_hook)  # checked on entry, as MindSpore does
        _check_hook("unpack_hook", self.unpack_hook)
        _push((self.pack_hook, self.unpack_hook))
        self.pushed = True
        return self

    def __exit__(self, *args):
        if self.pushed:
            _pop()
            self.pushed = False


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Mirrors `mindspore.register_saved_tensors_hooks`: marks the function with the hooks
    (`_saved_tensors_pack_hook` / `_saved_tensors_unpack_hook` on the innermost wrapped
    function), which MindSpore's graph compiler applies. As in MindSpore's PyNative mode,
    calling the function eagerly does not apply them: use `saved_tensors_hooks` there."""
    import inspect

    def decorator(func):
        wrapped = inspect.unwrap(func)
        wrapped._saved_tensors_pack_hook = pack_hook
        wrapped._saved_tensors_unpack_hook = unpack_hook
        return func

    return decorator
