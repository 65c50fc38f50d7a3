"""`Vocab`: token <-> id tables (from a list, a file, a dict or a dataset column)."""

import collections

import numpy as np


class Vocab:
    """Mirrors `mindspore.dataset.text.Vocab`. Unknown tokens map to -1, unknown ids to ''."""

    def __init__(self):
        self._ids = {}

    @classmethod
    def _of(cls, tokens, special_tokens, special_first):
        special = list(special_tokens or [])
        words = [t for t in tokens if t not in special]
        order = special + words if special_first else words + special
        vocab = cls()
        for token in order:
            if token in vocab._ids:
                raise RuntimeError(f"Vocab: duplicate token {token!r}.")
            vocab._ids[token] = len(vocab._ids)
        return vocab

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order (special tokens first or last)."""
        if not isinstance(word_list, (list, tuple)) or \
                not all(isinstance(w, str) for w in word_list):
            raise TypeError(f"Argument word_list with value {word_list!r} is not of type "
                            f"[<class 'list'>] of str.")
        if len(set(word_list)) != len(word_list):
            raise ValueError("word_list contains duplicate word.")
        return cls._of(word_list, special_tokens, special_first)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True):
        """One token per line (the text before `delimiter`), the first `vocab_size` lines."""
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n").rstrip("\r")
                word = line.split(delimiter, 1)[0] if delimiter else line
                if word and word not in words:
                    words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._of(words, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """The given token -> id table."""
        if not isinstance(word_dict, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in word_dict.items()):
            raise TypeError(f"Argument word_dict with value {word_dict!r} is not a dict of str "
                            f"to non-negative int.")
        vocab = cls()
        vocab._ids = dict(word_dict)
        return vocab

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True):
        """Tokens of a dataset's string column(s), most frequent first (ties: first seen)."""
        counts = collections.Counter()
        names = dataset.get_col_names()
        wanted = [columns] if isinstance(columns, str) else (columns or names)
        take = [names.index(c) for c in wanted]
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for i in take:
                counts.update(str(t) for t in np.asarray(row[i]).reshape(-1))
        low, high = freq_range or (0, None)
        kept = [(w, n) for w, n in counts.most_common()
                if n >= (low or 0) and (high is None or n <= high)]
        words = [w for w, _ in kept[:top_k]]
        return cls._of(words, special_tokens, special_first)

    def vocab(self):
        """The token -> id dict."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        """An id per token (-1 for unknown); a single token gives a single id."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(str(t), -1) for t in np.asarray(tokens).reshape(-1)]

    def ids_to_tokens(self, ids):
        """A token per id ('' for unknown); a single id gives a single token."""
        tokens = {v: k for k, v in self._ids.items()}
        if isinstance(ids, (int, np.integer)):
            return tokens.get(int(ids), "")
        return [tokens.get(int(i), "") for i in np.asarray(ids).reshape(-1)]

    def __len__(self):
        return len(self._ids)


class SentencePieceVocab:
    """Mirrors `mindspore.dataset.text.SentencePieceVocab`, which needs MindSpore's bundled
    SentencePiece trainer; not available in cellgrad."""

    def __init__(self):
        raise RuntimeError("SentencePieceVocab: cellgrad has no SentencePiece trainer; use the "
                           "sentencepiece package and a PythonTokenizer instead.")

    @classmethod
    def from_file(cls, *args, **kwargs):
        cls()

    @classmethod
    def from_dataset(cls, *args, **kwargs):
        cls()
