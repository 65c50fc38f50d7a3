"""The file readers (MNIST IDX, CIFAR binary, image folders, CSV, text lines) beyond the
recorded MindSpore programs (ms_programs/readers_*.py): values against the raw bytes, the
block reads the engine batches with, error messages naming dataset and file, and pipelines."""

import io
import os
import pathlib
import sys

import cellgrad.dataset as ds
import numpy as np
import pytest
from PIL import Image

import cellgrad as ms
from cellgrad_dataset.readers.text import stream_order

sys.path.insert(0, str(pathlib.Path(__file__).parent / "fixtures" / "readers"))
import readers_files as rf  # noqa: E402


@pytest.fixture(autouse=True)
def _keep_the_dataset_seed(monkeypatch):
    from cellgrad_dataset import config

    monkeypatch.setitem(config._state, "seed", config._state["seed"])  # restored after each test


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


@pytest.fixture(scope="module")
def mnist(tmp_path_factory):
    return rf.mnist(str(tmp_path_factory.mktemp("mnist")))


@pytest.fixture(scope="module")
def cifar10(tmp_path_factory):
    return rf.cifar10(str(tmp_path_factory.mktemp("cifar10")), batches=(1,))


@pytest.fixture(scope="module")
def cifar100(tmp_path_factory):
    return rf.cifar100(str(tmp_path_factory.mktemp("cifar100")), n_test=10000)


@pytest.fixture()
def images(tmp_path):
    return rf.image_folder(str(tmp_path / "images"))


# ---- MNIST ----

def test_mnist_rows_are_the_idx_bytes_in_file_order(mnist):
    raw = np.fromfile(os.path.join(mnist, "train-images-idx3-ubyte"), np.uint8)[16:]
    labels = np.fromfile(os.path.join(mnist, "train-labels-idx1-ubyte"), np.uint8)[8:]
    got = rows(ds.MnistDataset(mnist, "train", shuffle=False))
    assert np.array_equal(np.stack([r[0] for r in got]), raw.reshape(-1, 28, 28, 1))
    assert [int(r[1]) for r in got] == labels.tolist()
    assert all(r[1].dtype == np.uint32 and r[1].shape == () for r in got)


def test_mnist_block_reads_equal_row_reads(mnist):
    dataset = ds.MnistDataset(mnist, shuffle=False)
    idx = np.array([9, 0, 4, 4])
    images, labels = dataset._rows_block(idx)
    assert images.dtype == np.uint8 and labels.dtype == np.uint32
    for k, i in enumerate(idx):
        image, label = dataset._row(int(i))
        assert np.array_equal(images[k], image) and labels[k] == label


def test_mnist_shuffle_is_a_permutation_reproducible_after_set_seed(mnist):
    ds.config.set_seed(5)
    first = [int(r[0].sum()) for r in rows(ds.MnistDataset(mnist))]
    ds.config.set_seed(5)
    again = [int(r[0].sum()) for r in rows(ds.MnistDataset(mnist))]
    plain = [int(r[0].sum()) for r in rows(ds.MnistDataset(mnist, shuffle=False))]
    assert first == again and sorted(first) == sorted(plain)


def test_mnist_batches_and_maps_into_tensors(mnist):
    pipe = ds.MnistDataset(mnist, "train", shuffle=False)
    pipe = pipe.map(lambda x: (x / 255).astype(np.float32), input_columns="image")
    pipe = pipe.map(lambda y: y.astype(np.int32), input_columns="label").batch(3)
    batches = list(pipe.create_tuple_iterator())
    assert [b[0].shape for b in batches] == [(3, 28, 28, 1), (3, 28, 28, 1), (1, 28, 28, 1)]
    assert batches[0][0].dtype == ms.float32 and batches[0][1].dtype == ms.int32
    assert pipe.get_dataset_size() == 3


