"""MnistDataset / FashionMnistDataset / KMnistDataset and Cifar10Dataset / Cifar100Dataset
on small files in the real formats: columns, dtypes, shapes, unshuffled order, usage,
sharding, num_samples, and the errors for missing, malformed and truncated files."""

import os
import shutil
import sys
import tempfile

import mindspore.dataset as ds
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                                "readers"))
import readers_files as rf  # noqa: E402  (numpy and Pillow only: writes the files)


def show(dataset, k=4):
    print(type(dataset).__name__, dataset.get_dataset_size(), dataset.get_col_names(),
          dataset.output_types(), dataset.output_shapes())
    rows = list(dataset.create_tuple_iterator(output_numpy=True))
    print(len(rows), [[int(v.sum()) for v in r] for r in rows[:k]],
          [[int(v.sum()) for v in r] for r in rows[-k:]])
    print([[str(v.dtype), list(v.shape)] for v in rows[0]])


def error(label, build):
    try:
        dataset = build()
        dataset.get_dataset_size()
        for _ in dataset.create_tuple_iterator(output_numpy=True):
            pass
        print(label, "no error")
    except (RuntimeError, ValueError, TypeError) as err:
        print(label, type(err).__name__)


root = tempfile.mkdtemp()
try:
    mnist = rf.mnist(os.path.join(root, "mnist"))
    for usage in (None, "train", "test", "all"):
        show(ds.MnistDataset(mnist, usage=usage, shuffle=False))
    show(ds.FashionMnistDataset(mnist, usage="test", shuffle=False))
    show(ds.KMnistDataset(mnist, usage="train", shuffle=False))
    for shard in range(3):
        show(ds.MnistDataset(mnist, shuffle=False, num_shards=3, shard_id=shard))
    show(ds.MnistDataset(mnist, "train", 3, shuffle=False))
    show(ds.MnistDataset(mnist, shuffle=False, num_samples=4, num_shards=2, shard_id=1))
    sampled = ds.MnistDataset(mnist, usage="train", shuffle=True)
    print(sampled.get_dataset_size(), sorted(int(r[1]) for r in sampled.create_tuple_iterator(
        output_numpy=True)))
    for sampler in (ds.DistributedSampler(2, 1, shuffle=False),
                    ds.SequentialSampler(1, 2), [2, 0, 5]):
        show(ds.MnistDataset(mnist, sampler=sampler))
    first = next(ds.MnistDataset(mnist, "train", shuffle=False).create_dict_iterator(
        output_numpy=True))
    raw = np.fromfile(os.path.join(mnist, "train-images-idx3-ubyte"), np.uint8)[16:16 + 784]
    print(sorted(first), np.array_equal(first["image"][..., 0], raw.reshape(28, 28)))

    cifar10 = rf.cifar10(os.path.join(root, "cifar10"))
    for usage in (None, "train", "test"):
        show(ds.Cifar10Dataset(cifar10, usage=usage, shuffle=False))
    show(ds.Cifar10Dataset(cifar10, "train", 5, shuffle=False, num_shards=3, shard_id=2))
    row = next(ds.Cifar10Dataset(cifar10, "test", shuffle=False).create_tuple_iterator(
        output_numpy=True))
    rec = np.fromfile(os.path.join(cifar10, "test_batch.bin"), np.uint8, 3073)
    print(int(rec[0]), int(row[1]), np.array_equal(row[0], rec[1:].reshape(3, 32, 32)
                                                   .transpose(1, 2, 0)))
    cifar100 = rf.cifar100(os.path.join(root, "cifar100"))
    for usage in (None, "train", "test"):
        show(ds.Cifar100Dataset(cifar100, usage=usage, shuffle=False))
    show(ds.Cifar100Dataset(cifar100, "test", 4, shuffle=False, num_shards=4, shard_id=3))

    error("missing folder", lambda: ds.MnistDataset(os.path.join(root, "nope")))
    error("bad usage", lambda: ds.MnistDataset(mnist, usage="valid"))
    error("cifar missing folder", lambda: ds.Cifar10Dataset(os.path.join(root, "nope")))
    error("cifar bad usage", lambda: ds.Cifar100Dataset(cifar100, usage="eval"))
    error("shard_id alone", lambda: ds.MnistDataset(mnist, shard_id=0))
    error("shard_id too big", lambda: ds.MnistDataset(mnist, num_shards=2, shard_id=2))
    error("sampler and shuffle", lambda: ds.MnistDataset(mnist, shuffle=False,
                                                         sampler=ds.SequentialSampler()))
    broken = os.path.join(root, "broken")
    for label, damage in [
            ("truncated images", lambda d: open(os.path.join(d, "train-images-idx3-ubyte"),
                                                "r+b").truncate(16 + 784 * 6 + 10)),
            ("truncated labels", lambda d: open(os.path.join(d, "train-labels-idx1-ubyte"),
                                                "r+b").truncate(8 + 5)),
            ("bad magic", lambda d: rf.write_idx(os.path.join(d, "train-images-idx3-ubyte"),
                                                 np.zeros((7, 28)))),
            ("20x28 images", lambda d: rf.write_idx(os.path.join(d, "train-images-idx3-ubyte"),
                                                    np.zeros((7, 20, 28)))),
            ("7 images 6 labels", lambda d: rf.write_idx(
                os.path.join(d, "train-labels-idx1-ubyte"), np.arange(6))),
            ("no label file", lambda d: os.remove(os.path.join(d, "train-labels-idx1-ubyte")))]:
        shutil.rmtree(broken, ignore_errors=True)
        rf.mnist(broken)
        damage(broken)
        error(label, lambda: ds.MnistDataset(broken, usage="train", shuffle=False))
    os.makedirs(os.path.join(root, "empty"))
    error("cifar no files", lambda: ds.Cifar10Dataset(os.path.join(root, "empty")))
    with open(os.path.join(cifar10, "data_batch_2.bin"), "r+b") as f:
        f.truncate(3073 * 9999 + 7)
    error("cifar truncated", lambda: ds.Cifar10Dataset(cifar10, usage="train", shuffle=False))
    show(ds.Cifar10Dataset(cifar10, usage="test", shuffle=False))
finally:
    shutil.rmtree(root)
