"""Mirrors `mindspore.dataset.text.utils`: the enums of the text transforms, `Vocab`'s helpers
`to_str` / `to_bytes`."""

from enum import IntEnum

import numpy as np


class NormalizeForm(IntEnum):
    """Unicode normalization forms (`NormalizeUTF8`, `BasicTokenizer`)."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class JiebaMode(IntEnum):
    """Modes of `JiebaTokenizer`."""

    MIX = 0
    MP = 1
    HMM = 2


class SentencePieceModel(IntEnum):
    """Model types of SentencePiece vocabularies."""

    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(IntEnum):
    """What `SentencePieceTokenizer` returns."""

    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(IntEnum):
    """Where `SentencePieceTokenizer` loads its model from."""

    FILE = 0
    MODEL = 1


def to_str(array, encoding="utf8"):
    """Mirrors `mindspore.dataset.text.to_str`: a bytes array decoded to str."""
    array = np.asarray(array)
    if array.dtype.kind != "S":
        raise TypeError(f"to_str: the input must be a NumPy array of bytes, but got dtype "
                        f"{array.dtype}.")
    return np.char.decode(array, encoding)


def to_bytes(array, encoding="utf8"):
    """Mirrors `mindspore.dataset.text.to_bytes`: a str array encoded to bytes."""
    array = np.asarray(array)
    if array.dtype.kind != "U":
        raise TypeError(f"to_bytes: the input must be a NumPy array of str, but got dtype "
                        f"{array.dtype}.")
    return np.char.encode(array, encoding)