def test_mnist_pk_sampler_sees_the_labels(mnist):
    got = rows(ds.MnistDataset(mnist, sampler=ds.PKSampler(1, shuffle=False)))
    labels = np.fromfile(os.path.join(mnist, "t10k-labels-idx1-ubyte"), np.uint8)[8:].tolist()
    labels += np.fromfile(os.path.join(mnist, "train-labels-idx1-ubyte"), np.uint8)[8:].tolist()
    assert [int(r[1]) for r in got] == sorted(set(labels))


@pytest.mark.parametrize("damage, message", [
    (lambda d: open(os.path.join(d, "train-images-idx3-ubyte"), "r+b").truncate(16 + 784 * 6),
     r"For 'MnistDataset', the image file .*train-images-idx3-ubyte is truncated .* says 7 "
     r"images \(5488 bytes\) but it holds 4704 bytes"),
    (lambda d: open(os.path.join(d, "train-labels-idx1-ubyte"), "r+b").truncate(6),
     r"label file .*train-labels-idx1-ubyte is truncated: 6 bytes"),
    (lambda d: rf.write_idx(os.path.join(d, "train-images-idx3-ubyte"), np.zeros((7, 28))),
     r"has IDX magic number 2050, expected 2051"),
    (lambda d: rf.write_idx(os.path.join(d, "train-images-idx3-ubyte"), np.zeros((7, 9, 28))),
     r"are 9x28, expected 28x28"),
    (lambda d: rf.write_idx(os.path.join(d, "train-labels-idx1-ubyte"), np.zeros(6)),
     r"holds 7 images but the label file .*train-labels-idx1-ubyte holds 6 labels"),
    (lambda d: os.remove(os.path.join(d, "train-labels-idx1-ubyte")),
     r"has 1 image files .* but 0 label files"),
])
def test_mnist_bad_files_raise_runtime_errors_naming_the_file(tmp_path, damage, message):
    folder = rf.mnist(str(tmp_path / "m"))
    damage(folder)
    dataset = ds.MnistDataset(folder, "train")  # as MindSpore: the files are checked on use
    with pytest.raises(RuntimeError, match=message):
        dataset.get_dataset_size()
    with pytest.raises(RuntimeError, match=message):
        next(dataset.create_tuple_iterator())


def test_mnist_argument_errors(tmp_path, mnist):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.MnistDataset(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match=r"valid set of \['train', 'test', 'all'\]"):
        ds.MnistDataset(mnist, usage="valid")
    with pytest.raises(RuntimeError, match="no IDX files for usage 'test'"):
        ds.FashionMnistDataset(str(tmp_path), usage="test").get_dataset_size()
    pk = ds.MnistDataset(str(tmp_path), sampler=ds.PKSampler(2))  # no labels to give it yet
    with pytest.raises(RuntimeError, match="no IDX files for usage 'all'"):
        list(pk.create_dict_iterator())
    with pytest.raises(RuntimeError, match="sampler and sharding"):
        ds.MnistDataset(mnist, sampler=ds.SequentialSampler(), num_shards=2, shard_id=0)
    with pytest.raises(RuntimeError, match="requires shard_id"):
        ds.MnistDataset(mnist, num_shards=2)


def test_mnist_file_is_memory_mapped_not_read(mnist):
    assert isinstance(ds.MnistDataset(mnist, "train")._images.base, np.memmap)


# ---- CIFAR ----

def test_cifar10_rows_are_hwc_records(cifar10):
    records = np.fromfile(os.path.join(cifar10, "data_batch_1.bin"), np.uint8).reshape(-1, 3073)
    dataset = ds.Cifar10Dataset(cifar10, "train", shuffle=False)
    assert dataset.get_dataset_size() == 10000
    for k, (image, label) in zip((0, 1, 2), dataset.create_tuple_iterator(output_numpy=True)):
        assert np.array_equal(image, records[k, 1:].reshape(3, 32, 32).transpose(1, 2, 0))
        assert label == records[k, 0] and label.dtype == np.uint32
    images, labels = dataset._rows_block(np.array([9999, 0, 10]))
    assert np.array_equal(images[0], dataset._row(9999)[0]) and labels[2] == records[10, 0]
    assert images.flags.c_contiguous and images.shape == (3, 32, 32, 3)


