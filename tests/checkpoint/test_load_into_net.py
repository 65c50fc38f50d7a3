"""`load_param_into_net`: MindSpore's results (checkpoint-format.md §14) and what we add."""

import warnings

import numpy as np
import pytest
from ckpt_helpers import FIXTURES, Bare

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


class Net(nn.Cell):
    """`extra` plus a Bare child `fc`: names `extra`, `fc.weight`, `fc.bias`."""

    def __init__(self, fill=0.0, extra_dtype=np.float32):
        super().__init__()
        self.extra = Parameter(Tensor(np.full(2, fill, extra_dtype)), name="extra")
        self.fc = Bare(np.full((2, 3), fill, np.float32), np.full(2, fill, np.float32))


class Wrapper(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net


def _dict(cell):
    return {p.name: Parameter(Tensor(p.asnumpy()), name=p.name) for p in cell.get_parameters()}


def _load(net, params, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ms.load_param_into_net(net, params, **kwargs)
    assert all(w.filename == __file__ for w in caught)  # attributed to the caller's line
    return result, [str(w.message) for w in caught]


def test_exact_match_loads_in_place(tmp_path):
    net = Net()
    weight = net.fc.weight
    net.fc.bias.requires_grad = False
    result, messages = _load(net, _dict(Net(fill=3.0)))
    assert result == ([], []) and messages == []
    assert net.fc.weight is weight and weight.name == "fc.weight"
    assert weight.asnumpy().tolist() == [[3.0] * 3] * 2
    assert net.fc.bias.requires_grad is False


@pytest.mark.parametrize("strict", [False, True])
def test_missing_and_unused_names(strict):
    params = _dict(Net())
    params["other.w"] = params.pop("extra")
    result, messages = _load(Net(), params, strict_load=strict)
    assert result == (["extra"], ["other.w"])
    assert messages == [
        "For 'load_param_into_net', 1 parameters in the 'net' are not loaded, because they are "
        "not in the 'parameter_dict', please check whether the network structure is consistent "
        "when training and loading checkpoint. ['extra'] are not loaded."]


def test_wrapper_names_load_through_the_prefix_fallback_and_are_not_listed_as_unused():
    net = Net()
    result, messages = _load(net, _dict(Wrapper(Net(fill=2.0))))
    # MindSpore returns ([], ['net.extra', 'net.fc.weight', 'net.fc.bias']) though it loaded them
    assert result == ([], [])
    assert messages == ["For 'load_param_into_net', remove parameter prefix name: net., "
                        "continue to load."]
    assert net.extra.asnumpy().tolist() == [2.0, 2.0]


def test_strict_load_has_no_prefix_fallback_but_suggests_names():
    net = Net()
    result, messages = _load(net, _dict(Wrapper(Net(fill=2.0))), strict_load=True)
    assert result == (["extra", "fc.weight", "fc.bias"],
                      ["net.extra", "net.fc.weight", "net.fc.bias"])
    assert net.extra.asnumpy().tolist() == [0.0, 0.0]
    assert "Did you mean: 'extra' (closest in the checkpoint: 'net.extra'); 'fc.weight' " \
           "(closest in the checkpoint: 'net.fc.weight')" in messages[0]


def test_prefix_and_name_map_rename_checkpoint_names():
    wrapped = _dict(Wrapper(Net(fill=2.0)))
    net = Net()
    assert _load(net, wrapped, strict_load=True, prefix="net.")[0] == ([], [])
    assert net.fc.bias.asnumpy().tolist() == [2.0, 2.0]
    seq = nn.SequentialCell([Bare()])
    bare = ms.load_checkpoint(str(FIXTURES / "dense.ckpt"))
    result, messages = _load(seq, bare)
    assert result == (["0.weight", "0.bias"], ["weight", "bias"])  # as MindSpore
    assert "'0.weight' (closest in the checkpoint: 'weight')" in messages[0]
    assert _load(seq, bare, name_map={"weight": "0.weight", "bias": "0.bias"})[0] == ([], [])
    assert seq[0].bias.asnumpy().tolist() == [0.25, -0.75]
    assert _load(nn.SequentialCell([Bare()]), bare,
                 name_map=lambda k: None if k == "bias" else "0." + k)[0] == (["0.bias"], ["bias"])


def test_str_entries_are_not_loaded_and_stay_unused():
    params = ms.load_checkpoint(str(FIXTURES / "dense_append_str.ckpt"))
    assert _load(Bare(), params)[0] == ([], ["note", "flag"])


def _mismatch(net_shape, ckpt_shape):
    return (f"For 'load_param_into_net', fc.weight in the argument 'net' should have the same "
            f"shape as fc.weight in the argument 'parameter_dict'. But got its shape {net_shape} "
            f"in the argument 'net' and shape {ckpt_shape} in the argument 'parameter_dict'.May "
            f"you need to check whether the checkpoint you loaded is correct or the batch size "
            f"and so on in the 'net' and 'parameter_dict' are same.")


def test_shape_mismatch_raises_as_mindspore_or_is_skipped():
    params = _dict(Net(fill=1.0))
    params["fc.weight"] = Parameter(Tensor(np.ones((2, 4), np.float32)), name="fc.weight")
    with pytest.raises(RuntimeError) as info:
        ms.load_param_into_net(Net(), params)
    assert str(info.value) == _mismatch((2, 3), (2, 4))
    net = Net()
    result, messages = _load(net, params, on_mismatch="skip")
    assert result == (["fc.weight"], ["fc.weight"])
    assert messages == ["For 'load_param_into_net', 1 parameters were skipped because they do "
                        "not fit: 'fc.weight' (shape (2, 3) in the net, (2, 4) in the "
                        "checkpoint)."]
    assert net.fc.weight.asnumpy().sum() == 0 and net.fc.bias.asnumpy().tolist() == [1.0, 1.0]


def test_trailing_ones_are_accepted_and_the_net_keeps_its_shape():
    params = _dict(Net(fill=1.0))
    params["extra"] = Parameter(Tensor(np.array([[[5.0]], [[6.0]]], np.float32)), name="extra")
    net = Net()
    assert _load(net, params)[0] == ([], [])
    assert net.extra.shape == (2,) and net.extra.asnumpy().tolist() == [5.0, 6.0]
    params["extra"] = Parameter(Tensor(np.float32(1.0)), name="extra")  # 0-d into (2,)
    with pytest.raises(RuntimeError, match=r"But got its shape \(2,\) in the argument 'net' and "
                                           r"shape \(\) in the argument 'parameter_dict'"):
        ms.load_param_into_net(Net(), params)


def test_dtypes_convert_within_a_family_unless_strict():
    params = _dict(Net(fill=1.5))
    params["extra"] = Parameter(Tensor(np.array([1.5, 2.5], np.float16)), name="extra")
    net = Net()
    result, messages = _load(net, params)
    assert result == ([], []) and net.extra.dtype == ms.float32
    assert net.extra.asnumpy().tolist() == [1.5, 2.5]
    assert messages == ["The type of extra:Float16 in 'parameter_dict' is different from the "
                        "type of it in 'net':Float32, then the type convert from Float16 to "
                        "Float32 in the network."]
    with pytest.raises(RuntimeError) as info:
        ms.load_param_into_net(Net(), params, strict_load=True)
    assert str(info.value) == (
        "For 'load_param_into_net', extra in the argument 'net' should have the same type as "
        "extra in the argument 'parameter_dict'. but got its type Float32 in the argument 'net' "
        "and type Float16 in the argument 'parameter_dict'.May you need to check whether the "
        "checkpoint you loaded is correct.")
    params["extra"] = Parameter(Tensor(np.array([1, 2], np.int32)), name="extra")
    with pytest.raises(RuntimeError, match="type Float32 in the argument 'net' and type Int32"):
        ms.load_param_into_net(Net(), params)
    bf = Net(extra_dtype=np.float32)
    params["extra"] = Parameter(Tensor(np.array([0.1, 3], np.float32), dtype=ms.bfloat16),
                                name="extra")
    _load(bf, params)
    assert bf.extra.asnumpy().tolist() == [0.10009765625, 3.0]


def test_accu_grads_are_never_reported_missing():
    net = Net()
    net.accu_grads = Parameter(Tensor(np.zeros(1, np.float32)), name="accu_grads.x")
    assert _load(net, _dict(Net()))[0] == ([], [])


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((Bare(), {"weight": Tensor([1.0])}), {}, TypeError,
     "For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
     "'Parameter' , but got <class 'str'> and <class 'cellgrad.common.tensor.Tensor'>."),
    (("net", {}), {}, TypeError, "the argument 'net' should be a Cell, but got <class 'str'>"),
    ((Bare(), []), {}, TypeError, "the argument 'parameter_dict' should be a dict"),
    ((Bare(), {}), {"strict_load": 1}, TypeError, "'strict_load' must be bool"),
    ((Bare(), {}), {"remove_redundancy": True}, TypeError, "can only be used in parallel"),
    ((Bare(), {}), {"on_mismatch": "ignore"}, ValueError, "must be 'raise' or 'skip'"),
    ((Bare(), {}), {"name_map": 3}, TypeError, "'name_map' must be a dict or a function"),
])
def test_argument_errors(args, kwargs, error, message):
    with pytest.raises(error) as info:
        ms.load_param_into_net(*args, **kwargs)
    assert message in str(info.value)


def test_load_checkpoint_with_net_loads_and_returns_the_dict():
    net = Bare()
    params = ms.load_checkpoint(str(FIXTURES / "dense.ckpt"), net=net)
    assert list(params) == ["weight", "bias"]
    assert net.bias.asnumpy().tolist() == [0.25, -0.75]
    assert net.weight is not params["weight"]  # values copied, no aliasing


def test_train_namespace_is_the_same_api():
    assert ms.train.load_param_into_net is ms.load_param_into_net
    assert ms.train.save_checkpoint is ms.save_checkpoint
    assert ms.train.CheckpointError is ms.CheckpointError
