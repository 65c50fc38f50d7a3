"""Tokenizers of `mindspore.dataset.text`: a scalar string in, a 1-D string array out (with
byte offsets `(tokens, offsets_start, offsets_limit)` when `with_offsets`)."""

import re
import unicodedata

import numpy as np

from cellgrad_dataset.text.utils import JiebaMode, NormalizeForm
from cellgrad_dataset.text.vocab import Vocab
from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error


def scalar_text(op, text):
    """A scalar string column value as str, or MindSpore's error."""
    if isinstance(text, bytes):
        return text.decode("utf-8")
    if isinstance(text, str):
        return text
    arr = np.asarray(text)
    if arr.ndim != 0 or arr.dtype.kind not in "US":
        raise pipeline_error(op, f"the input should be a scalar string, but got a tensor of "
                                 f"dtype {arr.dtype} and shape {arr.shape}.")
    value = arr.item()
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _result(pieces, text, with_offsets):
    """pieces: (token, char_start, char_end) triples over `text`."""
    tokens = np.array([p[0] for p in pieces] or [""], dtype=str)
    if not with_offsets:
        return tokens
    byte_at = np.cumsum([0] + [len(c.encode("utf-8")) for c in text])
    start = np.array([byte_at[p[1]] for p in pieces] or [0], np.uint32)
    limit = np.array([byte_at[p[2]] for p in pieces] or [0], np.uint32)
    return tokens, start, limit


class UnicodeCharTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.UnicodeCharTokenizer`: one token per character."""

    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def _apply(self, text):
        text = scalar_text("UnicodeCharTokenizer", text)
        return _result([(c, i, i + 1) for i, c in enumerate(text)], text, self.with_offsets)


class WhitespaceTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.WhitespaceTokenizer`: split on Unicode whitespace."""

    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def _apply(self, text):
        text = scalar_text("WhitespaceTokenizer", text)
        pieces = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        return _result(pieces, text, self.with_offsets)


class RegexTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.RegexTokenizer`: split on `delim_pattern`, keeping the
    delimiters that match `keep_delim_pattern` (Python `re` syntax)."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self.with_offsets = with_offsets
        self._delim = re.compile(delim_pattern)
        self._keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None

    def _apply(self, text):
        text = scalar_text("RegexTokenizer", text)
        pieces, pos = [], 0
        for m in self._delim.finditer(text):
            if m.start() > pos:
                pieces.append((text[pos:m.start()], pos, m.start()))
            if self._keep is not None and m.group() and self._keep.fullmatch(m.group()):
                pieces.append((m.group(), m.start(), m.end()))
            pos = m.end()
        if pos < len(text):
            pieces.append((text[pos:], pos, len(text)))
        return _result(pieces, text, self.with_offsets)


class PythonTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.PythonTokenizer`: a Python function str -> tokens."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: tokenizer must be callable, got {tokenizer!r}.")
        self.tokenizer = tokenizer

    def _apply(self, text):
        return np.array(self.tokenizer(scalar_text("PythonTokenizer", text)), dtype=str)


def _is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(ch):
    cp = ord(ch)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


_UNUSED = re.compile(r"\[(?:CLS|SEP|UNK|PAD|MASK|unused\d+)\]")


class BasicTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.BasicTokenizer` (BERT's): split on whitespace,
    punctuation and CJK characters; `lower_case` case-folds and strips accents."""

    def __init__(self, lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form = NormalizeForm(normalization_form)
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets

    def _normalize(self, text):
        if self.lower_case:
            text = unicodedata.normalize("NFD", text.casefold())
            return "".join(c for c in text if unicodedata.category(c) != "Mn")
        if self.normalization_form != NormalizeForm.NONE:
            return unicodedata.normalize(self.normalization_form.name, text)
        return text

    def pieces(self, text):
        text = self._normalize(text)
        pieces, start = [], None
        keep = {m.start(): m.end() for m in _UNUSED.finditer(text)} \
            if self.preserve_unused_token else {}
        i = 0
        while i < len(text):
            ch = text[i]
            if i in keep:
                if start is not None:
                    pieces.append((text[start:i], start, i))
                    start = None
                pieces.append((text[i:keep[i]], i, keep[i]))
                i = keep[i]
                continue
            alone = _is_punctuation(ch) or _is_cjk(ch)
            space = ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf")
            if alone or space:
                if start is not None:
                    pieces.append((text[start:i], start, i))
                    start = None
                if alone or (self.keep_whitespace and ch.isspace()):
                    pieces.append((ch, i, i + 1))
            elif start is None:
                start = i
            i += 1
        if start is not None:
            pieces.append((text[start:], start, len(text)))
        return pieces, text

    def _apply(self, text):
        pieces, text = self.pieces(scalar_text("BasicTokenizer", text))
        return _result(pieces, text, self.with_offsets)


def _check_vocab(op, vocab):
    if not isinstance(vocab, Vocab):
        raise TypeError(f"Argument vocab with value {vocab!r} is not of type "
                        f"[<class 'Vocab'>], but got {type(vocab)}.")
    return vocab


def wordpieces(word, start, vocab_ids, suffix, max_bytes, unknown):
    """Greedy longest-match-first pieces of one word, or the unknown token."""
    if len(word.encode("utf-8")) > max_bytes:
        return [(unknown, start, start + len(word))]
    out, i = [], 0
    while i < len(word):
        j = len(word)
        while j > i:
            piece = word[i:j] if i == 0 else suffix + word[i:j]
            if piece in vocab_ids:
                break
            j -= 1
        if j == i:
            return [(unknown, start, start + len(word))] if unknown else [(word, start,
                                                                           start + len(word))]
        out.append((word[i:j] if i == 0 else suffix + word[i:j], start + i, start + j))
        i = j
    return out


class WordpieceTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.WordpieceTokenizer`: each token of a 1-D string array
    split into vocabulary pieces (`suffix_indicator` marks continuations); a word that cannot
    be split becomes `unknown_token`."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", with_offsets=False):
        self.vocab = _check_vocab("WordpieceTokenizer", vocab)
        self.suffix_indicator, self.max_bytes_per_token = suffix_indicator, max_bytes_per_token
        self.unknown_token, self.with_offsets = unknown_token, with_offsets

    def split(self, words):
        ids = self.vocab._ids
        pieces = []
        for word, start, _ in words:
            pieces += wordpieces(word, start, ids, self.suffix_indicator,
                                 self.max_bytes_per_token, self.unknown_token)
        return pieces

    def _apply(self, tokens):
        arr = np.asarray(tokens)
        if arr.ndim != 1 or arr.dtype.kind not in "US":
            raise pipeline_error("WordpieceTokenizer", f"the input should be a 1-D string "
                                 f"tensor, got dtype {arr.dtype} and shape {arr.shape}.")
        tokens, start, limit = [], [], []
        for word in (str(w) for w in arr):
            byte_at = np.cumsum([0] + [len(c.encode("utf-8")) for c in word])
            for token, s, e in self.split([(word, 0, len(word))]):
                tokens.append(token)
                start.append(byte_at[s])
                limit.append(byte_at[e])
        out = np.array(tokens, dtype=str)
        if not self.with_offsets:
            return out
        return out, np.array(start, np.uint32), np.array(limit, np.uint32)


class BertTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.BertTokenizer`: BasicTokenizer, then WordpieceTokenizer."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.vocab = _check_vocab("BertTokenizer", vocab)
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                     preserve_unused_token)
        self._wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token,
                                             unknown_token)
        self.suffix_indicator, self.max_bytes_per_token = suffix_indicator, max_bytes_per_token
        self.unknown_token, self.lower_case = unknown_token, lower_case
        self.keep_whitespace, self.normalization_form = keep_whitespace, normalization_form
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets

    def _apply(self, text):
        words, text = self._basic.pieces(scalar_text("BertTokenizer", text))
        return _result(self._wordpiece.split(words), text, self.with_offsets)


class JiebaTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.JiebaTokenizer`, which runs MindSpore's bundled
    cppjieba; not available in cellgrad."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        raise RuntimeError("JiebaTokenizer: cellgrad has no cppjieba; wrap the jieba package's "
                           "jieba.lcut in a PythonTokenizer instead.")


class SentencePieceTokenizer(TensorOperation):
    """Mirrors `mindspore.dataset.text.SentencePieceTokenizer`; not available in cellgrad."""

    def __init__(self, mode, out_type):
        raise RuntimeError("SentencePieceTokenizer: cellgrad has no SentencePiece runtime; wrap "
                           "the sentencepiece package in a PythonTokenizer instead.")