def test_cifar10_block_reads_across_files(cifar10):
    dataset = ds.Cifar10Dataset(cifar10, "all", shuffle=False)  # data_batch_1 then test_batch
    idx = np.array([10001, 3, 19999, 9999])
    images, labels = dataset._rows_block(idx)
    for k, i in enumerate(idx):
        image, label = dataset._row(int(i))
        assert np.array_equal(images[k], image) and labels[k] == label


def test_cifar100_columns_and_labels(cifar100):
    records = np.fromfile(os.path.join(cifar100, "test.bin"), np.uint8, 3 * 3074).reshape(3, -1)
    dataset = ds.Cifar100Dataset(cifar100, "test", shuffle=False)
    assert dataset.get_col_names() == ["image", "coarse_label", "fine_label"]
    got = rows(dataset.take(3))
    assert [(int(r[1]), int(r[2])) for r in got] == [tuple(r[:2]) for r in records.tolist()]


def test_cifar_truncated_and_misnamed_files(tmp_path):
    folder = rf.cifar10(str(tmp_path / "c10"), batches=(1,), n_test=10)
    with pytest.raises(RuntimeError, match=r"For 'Cifar10Dataset', the file .*test_batch.bin "
                                           r"is truncated: it holds 10 whole records of 3073 "
                                           r"bytes, expected 10000"):
        ds.Cifar10Dataset(folder).get_dataset_size()
    assert ds.Cifar10Dataset(folder, "train").get_dataset_size() == 10000
    with open(tmp_path / "c10" / "other.bin", "wb") as f:
        f.write(bytes(3074))
    with pytest.raises(RuntimeError, match=r"data_batch_1\.bin holds training or test "
                                           r"records: a CIFAR-100 file name must contain"):
        list(ds.Cifar100Dataset(folder))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RuntimeError, match="no CIFAR .bin files"):
        ds.Cifar100Dataset(str(empty)).get_dataset_size()


# ---- ImageFolder ----

def test_image_folder_raw_bytes_and_labels(images):
    dataset = ds.ImageFolderDataset(images, shuffle=False)
    paths = [os.path.join(images, c, f) for c in ("bird", "cat", "dog")
             for f in sorted(os.listdir(os.path.join(images, c)))]
    got = rows(dataset)
    for path, (data, _) in zip(paths, got):
        with open(path, "rb") as f:
            assert data.dtype == np.uint8 and data.ndim == 1 and data.tobytes() == f.read()
    assert [int(r[1]) for r in got] == [0, 1, 1, 1, 2, 2]
    assert dataset.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2, "empty": 3}


def test_image_folder_decodes_as_pillow_and_iterates_as_tensors(images):
    dataset = ds.ImageFolderDataset(images, shuffle=False, decode=True, extensions=[".png"])
    image, label = next(dataset.create_tuple_iterator())
    pil = np.asarray(Image.open(os.path.join(images, "cat", "b.png")).convert("RGB"))
    assert image.dtype == ms.uint8 and label.dtype == ms.int32
    assert np.array_equal(image.asnumpy(), pil) and int(label) == 1


def test_image_folder_class_indexing_and_decrypt(images):
    dataset = ds.ImageFolderDataset(images, shuffle=False, class_indexing={"dog": 7},
                                    decrypt=lambda path: open(path, "rb").read()[::-1])
    got = rows(dataset)
    with open(os.path.join(images, "dog", "x.png"), "rb") as f:
        assert got[0][0].tobytes() == f.read()[::-1]
    assert [int(r[1]) for r in got] == [7, 7]


def test_image_folder_corrupt_and_unsupported_images(images):
    with open(os.path.join(images, "dog", "y.jpg"), "r+b") as f:
        f.truncate(40)
    it = ds.ImageFolderDataset(images, shuffle=False, decode=True).create_tuple_iterator()
    with pytest.raises(RuntimeError, match=r"For 'ImageFolderDataset', cannot decode the image "
                                           r".*dog.y\.jpg: the image is broken"):
        list(it)
    buf = io.BytesIO()
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(buf, "GIF")
    with open(os.path.join(images, "dog", "y.jpg"), "wb") as f:
        f.write(buf.getvalue())
    with pytest.raises(RuntimeError, match=r"y\.jpg: GIF is not a format MindSpore decodes"):
        list(ds.ImageFolderDataset(images, shuffle=False, decode=True))


