"""String transforms of `mindspore.dataset.text`: Lookup, ToNumber, Truncate,
TruncateSequencePair, AddToken, SlidingWindow, Ngram, CaseFold, NormalizeUTF8, RegexReplace."""

import re
import unicodedata

import numpy as np

from cellgrad.dtype import int32
from cellgrad_dataset.text.tokenizers import _check_vocab
from cellgrad_dataset.text.utils import NormalizeForm
from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error, to_nptype


def _strings(op, data):
    arr = np.asarray(data)
    if arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8")
    if arr.dtype.kind != "U":
        raise pipeline_error(op, f"the input should be a string tensor, got dtype {arr.dtype}.")
    return arr


class Lookup(TensorOperation):
    """Mirrors `mindspore.dataset.text.Lookup`: tokens to their vocabulary ids."""

    def __init__(self, vocab, unknown_token=None, data_type=int32):
        self.vocab = _check_vocab("Lookup", vocab)
        if unknown_token is not None and unknown_token not in vocab._ids:
            raise ValueError(f"Lookup: unknown_token {unknown_token!r} is not in the vocab.")
        self.unknown_token, self.data_type = unknown_token, data_type
        self._np = to_nptype("Lookup", "data_type", data_type)

    def _apply(self, tokens):
        arr = _strings("Lookup", tokens)
        ids, unk = self.vocab._ids, self.vocab._ids.get(self.unknown_token)
        out = np.empty(arr.shape, np.int64)
        flat = out.reshape(-1)
        for k, token in enumerate(arr.reshape(-1).tolist()):
            i = ids.get(token, unk)
            if i is None:
                raise pipeline_error("Lookup", f"invalid data, token: \"{token}\" doesn't exist "
                                               f"in vocab and no unknown token is specified.")
            flat[k] = i
        return out.astype(self._np)


class ToNumber(TensorOperation):
    """Mirrors `mindspore.dataset.text.ToNumber`: numeric strings to `data_type`."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = to_nptype("ToNumber", "data_type", data_type)

    def _apply(self, data):
        arr = _strings("ToNumber", data)
        try:
            values = arr.astype(np.float64 if self._np.kind == "f" else np.int64)
        except ValueError as exc:
            raise pipeline_error("ToNumber", f"string {exc} cannot be converted to "
                                             f"{self._np}.") from None
        if self._np.kind in "iu":
            info = np.iinfo(self._np)
            if values.size and (values.min() < info.min or values.max() > info.max):
                raise pipeline_error("ToNumber", f"a value is out of the range of {self._np}.")
        return values.astype(self._np)


class Truncate(TensorOperation):
    """Mirrors `mindspore.dataset.text.Truncate`: keep the first `max_seq_len` elements."""

    def __init__(self, max_seq_len):
        if max_seq_len < 1:
            raise ValueError(f"Input max_seq_len is not within the required interval of "
                             f"[1, 2147483647], got {max_seq_len}.")
        self.max_seq_len = max_seq_len

    def _apply(self, data):
        arr = np.asarray(data)
        if arr.ndim not in (1, 2):
            raise pipeline_error("Truncate", f"the input should be 1-D or 2-D, got rank "
                                             f"{arr.ndim}.")
        return arr[..., :self.max_seq_len]


class TruncateSequencePair(TensorOperation):
    """Mirrors `mindspore.dataset.text.TruncateSequencePair`: drop from the end of the longer
    of two sequences until their total length is at most `max_length`."""

    def __init__(self, max_length):
        self.max_length = max_length

    def _apply(self, first, second):
        a, b = np.asarray(first), np.asarray(second)
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la], b[:lb]


class AddToken(TensorOperation):
    """Mirrors `mindspore.dataset.text.AddToken`: a token at the beginning (or end)."""

    def __init__(self, token, begin=True):
        self.token, self.begin = token, begin

    def _apply(self, data):
        arr = _strings("AddToken", data)
        if arr.ndim != 1:
            raise pipeline_error("AddToken", f"the input should be 1-D, got rank {arr.ndim}.")
        parts = [np.array([self.token]), arr] if self.begin else [arr, np.array([self.token])]
        return np.concatenate(parts)


class SlidingWindow(TensorOperation):
    """Mirrors `mindspore.dataset.text.SlidingWindow`: windows of `width` along `axis`."""

    def __init__(self, width, axis=0):
        if width < 1:
            raise ValueError(f"Input width is not within the required interval of "
                             f"[1, 2147483647], got {width}.")
        self.width, self.axis = width, axis

    def _apply(self, data):
        arr = np.asarray(data)
        if arr.ndim != 1:
            raise pipeline_error("SlidingWindow", f"the input should be 1-D, got rank "
                                                  f"{arr.ndim}.")
        n = arr.shape[0] - self.width + 1
        if n <= 0:
            return np.empty((0, self.width), arr.dtype)
        return np.lib.stride_tricks.sliding_window_view(arr, self.width).copy()


class Ngram(TensorOperation):
    """Mirrors `mindspore.dataset.text.Ngram`: the n-grams of a 1-D string array for each n,
    joined with `separator`, after `left_pad`/`right_pad` = (pad string, count), at most
    n - 1 of them per side."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        self.n = [n] if isinstance(n, int) else list(n)
        self.left_pad, self.right_pad, self.separator = left_pad, right_pad, separator

    def _apply(self, data):
        arr = _strings("Ngram", data)
        if arr.ndim != 1:
            raise pipeline_error("Ngram", f"the input should be 1-D, got rank {arr.ndim}.")
        grams = []
        for n in self.n:  # each n pads with at most n - 1 pad strings per side (MindSpore)
            words = [self.left_pad[0]] * min(self.left_pad[1], n - 1) + arr.tolist() + \
                [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            grams += [self.separator.join(words[i:i + n]) for i in range(len(words) - n + 1)]
        return np.array(grams, dtype=str)


class CaseFold(TensorOperation):
    """Mirrors `mindspore.dataset.text.CaseFold`."""

    def _apply(self, data):
        arr = _strings("CaseFold", data)
        return np.vectorize(str.casefold, otypes=[str])(arr) if arr.size else arr


class NormalizeUTF8(TensorOperation):
    """Mirrors `mindspore.dataset.text.NormalizeUTF8`."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        self.normalize_form = NormalizeForm(normalize_form)

    def _apply(self, data):
        arr = _strings("NormalizeUTF8", data)
        if self.normalize_form == NormalizeForm.NONE or not arr.size:
            return arr
        form = self.normalize_form.name
        return np.vectorize(lambda s: unicodedata.normalize(form, s), otypes=[str])(arr)


class RegexReplace(TensorOperation):
    """Mirrors `mindspore.dataset.text.RegexReplace` (Python `re` syntax)."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        self._re = re.compile(pattern)

    def _apply(self, data):
        arr = _strings("RegexReplace", data)
        count = 0 if self.replace_all else 1
        fn = np.vectorize(lambda s: self._re.sub(self.replace, s, count=count), otypes=[str])
        return fn(arr) if arr.size else arr


__all__ = ["AddToken", "CaseFold", "Lookup", "Ngram", "NormalizeUTF8", "RegexReplace",
           "SlidingWindow", "ToNumber", "Truncate", "TruncateSequencePair"]
