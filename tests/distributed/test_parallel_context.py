"""`set_auto_parallel_context` & co.: MindSpore 2.10's keys, defaults and errors (recorded
from MindSpore 2.10 on the CPU), and what data-parallel mode changes in training."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn

# get_auto_parallel_context(key) right after import, as MindSpore 2.10 returns them
MINDSPORE_DEFAULTS = {
    "parallel_mode": "stand_alone", "gradients_mean": False, "device_num": 1, "global_rank": 0,
    "gradient_fp32_sync": True, "loss_repeated_mean": True,
    "search_mode": "recursive_programming", "parameter_broadcast": False, "full_batch": False,
    "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False,
    "all_reduce_fusion_config": [], "pipeline_stages": 1, "grad_accumulation_step": 1,
    "enable_alltoall": False, "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "",
    "optimizer_weight_shard_size": -1, "pipeline_scheduler": "1f1b",
    "force_fp32_communication": False,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
}


def test_defaults_are_mindspores():
    for key, value in MINDSPORE_DEFAULTS.items():
        assert ms.get_auto_parallel_context(key) == value, key


def test_set_get_reset():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, device_num=2)
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.get_auto_parallel_context("device_num") == 2
    got = ms.get_auto_parallel_context("comm_fusion")
    got["allreduce"]["mode"] = "size"  # a copy: the context is not changed through it
    assert ms.get_auto_parallel_context("comm_fusion")["allreduce"]["mode"] == "auto"
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False


def test_parallel_mode_names():
    P = ms.ParallelMode
    assert (P.STAND_ALONE, P.DATA_PARALLEL, P.HYBRID_PARALLEL, P.SEMI_AUTO_PARALLEL,
            P.AUTO_PARALLEL) == ("stand_alone", "data_parallel", "hybrid_parallel",
                                 "semi_auto_parallel", "auto_parallel")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"nope": 1}, ValueError, "Set context keyword nope is not recognized!"),
    ({"parallel_mode": "bogus"}, ValueError,
     "The context configuration parameter 'parallel_mode' only support 'stand_alone', "
     "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got "
     "the value : bogus."),
    ({"gradients_mean": 1}, TypeError,
     "The parameter 'gradients_mean' must be <class 'bool'>, but got <class 'int'>"),
    ({"device_num": 0}, ValueError,
     "The context configuration parameter 'device_num' must be a positive integer, but got "
     "the value of device_num : 0."),
    ({"parallel_mode": "semi_auto_parallel"}, ValueError,
     "cellgrad runs data parallelism only"),
    ({"comm_fusion": {"allreduce": {"mode": "size", "config": -1}}}, TypeError,
     "comm_fusion allreduce 'size' mode needs a positive number of MB"),
])
def test_bad_values_raise_mindspores_errors(kwargs, error, message):
    with pytest.raises(error) as info:
        ms.set_auto_parallel_context(**kwargs)
    assert message in str(info.value)
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"  # nothing was set


def test_get_of_an_unknown_key():
    with pytest.raises(ValueError, match="Get context keyword nope is not recognized!"):
        ms.get_auto_parallel_context("nope")


def _train(steps=2):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Adam(net.trainable_params(), 0.1))
    x = Tensor(np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32))
    y = Tensor(np.zeros((5, 2), np.float32))
    for _ in range(steps):
        step(x, y)
    return step, [p.asnumpy().copy() for p in net.trainable_params()]


def test_data_parallel_mode_gives_train_one_step_cell_a_reducer(world):
    alone, expected = _train()
    assert type(alone.grad_reducer).__name__ == "function"  # stand-alone: identity
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    dp, got = _train()
    assert isinstance(dp.grad_reducer, nn.DistributedGradReducer)
    assert dp.grad_reducer.mean is True and dp.grad_reducer.degree == 1
    for a, b in zip(got, expected):  # a world of one trains exactly as one process
        np.testing.assert_array_equal(a, b)
