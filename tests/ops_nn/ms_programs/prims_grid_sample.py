"""ops.grid_sample and GridSampler2D/3D (issue 29; used by 9 files of the study): bilinear and
nearest, zero/border/reflection padding, align_corners, 4-D and 5-D, gradients."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops


def show(name, f):
    try:  # MindSpore reports some kernel errors when the result is first read
        out = f()
        lines = [f"{name} {o.dtype} {o.shape} {o}" if isinstance(o, Tensor) else f"{name} {o}"
                 for o in (out if isinstance(out, tuple) else (out,))]
    except Exception as e:  # noqa: BLE001 - the error class is what the replay compares
        print(name, "raises", type(e).__name__)
        return
    print("\n".join(lines))


rng = np.random.default_rng(7)
x = Tensor(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
grid = Tensor(rng.uniform(-1.3, 1.3, (2, 3, 2, 2)).astype(np.float32))
half = Tensor(np.array([[[[-0.5, 0.7], [0.25, -0.6]]]], np.float32))
w = Tensor(rng.standard_normal((2, 3, 3, 2)).astype(np.float32))
for mode in ("bilinear", "nearest"):
    for padding in ("zeros", "border", "reflection"):
        for corners in (False, True):
            name = f"grid_sample {mode} {padding} {corners}"
            show(name, lambda: ops.grid_sample(x, grid, mode, padding, corners))
            show(name + " half", lambda: ops.grid_sample(x[:1], half, mode, padding, corners))
            show(name + " grad", lambda: tuple(t + 0 for t in ms.grad(  # + 0: no -0.
                lambda a, b: (ops.grid_sample(a, b, mode, padding, corners) * w).sum(),
                (0, 1))(x, grid)))
show("grid_sample default", lambda: ops.grid_sample(x, grid))
show("GridSampler2D", lambda: ops.GridSampler2D("nearest", "border", True)(x, grid))
x5 = Tensor(rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32))
grid5 = Tensor(rng.uniform(-1.2, 1.2, (1, 2, 2, 3, 3)).astype(np.float32))
w5 = Tensor(rng.standard_normal((1, 2, 2, 2, 3)).astype(np.float32))
for mode in ("bilinear", "nearest"):
    for padding in ("zeros", "reflection"):
        show(f"grid_sample 5-D {mode} {padding}", lambda: ops.grid_sample(x5, grid5, mode,
                                                                          padding))
show("grid_sample 5-D grad", lambda: tuple(t + 0 for t in ms.grad(lambda a, b: (ops.grid_sample(
    a, b, "bilinear", "border", True) * w5).sum(), (0, 1))(x5, grid5)))
show("GridSampler3D", lambda: ops.GridSampler3D("bilinear", "zeros", False)(x5, grid5))
show("grid_sample float64", lambda: ops.grid_sample(Tensor(x.asnumpy().astype(np.float64)),
                                                    Tensor(grid.asnumpy().astype(np.float64))))
show("grid_sample bicubic", lambda: ops.grid_sample(x, grid, "bicubic"))
print(ops.GridSampler2D(), ops.GridSampler3D("nearest").interpolation_mode)
