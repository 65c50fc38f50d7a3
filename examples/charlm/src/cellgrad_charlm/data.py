"""The text: the stdlib's *.py files split by file, a character vocabulary, window datasets."""

import glob
import os
import sysconfig

import numpy as np

import cellgrad as ms

UNK = 0  # the id of a character the training text does not hold


def stdlib_files():
    """The top-level *.py files of the running Python's standard library, sorted."""
    root = sysconfig.get_paths()["stdlib"]
    files = sorted(glob.glob(os.path.join(root, "*.py")))
    if not files:
        raise SystemExit(f"cellgrad-charlm: no *.py files in the standard library at {root}")
    return files


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def load(max_chars, seed, val_fraction=0.1):
    """`(train_text, val_text, n_train_files, n_val_files)`: the files shuffled with `seed` and
    split by file; the training side read until it holds `max_chars` characters, validation
    until a 32nd of that."""
    files = stdlib_files()
    order = np.random.default_rng(seed).permutation(len(files))
    n_val = max(1, round(len(files) * val_fraction))
    val_files = [files[i] for i in order[:n_val]]
    train_files = [files[i] for i in order[n_val:]]
    train, n_tr = _concat(train_files, max_chars)
    val, n_va = _concat(val_files, max(max_chars // 32, 1))
    return train, val, n_tr, n_va


def _concat(files, limit):
    parts, total = [], 0
    for path in files:
        if total >= limit:
            break
        text = read(path)
        parts.append(text)
        total += len(text)
    return "".join(parts)[:limit], len(parts)


class Vocab:
    """Characters of the training text, most frequent first after id 0, the unknown id."""

    def __init__(self, text):
        chars, counts = np.unique(np.frombuffer(text.encode("utf-32-le"), np.uint32),
                                  return_counts=True)
        order = np.argsort(-counts, kind="stable")
        self.chars = ["\N{REPLACEMENT CHARACTER}"] + [chr(c) for c in chars[order]]
        self.ids = {c: i for i, c in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, text):
        return np.array([self.ids.get(c, UNK) for c in text], np.int32)

    def decode(self, ids):
        return "".join(self.chars[int(i)] for i in ids)


def unigram_baseline(train_ids, val_ids, size):
    """Cross-entropy (nats/char) of the validation text under the training text's character
    frequencies (add-one smoothed, so the unknown id has a finite cost)."""
    counts = np.bincount(train_ids, minlength=size).astype(np.float64) + 1.0
    logp = np.log(counts / counts.sum())
    return float(-logp[val_ids].mean())


def windows(ids, seq_len):
    """Non-overlapping windows of `seq_len + 1` ids: inputs are [:-1], targets [1:]."""
    n = (len(ids) - 1) // seq_len
    if n < 1:
        raise SystemExit(f"cellgrad-charlm: {len(ids)} characters cannot fill one window of "
                         f"--seq-len {seq_len}; raise --max-chars")
    idx = np.arange(n)[:, None] * seq_len + np.arange(seq_len + 1)[None, :]
    return ids[idx]


def train_dataset(ids, seq_len, batch_size, seed):
    """Shuffled batches of windows, the start shifted by a random offset (new windows than the
    plain cut), through the dataset pipeline: NumpySlicesDataset -> shuffle -> batch."""
    offset = int(np.random.default_rng(seed).integers(seq_len))
    w = windows(ids[offset:], seq_len)
    if len(w) < batch_size:
        raise SystemExit(f"cellgrad-charlm: {len(w)} training windows are fewer than "
                         f"--batch-size {batch_size}; raise --max-chars")
    data = ms.dataset.NumpySlicesDataset({"x": w[:, :-1], "y": w[:, 1:]}, shuffle=False)
    return data.shuffle(buffer_size=len(w)).batch(batch_size, drop_remainder=True)


def batches(dataset):
    """Endless (x, y) Tensors: one iterator read epoch after epoch, each in a new shuffle order
    (a `for` loop over a dataset iterator reads one epoch)."""
    epochs = dataset.create_tuple_iterator(num_epochs=-1)
    while True:
        yield from epochs
