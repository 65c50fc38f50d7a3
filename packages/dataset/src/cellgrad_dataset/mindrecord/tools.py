"""Mirrors `mindspore.mindrecord`'s converters (`Cifar10ToMR`, `Cifar100ToMR`, `MnistToMR`,
`CsvToMR`, `ImageNetToMR`): a dataset in its download format written as MindRecord with
MindSpore's schemas, row order and file names. Images are JPEG-encoded with OpenCV, as
MindSpore does (the bytes depend on OpenCV's libjpeg build).

CIFAR batches are Python pickles, loaded with a restricted unpickler (numpy arrays, lists and
bytes only); MindSpore also checks the files' MD5 against the official release, which this
does not (so small or regenerated batches convert too).
"""

import csv
import gzip
import importlib
import io
import os
import pickle

import numpy as np

from cellgrad_dataset.mindrecord import SUCCESS
from cellgrad_dataset.mindrecord.exceptions import PathNotExistsError
from cellgrad_dataset.mindrecord.filewriter import FileWriter, check_filename

__all__ = ["Cifar10ToMR", "Cifar100ToMR", "MnistToMR", "CsvToMR", "ImageNetToMR"]

_BATCH = 256


def _cv2():
    try:
        return importlib.import_module("cv2")
    except ImportError as exc:
        raise ImportError("The MindRecord converters encode images with OpenCV: pip install "
                          "opencv-python-headless (or cellgrad-dataset[opencv]).") from exc


def _jpeg(cv2, rgb):
    ok, buf = cv2.imencode(".jpeg", np.ascontiguousarray(rgb[..., [2, 1, 0]]))
    return buf.tobytes()


class _Unpickler(pickle.Unpickler):
    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray"),
                ("numpy", "dtype"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
                ("_codecs", "encode")}

    def find_class(self, module, name):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")
        return super().find_class(module, name)


def _load_batch(path):
    with open(path, "rb") as f:
        return _Unpickler(io.BytesIO(f.read()), encoding="bytes").load()


def _partition(partition_number):
    if partition_number is not None and not isinstance(partition_number, int):
        raise ValueError("The parameter partition_number must be int")
    if partition_number is None:
        raise ValueError("The parameter partition_number must be int")
    return partition_number


def _write(file_name, schema, desc, rows, fields, shards=1, sizes=False):
    writer = FileWriter(file_name, shards)
    if sizes:
        writer.set_header_size(1 << 24)
        writer.set_page_size(1 << 26)
    writer.add_schema(schema, desc)
    if fields:
        writer.add_index(fields)
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH:
            writer.write_raw_data(batch)
            batch = []
    if batch:
        writer.write_raw_data(batch)
    writer.commit()


def _check_fields(fields):
    if fields and not isinstance(fields, list):
        raise ValueError("The parameter fields should be None or list")


class _Cifar:
    """The shared part of the two CIFAR converters."""

    _TRAIN = _TEST = None

    def __init__(self, source, destination):
        self.cv_import = _cv2()
        check_filename(source)
        self.source = source
        files = os.listdir(source)
        for name, missing in ((self._TRAIN, self._TRAIN_MISSING),
                              (self._TEST, self._TEST_MISSING)):
            if not any(self._matches(f, name) for f in files):
                raise PathNotExistsError(missing)
        check_filename(destination)
        self.destination = destination
        self.writer = None

    def transform(self, fields=None):
        """Mirrors `transform(fields=None)`: writes `destination` (train) and
        `destination + "_test"`; `fields` are index fields."""
        self.run(fields)

    def run(self, fields=None):
        _check_fields(fields)
        train, test = self._load()
        self._generate(self.destination, train, fields, "img_train")
        self._generate(self.destination + "_test", test, fields, "img_test")
        return SUCCESS

    def _files(self, name):
        return sorted(f for f in os.listdir(self.source) if self._matches(f, name))

    @staticmethod
    def _images(batch):
        return np.asarray(batch[b"data"]).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)


