"""MNIST-style IDX files: `MnistDataset`, `FashionMnistDataset`, `KMnistDataset`.

An IDX file is a big-endian header (magic 2051 for images, 2049 for labels, then one uint32
per dimension) followed by the uint8 values. MindSpore pairs the sorted `*-images*idx3-ubyte`
files of `dataset_dir` with the sorted `*-labels*idx1-ubyte` files (`train-` or `t10k-` for a
usage); "all" reads the t10k files before the train files, as their names sort.
"""

import os

import numpy as np

from cellgrad_dataset.readers.common import (
    FileSource,
    check_dir,
    check_usage,
    check_workers,
    data_error,
)

IMAGE_MAGIC, LABEL_MAGIC, SIDE = 2051, 2049, 28
_PREFIX = {"train": "train", "test": "t10k", "all": ""}


def _header(path, ndim, owner, kind):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(4 + 4 * ndim)
    if len(head) < 4 + 4 * ndim:
        raise data_error(owner, f"the {kind} file {path} is truncated: {size} bytes is shorter "
                                f"than its {4 + 4 * ndim}-byte IDX header.")
    values = np.frombuffer(head, ">u4").astype(np.int64)
    return int(values[0]), [int(v) for v in values[1:]], size - len(head)


def _gz_hint(path):
    return " It looks gzip-compressed: decompress it first, MindSpore reads raw IDX files." \
        if path.endswith(".gz") else ""


def _read_pair(images_path, labels_path, owner):
    magic, dims, data_len = _header(images_path, 3, owner, "image")
    if magic != IMAGE_MAGIC:
        raise data_error(owner, f"the image file {images_path} has IDX magic number {magic}, "
                                f"expected {IMAGE_MAGIC} (uint8 images of 3 dimensions)."
                                f"{_gz_hint(images_path)}")
    n, rows, cols = dims
    if (rows, cols) != (SIDE, SIDE):
        raise data_error(owner, f"the images of {images_path} are {rows}x{cols}, expected "
                                f"{SIDE}x{SIDE}.")
    if data_len != n * SIDE * SIDE:
        raise data_error(owner, f"the image file {images_path} is truncated or has extra bytes: "
                                f"its header says {n} images ({n * SIDE * SIDE} bytes) but it "
                                f"holds {data_len} bytes of data.")
    magic, (n_labels,), data_len = _header(labels_path, 1, owner, "label")
    if magic != LABEL_MAGIC:
        raise data_error(owner, f"the label file {labels_path} has IDX magic number {magic}, "
                                f"expected {LABEL_MAGIC} (uint8 labels of 1 dimension)."
                                f"{_gz_hint(labels_path)}")
    if data_len != n_labels:
        raise data_error(owner, f"the label file {labels_path} is truncated or has extra bytes: "
                                f"its header says {n_labels} labels but it holds {data_len} "
                                f"bytes of data.")
    if n_labels != n:
        raise data_error(owner, f"the image file {images_path} holds {n} images but the label "
                                f"file {labels_path} holds {n_labels} labels.")
    # A plain ndarray over the memory map: indexing it skips np.memmap's per-access overhead.
    images = np.asarray(np.memmap(images_path, np.uint8, "r", 16, (n, SIDE, SIDE, 1))) if n \
        else np.zeros((0, SIDE, SIDE, 1), np.uint8)
    labels = np.fromfile(labels_path, np.uint8, offset=8).astype(np.uint32)
    return images, labels


class MnistDataset(FileSource):
    """Mirrors `mindspore.dataset.MnistDataset`: columns image (uint8, 28x28x1), label (uint32).

    A missing or malformed file raises RuntimeError when the rows or their number are first
    needed, as in MindSpore.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__()
        check_workers(num_parallel_workers)
        dataset_dir = check_dir(dataset_dir)
        usage = check_usage(usage)
        self._names = ["image", "label"]
        self._start(lambda: self._scan(dataset_dir, usage), shuffle, num_samples, num_shards,
                    shard_id, sampler)

    def _scan(self, dataset_dir, usage):
        owner, prefix = type(self).__name__, _PREFIX[usage]
        names = sorted(os.listdir(dataset_dir))
        images = [os.path.join(dataset_dir, f) for f in names
                  if f"{prefix}-images" in f and "idx3-ubyte" in f]
        labels = [os.path.join(dataset_dir, f) for f in names
                  if f"{prefix}-labels" in f and "idx1-ubyte" in f]
        if not images and not labels:
            raise data_error(owner, f"no IDX files for usage {usage!r} in {dataset_dir}: "
                                    f"expected {prefix or '<train|t10k>'}-images-idx3-ubyte "
                                    f"and {prefix or '<train|t10k>'}-labels-idx1-ubyte.")
        if len(images) != len(labels):
            raise data_error(owner, f"{dataset_dir} has {len(images)} image files {images} but "
                                    f"{len(labels)} label files {labels}; they must pair up.")
        pairs = [_read_pair(i, lab, owner) for i, lab in zip(images, labels)]
        self._images = pairs[0][0] if len(pairs) == 1 else np.concatenate([p[0] for p in pairs])
        self._labels = np.concatenate([p[1] for p in pairs])
        return len(self._labels)

    def _row(self, i):
        return np.array(self._images[i]), self._labels[i, ...]

    def _rows_block(self, indices):
        return self._images[indices], self._labels[indices]

    def _class_labels(self):
        return self._labels


class FashionMnistDataset(MnistDataset):
    """Mirrors `mindspore.dataset.FashionMnistDataset`: Fashion-MNIST in MNIST's IDX files."""


class KMnistDataset(MnistDataset):
    """Mirrors `mindspore.dataset.KMnistDataset`: Kuzushiji-MNIST in MNIST's IDX files."""
