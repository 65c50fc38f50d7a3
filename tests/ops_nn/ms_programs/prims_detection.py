"""Detection primitives of real MindSpore code (issue 29): IOU / iou, BoundingBoxEncode /
Decode, CheckValid, NMSWithMask (score ties in the CPU kernel's order), ROIAlign and
CropAndResize with their gradients."""

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


a = Tensor(np.array([[0, 0, 10, 10], [5, 5, 15, 15], [0, 0, 1, 1], [10, 10, 0, 0],
                     [3, 3, 6, 6]], np.float32))
g = Tensor(np.array([[0, 0, 10, 10], [20, 20, 30, 30], [6, 6, 9, 9]], np.float32))
for mode in ("iou", "iof"):
    show(f"IOU {mode}", lambda: ops.IOU(mode)(a, g))
    show(f"iou {mode}", lambda: ops.iou(a, g, mode))
show("IOU float16", lambda: ops.IOU()(Tensor(np.array([[0, 0, 4, 4]], np.float16)),
                                      Tensor(np.array([[2, 2, 6, 6]], np.float16))))
show("IOU float64", lambda: ops.iou(Tensor(np.array([[0, 0, 4, 4]], np.float64)),
                                    Tensor(np.array([[2, 2, 6, 6]], np.float64))))
show("IOU grad", lambda: ms.grad(lambda p, q: ops.IOU()(p, q).sum(), (0, 1))(a, g))
show("IOU mode", lambda: ops.IOU("giou"))
show("IOU dtypes", lambda: ops.IOU()(a, Tensor(np.array([[0, 0, 1, 1]], np.float16))))
show("IOU columns", lambda: ops.IOU()(a[:, :3], g))
print(ops.IOU(), ops.IOU("iof").mode)

anc = Tensor(np.array([[0, 0, 10, 10], [5, 5, 20, 15], [3, 4, 3, 9]], np.float32))
gt = Tensor(np.array([[1, 2, 12, 9], [4, 6, 18, 18], [2, 2, 8, 8]], np.float32))
show("encode", lambda: ops.BoundingBoxEncode()(anc, gt))
show("encode stds", lambda: ops.BoundingBoxEncode((0.0, 0.0, 0.0, 0.0), (0.1, 0.1, 0.2, 0.2))(
    anc, gt))
show("bounding_box_encode", lambda: ops.bounding_box_encode(anc, gt, (0.1, 0.0, -0.2, 0.0),
                                                            (0.1, 0.1, 0.2, 0.2)))
d = Tensor(np.array([[0.1, -0.2, 0.5, -0.3], [1.0, 2.0, 5.0, -6.0], [-0.3, 0.1, 0.0, 0.2]],
                    np.float32))
show("decode", lambda: ops.BoundingBoxDecode((16, 16))(anc, d))
show("decode stds", lambda: ops.BoundingBoxDecode((16, 16), (0.0, 0.0, 0.0, 0.0),
                                                  (0.1, 0.1, 0.2, 0.2))(anc, d))
show("decode clip", lambda: ops.BoundingBoxDecode((16, 16), wh_ratio_clip=0.5)(anc, d))
show("bounding_box_decode", lambda: ops.bounding_box_decode(anc, d, (100, 50), (0.1, 0.0, 0.0,
                                                                                0.2)))
show("encode then decode", lambda: ops.BoundingBoxDecode((100, 100))(
    anc, ops.BoundingBoxEncode()(anc, gt)))
show("decode float16 dtype", lambda: ops.BoundingBoxDecode((16, 16))(
    Tensor(np.array([[0, 0, 10, 10]], np.float16)),
    Tensor(np.array([[0.1, 0.2, 0.3, 0.4]], np.float16))).dtype)
show("encode rows", lambda: ops.BoundingBoxEncode()(anc, gt[:2]))
show("encode means int", lambda: ops.BoundingBoxEncode((1, 2, 3, 4)))
show("decode max_shape", lambda: ops.BoundingBoxDecode((16, 16, 3)))
show("decode max_shape list", lambda: ops.BoundingBoxDecode([16, 16]))
show("decode wh_ratio_clip", lambda: ops.BoundingBoxDecode((16, 16), wh_ratio_clip=2))
show("decode columns", lambda: ops.BoundingBoxDecode((16, 16))(
    Tensor(np.ones((1, 5), np.float32)), Tensor(np.ones((1, 5), np.float32))))
print(ops.BoundingBoxEncode(), ops.BoundingBoxDecode((16, 16)))

bx = Tensor(np.array([[0, 0, 29, 19], [0, 0, 29.5, 19], [0, 0, 30, 19], [0, 0, 29, 19.5],
                      [0, 0, 29, 20], [0, 0, 1, 1], [-0.1, 0, 1, 1], [3, 3, 2, 8]], np.float32))
show("CheckValid", lambda: ops.CheckValid()(bx, Tensor(np.array([20, 30, 1.0], np.float32))))
show("check_valid ratio", lambda: ops.check_valid(
    Tensor(np.array([[0, 0, 58, 38], [0, 0, 59, 38], [0, 0, 60, 38]], np.float32)),
    Tensor(np.array([20, 30, 2.0], np.float32))))
show("CheckValid uint8", lambda: ops.CheckValid()(
    Tensor(np.array([[0, 0, 58, 38], [0, 0, 59, 40]], np.uint8)),
    Tensor(np.array([20, 30, 2], np.uint8))))
show("CheckValid float16", lambda: ops.CheckValid()(
    Tensor(np.array([[0, 0, 29, 19]], np.float16)), Tensor(np.array([20, 30, 1], np.float16))))