class Cifar10ToMR(_Cifar):
    """Mirrors `mindspore.mindrecord.Cifar10ToMR(source, destination)`: `data_batch_*` and
    `test_batch` of the CIFAR-10 Python release to rows {"id", "label", "data" (JPEG)}."""

    _TRAIN, _TEST = "data_batch_", "test_batch"
    _TRAIN_MISSING, _TEST_MISSING = "data_batch_*", "test_batch"

    @staticmethod
    def _matches(file, name):
        return file.startswith(name)

    def _load(self):
        def rows(paths):
            images, labels = [], []
            for path in paths:
                batch = _load_batch(os.path.join(self.source, path))
                images.append(self._images(batch))
                labels.extend(batch[b"labels"])
            return np.concatenate(images), labels

        return rows(self._files(self._TRAIN)), rows(self._files(self._TEST))

    def _generate(self, file_name, data, fields, desc):
        images, labels = data
        rows = ({"id": i, "data": _jpeg(self.cv_import, img), "label": int(labels[i])}
                for i, img in enumerate(images))
        schema = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}
        _write(file_name, schema, desc, rows, fields)


class Cifar100ToMR(_Cifar):
    """Mirrors `mindspore.mindrecord.Cifar100ToMR(source, destination)`: `train` and `test` of
    the CIFAR-100 Python release to rows {"id", "fine_label", "coarse_label", "data"}."""

    _TRAIN, _TEST = "train", "test"
    _TRAIN_MISSING, _TEST_MISSING = "train", "test"

    @staticmethod
    def _matches(file, name):
        return file == name

    def _load(self):
        def rows(name):
            batch = _load_batch(os.path.join(self.source, name))
            return self._images(batch), batch[b"fine_labels"], batch[b"coarse_labels"]

        return rows(self._TRAIN), rows(self._TEST)

    def _generate(self, file_name, data, fields, desc):
        images, fine, coarse = data
        rows = ({"id": i, "data": _jpeg(self.cv_import, img), "fine_label": int(fine[i]),
                 "coarse_label": int(coarse[i])} for i, img in enumerate(images))
        schema = {"id": {"type": "int64"}, "fine_label": {"type": "int64"},
                  "coarse_label": {"type": "int64"}, "data": {"type": "bytes"}}
        _write(file_name, schema, desc, rows, fields)


class MnistToMR:
    """Mirrors `mindspore.mindrecord.MnistToMR(source, destination, partition_number=1)`: the
    four gzipped IDX files to `destination_train.mindrecord` and
    `destination_test.mindrecord`, rows {"label", "data" (JPEG)} indexed by label."""

    _FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
              "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")

    def __init__(self, source, destination, partition_number=1):
        self.cv_import = _cv2()
        check_filename(source)
        self.source = source
        self.paths = [os.path.join(source, name) for name in self._FILES]
        check_filename(destination)
        self.destination = destination
        self.partition_number = _partition(partition_number)

    def transform(self):
        """Mirrors `transform()`."""
        self.run()

    def run(self):
        for part, (images, labels) in (("train", self.paths[:2]), ("test", self.paths[2:])):
            rows = self._rows(images, labels)
            _write(f"{self.destination}_{part}.mindrecord",
                   {"label": {"type": "int64"}, "data": {"type": "bytes"}}, "mnist_schema", rows,
                   ["label"], self.partition_number, sizes=True)
        return SUCCESS

    def _rows(self, images_path, labels_path):
        with gzip.open(os.path.realpath(images_path), "rb") as f:
            f.read(16)
            images = np.frombuffer(f.read(), dtype=np.uint8).reshape(-1, 28, 28, 1)
        with gzip.open(os.path.realpath(labels_path), "rb") as f:
            f.read(8)
            labels = np.frombuffer(f.read(), dtype=np.uint8).astype(np.int64)
        for image, label in zip(images, labels):
            _, buf = self.cv_import.imencode(".jpeg", image)
            yield {"label": int(label), "data": buf.tobytes()}


