"""`mindspore.context` as MindSpore 2.10 has it, with the parallel and parameter-server
contexts on one device (the core's, so no distributed package is needed): names, defaults and
errors recorded from MindSpore 2.10 on the CPU; and `install_alias`, which maps every
`mindspore.x.y` import to cellgrad's for replays and real clients."""

import subprocess
import sys

import pytest

import cellgrad as ms
from cellgrad import context, parallel_context
from cellgrad.parallel import _utils

# mindspore.context.__all__ in MindSpore 2.10
MINDSPORE_CONTEXT = ["GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "COMPATIBLE", "LAX",
                     "set_context", "get_context", "set_auto_parallel_context",
                     "get_auto_parallel_context", "reset_auto_parallel_context", "ParallelMode",
                     "set_ps_context", "get_ps_context"]
# get_ps_context(key) after import in MindSpore 2.10
PS_DEFAULTS = {"server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0,
               "server_num": 0, "scheduler_ip": "127.0.0.1", "scheduler_port": 6667,
               "enable_ssl": False, "config_file_path": ""}


@pytest.fixture(autouse=True)
def fresh():
    ms.reset_auto_parallel_context()
    parallel_context._ps_context.update(PS_DEFAULTS)
    yield
    ms.reset_auto_parallel_context()
    parallel_context._ps_context.update(PS_DEFAULTS)


def test_context_has_mindspores_names_at_both_paths():
    assert set(MINDSPORE_CONTEXT) <= set(context.__all__)
    for name in MINDSPORE_CONTEXT + ["reset_ps_context"]:
        assert getattr(context, name) is getattr(ms, name), name
    assert (ms.STRICT, ms.COMPATIBLE, ms.LAX) == (0, 1, 2)


def test_auto_parallel_context_on_one_device():
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("device_num") == 1
    context.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                      gradients_mean=True, device_num=8)
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.get_auto_parallel_context("device_num") == 8
    context.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False


@pytest.mark.parametrize("kwargs, error, message", [
    ({"nope": 1}, ValueError, "Set context keyword nope is not recognized!"),
    ({"gradients_mean": 1}, TypeError,
     "The parameter 'gradients_mean' must be <class 'bool'>, but got <class 'int'>"),
    ({"parallel_mode": "auto_parallel"}, ValueError, "cellgrad runs data parallelism only"),
])
def test_auto_parallel_errors(kwargs, error, message):
    with pytest.raises(error) as info:
        ms.set_auto_parallel_context(**kwargs)
    assert message in str(info.value)
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_ps_context_defaults_and_reset():
    for key, value in PS_DEFAULTS.items():
        got = ms.get_ps_context(key)
        assert got == value and type(got) is type(value), key
    ms.set_ps_context(worker_num=3, enable_ps=False, client_password="x")
    assert ms.get_ps_context("worker_num") == 3
    ms.reset_ps_context()  # MindSpore resets only enable_ps
    assert ms.get_ps_context("worker_num") == 3 and ms.get_ps_context("enable_ps") is False


def test_ps_context_errors():
    with pytest.raises(ValueError, match="^Set PS context keyword nope is not recognized!$"):
        ms.set_ps_context(nope=1)
    with pytest.raises(ValueError, match="^Get PS context keyword client_password is not "
                                         "recognized!$"):
        ms.get_ps_context("client_password")  # a key MindSpore sets but never returns
    with pytest.raises(TypeError, match="'worker_num' must be int, but got str"):
        ms.set_ps_context(worker_num="2")
    with pytest.raises(ValueError, match="parameter-server training .* which cellgrad does not "
                                         "provide: train data-parallel"):
        context.set_ps_context(enable_ps=True, worker_num=2)
    assert ms.get_ps_context("enable_ps") is False and ms.get_ps_context("worker_num") == 0


