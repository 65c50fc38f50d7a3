"""`load_checkpoint_async`: MindSpore's signature, the values of `load_checkpoint`, read in a
worker thread, errors raised by `result()`."""

import inspect
import threading

import numpy as np
import pytest
from ckpt_helpers import FIXTURES, Bare, assert_same_params

import cellgrad as ms
from cellgrad_checkpoint import load_async


def test_names_and_signature():
    assert ms.load_checkpoint_async is ms.train.load_checkpoint_async
    assert list(inspect.signature(ms.load_checkpoint_async).parameters) == [
        "ckpt_file_name", "net", "strict_load", "filter_prefix", "dec_key", "dec_mode",
        "specify_prefix", "choice_func"]


def test_result_equals_load_checkpoint(dense_params):
    future = ms.load_checkpoint_async(str(FIXTURES / "dense.ckpt"))
    assert isinstance(future, load_async.ParamDictFuture)
    from cellgrad.train.serialization import ParamDictFuture

    assert ParamDictFuture is load_async.ParamDictFuture
    assert_same_params(future.result(), dense_params)


def test_reads_in_another_thread(tmp_path, monkeypatch):
    seen = []
    real = load_async.load_checkpoint

    def spy(*args, **kwargs):
        seen.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(load_async, "load_checkpoint", spy)
    ms.load_checkpoint_async(str(FIXTURES / "dense.ckpt")).result()
    assert seen == [False]


def test_loads_into_net_with_prefix(tmp_path):
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(Bare(w, np.array([7.0, 8.0], np.float32)), path)
    net = Bare()
    got = ms.load_checkpoint_async(path, net=net, filter_prefix="b").result()
    assert list(got) == ["weight"]
    np.testing.assert_array_equal(net.weight.asnumpy(), w)
    np.testing.assert_array_equal(net.bias.asnumpy(), np.zeros(2, np.float32))


def test_safetensors_by_name(tmp_path):
    path = str(tmp_path / "net.safetensors")
    ms.save_checkpoint(Bare(np.ones((2, 3), np.float32)), path, format="safetensors")
    got = ms.load_checkpoint_async(path).result()
    np.testing.assert_array_equal(got["weight"].asnumpy(), np.ones((2, 3), np.float32))


def test_errors_come_from_result(tmp_path):
    future = ms.load_checkpoint_async(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="missing.ckpt does not exist"):
        future.result()
    with pytest.raises(AttributeError, match="'ckpt_file_name' must be str"):
        ms.load_checkpoint_async(5)