class ImageNetToMR:
    """Mirrors `mindspore.mindrecord.ImageNetToMR(map_file, image_dir, destination,
    partition_number=1)`: each `<dir> <label>` line of `map_file` names a sub-directory of
    `image_dir` whose .JPEG/.jpg files become rows {"label", "image" (the file's bytes),
    "file_name"}, indexed by label and file_name."""

    def __init__(self, map_file, image_dir, destination, partition_number=1):
        check_filename(map_file)
        self.map_file = map_file
        check_filename(image_dir)
        self.image_dir = image_dir
        check_filename(destination)
        self.destination = destination
        self.partition_number = _partition(partition_number)

    def transform(self):
        """Mirrors `transform()`."""
        self.run()

    def run(self):
        schema = {"label": {"type": "int32"}, "image": {"type": "bytes"},
                  "file_name": {"type": "string"}}
        _write(self.destination, schema, "imagenet_schema", self._rows(),
               ["label", "file_name"], self.partition_number, sizes=True)
        return SUCCESS

    def _rows(self):
        path = os.path.realpath(self.map_file)
        if not os.path.exists(path):
            raise OSError(f"map file {self.map_file} not exists")
        dirs = {}
        with open(path) as f:
            for line in f:
                parts = line.split(" ")
                if len(parts) >= 2:
                    directory = os.path.join(self.image_dir, parts[0])
                    if os.path.isdir(directory):
                        dirs[parts[1]] = directory
        if not dirs:
            raise PathNotExistsError(f"not valid image dir in {self.image_dir}")
        for label, directory in dirs.items():
            for item in sorted(os.listdir(directory)):
                if not item.endswith(("JPEG", "jpg")):
                    continue
                file_name = os.path.join(directory, item)
                with open(os.path.realpath(file_name), "rb") as f:
                    yield {"file_name": file_name, "label": int(label), "image": f.read()}


class CsvToMR:
    """Mirrors `mindspore.mindrecord.CsvToMR(source, destination, columns_list=None,
    partition_number=1)`: a CSV file (first line: column names) to rows with pandas' column
    types as MindSpore maps them (int64, float64, bool -> int32, others string)."""

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        check_filename(source)
        self.source = source
        check_filename(destination)
        self.destination = destination
        if columns_list is not None and (not isinstance(columns_list, list)
                                         or not all(isinstance(c, str) for c in columns_list)):
            raise ValueError("The parameter columns_list must be list of str.")
        self.columns_list = columns_list
        self.partition_number = _partition(partition_number)

    def transform(self):
        """Mirrors `transform()`."""
        self.run()

    def run(self):
        if not os.path.exists(self.source):
            raise OSError(f"Csv file {self.source} do not exist.")
        with open(self.source, newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            table = list(reader)
        columns = self.columns_list or header
        for col in columns:
            if col not in header:
                raise RuntimeError(f"The parameter columns_list is illegal, column {col} does "
                                   "not exist.")
            if col.isdigit():
                raise ValueError(f"The first line content: {col} of the CSV file is used as a "
                                 "column name and does not allow starting with a number.")
        values = {col: _column([r[header.index(col)] for r in table]) for col in columns}
        schema = {col: {"type": kind} for col, (kind, _) in values.items()}
        rows = ({col: values[col][1][i] for col in columns} for i in range(len(table)))
        _write(self.destination, schema, "csv_schema", rows, list(columns),
               self.partition_number, sizes=True)
        return SUCCESS


def _column(texts):
    """(MindRecord type, values) of a CSV column, typed as pandas.read_csv types it."""
    for kind, parse in (("int64", int), ("float64", float)):
        try:
            return kind, [parse(t) for t in texts]
        except ValueError:
            continue
    if all(t in ("True", "False") for t in texts):
        return "int32", [int(t == "True") for t in texts]
    return "string", list(texts)
