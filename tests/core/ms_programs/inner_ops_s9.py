# Private op-module Primitives MindSpore's own tests use: sparse segment reductions and
# SparseAdd (values and gradients), ClipByNorm, ResizeBilinearGrad, CombinedNonMaxSuppression,
# ConcatOffsetV1, AddV2, IsSubClass and the hal contiguous handle (MindSpore 2.10 PyNative).
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.common import dtype as mstype
from mindspore.hal.contiguous_tensors_handle import combine_tensor_list_contiguous
from mindspore.ops.operations import _grad_ops as G
from mindspore.ops.operations import _inner_ops as inner
from mindspore.ops.operations import image_ops
from mindspore.ops.operations import sparse_ops as S
from mindspore.ops.operations.array_ops import ConcatOffsetV1
from mindspore.ops.operations.math_ops import AddV2


class Net(nn.Cell):
    def __init__(self, prim):
        super().__init__()
        self.prim = prim

    def construct(self, *args):
        return self.prim(*args)


def grads(prim, *args, sens):
    return ops.GradOperation(get_all=True, sens_param=True)(Net(prim))(*args, sens)


rng = np.random.RandomState(3)
x = Tensor(rng.rand(5, 3).astype(np.float32))
idx = Tensor(np.array([4, 0, 0, 2, 3], np.int32))
seg = Tensor(np.array([0, 0, 1, 1, 3], np.int32))
seg_c = Tensor(np.array([0, 0, 1, 1, 2], np.int32))
num = Tensor(np.array([5], np.int32))
out = S.SparseSegmentSqrtN()(x, idx, seg_c)
print("sqrt_n", out)
print("sqrt_n grad", grads(S.SparseSegmentSqrtN(), x, idx, seg_c, sens=out * 2)[0])
for prim in (S.SparseSegmentSqrtNWithNumSegments(), S.SparseSegmentMeanWithNumSegments()):
    out = prim(x, idx, seg, num)
    print(prim.name, out)
    print(prim.name, "grad", grads(prim, x, idx, seg, num, sens=out + 1)[0])

a_i = Tensor(np.array([[0, 0], [1, 1], [2, 3]], np.int64))
b_i = Tensor(np.array([[0, 0], [1, 2], [2, 3], [3, 0]], np.int64))
a_v = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
b_v = Tensor(np.array([-0.25, 4.0, -2.0, 1.0], np.float32))
shape = Tensor(np.array([4, 4], np.int64))
for th in (0.0, 0.3):
    res = S.SparseAdd()(a_i, a_v, shape, b_i, b_v, shape, Tensor(th, ms.float32))
    print("sparse_add", th, res[0], res[1], res[2])
    g = grads(S.SparseAdd(), a_i, a_v, shape, b_i, b_v, shape, Tensor(th, ms.float32),
              sens=(ops.zeros_like(res[0]), res[1] * 3 + 1, ops.zeros_like(res[2])))
    print("sparse_add grad", g[1], g[4])

v = Tensor(rng.rand(2, 3, 4).astype(np.float32) * 3)
c = Tensor(np.array([1.5], np.float32))
out = Net(inner.ClipByNorm())(v, c)
print("clip_by_norm", out)
print("clip_by_norm grad", grads(inner.ClipByNorm(), v, c, sens=out))

dy = Tensor(rng.rand(2, 1, 5, 6).astype(np.float32))
img = Tensor(rng.rand(2, 1, 3, 4).astype(np.float32))
for ac, hp in ((False, False), (True, False), (False, True)):
    print("resize_bilinear_grad", ac, hp, G.ResizeBilinearGrad(ac, hp)(dy, img))

boxes = Tensor(rng.rand(2, 6, 1, 4).astype(np.float32))
scores = Tensor(rng.rand(2, 6, 3).astype(np.float32))
for pad, clip, per_class, total, iou, score in ((False, True, 3, 5, 0.3, 0.2),
                                                (True, False, 2, 10, 0.5, 0.6)):
    res = image_ops.CombinedNonMaxSuppression(pad, clip)(
        boxes * 1.2 - 0.1, scores, Tensor(per_class, ms.int32), Tensor(total, ms.int32),
        Tensor(iou, ms.float32), Tensor(score, ms.float32))
    print("nms", pad, clip, *res)

shapes = [Tensor(np.array(s, np.int32)) for s in ([2, 3, 4], [2, 5, 4], [2, 1, 4])]
print("concat_offset_v1", ConcatOffsetV1()(Tensor(1, ms.int32), tuple(shapes)))
p = AddV2()
print("add_v2", p(Tensor([1.5, 2.0]), Tensor([3.0, -4.0])), p(Tensor([1, 2]), Tensor([3, 4])))
print("is_subclass", [inner.IsSubClass()(a, b) for a, b in (
    (mstype.int32, mstype.number), (mstype.float16, mstype.number), (mstype.bool_, mstype.number),
    (mstype.uint8, mstype.uint), (mstype.int8, mstype.uint), (mstype.list_, mstype.number))])
h = combine_tensor_list_contiguous([Tensor(np.arange(4, dtype=np.float32)), x], True)
print("handle", h.total_padding_size, h.handle_shape, h[2:7], h.slice_by_tensor_index(1))
