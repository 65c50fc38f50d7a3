"""`train.callback._CallbackManager` / `_InternalCallbackParam` (MindSpore's
`_callback.CallbackManager` / `InternalCallbackParam`): what MindSpore's own callback tests drive
by hand, outside `Model`."""

import pytest

from cellgrad.train import Callback, RunContext
from cellgrad.train.callback import _CallbackManager, _InternalCallbackParam
from cellgrad.train.callback._callback import CallbackManager, InternalCallbackParam


class Recorder(Callback):
    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def __enter__(self):
        self.log.append((self.tag, "enter"))
        return self

    def __exit__(self, *exc):
        self.log.append((self.tag, "exit"))

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        self.log.append((self.tag, cb.cur_epoch_num))


def test_private_names_are_the_callback_module_classes():
    assert _CallbackManager is CallbackManager
    assert _InternalCallbackParam is InternalCallbackParam


def test_manager_enters_calls_in_order_and_exits():
    log = []
    cb_params = _InternalCallbackParam()
    cb_params.cur_epoch_num = 3
    assert cb_params["cur_epoch_num"] == 3 and cb_params.get("metrics") is None
    with _CallbackManager([Recorder(log, "a"), Recorder(log, "b")]) as manager:
        manager.on_train_epoch_end(RunContext(cb_params))
    assert log == [("a", "enter"), ("b", "enter"), ("a", 3), ("b", 3), ("b", "exit"),
                   ("a", "exit")]


def test_manager_rejects_non_callbacks():
    with pytest.raises(TypeError, match="callback must be a Callback"):
        _CallbackManager([object()])
