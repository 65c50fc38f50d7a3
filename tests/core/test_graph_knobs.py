"""Graph-compiler knobs that PyNative code passes (`mutable`, `JitConfig`, `jit_class`,
`lazy_inline`, `set_recursion_limit`) and the device functions: checked as MindSpore checks them,
computation unchanged. (MindSpore's output: ms_programs/graph_knobs.py.)"""

import pytest

import cellgrad as ms
from cellgrad import Tensor


def test_mutable_keeps_values_and_their_behaviour():
    t = (Tensor(1.0), Tensor(2.0))
    m = ms.mutable(t)
    assert isinstance(m, tuple) and m == t
    assert ms.mutable([1, 2], True) == [1, 2] and ms.mutable(3) == 3
    # as MindSpore 2.10 PyNative: a tuple argument, mutable or not, gets no gradient
    assert ms.grad(lambda pair: pair[0] * pair[1])(ms.mutable(t)) == ()


def test_jit_config_and_cell_set_jit_config_change_nothing():
    cfg = ms.JitConfig(jit_level="O2", custom=1)
    assert cfg.jit_config_dict["backend"] == "GE" and cfg.jit_config_dict["custom"] == 1
    assert "backend" not in ms.JitConfig().jit_config_dict


def test_lazy_inline_and_jit_class_return_what_they_wrap():
    @ms.jit_class
    class Scale:
        pass

    assert Scale.__ms_class__ is True

    @ms.lazy_inline
    def f(x, k=2):
        return x * k

    assert f(3) == 6 and f.__name__ == "f"
    assert ms.lazy_inline(policy="front")(f)(1, 3) == 3


def test_device_functions():
    assert ms.set_device("CPU") is None
    assert ms.get_current_device() == ("CPU", 0)
    assert ms.get_current_device().device_target == "CPU"
    ms.set_deterministic(False)
    ms.set_deterministic(True)


@pytest.mark.parametrize("call,error,text", [
    (lambda: ms.jit_class(3), TypeError, "can only be used for class type"),
    (lambda: ms.set_recursion_limit(0), ValueError, "must be int and must > 0"),
    (lambda: ms.JitConfig(jit_level="O5"), ValueError, "['O0', 'O1', 'O2']"),
    (lambda: ms.JitConfig(exc_mode="x"), ValueError, "'exc_mode' must be one of"),
    (lambda: ms.mutable(1, True), TypeError, "should be list or tuple"),
    (lambda: ms.set_device("GPU"), RuntimeError, "Unsupported device target GPU"),
    (lambda: ms.set_device("TPU"), ValueError, "'device_target' must be one of"),
    (lambda: ms.set_deterministic(1), TypeError, "must be bool"),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_run_check_reports_success(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert ms.__version__ in out and "successfully" in out