def test_image_folder_argument_errors(images, tmp_path):
    with pytest.raises(TypeError, match="Argument extensions"):
        ds.ImageFolderDataset(images, extensions=".png")
    with pytest.raises(TypeError, match="Argument decode with value 1"):
        ds.ImageFolderDataset(images, decode=1)
    none = ds.ImageFolderDataset(images, extensions=[".gif"])
    assert none.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2, "empty": 3}
    with pytest.raises(RuntimeError, match=r"no image found .*extensions \['\.gif'\]"):
        none.get_dataset_size()
    with pytest.raises(ValueError, match="does not exist"):
        ds.ImageFolderDataset(str(tmp_path / "nope"))


# ---- CSV / text ----

def test_stream_order_matches_mindspores_worker_interleaving():
    counts = [3, 1, 4, 2]
    names = [[f"f{f + 1}_{r}" for r in range(c)] for f, c in enumerate(counts)]

    def order(workers, shards=1, shard=0):
        return [names[f][r] for f, r in zip(*stream_order(counts, workers, shards, shard))]

    assert order(1) == sum(names, [])
    assert order(2) == ["f1_0", "f2_0", "f1_1", "f4_0", "f1_2", "f4_1", "f3_0", "f3_1",
                        "f3_2", "f3_3"]
    assert order(2, 3, 2) == ["f4_0", "f1_0", "f4_1", "f1_1"]  # wraps to the first file
    assert order(1, 5, 4) == ["f4_0", "f4_1"] and len(order(8)) == 10
    assert [a.tolist() for a in stream_order([3], 2, 5, 4)] == [[0], [1]]  # 1 row a shard