def test_install_alias_maps_every_mindspore_module():
    code = """
from cellgrad.ms_replay import install_alias
install_alias()
import mindspore, mindspore.nn.optim.momentum as m
from mindspore.ops import operations as P
from mindspore.common.parameter import Parameter
import cellgrad
assert mindspore is cellgrad and P is cellgrad.ops.operations and Parameter is cellgrad.Parameter
assert m is cellgrad.nn.optim.momentum
import mindspore.log
assert mindspore.log is cellgrad.log
try:
    import mindspore.no_such_module
except ModuleNotFoundError as e:
    print(e)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "No module named 'mindspore.no_such_module'\n"


def test_parallel_utils_that_training_code_imports():
    """mindspore.parallel._utils on the CPU without init(), as MindSpore 2.10 answers."""
    assert ms.parallel._utils is _utils
    got = (_utils._get_parallel_mode(), _utils._get_gradients_mean(), _utils._get_device_num(),
           _utils._is_sharding_propagation(), _utils._get_enable_parallel_optimizer(),
           _utils._get_pipeline_stages(), _utils._get_global_rank())
    assert got == ("stand_alone", False, 1, False, False, 1, 0)
    ms.set_auto_parallel_context(parallel_mode="data_parallel", device_num=4, global_rank=3,
                                 gradients_mean=True)
    assert (_utils._get_parallel_mode(), _utils._get_gradients_mean()) == ("data_parallel", True)
    assert (_utils._get_device_num(), _utils._get_global_rank()) == (4, 3)
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="data_parallel")
    assert (_utils._get_device_num(), _utils._get_global_rank()) == (1, 0)  # a world of one


# dir(auto_parallel_context()) of MindSpore 2.10: its get_/set_ methods
MINDSPORE_APC_METHODS = set("""
    get_all_reduce_fusion_split_indices get_all_reduce_fusion_split_sizes
    get_auto_parallel_new_interface get_auto_parallel_search_mode get_auto_pipeline
    get_comm_fusion get_communi_parallel_mode get_dataset_strategy get_device_num
    get_device_num_is_set get_dump_device_local_norm get_dump_local_norm get_dump_local_norm_path
    get_enable_all_gather_fusion get_enable_all_reduce_fusion get_enable_alltoall
    get_enable_fold_pipeline get_enable_parallel_optimizer get_enable_reduce_scatter_fusion
    get_force_fp32_communication get_full_batch get_full_batch_is_set get_global_rank
    get_global_rank_is_set get_grad_accumulation_shard get_grad_accumulation_step
    get_gradient_fp32_sync get_gradients_mean get_init_param_in_compile get_loss_repeated_mean
    get_optimizer_weight_shard_aggregated_save get_optimizer_weight_shard_size
    get_parallel_mode get_parallel_optimizer_threshold get_parameter_broadcast
    get_parameter_broadcast_is_set get_pipeline_interleave get_pipeline_result_broadcast
    get_pipeline_scheduler get_pipeline_segments get_pipeline_stages get_sharding_propagation
    get_strategy_ckpt_config get_strategy_ckpt_load_file get_strategy_ckpt_save_file
    get_strategy_search_mode reset set_all_reduce_fusion_split_indices
    set_all_reduce_fusion_split_sizes set_auto_parallel_new_interface
    set_auto_parallel_search_mode set_auto_pipeline set_comm_fusion set_communi_parallel_mode
    set_dataset_strategy set_device_num set_dump_device_local_norm set_dump_local_norm
    set_dump_local_norm_path set_enable_all_gather_fusion set_enable_all_reduce_fusion
    set_enable_alltoall set_enable_parallel_optimizer set_enable_reduce_scatter_fusion
    set_force_fp32_communication set_full_batch set_fusion_threshold_mb set_global_rank
    set_grad_accumulation_step set_gradient_fp32_sync set_gradients_mean
    set_group_ckpt_save_file set_init_param_in_compile set_loss_repeated_mean
    set_optimizer_weight_shard_aggregated_save set_optimizer_weight_shard_size
    set_parallel_mode set_parallel_optimizer_config set_parameter_broadcast set_pipeline_config
    set_pipeline_result_broadcast set_pipeline_segments set_pipeline_stages
    set_sharding_propagation set_strategy_ckpt_config set_strategy_ckpt_load_file
    set_strategy_ckpt_save_file set_strategy_search_mode
""".split())


def test_auto_parallel_context_object():
    from cellgrad.parallel._auto_parallel_context import auto_parallel_context

    apc = auto_parallel_context()
    assert apc is auto_parallel_context()
    ours = {n for n in dir(apc) if n.startswith(("get_", "set_")) or n == "reset"}
    assert ours <= MINDSPORE_APC_METHODS and len(ours) > 60
    # values MindSpore 2.10 returns after import
    assert (apc.get_parallel_mode(), apc.get_device_num(), apc.get_device_num_is_set(),
            apc.get_strategy_search_mode(), apc.get_all_reduce_fusion_split_indices(),
            apc.get_pipeline_stages(), apc.get_optimizer_weight_shard_size(),
            apc.get_dataset_strategy()) == (
        "stand_alone", 1, False, "recursive_programming", [], 1, -1, "data_parallel")
    apc.set_parallel_mode("data_parallel")
    apc.set_device_num(2)
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert (apc.get_device_num(), apc.get_device_num_is_set()) == (2, True)
    with pytest.raises(ValueError, match="cellgrad runs data parallelism only"):
        apc.set_parallel_mode("auto_parallel")
    apc.reset()
    assert (apc.get_parallel_mode(), apc.get_device_num_is_set()) == ("stand_alone", False)
