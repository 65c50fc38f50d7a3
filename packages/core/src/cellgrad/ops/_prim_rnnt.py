"""`mindspore.ops.RNNTLoss` (an Ascend kernel in MindSpore 2.10, none on its CPU build): the
RNN-Transducer loss (Graves 2012) by the forward-backward algorithm, as warp-transducer computes
it, with its gradient w.r.t. the logits returned by the forward."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float16, float32, int32
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["RNNTLoss"]

_HINT = ("The supported data types depend on the hardware that executes the operator, for more "
         "details, please refer to the MindSpore official website to get more information about "
         "the data type.")


def _dtype_name(value):
    if not isinstance(value, TensorBuffer):
        return "External"
    name = str(value.dtype)
    return f"Tensor[{name[0].upper()}{name[1:]}]"


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def rnnt_loss_and_grad(acts, labels, input_lengths, label_lengths, blank):
    """Costs (B,) and d cost / d acts for float arrays `acts` (B, T, U+1, V)."""
    b_n, t_n, u_n, _ = acts.shape
    lp = _log_softmax(acts)
    rows = np.arange(b_n)
    tl, ul = input_lengths.astype(np.int64), label_lengths.astype(np.int64)
    blank_lp = lp[..., blank]                                    # (B, T, U)
    lab = np.clip(labels.astype(np.int64), 0, lp.shape[-1] - 1)  # padding past label_lengths
    emit_lp = np.full((b_n, t_n, u_n), -np.inf)
    if u_n > 1:
        emit_lp[:, :, :-1] = np.take_along_axis(lp[:, :, :-1, :], lab[:, None, :, None],
                                                axis=3)[..., 0]
    t_idx, u_idx = np.arange(t_n)[None, :, None], np.arange(u_n)[None, None, :]
    inside = (t_idx < tl[:, None, None]) & (u_idx <= ul[:, None, None])
    emit_lp = np.where(u_idx < ul[:, None, None], emit_lp, -np.inf)

    alpha = np.full((b_n, t_n, u_n), -np.inf)
    for t in range(t_n):
        for u in range(u_n):
            if t == 0 and u == 0:
                alpha[:, 0, 0] = 0.0
                continue
            down = alpha[:, t - 1, u] + blank_lp[:, t - 1, u] if t else -np.inf
            right = alpha[:, t, u - 1] + emit_lp[:, t, u - 1] if u else -np.inf
            alpha[:, t, u] = np.logaddexp(down, right)
    alpha = np.where(inside, alpha, -np.inf)

    end = (t_idx == tl[:, None, None] - 1) & (u_idx == ul[:, None, None])
    beta = np.full((b_n, t_n + 1, u_n + 1), -np.inf)
    for t in range(t_n - 1, -1, -1):
        for u in range(u_n - 1, -1, -1):
            val = np.logaddexp(beta[:, t + 1, u] + blank_lp[:, t, u],
                               beta[:, t, u + 1] + emit_lp[:, t, u])
            val = np.where(end[:, t, u], blank_lp[:, t, u], val)
            beta[:, t, u] = np.where(inside[:, t, u], val, -np.inf)
    loglike = beta[:, 0, 0]

    ll = loglike[:, None, None]
    with np.errstate(invalid="ignore"):
        grads = np.exp(lp + (alpha + beta[:, :t_n, :u_n] - ll)[..., None])
        through_blank = np.exp(alpha + blank_lp + beta[:, 1:, :u_n] - ll)
        through_blank = np.where(end, np.exp(alpha + blank_lp - ll), through_blank)
        through_label = np.exp(alpha + emit_lp + beta[:, :t_n, 1:] - ll)
    grads[..., blank] -= through_blank
    if u_n > 1:
        b_i, t_i, u_i = np.ix_(rows, np.arange(t_n), np.arange(u_n - 1))
        np.subtract.at(grads, (b_i, t_i, u_i, lab[:, None, :]), through_label[:, :, :-1])
    return -loglike, np.nan_to_num(grads, nan=0.0)


class RNNTLoss(Primitive):
    """Mirrors `mindspore.ops.RNNTLoss(blank_label=0)(acts, labels, input_lengths,
    label_lengths)`: `acts` (B, T, U+1, V) are logits (log-softmax is applied inside), `labels`
    (B, U) int32; returns `(costs, grads)`, the negative log-likelihood per example (B,) and its
    gradient w.r.t. `acts` (zero outside each example's lengths), both in `acts`' dtype."""

    @prim_attr_register
    def __init__(self, blank_label=0):
        if not isinstance(blank_label, int) or isinstance(blank_label, bool):
            raise TypeError(f"For '{self.name}', the type of 'blank_label' should be 'int', but "
                            f"got type '{type(blank_label).__name__}'.")
        self.init_prim_io_names(inputs=["acts", "labels", "input_length", "label_length"],
                                outputs=["costs", "grads"])

    def _check(self, acts, labels, input_lengths, label_lengths):
        named = (("acts_type", acts), ("labels", labels), ("input_length", input_lengths),
                 ("label_length", label_lengths))
        # MindSpore checks the dtypes first: a dtype error wins over a rank error
        for name, t in named:
            if not isinstance(t, TensorBuffer) or t.dtype not in (
                    (float32, float16) if name == "acts_type" else (int32,)):
                self._dtype_error(name, t)
        for name, t, rank in (("acts_rank", acts, 4), ("labels_rank", labels, 2),
                              ("input_length_rank", input_lengths, 1),
                              ("label_length_rank", label_lengths, 1)):
            if t.ndim != rank:
                raise ValueError(f"For '{self.name}', the '{name}' must be int and must = {rank}, "
                                 f"but got '{t.ndim}' with type 'int'.")
        b_n, t_n, u_n, v_n = acts.shape
        for name, got, other, want in (
                ("labels shape[0]", labels.shape[0], "acts shape[0]", b_n),
                ("labels shape[1]", labels.shape[1], "acts shape[2]-1", u_n - 1),
                ("input_length size", input_lengths.shape[0], "acts shape[0]", b_n),
                ("label_length size", label_lengths.shape[0], "acts shape[0]", b_n)):
            if got != want:
                raise ValueError(f"For '{self.name}', the {name} should be = {other}: {want}, "
                                 f"but got {got}.")
        tl, ul = input_lengths._data, label_lengths._data
        if np.any(tl < 1) or np.any(tl > t_n):
            raise ValueError(f"For '{self.name}', every input_length must be in [1, {t_n}] "
                             f"(acts shape[1]), but got {tl.tolist()}.")
        if np.any(ul < 0) or np.any(ul > u_n - 1):
            raise ValueError(f"For '{self.name}', every label_length must be in [0, {u_n - 1}] "
                             f"(acts shape[2]-1), but got {ul.tolist()}.")
        if not 0 <= self.blank_label < v_n:
            raise ValueError(f"For '{self.name}', the 'blank_label' must be in [0, {v_n}) "
                             f"(acts shape[3]), but got {self.blank_label}.")
        lab = labels._data
        used = np.arange(u_n - 1)[None, :] < ul[:, None]
        if np.any(used & ((lab < 0) | (lab >= v_n))):
            raise ValueError(f"For '{self.name}', the labels within label_length must be in "
                             f"[0, {v_n}) (acts shape[3]), but got {lab.tolist()}.")

    def _dtype_error(self, name, value):
        want = ("one of Tensor[Float32], Tensor[Float16]" if name == "acts_type"
                else "Tensor[Int32]")
        raise TypeError(f"For '{self.name}', the element of '{name}' must be {want}, but got "
                        f"{_dtype_name(value)}." + _HINT)

    def __call__(self, acts, labels, input_lengths, label_lengths):
        self._check(acts, labels, input_lengths, label_lengths)
        costs, grads = rnnt_loss_and_grad(acts._data.astype(np.float64), labels._data,
                                          input_lengths._data, label_lengths._data,
                                          self.blank_label)
        dt = acts._data.dtype
        return (make_tensor(costs.astype(dt), None, 0, acts.dtype),
                make_tensor(grads.astype(dt), None, 0, acts.dtype))