show("CheckValid int32", lambda: ops.CheckValid()(
    Tensor(np.array([[0, 0, 29, 19]], np.int32)), Tensor(np.array([20, 30, 1], np.int32))))
show("CheckValid metas", lambda: ops.CheckValid()(bx, Tensor(np.array([20, 30], np.float32))))
show("CheckValid columns", lambda: ops.CheckValid()(Tensor(np.ones((2, 5), np.float32)),
                                                    Tensor(np.array([20, 30, 1], np.float32))))

boxes = Tensor(np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.95], [20, 20, 30, 30, 0.5],
                         [0, 0, 10, 10, 0.9], [2, 2, 9, 9, 0.3], [50, 50, 40, 40, 0.8],
                         [0, 0, 4, 1, 0.6], [0, 0, 2, 1, 0.55]], np.float32))
for threshold in (0.5, 0.1, 0.9, 0.0):
    show(f"NMSWithMask {threshold}", lambda: ops.NMSWithMask(threshold)(boxes))
rng = np.random.default_rng(5)
for n in (3, 9, 17):
    sc = rng.integers(0, 4, n).astype(np.float32) / 4
    xy = rng.uniform(0, 60, (n, 2)).astype(np.float32)
    tied = np.concatenate([xy, xy + rng.uniform(5, 40, (n, 2)).astype(np.float32), sc[:, None]],
                          1)
    show(f"NMSWithMask ties {n}", lambda: ops.NMSWithMask(0.3)(Tensor(tied)))
show("NMSWithMask float16", lambda: ops.NMSWithMask()(Tensor(boxes.asnumpy().astype(np.float16))))
show("NMSWithMask float64", lambda: ops.NMSWithMask()(Tensor(boxes.asnumpy().astype(np.float64))))
show("NMSWithMask columns", lambda: ops.NMSWithMask()(boxes[:, :4]))
print(ops.NMSWithMask(), ops.NMSWithMask(0.7).iou_threshold)

feat = Tensor((np.arange(2 * 2 * 5 * 6, dtype=np.float32).reshape(2, 2, 5, 6) * 0.37) % 3)
rois = Tensor(np.array([[0, 0.5, 0.7, 4.2, 3.1], [1, 1.0, 1.0, 9.0, 7.0], [0, -1, -1, 2, 2],
                        [1, 1.2, 1.3, 1.4, 1.5], [0, 3, 2, 1, 1], [1, 0, 0, 11, 9]], np.float32))
for args in ((2, 2, 1.0, 2, 1), (2, 3, 0.5, 2, 1), (2, 2, 1.0, 2, 0), (3, 2, 0.5, 1, 0),
             (2, 2, 1.0, 0, 0), (1, 1, 1.0, 1, 1), (2, 2, 0.5, 0, 1)):
    show(f"ROIAlign {args}", lambda: ops.ROIAlign(*args)(feat, rois))
wr = Tensor(np.arange(6 * 2 * 2 * 2, dtype=np.float32).reshape(6, 2, 2, 2) % 5)
for args in ((2, 2, 1.0, 2, 1), (2, 2, 0.5, 3, 1)):
    show(f"ROIAlign grad {args}", lambda: ms.grad(
        lambda f, r: (ops.ROIAlign(*args)(f, r) * wr).sum(), (0, 1))(feat, rois))
show("ROIAlign float16", lambda: ops.ROIAlign(2, 2, 1.0)(
    Tensor(feat.asnumpy().astype(np.float16)), Tensor(rois.asnumpy().astype(np.float16))).dtype)
show("ROIAlign float64", lambda: ops.ROIAlign(2, 2, 1.0)(
    Tensor(feat.asnumpy().astype(np.float64)), Tensor(rois.asnumpy().astype(np.float64))))
print(ops.ROIAlign(2, 2, 1.0))

img = Tensor((np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) * 0.53) % 4)
cb = Tensor(np.array([[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.2, 0.1], [-0.2, -0.1, 1.3, 1.2],
                      [0, 0, 1, 1], [0.3, 0.35, 0.3, 0.35], [0.13, 0.07, 0.91, 0.66]],
                     np.float32))
ci = Tensor(np.array([0, 1, 1, 0, 1, 0], np.int32))
for method in ("bilinear", "nearest", "bilinear_v2"):
    for crop in ((3, 2), (1, 1), (2, 4)):
        show(f"CropAndResize {method} {crop}", lambda: ops.CropAndResize(method, 9.0)(
            img, cb, ci, crop))
show("crop_and_resize", lambda: ops.crop_and_resize(img, cb, ci, (2, 2)))
wc = Tensor(np.arange(6 * 3 * 2 * 3, dtype=np.float32).reshape(6, 3, 2, 3) % 7 - 3)
show("CropAndResize grad", lambda: ms.grad(
    lambda i, b: (ops.CropAndResize()(i, b, ci, (3, 2)) * wc).sum(), (0, 1))(img, cb))
show("CropAndResize nearest grad", lambda: ms.grad(
    lambda i: (ops.CropAndResize("nearest")(i, cb, ci, (3, 2)) * wc).sum())(img))
show("CropAndResize float64", lambda: ops.CropAndResize()(
    Tensor(img.asnumpy().astype(np.float64)), cb, ci, (1, 1)))
show("CropAndResize int32", lambda: ops.CropAndResize()(
    Tensor(img.asnumpy().astype(np.int32)), cb, ci, (1, 1)))
show("CropAndResize index", lambda: ops.CropAndResize()(
    img, cb, Tensor(np.array([0, 1, 2, 0, 0, 0], np.int32)), (1, 1)))
show("CropAndResize method", lambda: ops.CropAndResize("cubic"))
print(ops.CropAndResize(), ops.CropAndResize("nearest", 1.0).extrapolation_value)
