"""`mindspore.dataset.text.transforms`: the module 2.10 defines the text transforms in."""

from cellgrad_dataset.text.text_ops import (
    AddToken,
    CaseFold,
    Lookup,
    Ngram,
    NormalizeUTF8,
    RegexReplace,
    SlidingWindow,
    ToNumber,
    Truncate,
    TruncateSequencePair,
)
from cellgrad_dataset.text.tokenizers import (
    BasicTokenizer,
    BertTokenizer,
    JiebaTokenizer,
    PythonTokenizer,
    RegexTokenizer,
    SentencePieceTokenizer,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
    WordpieceTokenizer,
)
from cellgrad_dataset.transforms.base import TensorOperation as TextTensorOperation
from cellgrad_dataset.transforms.py_transforms_util import Implementation  # noqa: F401

__all__ = [
    "AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "JiebaTokenizer", "Lookup",
    "Ngram", "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer",
    "SentencePieceTokenizer", "SlidingWindow", "TextTensorOperation", "ToNumber", "Truncate",
    "TruncateSequencePair", "UnicodeCharTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer",
]