def test_text_file_lines(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes("one\n\ntwo\r\nthr\u00e9e".encode())
    got = rows(ds.TextFileDataset(str(path), shuffle=False))
    assert [str(r[0]) for r in got] == ["one", "two\r", "thr\u00e9e"]
    text = next(ds.TextFileDataset(str(path), shuffle=False).create_tuple_iterator())[0]
    assert isinstance(text, np.ndarray) and text.dtype.kind == "U"  # not a Tensor
    (tmp_path / "e.txt").write_text("\n\n")
    with pytest.raises(RuntimeError, match=r"For 'TextFileDataset', no rows found in .*e\.txt"):
        list(ds.TextFileDataset(str(tmp_path / "e*"), shuffle=False))
    with pytest.raises(ValueError, match="patterns did not match any files"):
        ds.TextFileDataset(str(tmp_path / "none.txt"))
    with pytest.raises(TypeError, match="shuffle must be of boolean or enum of 'Shuffle'"):
        ds.TextFileDataset(str(path), shuffle="global")


def test_csv_types_and_errors(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text('x,y,z\n1,"a, b",2.5\n-3, c ,1e3\n')
    got = rows(ds.CSVDataset(str(path), column_defaults=[0, "", 0.0], shuffle=False))
    assert [[v.dtype.str for v in r] for r in got] == [["<i4", "<U4", "<f4"],
                                                       ["<i4", "<U3", "<f4"]]
    assert [(int(r[0]), str(r[1]), float(r[2])) for r in got] == [(1, "a, b", 2.5),
                                                                 (-3, " c ", 1000.0)]
    assert ds.CSVDataset(str(path), shuffle=False).get_col_names() == ["x", "y", "z"]
    bad = tmp_path / "b.csv"
    bad.write_text("x,y\n1,2\nnope,3\n")
    with pytest.raises(RuntimeError, match=r"For 'CSVDataset', line 3 of .*b\.csv: 'nope' is "
                                           r"not a valid int"):
        list(ds.CSVDataset(str(bad), column_defaults=[0, 0]))
    bad.write_text("x,y\n1,2\n3\n")
    with pytest.raises(RuntimeError, match=r"line 3 of .*b\.csv has 1 fields, expected 2"):
        list(ds.CSVDataset(str(bad)))
    bad.write_text('x,y\n"1,2\n')
    with pytest.raises(RuntimeError, match=r"cannot parse the CSV file .*b\.csv"):
        ds.CSVDataset(str(bad)).get_col_names()
    with pytest.raises(TypeError, match="column type in column_defaults is invalid"):
        ds.CSVDataset(str(path), column_defaults=[np.int32(0)])
    with pytest.raises(ValueError, match="field_delim is invalid"):
        ds.CSVDataset(str(path), field_delim="ab")


def test_csv_shards_cover_the_rows_evenly(tmp_path):
    files = []
    for k, n in enumerate((3, 4)):
        path = tmp_path / f"{k}.csv"
        path.write_text("v\n" + "".join(f"{k}{i}\n" for i in range(n)))
        files.append(str(path))
    shards = [[str(r[0]) for r in rows(ds.CSVDataset(files, shuffle=False, num_shards=3,
                                                     shard_id=s, num_parallel_workers=1))]
              for s in range(3)]
    assert shards == [["00", "01", "02"], ["10", "11", "12"], ["13", "00", "01"]]


def test_text_shuffle_modes(tmp_path):
    files = []
    for k, n in enumerate((3, 4, 2)):
        path = tmp_path / f"{k}.txt"
        path.write_text("".join(f"{k}{i}\n" for i in range(n)))
        files.append(str(path))

    def read(shuffle, **kw):
        dataset = ds.TextFileDataset(files, shuffle=shuffle, num_parallel_workers=1, **kw)
        return [str(r[0]) for r in rows(dataset)]

    ds.config.set_seed(3)
    plain = read(False)
    assert plain == ["00", "01", "02", "10", "11", "12", "13", "20", "21"]
    by_file = read(ds.Shuffle.FILES)  # whole files moved, each still in order
    assert sorted(by_file) == plain and by_file != plain
    assert all(by_file.index(f"{k}{i}") + 1 == by_file.index(f"{k}{i + 1}")
               for k, n in enumerate((3, 4, 2)) for i in range(n - 1))
    in_file = read(ds.Shuffle.INFILE)  # files in order, rows moved within them
    assert [r[0] for r in in_file] == [r[0] for r in plain] and in_file != plain
    ds.config.set_seed(3)
    assert read(True) == read(ds.Shuffle.GLOBAL) != plain and sorted(read(True)) == plain
    shards = [read(True, num_shards=3, shard_id=s) for s in range(3)]
    assert sorted(sum(shards, [])) == plain  # 9 rows in 3 shards: a partition
    assert len(read(ds.Shuffle.GLOBAL, num_samples=4)) == 4


def test_num_parallel_workers_is_checked_as_mindspore(mnist):
    cpus = os.cpu_count()
    with pytest.raises(ValueError, match=f"between 1 and {cpus}!"):
        ds.MnistDataset(mnist, num_parallel_workers=cpus + 1)
    with pytest.raises(TypeError, match="Argument num_parallel_workers"):
        ds.TextFileDataset(os.path.join(mnist, "*"), num_parallel_workers=1.5)
    with pytest.raises(RuntimeError, match=r"For 'CSVDataset', .*-idx3-ubyte is not UTF-8 text"):
        ds.CSVDataset(os.path.join(mnist, "train-images*")).get_dataset_size()


def test_mnist_gzipped_files_are_named_with_a_hint(tmp_path):
    import gzip

    folder = rf.mnist(str(tmp_path / "gz"))
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        path = os.path.join(folder, name)
        with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g:
            g.write(f.read())
        os.remove(path)
    with pytest.raises(RuntimeError, match=r"train-images-idx3-ubyte\.gz has IDX magic number "
                                           r"\d+, expected 2051 .* decompress it first"):
        ds.MnistDataset(folder, "train").get_dataset_size()
