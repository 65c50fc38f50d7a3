"""`cellgrad.dataset.text`, mirroring `mindspore.dataset.text` (2.10): Vocab, Lookup, the
tokenizers (BERT's Basic/Wordpiece included) and the string transforms. JiebaTokenizer and
SentencePiece need MindSpore's bundled C++ libraries and say what to use instead."""

from cellgrad_dataset.text import transforms, utils  # noqa: F401
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
from cellgrad_dataset.text.utils import (
    JiebaMode,
    NormalizeForm,
    SentencePieceModel,
    SPieceTokenizerLoadType,
    SPieceTokenizerOutType,
    to_bytes,
    to_str,
)
from cellgrad_dataset.text.vocab import SentencePieceVocab, Vocab

__all__ = [
    "AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "JiebaMode", "JiebaTokenizer",
    "Lookup", "Ngram", "NormalizeForm", "NormalizeUTF8", "PythonTokenizer", "RegexReplace",
    "RegexTokenizer", "SPieceTokenizerLoadType", "SPieceTokenizerOutType", "SentencePieceModel",
    "SentencePieceTokenizer", "SentencePieceVocab", "SlidingWindow", "ToNumber", "Truncate",
    "TruncateSequencePair", "UnicodeCharTokenizer", "Vocab", "WhitespaceTokenizer",
    "WordpieceTokenizer", "to_bytes", "to_str",
]
