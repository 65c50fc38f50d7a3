"""ops.TensorDump / tensordump / DumpGradient: the files written (names, dtypes, values)."""
import os
import shutil
import tempfile
import time

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

folder = tempfile.mkdtemp()
os.chdir(folder)
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
ops.TensorDump()("add", x)
ops.TensorDump("in")("add", x * 2)
ops.tensordump("sub/ints.npy", Tensor(np.array([1, -2, 3], np.int32)))
ops.tensordump("flags", Tensor(np.array([True, False])), "in")
ops.tensordump("half", Tensor(np.array([0.5, 1.5], np.float16)))

dg = ops.DumpGradient()


def f(a, b):
    a = dg("a_dout.npy", a, "out")
    return (a * b * b).sum()


ga, gb = ms.grad(f, grad_position=(0, 1))(Tensor(np.array([1.0, 2.0], np.float32)),
                                          Tensor(np.array([3.0, -1.0], np.float32)))
print(ga, gb)
time.sleep(1.5)   # MindSpore writes asynchronously
for root, _, files in sorted(os.walk(".")):
    for name in sorted(files):
        data = np.load(os.path.join(root, name))
        print(os.path.join(root, name), data.dtype, data.shape, data.tolist())
for name in ("all", "x"):
    try:
        ops.TensorDump(name)
    except ValueError as e:
        print("ValueError", e)
os.chdir("/")
shutil.rmtree(folder)
