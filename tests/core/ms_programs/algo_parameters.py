from mindspore import parallel
from mindspore.parallel import get_algo_parameters, reset_algo_parameters, set_algo_parameters

keys = ["fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi",
        "algo_approxi_epsilon", "tensor_slice_align_enable", "tensor_slice_align_size"]
print([get_algo_parameters(k) for k in keys])
set_algo_parameters(elementwise_op_strategy_follow=True, fully_use_devices=True,
                    algo_approxi_epsilon=0.5, tensor_slice_align_size=32)
print([get_algo_parameters(k) for k in keys])
for bad in [lambda: set_algo_parameters(bogus=1), lambda: set_algo_parameters(fully_use_devices=1),
            lambda: get_algo_parameters("x"), lambda: set_algo_parameters(algo_approxi_epsilon=2.0)]:
    try:
        bad()
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
reset_algo_parameters()
print([parallel.get_algo_parameters(k) for k in keys])
