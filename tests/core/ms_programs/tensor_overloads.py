import mindspore as ms
import numpy as np
from mindspore import ops

t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
i = ms.Tensor([[0, 1], [1, 0]])
cond = ms.Tensor([[True, False, True], [False, True, False]])
calls = [
    lambda: t.add(t, alpha=2), lambda: t.add(other=1.5, alpha=2), lambda: t.sub(t, alpha=3),
    lambda: t.sub(y=t), lambda: t.__isub__(t, alpha=2), lambda: t.__iadd__(1, alpha=3),
    lambda: t.__imul__(2), lambda: t.__itruediv__(4, rounding_mode="floor"),
    lambda: t.__ifloordiv__(4), lambda: t.__imod__(4),
    lambda: t.expand_as(x=ms.Tensor(np.ones((2, 2, 3)))), lambda: t.remainder(divisor=4),
    lambda: t.cumsum(dim=1), lambda: t.cumsum(1, ms.float64),
    lambda: t.sort(dim=0, descending=True),
    lambda: t.argsort(1, True, True), lambda: t.flatten(), lambda: t.flatten(1),
    lambda: t.flatten(0, 1), lambda: t.flatten("F"), lambda: t.view(ms.int32),
    lambda: t.view(shape=(3, 2)), lambda: t.gather(1, i), lambda: t.gather(index=i, dim=1),
    lambda: t.gather(ms.Tensor([1, 0]), 0), lambda: t.select(cond, 9.0), lambda: t.select(1, 2),
    lambda: t.where(cond, other=0.0), lambda: t.aminmax(axis=None),
    lambda: t.aminmax(axis=None, keepdims=True), lambda: cond.any(dim=0, keepdim=True),
    lambda: (t > 2).all(axis=(), keep_dims=True), lambda: t.prod(dim=1, keepdim=True),
    lambda: t.std(dim=1), lambda: t.std(dim=1, correction=1, keepdim=True), lambda: t.var(1, 0),
    lambda: t.median(dim=0), lambda: t.transpose(0, 1), lambda: t.transpose((0, 1)),
    lambda: t.permute(dims=(1, 0)),
    lambda: t.matmul(tensor2=t.T), lambda: t.unsqueeze(axis=0), lambda: t.tile(reps=(2,)),
    lambda: t.isclose(x2=t), lambda: t.logical_or(y=t), lambda: t.take(index=ms.Tensor([0, 5])),
    lambda: t.to("cpu", ms.int32), lambda: t.to(ms.Tensor([1], ms.int8)),
    lambda: t.broadcast_to(2, 2, 3), lambda: t.swapaxes(-1, 0), lambda: t.swapdims(0, 1),
    lambda: t.clamp(min=1), lambda: t.clip(max=3), lambda: ops.transpose(t, (1, 0)).is_contiguous(),
    lambda: ops.transpose(t, (1, 0)).contiguous().is_contiguous(),
]
for call in calls:
    print(call())
errors = [
    lambda: t.swapaxes(0, 3), lambda: t.swapaxes(0, (1,)), lambda: t.select(cond, 1),
    lambda: ms.Tensor([1, 2], ms.int32).select(cond[0, :2], 1.0), lambda: t.diag(1),
    lambda: t.to("gpu"),
    lambda: t.min(0, False, initial=9, where=ms.Tensor([False, True, True]), return_indices=1),
]
for bad in errors:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
