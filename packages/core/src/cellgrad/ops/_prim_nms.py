"""`CombinedNonMaxSuppression` (MindSpore's `ops.CombinedNonMaxSuppression`, also at
`ops.operations.image_ops`): batched, multi-class greedy non-maximum suppression on numpy."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["CombinedNonMaxSuppression"]


def _iou(box, others):
    """IoU of `box` with each row of `others` ([y1, x1, y2, x2], corners in any order); 0
    where either box has no area."""
    y1, y2 = np.minimum(box[0], box[2]), np.maximum(box[0], box[2])
    x1, x2 = np.minimum(box[1], box[3]), np.maximum(box[1], box[3])
    oy1, oy2 = np.minimum(others[:, 0], others[:, 2]), np.maximum(others[:, 0], others[:, 2])
    ox1, ox2 = np.minimum(others[:, 1], others[:, 3]), np.maximum(others[:, 1], others[:, 3])
    area, oarea = (y2 - y1) * (x2 - x1), (oy2 - oy1) * (ox2 - ox1)
    inter = np.maximum(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0) * \
        np.maximum(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0)
    union = area + oarea - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where((area > 0) & (oarea > 0) & (union > 0), inter / union, 0.0)
    return iou


def _class_nms(boxes, scores, max_out, iou_threshold, score_threshold):
    """Greedy NMS of one class: the kept box indices, highest score first (ties: lower index)."""
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > score_threshold]
    kept = []
    for i in order:
        if len(kept) >= max_out:
            break
        if not kept or np.all(_iou(boxes[i], boxes[kept]) <= iou_threshold):
            kept.append(i)
    return kept


def _scalar(name, value, kinds, what):
    if not isinstance(value, TensorBuffer) or value.asnumpy().dtype.kind not in kinds or \
            value.asnumpy().size != 1:
        got = f"Tensor[{value.dtype}] of shape {tuple(value.shape)}" if isinstance(
            value, TensorBuffer) else type(value).__name__
        raise TypeError(f"For 'CombinedNonMaxSuppression', '{name}' must be a scalar {what} "
                        f"Tensor, but got {got}.")
    return value.asnumpy().reshape(-1)[0]


class CombinedNonMaxSuppression(Primitive):
    """Mirrors `ops.CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes,
    scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold)`: greedy
    non-maximum suppression per batch item and class (scores above `score_threshold`, IoU at
    most `iou_threshold` with every kept box), then the best `max_total_size` over all classes.
    `boxes` is (batch, num_boxes, q, 4) with q 1 (shared) or num_classes, `scores` (batch,
    num_boxes, num_classes). Returns (nmsed_boxes, nmsed_scores, nmsed_classes (float32),
    valid_detections (int32)), zero-padded; boxes clipped to [0, 1] when `clip_boxes`."""

    @prim_attr_register
    def __init__(self, pad_per_class=False, clip_boxes=True):
        for name, value in (("pad_per_class", pad_per_class), ("clip_boxes", clip_boxes)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'CombinedNonMaxSuppression', the type of '{name}' should "
                                f"be 'bool', but got type '{type(value).__name__}'.")

    def __call__(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                 score_threshold):
        op = "CombinedNonMaxSuppression"
        for name, value in (("boxes", boxes), ("scores", scores)):
            if not isinstance(value, TensorBuffer) or value.dtype.py_name not in (
                    "float16", "float32"):
                got = f"Tensor[{value.dtype}]" if isinstance(value, TensorBuffer) else \
                    type(value).__name__
                raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type "
                                f"of {{Tensor[Float16], Tensor[Float32]}}, but got {got}.")
        b, s = boxes.asnumpy().astype(np.float32), scores.asnumpy().astype(np.float32)
        if b.ndim != 4 or b.shape[3] != 4 or s.ndim != 3 or s.shape[:2] != b.shape[:2] or \
                b.shape[2] not in (1, s.shape[2]):
            raise ValueError(f"For '{op}', 'boxes' must be (batch, num_boxes, q, 4) with q 1 or "
                             f"num_classes and 'scores' (batch, num_boxes, num_classes), but got "
                             f"shapes {tuple(b.shape)} and {tuple(s.shape)}.")
        per_class = int(_scalar("max_output_size_per_class", max_output_size_per_class, "i",
                                "int32"))
        total = int(_scalar("max_total_size", max_total_size, "i", "int32"))
        iou = float(_scalar("iou_threshold", iou_threshold, "f", "float"))
        score_min = float(_scalar("score_threshold", score_threshold, "f", "float"))
        if per_class <= 0 or total <= 0:
            raise ValueError(f"For '{op}', 'max_output_size_per_class' and 'max_total_size' "
                             f"must be > 0, but got {per_class} and {total}.")
        if not 0 <= iou <= 1:
            raise ValueError(f"For '{op}', 'iou_threshold' must be in [0, 1], but got {iou}.")
        batch, _, num_classes = s.shape
        rows = min(total, per_class * num_classes) if self.pad_per_class else total
        out_boxes = np.zeros((batch, rows, 4), np.float32)
        out_scores = np.zeros((batch, rows), np.float32)
        out_classes = np.zeros((batch, rows), np.float32)
        valid = np.zeros(batch, np.int32)
        for n in range(batch):
            found = []  # (score, class, box), class by class, each best first
            for c in range(num_classes):
                class_boxes = b[n, :, 0 if b.shape[2] == 1 else c]
                for i in _class_nms(class_boxes, s[n, :, c], per_class, iou, score_min):
                    found.append((s[n, i, c], c, class_boxes[i]))
            order = np.argsort([-f[0] for f in found], kind="stable")[:rows]
            valid[n] = len(order)
            for k, j in enumerate(order):
                out_scores[n, k], out_classes[n, k], out_boxes[n, k] = found[j]
        if self.clip_boxes:
            out_boxes = np.clip(out_boxes, 0.0, 1.0)
        return (make_tensor(out_boxes), make_tensor(out_scores), make_tensor(out_classes),
                make_tensor(valid))

