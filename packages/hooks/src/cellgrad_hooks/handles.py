"""Removable handles: what every `register_*hook` returns (MindSpore's `HookHandle`).

A handle holds its hook's owner weakly, so a handle kept around does not keep a Cell or a
tape node alive. `remove()` is idempotent and the handle is a context manager that removes
its hook on exit (PyTorch's `RemovableHandle` does the same; MindSpore's handle does not).
"""

import itertools
import weakref

__all__ = ["HookHandle", "TensorHookHandle", "tensor_handle"]

_ids = itertools.count()
_tensor_handles = weakref.WeakValueDictionary()  # handle_id -> live TensorHookHandle


class HookHandle:
    """Mirrors `mindspore.common.hook_handle.HookHandle`: `remove()` takes the hook off.

    Every registration gives a new handle with a new `handle_id`.
    """

    __slots__ = ("handle_id", "_owner", "__weakref__")

    def __init__(self, owner):
        self.handle_id = next(_ids)
        # The Cell's hook table (`runner.CellHooks`); it has `_remove(handle_id)`.
        self._owner = weakref.ref(owner)

    def remove(self):
        """Remove the hook; calling it again (or after the owner is gone) does nothing."""
        owner = self._owner()
        if owner is not None:
            owner._remove(self.handle_id)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()
        return False

    def __repr__(self):
        return f"<{type(self).__name__} {self.handle_id}>"


class TensorHookHandle(HookHandle):
    """The handle of `Tensor.register_hook` (MindSpore's `_TensorHookHandle`)."""

    __slots__ = ("_hook",)

    def __init__(self, node, hook):
        super().__init__(node)  # the tape node whose `hooks` list holds `hook`
        self._hook = hook
        _tensor_handles[self.handle_id] = self

    def remove(self):
        node = self._owner()
        if node is not None and node.hooks is not None and self._hook in node.hooks:
            node.hooks.remove(self._hook)


def tensor_handle(handle_id):
    """The live `Tensor.register_hook` handle with `handle_id`, or None (`Tensor.remove_hook`)."""
    return _tensor_handles.get(handle_id)
