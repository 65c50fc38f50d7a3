"""ops.RNNTLoss: MindSpore 2.10's CPU build has no kernel for it (it raises at kernel selection,
cellgrad computes it, see tests/core/test_rnnt_loss_s9.py), but it checks the arguments first:
the class, the signature attribute and every error message of that check."""

import numpy as np
from mindspore import Tensor, ops

f = np.zeros((2, 3, 3, 5), np.float32)
lab = np.zeros((2, 2), np.int32)
n = np.array([3, 3], np.int32)
op = ops.RNNTLoss()
print(op.blank_label, ops.RNNTLoss(blank_label=2).blank_label)
cases = [
    ("acts rank 3", (f[0], lab, n, n)),
    ("labels rank 1", (f, lab[0], n, n)),
    ("input_length rank 2", (f, lab, n[None], n)),
    ("label_length rank 2", (f, lab, n, n[None])),
    ("labels batch", (f, lab[:1], n, n)),
    ("labels length", (f, lab[:, :1], n, n)),
    ("input_length size", (f, lab, n[:1], n)),
    ("label_length size", (f, lab, n, n[:1])),
    ("acts float64", (f.astype(np.float64), lab, n, n)),
    ("labels int64", (f, lab.astype(np.int64), n, n)),
    ("input_length int64", (f, lab, n.astype(np.int64), n)),
    ("label_length float32", (f, lab, n, n.astype(np.float32))),
    ("acts float64 and rank 3", (f[0].astype(np.float64), lab, n, n)),
    ("labels int64 and rank 1", (f, lab[0].astype(np.int64), n, n)),
]
for title, args in cases:
    try:
        op(*[Tensor(a) for a in args])
        print(title, "no error")
    except (TypeError, ValueError) as e:
        print(title, type(e).__name__, str(e).split("\n")[0].split(".The supported")[0])
try:
    ops.RNNTLoss(1.0)
except TypeError as e:
    print("blank_label float", type(e).__name__, str(e).split("\n")[0])
try:
    op(f, lab, n, n)
except TypeError as e:
    print("numpy acts", type(e).__name__, str(e).split("\n")[0].split(".The supported")[0])
