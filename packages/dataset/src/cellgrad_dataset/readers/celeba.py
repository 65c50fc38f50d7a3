"""CelebA: `CelebADataset`.

MindSpore reads `dataset_dir/list_attr_celeba.txt` (a row count, the attribute names, then one
line per image: its file name and one 1/-1 per attribute) and the images named there from
`dataset_dir` itself (unzip img_align_celeba.zip's files there). `usage` other than "all"
keeps the images `list_eval_partition.txt` puts in that part (0 train, 1 valid, 2 test);
the rows follow the attribute file's order.
"""

import os

import numpy as np

from cellgrad_dataset.cache import check_cache
from cellgrad_dataset.readers.common import (
    FileSource,
    check_dir,
    check_type,
    check_workers,
    data_error,
)
from cellgrad_dataset.readers.image_folder import decode_image

_PARTS = {"train": "0", "valid": "1", "test": "2"}


class CelebADataset(FileSource):
    """Mirrors `mindspore.dataset.CelebADataset`: columns image (uint8), attr (uint32, 0/1).

    image is the file's bytes (1-D) or, with `decode=True`, its RGB pixels (HWC). With
    `extensions` only the images whose names end in one of them are read (MindSpore's
    `get_dataset_size` counts the others too until the rows have been read once; cellgrad's
    counts the rows it gives). A missing
    or malformed file raises RuntimeError when the rows or their number are first needed.
    """

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all",
                 sampler=None, decode=False, extensions=None, num_samples=None, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        super().__init__()
        dataset_dir = check_dir(dataset_dir)
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"Argument decrypt is not a callable object, but got "
                            f"{type(decrypt)}")
        check_workers(num_parallel_workers)
        check_type("shuffle", shuffle, (bool,))
        check_type("decode", decode, (bool,))
        check_type("extensions", extensions, (list,))
        if usage is not None and usage not in ("all", "train", "valid", "test"):
            raise ValueError("usage should be 'all', 'train', 'valid' or 'test'.")
        check_cache(cache)
        self._decode, self._decrypt = decode, decrypt
        self._names = ["image", "attr"]
        self._start(lambda: self._scan(dataset_dir, usage or "all", extensions), shuffle,
                    num_samples, num_shards, shard_id, sampler)

    def _scan(self, dataset_dir, usage, extensions):
        owner = type(self).__name__
        attr_path = os.path.join(dataset_dir, "list_attr_celeba.txt")
        if not os.path.isfile(attr_path):
            raise data_error(owner, f"the attribute file {attr_path} does not exist.")
        with open(attr_path) as f:
            lines = [line.split() for line in f.read().splitlines()]
        if len(lines) < 2:
            raise data_error(owner, f"{attr_path} is not a CelebA attribute file: it needs a "
                                    f"row count line and an attribute names line.")
        attributes = lines[1]
        keep = None
        if usage != "all":
            part_path = os.path.join(dataset_dir, "list_eval_partition.txt")
            if not os.path.isfile(part_path):
                raise data_error(owner, f"usage {usage!r} needs the partition file "
                                        f"{part_path}, which does not exist (only usage='all' "
                                        f"reads without it).")
            with open(part_path) as f:
                keep = {fields[0] for fields in (line.split() for line in f)
                        if len(fields) == 2 and fields[1] == _PARTS[usage]}
        paths, attrs = [], []
        for number, fields in enumerate(lines[2:], 3):
            if not fields:
                continue
            if len(fields) != len(attributes) + 1:
                raise data_error(owner, f"line {number} of {attr_path} has {len(fields) - 1} "
                                        f"attribute values, expected {len(attributes)}.")
            name = fields[0]
            if keep is not None and name not in keep:
                continue
            if extensions and os.path.splitext(name)[1] not in extensions:
                continue
            try:
                values = [int(v) for v in fields[1:]]
            except ValueError:
                raise data_error(owner, f"line {number} of {attr_path} has a non-integer "
                                        f"attribute value: {fields[1:]}.") from None
            paths.append(os.path.join(dataset_dir, name))
            attrs.append([1 if v > 0 else 0 for v in values])
        if not paths:
            raise data_error(owner, f"no image listed in {attr_path} for usage {usage!r} "
                                    f"(extensions {extensions}).")
        self._paths = paths
        self._attrs = np.array(attrs, np.uint32).reshape(len(paths), len(attributes))
        return len(paths)

    def _row(self, i):
        path, owner = self._paths[i], type(self).__name__
        try:
            if self._decrypt is not None:
                data = bytes(self._decrypt(path))
            else:
                with open(path, "rb") as f:
                    data = f.read()
        except OSError as err:
            raise data_error(owner, f"cannot read the image {path} ({err}); CelebADataset "
                                    f"reads the images from dataset_dir itself (not from an "
                                    f"img_align_celeba/ sub-folder).") from err
        image = decode_image(data, path, owner) if self._decode else \
            np.frombuffer(data, np.uint8).copy()
        return image, self._attrs[i].copy()
