"""MindSpore 2.10 names with no meaning on a CPU: cellgrad raises an AttributeError (an
ImportError for `from ... import`) that says why and what to use instead."""

import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad._not_provided import NOT_PROVIDED


@pytest.mark.parametrize("name, words", [
    ("sparse_flash_attention", "fused attention"),
    ("nsa_select_attention", "nn.MultiheadAttention"),
    ("moe_distribute_dispatch", "mixture-of-experts"),
    ("env_get", "graph compiler"),
    ("UpdateState", "eagerly"),
    ("Push", "parameter-server"),
    ("lightning_indexer", "KV-cache"),
    ("GetNext", "create_tuple_iterator"),
])
def test_ops_names_say_why(name, words):
    assert not hasattr(ops, name)
    with pytest.raises(AttributeError, match=rf"cellgrad\.ops\.{name} \(mindspore\.ops\.{name}\)"):
        getattr(ops, name)
    with pytest.raises(AttributeError) as info:
        getattr(ops, name)
    assert words in str(info.value)


@pytest.mark.parametrize("name, words", [
    ("StreamLimitCtx", "Ascend AI Core cube/vector cores"),
    ("MemPool", "host memory"),
    ("PluggableAllocator", "host memory"),
    ("set_device_limit", "device (Ascend/GPU) memory"),
    ("set_kernel_launch_capture", "drop the call"),
    ("sdc_detect_start", "silent data corruption"),
    ("stress_detect", "silent data corruption"),
])
def test_top_level_names_say_why(name, words):
    with pytest.raises(AttributeError) as info:
        getattr(ms, name)
    assert f"cellgrad.{name} (mindspore.{name})" in str(info.value) and words in str(info.value)


def test_from_import_is_an_import_error():
    with pytest.raises(ImportError, match="parameter-server"):
        from cellgrad.ops import Pull  # noqa: F401


def test_provided_names_are_not_listed():
    for qualname in NOT_PROVIDED:
        namespace, _, name = qualname.rpartition(".")
        module = {"": ms, "ops": ops}.get(namespace)
        if module is not None:
            assert not hasattr(module, name), qualname
