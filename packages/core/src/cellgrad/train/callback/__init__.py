"""Mirrors `mindspore.train.callback`: names of `cellgrad.train`,
the same objects (see `cellgrad._paths`), and the private names MindSpore's own code and tests
import from here (`_CallbackManager`, `_InternalCallbackParam`: `_callback`'s classes)."""

import sys as _sys

from cellgrad import _namespace
from cellgrad._namespace import plugin_names as _plugin_names

_, __dir__ = _plugin_names(__name__)
_PRIVATE = {"_CallbackManager": "CallbackManager",
            "_InternalCallbackParam": "InternalCallbackParam"}


def __getattr__(name):
    from_import = _namespace._in_from_import(_sys._getframe(1))
    if name in _PRIVATE:
        from cellgrad.train.callback import _callback  # noqa: F401 (the lookup's module)

        return _namespace.lookup(f"{__name__}._callback", "train.callback._callback",
                                 _PRIVATE[name], from_import)
    if name.startswith("_") or not name.isidentifier():  # as plugin_names: never a plugin's
        raise _namespace._no_attribute(__name__, name)
    return _namespace.lookup(__name__, "train.callback", name, from_import)
