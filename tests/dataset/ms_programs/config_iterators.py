import os

import numpy as np
import mindspore as ms
import mindspore.dataset as ds


def err(f):
    try:
        f()
        print("no error")
    except RuntimeError:
        print("RuntimeError")
    except Exception as e:
        print(type(e).__name__, str(e).strip().splitlines()[0][:300])


c = ds.config
print(c.get_seed(), c.get_prefetch_size(), c.get_enable_shared_mem(), c.get_callback_timeout())
print(c.get_multiprocessing_timeout_interval(), c.get_monitor_sampling_interval(), c.get_numa_enable())
print(c.get_auto_num_workers(), c.get_enable_autotune(), c.get_autotune_interval(), c.get_enable_watchdog())
print(c.get_fast_recovery(), c.get_debug_mode(), c.get_iterator_mode(), c.get_multiprocessing_start_method())
print(c.get_video_backend(), c.get_auto_offload(), c.get_dynamic_shape(), int(c.get_error_samples_mode()))
ms.set_seed(7)
print(c.get_seed())
c.set_seed(123)
c.set_prefetch_size(4)
c.set_enable_shared_mem(False)
c.set_multiprocessing_timeout_interval(30)
c.set_callback_timeout(9)
print(c.get_seed(), c.get_prefetch_size(), c.get_enable_shared_mem(), c.get_multiprocessing_timeout_interval(), c.get_callback_timeout())
c.set_enable_shared_mem(True)
for call in ["c.set_seed(-1)", "c.set_seed(1.5)", "c.set_seed(2**32)", "c.set_num_parallel_workers(0)",
             "c.set_num_parallel_workers(1.0)", "c.set_prefetch_size(0)", "c.set_prefetch_size('a')",
             "c.set_enable_shared_mem(1)", "c.set_multiprocessing_timeout_interval(0)",
             "c.set_callback_timeout(0)", "c.set_numa_enable(1)", "c.set_monitor_sampling_interval(-1)",
             "c.set_auto_num_workers(1)", "c.set_enable_watchdog(1)",
             "c.set_multiprocessing_start_method('x')", "c.set_iterator_mode(1)"]:
    print(call, end=" ")
    err(lambda: eval(call))

x = np.arange(12, dtype=np.float32).reshape(6, 2)
D = lambda: ds.NumpySlicesDataset({"x": x, "y": np.arange(6, dtype=np.int32)}, shuffle=False)
d = D()
it = d.create_tuple_iterator(columns=["y"], num_epochs=2)
print([type(r).__name__ for r in it], [int(r[0]) for r in it])
err(lambda: next(it))
for r in d.create_dict_iterator(num_epochs=1):
    print(sorted(r), r["x"].shape, r["x"].dtype, r["y"].dtype, type(r["y"]).__name__)
    break
err(lambda: d.create_tuple_iterator(num_epochs=0))
err(lambda: d.create_tuple_iterator(output_numpy=1))
print(D().batch(4).get_dataset_size(), D().batch(4, drop_remainder=True).output_shapes(), D().batch(4).output_types())
b = ds.NumpySlicesDataset({"y": np.arange(6, dtype=np.int32)}, shuffle=False).batch(4)
b.set_init_step(1)
print([r[0].asnumpy().tolist() for r in b.create_tuple_iterator(num_epochs=1)])


class Source:
    def __getitem__(self, i):
        return np.array([i, i * i], np.int64), np.float32(i) / 2

    def __len__(self):
        return 9


g = ds.GeneratorDataset(Source(), ["a", "b"], shuffle=False, num_parallel_workers=2)
print(g.get_dataset_size(), [r[0].tolist() for r in g.create_tuple_iterator(output_numpy=True)])
g = ds.GeneratorDataset(Source(), ["a", "b"], shuffle=False, num_parallel_workers=2)
m = g.map(lambda a: a * 10, input_columns="a", num_parallel_workers=2, python_multiprocessing=True)
print([r[0].tolist() for r in m.create_tuple_iterator(output_numpy=True)][:4], m.get_col_names())
g = ds.GeneratorDataset(Source(), ["a", "b"], num_shards=2, shard_id=1, shuffle=False, num_parallel_workers=2)
print(g.get_dataset_size(), [float(r[1]) for r in g.create_tuple_iterator(output_numpy=True)])
pb = ds.NumpySlicesDataset({"y": np.arange(7, dtype=np.int32)}, shuffle=False).batch(
    3, per_batch_map=lambda ys, info: ([y * 2 for y in ys],), input_columns=["y"],
    num_parallel_workers=2, python_multiprocessing=True)
print([r[0].tolist() for r in pb.create_tuple_iterator(output_numpy=True)])
