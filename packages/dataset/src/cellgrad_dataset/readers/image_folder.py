"""A folder of class folders of images: `ImageFolderDataset`.

Classes are the sub-folders of `dataset_dir` in sorted order (hidden and empty ones
included, as MindSpore); the rows are each class's entries in sorted order. With
`extensions` only names ending in one of them (with the dot, case-sensitive) are read.
"""

import io
import os

import numpy as np
from PIL import Image

from cellgrad_dataset.readers.common import (
    FileSource,
    check_dir,
    check_type,
    check_workers,
    data_error,
)

# What MindSpore 2.10's decoder reads (it fails on GIF and WebP); its pixels equal Pillow's
# RGB conversion for all of these (measured on baseline, progressive, 4:2:0/4:2:2/4:4:4,
# grayscale and CMYK JPEGs, gray/gray+alpha/1-bit/RGB/RGBA/palette PNGs, BMP and TIFF), except
# 16-bit gray PNGs (high byte). OpenCV's imdecode is 1 off on CMYK JPEGs, hence Pillow here.
DECODABLE = {"JPEG", "PNG", "BMP", "TIFF"}


def decode_image(data, path, owner):
    """The RGB HWC uint8 pixels of an encoded image, as MindSpore's Decode gives them."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            fmt = image.format
            if fmt in DECODABLE and image.mode.startswith("I"):
                # 16-bit gray: MindSpore (OpenCV) keeps the high byte, Pillow would clip
                high = (np.asarray(image).astype(np.uint32) >> 8).astype(np.uint8)
                return np.repeat(high[..., None], 3, axis=-1)
            if fmt in DECODABLE:
                return np.asarray(image.convert("RGB"))
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as err:
        raise data_error(owner, f"cannot decode the image {path}: the image is broken "
                                f"({type(err).__name__}: {err}).") from err
    raise data_error(owner, f"cannot decode the image {path}: {fmt} is not a format MindSpore "
                            f"decodes (JPEG, PNG, BMP, TIFF).")


class ImageFolderDataset(FileSource):
    """Mirrors `mindspore.dataset.ImageFolderDataset`: columns image, label (int32).

    image is the file's bytes (uint8, 1-D) or, with `decode=True`, its RGB pixels (uint8 HWC).
    A folder with no images raises RuntimeError when the rows or their number are first
    needed (MindSpore counts 0 rows and fails on the first one). `decrypt`, as MindSpore's,
    takes a file's path and returns its decrypted bytes.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        super().__init__()
        check_workers(num_parallel_workers)
        check_type("extensions", extensions, (list,))
        check_type("class_indexing", class_indexing, (dict,))
        check_type("decode", decode, (bool,))
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"Argument decrypt with value {decrypt!r} is not callable.")
        dataset_dir = check_dir(dataset_dir)
        classes = sorted(f for f in os.listdir(dataset_dir)
                         if os.path.isdir(os.path.join(dataset_dir, f)))
        if class_indexing is None:
            class_indexing = {name: i for i, name in enumerate(classes)}
        self._class_indexing = dict(class_indexing)
        self._decode, self._decrypt = decode, decrypt
        self._names = ["image", "label"]
        self._start(lambda: self._scan(dataset_dir, classes, class_indexing, extensions),
                    shuffle, num_samples, num_shards, shard_id, sampler)

    def _scan(self, dataset_dir, classes, class_indexing, extensions):
        paths, labels = [], []
        for name in classes:
            if name not in class_indexing:
                continue
            folder = os.path.join(dataset_dir, name)
            for entry in sorted(os.listdir(folder)):
                if extensions and os.path.splitext(entry)[1] not in extensions:
                    continue
                paths.append(os.path.join(folder, entry))
                labels.append(class_indexing[name])
        if not paths:
            raise data_error(type(self).__name__, f"no image found in the class folders of "
                                                  f"{dataset_dir} (classes "
                                                  f"{list(class_indexing)}, extensions "
                                                  f"{extensions}).")
        self._paths, self._labels = paths, np.array(labels, np.int32)
        return len(paths)

    def get_class_indexing(self):
        """Mirrors `ImageFolderDataset.get_class_indexing`: class folder name -> label."""
        return dict(self._class_indexing)

    def _class_labels(self):
        return self._labels

    def _row(self, i):
        path, owner = self._paths[i], type(self).__name__
        if os.path.isdir(path):
            raise data_error(owner, f"{path} is a directory, expected an image file.")
        try:
            if self._decrypt is not None:
                data = bytes(self._decrypt(path))
            else:
                with open(path, "rb") as f:
                    data = f.read()
        except OSError as err:
            raise data_error(owner, f"cannot read {path}: {err}.") from err
        image = decode_image(data, path, owner) if self._decode else \
            np.frombuffer(data, np.uint8).copy()
        return image, self._labels[i, ...]
