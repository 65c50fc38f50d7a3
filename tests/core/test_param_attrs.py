"""Parameter's distributed/cache attributes: MindSpore 2.10's defaults, validation and messages
(recorded from MindSpore 2.10 CPU)."""

import numpy as np
import pytest

import cellgrad as ms


@pytest.fixture
def p():
    return ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")


def test_defaults_as_mindspore(p):
    assert p.cache_enable is False and p.cache_shape == [] and p.comm_fusion == 1
    assert p.key == -1 and p.layerwise_parallel is False and p.parallel_optimizer is True
    assert p.parallel_optimizer_comm_recompute is False and p.sliced is False


def test_values_are_kept_and_param_info_reads_through(p):
    p.comm_fusion, p.cache_enable, p.cache_shape = 2, True, (2, 3)
    assert (p.comm_fusion, p.cache_enable, p.cache_shape) == (2, True, [2, 3])
    info = p.param_info
    assert type(info).__name__ == "ParamInfo"
    assert (info.name, info.requires_grad, info.comm_fusion) == ("w", True, 2)
    p.name = "v"
    assert info.name == "v"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        info.nope  # noqa: B018


def test_constructor_flags_are_checked():
    q = ms.Parameter(ms.Tensor([1.0]), name="q", layerwise_parallel=True, parallel_optimizer=False)
    assert q.layerwise_parallel is True and q.parallel_optimizer is False
    with pytest.raises(TypeError, match="The argument `layerwise_parallel` must be bool type."):
        ms.Parameter(ms.Tensor([1.0]), layerwise_parallel=1)


@pytest.mark.parametrize("attr, value, error, message", [
    ("comm_fusion", "a", TypeError, "The input value must be int, but got 'str'"),
    ("comm_fusion", -1, ValueError, "must >= 0, but got '-1' with type 'int'"),
    ("parallel_optimizer", 1, TypeError, "The argument `parallel_optimizer` must be bool type."),
    ("cache_enable", 1, TypeError, "The argument `cache_enable` must be bool type."),
])
def test_bad_values_raise_mindspores_errors(p, attr, value, error, message):
    with pytest.raises(error) as info:
        setattr(p, attr, value)
    assert message in str(info.value)


def test_add_pipeline_stage(p):
    p.add_pipeline_stage(0)
    p.add_pipeline_stage(1)
    for bad in (-1, 1.5, True):
        with pytest.raises(TypeError, match="`stage` must be a positive number of int type"):
            p.add_pipeline_stage(bad)
